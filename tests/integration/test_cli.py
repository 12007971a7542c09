"""Command lines: bad input gets one clear error."""
import json
import re
import subprocess
import sys
from pathlib import Path

import inproc

from claims import registry

ROOT = Path(__file__).resolve().parent.parent.parent


def run(*args, **kw):
    """A command in a process of its own: `python -m fixtures` (its main ties itself to its parent,
    fixtures/schedule.py die_with_parent) and what a process imports.  pytest and the report, whose
    command lines these tests check, run in this process (tests/inproc.py)."""
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, check=False, text=True, **kw)


def test_unknown_recipe_is_an_error_naming_it():
    r = run("-m", "fixtures", "ladder", "--only", "baseline,nonsense")
    assert r.returncode == 2 and "unknown recipe(s) for ladder: nonsense" in r.stderr


def test_unknown_group_is_an_error():
    r = run("-m", "fixtures", "nonsense")
    assert r.returncode == 2 and "invalid choice" in r.stderr


def test_recipes_are_listed():
    r = run("-m", "fixtures", "--list")
    assert r.returncode == 0 and "layernorm" in r.stdout and "two_blocks" in r.stdout


def test_report_without_a_run_renders_the_committed_verdicts_and_says_so(tmp_path):
    r = inproc.report("--report-dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "rendering the committed verdicts alone" in r.stderr and "(committed verdicts only)" in r.stdout
    merged = json.loads((tmp_path / "merged.json").read_text())
    assert merged["summary"]["total"] == len(registry.CLAIMS)
    assert merged["summary"]["holds"] + merged["summary"]["refuted"] > 0     # the committed ones
    assert (tmp_path / "claims.md").exists() and (tmp_path / "index.html").exists()


def test_report_renders_without_importing_torch(tmp_path):
    code = ("import runpy, sys; sys.argv = ['claims.report', '--report-dir', sys.argv[1]]\n"
            "try:\n    runpy.run_module('claims.report', run_name='__main__')\n"
            "except SystemExit as e:\n    assert not e.code, e.code\n"
            "print('TORCH' if 'torch' in sys.modules else 'NO TORCH')")
    r = run("-c", code, str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith("NO TORCH")


def test_unknown_recipe_name_in_code_names_the_known_ones():
    import pytest

    from fixtures import recipes
    with pytest.raises(KeyError, match="known: baseline"):
        recipes.get("nonsense")


def test_cached_only_skips_an_untrained_recipe_and_names_the_command(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTENTION_CLAIMS_CACHE", str(tmp_path / "cache"))
    r = inproc.run_pytest("claims/test_norm_trained.py", "-m", "gpu", "--device", "cpu", "--cached-only",
                          "-p", "no:cacheprovider", "-rs", "-q", f"--report-dir={tmp_path / 'report'}")
    # a selection that runs no claim test says why and exits 5, writing no report (issue 46)
    assert r.returncode == 5 and "no claim test ran" in r.stdout, r.stdout + r.stderr
    assert not (tmp_path / "report" / "claims.json").exists()
    # every norm claim skips (however many figures it has): none passes or fails untrained
    assert " skipped" in r.stdout and not re.search(r"\d+ (passed|failed|xfailed|error)", r.stdout)
    assert "train it with: python -m fixtures norm --only prenorm" in r.stdout
    assert not any((tmp_path / "cache" / "trained").iterdir())            # nothing was trained


def test_seeds_below_one_are_refused_at_the_command_line(tmp_path):
    for bad in ("0", "-1"):
        r = inproc.run_pytest("claims/test_corpus.py", "--seeds", bad, "-p", "no:cacheprovider",
                              f"--report-dir={tmp_path}")
        assert r.returncode == 4 and "must be at least 1" in r.stderr, r.stderr
        r = run("-m", "fixtures", "norm", "--seeds", bad)
        assert r.returncode == 2 and "must be at least 1" in r.stderr


def test_an_unwritable_report_dir_is_refused_before_any_test_runs(tmp_path):
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    r = inproc.run_pytest("claims/test_corpus.py", "-p", "no:cacheprovider", f"--report-dir={a_file}")
    assert r.returncode == 4 and "that is a file, not a folder" in r.stderr and "passed" not in r.stdout


def test_saving_a_report_dir_with_nothing_of_its_own_is_an_error(tmp_path):
    r = inproc.report("--report-dir", str(tmp_path), "--save-results")
    assert r.returncode == 2 and "no fresh run to save" in r.stderr


def test_check_readme_after_a_narrow_run_says_it_reads_the_last_run_and_names_what_it_left_out(tmp_path):
    """--check-readme compares the README with the last run's fast claims: after a narrow run
    (`pytest --claim ID`: every other claim "not run") it fails, saying so and naming claims the
    run did not decide."""
    test = {"nodeid": "claims/test_corpus.py::test_corpus_length", "outcome": "holds", "tier": "fast", "reason": "",
            "records": [], "timestamp": "2026-12-03T00:00:00+00:00", "seconds": 0, "device": "cpu"}
    (tmp_path / "claims.json").write_text(json.dumps({
        "meta": {"source": "fresh run", "timestamp": "2026-12-03T00:00:00+00:00"},
        "claims": [{"id": cid, "verdict": "holds" if cid == "corpus.chars" else "not run", "tier": c.tier,
                    "tests": [test] if cid == "corpus.chars" else []} for cid, c in registry.CLAIMS.items()]}))
    r = inproc.report("--check-readme", "--report-dir", str(tmp_path))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "a narrower run than the fast tier, which --check-readme reads" in r.stderr
    assert "corpus.tokens" in r.stderr and "run `pytest -m fast` first" in r.stderr
    assert "reads the last run" in inproc.report("--help").stdout.replace("\n", " ")
