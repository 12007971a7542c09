"""The smoke scale (--smoke): every recipe's architecture, a handful of steps, its own cache keys,
through the real engine; its verdicts labelled smoke everywhere and never saved."""
import json
from pathlib import Path

import pytest

from claims.report.cli import main
from fixtures import recipes, results
from fixtures.recipes import SMOKE_BATCH, SMOKE_EVAL_WINDOWS, SMOKE_STEPS
from fixtures.train import TRAINING_VERSION

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize("name", sorted(recipes.RECIPES))
def test_a_smoke_recipe_keeps_the_architecture_and_data_and_has_its_own_key(name):
    r = recipes.get(name)
    s = r.smoke()
    assert s.model == r.model and s.data == r.data and s.train.lr == r.train.lr
    assert s.train.steps == min(r.train.steps, SMOKE_STEPS) and s.train.batch_size <= SMOKE_BATCH
    assert s.key(TRAINING_VERSION) != r.key(TRAINING_VERSION)
    assert s.to_dict()["scale"] == "smoke" and "scale" not in r.to_dict()


def test_the_chapter_scale_keys_are_the_ones_the_committed_runs_were_trained_under():
    """Adding the smoke scale changed no chapter-scale cache key (every cached model stays valid):
    each committed run of today's recipe and training version carries today's key."""
    checked = 0
    for rec in (rec for group in recipes.RECIPES_BY_GROUP for rec in results.load(group)):
        r = recipes.get(rec.recipe).with_seed(rec.seed)
        if rec.training_version == TRAINING_VERSION and rec.config == r.to_dict():
            assert rec.key == r.key(TRAINING_VERSION), rec.recipe
            checked += 1
    assert checked >= 10


def test_the_engine_trains_a_smoke_run_under_its_own_entry(isolated_cache, tmp_path):
    from fixtures.cache import TrainedCache
    from fixtures.engine import runs
    from fixtures.evidence import EvidenceWriter
    cache = TrainedCache()
    out = runs("ladder", ["baseline"], 1, "cpu", cache=cache, smoke=True, evidence=EvidenceWriter(tmp_path / "rep"))
    (result,) = out["baseline"]
    assert result.metrics["steps"] == SMOKE_STEPS and result.metrics["scale"] == "smoke"
    assert len(result.metrics["held_out_curve"]) == SMOKE_STEPS
    assert result.metrics["eval_windows"] == SMOKE_EVAL_WINDOWS
    entries = [p.name for p in cache.root.iterdir() if p.is_dir() and not p.name.startswith(".")]
    assert entries == [f"baseline-smoke-s0-{recipes.get('baseline').smoke().key(TRAINING_VERSION)}"]
    assert not cache.has(recipes.get("baseline"))                 # the chapter-scale entry is not it
    (record,) = json.loads((tmp_path / "rep" / "ladder.json").read_text())["runs"]
    assert record["config"]["scale"] == "smoke"


def _smoke_report(tmp_path: Path) -> Path:
    out = tmp_path / "smoke"
    out.mkdir()
    (out / "claims.json").write_text(json.dumps({
        "summary": {"holds": 1, "refuted": 0, "fails": 0, "stale": 0, "not run": 70, "not encoded": 0, "total": 71},
        "meta": {"source": "smoke run", "scale": "smoke", "timestamp": "2026-12-01T00:00:00+00:00"},
        "claims": [{"id": "ladder.residual_head", "section": "ladder", "statement": "s", "kind": "trained",
                    "stated": 9, "measured": 1, "tolerance": "t", "verdict": "holds", "reason": "", "tier": "gpu",
                    "device": "cpu", "seeds": 3, "tests": [{"nodeid": "claims/test_ladder_trained.py::test_x",
                                                             "outcome": "holds", "reason": "", "records": [],
                                                             "source": "smoke run", "timestamp": "t"}]}]}))
    return out


@pytest.mark.parametrize("flag", ["--save-results", "--readme", "--check-readme"])
def test_a_smoke_run_is_never_saved_nor_put_in_the_readme(tmp_path, flag, capsys):
    out = _smoke_report(tmp_path)
    before = {p: p.read_bytes() for p in [ROOT / "results" / "verdicts.json", ROOT / "README.md"]}
    code = main([f"--report-dir={out}", flag])                  # `python -m claims.report`, in this process
    assert code == 2 and "--smoke run" in capsys.readouterr().err
    assert all(p.read_bytes() == b for p, b in before.items())


def test_a_smoke_report_is_labelled_smoke_and_has_no_badges(tmp_path, capsys):
    out = _smoke_report(tmp_path)
    code = main([f"--report-dir={out}"])                         # `python -m claims.report`, in this process
    r = capsys.readouterr()
    assert code == 0, r.err
    assert r.out.startswith("SMOKE SCALE")
    md = (out / "claims.md").read_text()
    assert "**Smoke scale**" in md and "holds (smoke scale)" in md
    assert "Smoke scale" in (out / "index.html").read_text()
    assert not (out / "badges").exists()


def test_smoke_and_from_results_are_refused_together(inprocess, monkeypatch):
    pytester = inprocess                # run in this process (tests/conftest.py)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    result = pytester.runpytest_inprocess("-p", "fixtures.plugin", "-p", "claims.chapter", "--smoke", "--from-results", "--co")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--smoke*--from-results*choose one*"])


pytest_plugins = ["pytester"]
