"""One engine: one entry point, one cache (the Winograd models included), one evidence writer,
and CPU threads that fit the machine under xdist."""
import json
import os
from pathlib import Path

import pytest
from records import run_record

from fixtures import engine, results
from fixtures.cache import TrainedCache
from fixtures.device import DeviceError, resolve_device, threads_per_worker
from fixtures.evidence import EvidenceWriter
from fixtures.recipes import winograd_recipe

pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parent.parent.parent


def _record(recipe, seed, val):
    return run_record({"recipe": recipe, "seed": seed, "metrics": {"val_ppl": val}, "date": f"2026-11-30T00:00:0{seed}"})


def test_evidence_goes_to_the_report_dir_and_reaches_results_only_on_save(tmp_path):
    report, committed = tmp_path / "report", tmp_path / "results"
    results.merge("norm", [_record("prenorm", 0, 52.0), _record("prenorm", 1, 51.0)], committed)
    ev = EvidenceWriter(report, committed)
    ev.write_run_records("norm", [_record("prenorm", 2, 53.0)])
    ev.json("winograd_accuracy.json", {"hardened/uniform": {"accuracy": [0.4]}})
    ev.text("cost_table_cpu.md", "| n |\n")
    assert sorted(ev.manifest()) == ["cost_table_cpu.md", "norm.json", "winograd_accuracy.json"]
    assert len(results.load("norm", committed)) == 2                   # nothing reached results/ yet
    (committed / "winograd_accuracy.json").write_text(json.dumps({"cheatable/uniform": {"accuracy": [0.7]}}))
    done = ev.save()
    assert done == ["cost_table_cpu.md: copied", "norm.json: 1 run(s) merged", "winograd_accuracy.json: merged"]
    # runs are merged, never replaced whole: the two committed seeds stay beside the new one
    assert sorted(r.seed for r in results.load("norm", committed)) == [0, 1, 2]
    # a JSON summary is merged at the top level: a -k subset does not drop the other entries
    assert set(json.loads((committed / "winograd_accuracy.json").read_text())) == {
        "cheatable/uniform", "hardened/uniform"}
    assert (committed / "cost_table_cpu.md").read_text() == "| n |\n"


def test_unknown_evidence_kind_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="unknown evidence kind 'plot'"):
        EvidenceWriter(tmp_path).add("x.png", "plot")


def test_cached_only_trains_nothing_and_names_the_command(tmp_path):
    cache = TrainedCache(tmp_path / "trained")
    with pytest.raises(engine.NotCached, match="python -m fixtures norm --only prenorm --seeds 3"):
        engine.runs("norm", ["prenorm"], 3, cache=cache, cached_only=True)
    assert not any((tmp_path / "trained").iterdir())


def test_unknown_group_or_recipe_names_what_is_known():
    with pytest.raises(KeyError, match="known: ladder, norm"):
        engine.recipes_of("nonsense")
    with pytest.raises(KeyError, match="unknown recipe.* for norm: nonsense"):
        engine.recipes_of("norm", ["prenorm", "nonsense"])
    with pytest.raises(ValueError, match="seeds must be at least 1"):
        engine.runs("norm", ["prenorm"], 0)


def test_winograd_models_are_cached_like_every_model(tmp_path):
    """Same cache, so the same checksum, lock and atomic write: a corrupt entry is set aside."""
    cache = TrainedCache(tmp_path)
    recipe = winograd_recipe("hardened", "two_blocks", steps=20)
    first, fresh = cache.get(recipe)
    assert fresh and set(first.metrics) >= {"accuracy", "wrong_noun"}
    meta = json.loads((cache.entry(recipe) / "meta.json").read_text())
    assert meta["recipe"]["data"] == "winograd:hardened" and len(meta["weights_sha256"]) == 64
    again, fresh = cache.get(recipe)
    assert not fresh and again.metrics == first.metrics
    weights = cache.entry(recipe) / "weights.safetensors"
    weights.write_bytes(weights.read_bytes()[:-8] + b"\0" * 8)
    _, fresh = cache.get(recipe)
    assert fresh and any((tmp_path / ".corrupt").iterdir())


