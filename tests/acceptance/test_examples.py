"""The second text (examples/running_mean/): the claim engine checks a text it was not written
for, through the same one entry (docs/layout.md).  Its tests run as their own pytest project,
its refuted figure is a strict xfail, its numbers and sentences are accounted for, and its
committed figure records are decided again from its results/ alone."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLE = ROOT / "examples" / "running_mean"


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
                          check=False)


def test_the_example_runs_end_to_end_and_its_verdicts_are_the_texts(tmp_path):
    run = _run("-m", "pytest", "-c", str(EXAMPLE / "pytest.ini"), str(EXAMPLE), "-p", "no:cacheprovider",
               "-p", "no:xdist", "-q", f"--report-dir={tmp_path}")
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads((tmp_path / "claims.json").read_text())
    verdicts = {c["id"]: c["verdict"] for c in report["claims"]}
    assert verdicts == {"mean.running_equals_batch": "holds", "mean.hundred": "holds",
                        "mean.squares": "refuted", "noise.uniform": "holds"}
    squares = next(c for c in report["claims"] if c["id"] == "mean.squares")
    assert "is 7.5, the text prints 7.0" in squares["reason"]          # generated from the measurement
    rows = {r["id"]: r["verdict"] for r in report["figures"]}
    assert rows["mean.squares"] == "refuted" and rows["noise.uniform_10000"] == "holds"


def test_the_examples_committed_figures_are_decided_again_from_its_results_alone():
    run = _run("-m", "textcheck", "rederive", "--text", "examples.running_mean.chapter")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 agree, 0 differ" in run.stdout and "agrees with the figure records" in run.stdout


def test_the_engine_loads_alone_and_asks_for_a_chapter_only_when_a_test_carries_a_claim(tmp_path):
    """The engine's plugin needs no other plugin of this project (`-p textcheck.plugin` alone); a
    run with claim tests and no text handed over is a usage error naming the one entry."""
    (tmp_path / "test_plain.py").write_text("def test_x():\n    assert True\n")
    plain = _run("-m", "pytest", "-p", "textcheck.plugin", "-p", "no:cacheprovider", "-q", str(tmp_path / "test_plain.py"),
                 cwd=tmp_path)
    assert plain.returncode == 0, plain.stdout + plain.stderr
    (tmp_path / "test_claim.py").write_text("import pytest\n\n@pytest.mark.claim('a.b')\ndef test_y():\n    pass\n")
    claimed = _run("-m", "pytest", "-p", "textcheck.plugin", "-p", "no:cacheprovider", "-q", str(tmp_path / "test_claim.py"),
                   cwd=tmp_path)
    assert claimed.returncode == 4 and "pytest_textcheck_chapter" in claimed.stderr, claimed.stdout + claimed.stderr
