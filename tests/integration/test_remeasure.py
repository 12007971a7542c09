"""Values measured from a model's weights are no longer self-attested (issue 59, finding 10): a run
record carries its weights' sha256 (fixtures/results.py record), and `python -m claims.rederive
--remeasure` (claims/remeasure.py) measures a committed weight-measured figure again from the cached
weights and compares it with the committed value.  At the smoke scale: one positions test
(perplexity at other windows) run once into a scratch report, made into a scratch results/ as a save
would make it (its figure record, its test in verdicts.json, its run records), then measured again
from a scratch cache.  Nothing is written into the checkout's results/ or cache."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from claims import rederive, remeasure
from claims.chapter import CHAPTER
from fixtures import cache_entry
from textcheck import evidence
from textcheck.outcomes import RunReport, outcome

ROOT = Path(__file__).resolve().parent.parent.parent
NODE = "claims/test_positions_trained.py::test_alibi_figures[alibi at 256]"
KEY = "positions.alibi_256"

pytestmark = pytest.mark.slow          # trains three smoke models and runs pytest twice or more (about a minute)


@pytest.fixture(scope="module")
def smoke(tmp_path_factory) -> dict:
    """A smoke run of NODE (its models in a scratch cache) and a scratch results/ holding its
    figure record, its test and its run records, as a save would commit them."""
    base = tmp_path_factory.mktemp("remeasure")
    cache, report = base / "cache", base / "report"
    env = {**os.environ, "ATTENTION_CLAIMS_CACHE": str(cache), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-m", "pytest", NODE, "--smoke", "--device=cpu", "--seeds=3",
                           f"--report-dir={report}", "--no-progress", "-p", "no:cacheprovider", "-q"],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    run = json.loads((report / "claims.json").read_text())
    claim, test = next((c["id"], t) for c in run["claims"] for t in c["tests"] if t["nodeid"] == NODE)
    results_dir = base / "results"
    results_dir.mkdir()
    shutil.copy(report / "positions.json", results_dir / "positions.json")
    records = evidence.from_test(CHAPTER, outcome(test), claim, RunReport.of(run))
    (results_dir / "figures.json").write_text(evidence.dumps(CHAPTER, records))
    entry = {k: test[k] for k in ("nodeid", "key", "outcome", "reason", "tier")}
    (results_dir / "verdicts.json").write_text(json.dumps(
        {"schema": 3, "claims": [{"id": claim, "verdict": test["outcome"], "tests": [entry]}]}, indent=1))
    return {"cache": cache, "results": results_dir, "test": test, "base": base}


def _copy(smoke: dict, tmp_path: Path) -> Path:
    out = tmp_path / "results"
    shutil.copytree(smoke["results"], out)
    return out


def _remeasure(results_dir: Path, cache: Path, *extra: str) -> list[str]:
    return ["--remeasure", f"--results={results_dir}", f"--cache={cache}", "--smoke", *extra]


def test_a_run_record_carries_the_sha256_of_its_trained_weights(smoke):
    runs = json.loads((smoke["results"] / "positions.json").read_text())["runs"]
    assert len(runs) == 3
    for run in runs:
        entry = cache_entry.find(smoke["cache"] / "trained", run["recipe"], run["seed"], run["key"])
        meta = json.loads((entry / "meta.json").read_text())
        assert run["weights_sha256"] == meta["weights_sha256"] == cache_entry.sha256_file(entry / "weights.safetensors")


def test_an_unedited_weight_measured_value_agrees_when_measured_again(smoke, capsys):
    code = rederive.main(_remeasure(smoke["results"], smoke["cache"]))
    out = capsys.readouterr().out
    assert code == 0, out
    assert "measured again 1 figure record(s)" in out and "1 agree, 0 differ" in out


def test_an_edited_weight_measured_value_is_caught(smoke, tmp_path, capsys):
    results_dir = _copy(smoke, tmp_path)
    data = json.loads((results_dir / "figures.json").read_text())
    (rec,) = data["records"]
    committed = rec["measured"]["values"][1]
    rec["measured"]["values"][1] = round(committed * 0.9, 4)            # a hand edit, 10 % lower
    (results_dir / "figures.json").write_text(json.dumps(data, indent=1))
    code = rederive.main(_remeasure(results_dir, smoke["cache"]))
    out = capsys.readouterr().out
    assert code == 1, out
    assert f"DIFFERS {KEY}: measured.values[1]: committed {round(committed * 0.9, 4)!r}, " \
           f"measured again {committed!r}" in out


def test_a_record_whose_weights_are_missing_is_listed_not_an_error(smoke, tmp_path, capsys):
    cache = tmp_path / "cache"
    shutil.copytree(smoke["cache"], cache, symlinks=True, ignore=shutil.ignore_patterns("runs"))
    gone = next(p for p in (cache / "trained").iterdir() if p.is_dir() and "-s1-" in p.name)
    shutil.rmtree(gone)
    code = rederive.main(_remeasure(smoke["results"], cache))
    out = capsys.readouterr().out
    assert code == 0, out
    assert "measured again 0 figure record(s)" in out
    assert "not re-measured (no weights): 1" in out and f"  {KEY}: positions_alibi seed 1 (" in out


def test_cached_weights_that_are_not_the_run_records_are_not_measured(smoke, tmp_path, capsys):
    """A cache entry whose weights are not the ones the run record names (another training of the
    same config) cannot vouch for the committed values: listed, never compared."""
    results_dir = _copy(smoke, tmp_path)
    data = json.loads((results_dir / "positions.json").read_text())
    data["runs"][0]["weights_sha256"] = "0" * 64
    (results_dir / "positions.json").write_text(json.dumps(data, indent=1))
    code = rederive.main(_remeasure(results_dir, smoke["cache"], "--dry-run"))
    out = capsys.readouterr().out
    assert code == 0, out
    assert "would measure again 0 figure record(s)" in out
    assert "not re-measured (the cache cannot vouch" in out and "was measured on " + "0" * 64 in out


@pytest.mark.parametrize("args, says", [
    (["--only", "no.such_record"], "no figure record measured from weights matches"),
    (["--cache=/dev/null"], "not a folder"),
])
def test_bad_input_is_a_named_error(smoke, args, says, capsys):
    argv = ["--remeasure", f"--results={smoke['results']}", f"--cache={smoke['cache']}", "--smoke", *args]
    code = rederive.main(argv)
    assert code == 2 and says in capsys.readouterr().err


def test_a_weight_measured_record_is_one_the_plan_selects(smoke):
    """Which committed records the command measures again: those of a FROM_WEIGHTS measurement
    (fixtures/measurements.py) that name runs."""
    (rec,) = evidence.load(CHAPTER, smoke["results"] / "figures.json")
    assert rec.measurement == "perplexity_at_window/1" and remeasure.from_weights(rec)