def test_device_is_resolved_in_one_place():
    assert resolve_device("cpu") == "cpu"
    with pytest.raises(DeviceError, match="unknown device 'tpu'"):
        resolve_device("tpu")
    import torch
    if not torch.cuda.is_available():
        assert resolve_device("auto") == "cpu"
        with pytest.raises(DeviceError, match="is False"):
            resolve_device("cuda")


@pytest.mark.parametrize(("workers", "cores", "threads"), [(1, 2, 2), (2, 2, 1), (4, 2, 1), (2, 16, 8)])
def test_workers_times_threads_is_the_cores(workers, cores, threads):
    assert threads_per_worker(workers, cores) == threads


def test_each_xdist_worker_on_the_cpu_takes_its_share_of_the_cores(inprocess, monkeypatch):
    pytester = inprocess                # run in this process (tests/conftest.py)
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    pytester.makepyfile(test_threads="""
        import os, torch
        def test_a(): open(f"threads-{os.getpid()}", "w").write(str(torch.get_num_threads()))
        def test_b(): open(f"threads-{os.getpid()}", "w").write(str(torch.get_num_threads()))
    """)
    result = pytester.runpytest_inprocess("-p", "fixtures.plugin", "-p", "no:cacheprovider", "-n", "2",
                                           "--report-dir=rep")
    result.assert_outcomes(passed=2)
    seen = {p.read_text() for p in pytester.path.glob("threads-*")}
    assert seen == {str(threads_per_worker(2))}


# ------------------------------------------------------------ --from-results: figures from committed records

def _run_record(recipe, seed, val, **model_changes):
    r = recipe.with_seed(seed)
    cfg = r.to_dict()
    cfg["model"].update(model_changes)
    return run_record({"recipe": r.name, "seed": seed, "config": cfg,
                     "metrics": {"val_ppl": val, "train_ppl": 1.0}, "date": f"2026-11-29T00:00:0{seed}",
                     "curve": [[0, 7.0]]})


def test_recorded_runs_serve_figures_only_for_the_current_recipe(tmp_path):
    from fixtures.recipes import get
    base = get("baseline")
    results.merge("ladder", [_run_record(base, s, 60.0 + s) for s in range(3)], tmp_path)
    got = engine.recorded("ladder", ["baseline"], 3, directory=tmp_path)["baseline"]
    assert [r.metrics["val_ppl"] for r in got] == [60.0, 61.0, 62.0]
    assert all(r.model is None for r in got)                      # figures, never weights
    assert got[0].metrics["source"] == "results/ladder.json, run of 2026-11-29"
    with pytest.raises(engine.NotRecorded, match="baseline seed 3: no run of this recipe"):
        engine.recorded("ladder", ["baseline"], 4, directory=tmp_path)
    # a record of another model (here: another width) under the same name does not count: it was
    # edited or trained by another definition, and is named as such, never passed over in silence
    other = tmp_path / "other"
    results.merge("ladder", [_run_record(base, 0, 99.0, d_model=64)], other)
    with pytest.raises(results.EvidenceError, match=r"ladder.json, record 0 \(baseline seed 0\): differs from "
                       r"today's recipe \(model.d_model is 64, today 128\).*python -m fixtures ladder --only baseline"):
        engine.recorded("ladder", ["baseline"], 1, directory=other)


def test_from_results_decides_a_figure_claim_without_training(inprocess, monkeypatch, tmp_path):
    pytester = inprocess                # run in this process (tests/conftest.py)
    """Under --from-results a test that asks for figures only (weights=False) gets the records;
    one that asks for weights goes to the cache, and with --cached-only skips."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.setenv("ATTENTION_CLAIMS_CACHE", str(tmp_path / "cache"))
    pytester.makeini("[pytest]\nmarkers =\n  gpu\n  claim(id)\n")
    pytester.makepyfile(test_rec="""
def test_figures(trained):
    runs = trained("ladder", "baseline", 3, weights=False)
    assert [round(r.metrics["val_ppl"], 2) for r in runs] == [60.35, 60.41, 59.55]

def test_weights(trained):
    trained("ladder", "baseline", 1)
""")
    result = pytester.runpytest_inprocess("-p", "fixtures.plugin", "-p", "no:cacheprovider", "--from-results",
                                           "--cached-only", "-rs")
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines(["*not in the trained cache (--cached-only)*"])


# ------------------------------------------------------------ a recipe's first seed: one route for a run

SPLIT = "winograd_cheatable_uniform_split_per_seed"       # its seed 0 draws the fixed split: the chapter's run


def test_a_readings_seed_0_that_is_the_chapter_run_is_never_trained_under_its_name(tmp_path, monkeypatch, capsys):
    """The split-per-seed Winograd reading trains from seed 1 on (fixtures/recipes.py Recipe.first_seed):
    the engine, the planner (`python -m fixtures errata --seeds 3`) and the committed records' reader
    leave its seed 0 out, and no cache key moved (the first seed is not a setting of the run)."""
    from dataclasses import replace

    from fixtures.__main__ import scheduled
    from fixtures.recipes import RECIPES
    from fixtures.train import TRAINING_VERSION
    r = RECIPES[SPLIT]
    assert r.first_seed == 1 and list(r.seeds(0, 3)) == [1, 2] and list(r.seeds(2, 1)) == [2]
    assert r.to_dict() == replace(r, first_seed=0).to_dict()
    assert r.with_seed(1).key(TRAINING_VERSION) == replace(r, first_seed=0).with_seed(1).key(TRAINING_VERSION)
    cache = TrainedCache(tmp_path / "trained")
    assert engine.runs("errata", [SPLIT], 1, cache=cache, cached_only=True) == {SPLIT: []}     # seed 0: nothing
    with pytest.raises(engine.NotCached, match=f"{SPLIT} seed 1 is not in the trained cache"):
        engine.runs("errata", [SPLIT], 3, cache=cache, cached_only=True)
    assert [t.metrics["accuracy"] for t in engine.recorded("errata", [SPLIT], 3)[SPLIT]] == [0.75, 0.890625]
    monkeypatch.setenv("ATTENTION_CLAIMS_CACHE", str(tmp_path / "cache"))
    assert scheduled("errata", [], 3, 0, 2, "cpu", dry_run=True) == 0
    planned = capsys.readouterr().out
    assert "33 runs" in planned and f"errata/{SPLIT} s1" in planned and f"errata/{SPLIT} s0" not in planned


def test_trained_takes_a_readings_seed_0_from_the_chapter_recipe(inprocess, monkeypatch, tmp_path):
    pytester = inprocess                # run in this process (tests/conftest.py)
    """The reading's three seeds: seed 0 from the chapter recipe (the winograd group), 1 and 2 from
    its own (fixtures/setup.py winograd_reading_runs), read from the committed records; asking the
    reading's recipe for its seed 0 is an error, never a second training of the chapter's run."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.setenv("ATTENTION_CLAIMS_CACHE", str(tmp_path / "cache"))
    pytester.makeini("[pytest]\nmarkers =\n  gpu\n  claim(id)\n")
    pytester.makepyfile(test_rec=f"""
import pytest
from fixtures.setup import winograd_reading_runs

def test_seeds(trained):
    runs = [r for group, name, seeds in winograd_reading_runs("cheatable_uniform", "split_per_seed")
            for r in trained(group, name, len(seeds), first_seed=seeds.start, weights=False)]
    assert [r.metrics["accuracy"] for r in runs] == [0.6328125, 0.75, 0.890625]
    assert runs[0].metrics["source"].startswith("results/winograd.json")

def test_seed_0_of_the_reading(trained):
    with pytest.raises(ValueError, match="trained from seed 1 on"):
        trained("errata", "{SPLIT}", 3, weights=False)
""")
    result = pytester.runpytest_inprocess("-p", "fixtures.plugin", "-p", "no:cacheprovider", "--from-results")
    result.assert_outcomes(passed=2)
