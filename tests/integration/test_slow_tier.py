"""The slow tier on every push (issue 36, item 10).

- Its timed cost tests reach their evidence and their verdict: `test_time_grows_as_n_squared`
  once handed claim_record a `Figure` (the figure table's object) where the chapter's value
  belongs, and failed with "dict is not evidence", unseen because nothing ran the slow tier.
- One name per meaning: `FIGURES` is the figure table of claims/chapter_figures.py (`Figure`
  objects) wherever it appears; the registry's plain values go by another name.
- `.ci/run` runs every slow test at the smoke scale (`--smoke`: a few lengths, a few timing
  processes, the real code and rule; verdicts labelled smoke and never saved).

The cost tests run here through the real plugin and rule, in a pytest subprocess, with the
timing processes and the memory profiler replaced by canned numbers (a plugin written below),
so that the run is quick and its verdicts do not depend on the machine's load.
"""
import ast
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import inproc
import pytest

from claims.chapter_figures import FIGURES

ROOT = Path(__file__).resolve().parent.parent.parent
CI = ROOT / ".ci" / "run"

# Canned measurements in place of fixtures/cost.py's timing processes and fixtures/peak_memory.py's
# profiler: time ~ n^2 and projections ~ n, a little apart from one process to the next; a quiet
# machine (no neighbour).
FAKE_MEASUREMENTS = '''
import json, os
from fixtures import cost, peak_memory

def _log(entry):
    with open(os.environ["FAKE_COST_LOG"], "a") as f:
        f.write(json.dumps(entry) + "\\n")

def more(self, repeats):
    for _ in range(repeats):
        jitter = 1 + 0.01 * (self.repeats % 3)
        for n in self.ns:
            self.ms[n].append(10 * (n / 1024) ** 2 * jitter)
            self.proj_ms[n].append(n / 1024 * jitter)
        self.others += [0] * self.passes
    _log({"timed": list(self.ns), "repeats": self.repeats})
    return self

def peak_table(ns, device="cpu"):
    _log({"peaks": list(ns)})
    return {n: 4 + 2 * 8 * n * n * 4 / 2**20 for n in ns}

cost.Timings.more = more
peak_memory.peak_table = peak_table
'''


@pytest.fixture(scope="module")
def timed_smoke_run(tmp_path_factory):
    """The timed cost tests (`-k "time or projections"`) at the smoke scale, measurements canned:
    (pytest's result, claims.json, the log of what was measured)."""
    tmp = tmp_path_factory.mktemp("timed-smoke")
    (tmp / "fake_cost_measurements.py").write_text(FAKE_MEASUREMENTS)
    log = tmp / "measured.jsonl"
    env = dict(os.environ, FAKE_COST_LOG=str(log),
               PYTHONPATH=os.pathsep.join([str(tmp), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    p = subprocess.run([sys.executable, "-m", "pytest", "claims/test_cost.py", "-m", "slow", "-k", "time or projections",
                        "--device", "cpu", "--smoke", f"--report-dir={tmp / 'report'}", "-p", "fake_cost_measurements",
                        "-p", "no:cacheprovider", "-q", "--no-progress"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    report = json.loads((tmp / "report" / "claims.json").read_text())
    measured = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return p, report, measured


def _tests(report, name):
    return [t for c in report["claims"] for t in c["tests"] if f"::{name}[" in t["nodeid"]]


def test_the_time_slope_test_records_the_chapters_exponent_as_a_number(timed_smoke_run):
    _, report, _ = timed_smoke_run
    (test,) = _tests(report, "test_time_grows_as_n_squared")
    assert test["outcome"] != "fails", test["reason"]
    assert test["records"][0]["stated"] == {"slope": FIGURES["cost.time_exponent"].value}
    # read off the CPU's clock: a reading, decided only on CUDA (docs/cost.md, no exception)
    assert test["outcome"] == "not run" and "device-specific" in test["reason"], test["reason"]


def test_no_timed_cost_test_fails_at_the_smoke_scale(timed_smoke_run):
    """A refuted figure is expected at the smoke scale; a failure or an error is a broken test."""
    p, report, _ = timed_smoke_run
    timed = [t for c in report["claims"] for t in c["tests"] if t["nodeid"].startswith("claims/test_cost.py::")]
    assert len(timed) == 5, [t["nodeid"] for t in timed]
    assert not [t["nodeid"] for t in timed if t["outcome"] == "fails"], p.stdout[-3000:]
    assert all(t["records"] for t in timed)                      # each reached its evidence
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    assert report["meta"]["scale"] == "smoke"


def test_the_smoke_scale_times_a_few_short_lengths_in_a_few_processes(timed_smoke_run):
    from claims import timing
    _, _, measured = timed_smoke_run
    # the chapter's lengths, as its cost table prints them (one peak-MB figure per row)
    chapter_ns = sorted(int(fid.rsplit("_", 1)[1]) for fid in FIGURES if fid.startswith("cost.peak_mb_"))
    timed = [m for m in measured if "timed" in m]
    smoke_ns = timed[0]["timed"] if timed else []
    assert timed and all(m["timed"] == smoke_ns for m in timed)
    assert len(smoke_ns) >= 4 and set(smoke_ns) < set(chapter_ns) and max(smoke_ns) < max(chapter_ns)
    assert max(m["repeats"] for m in timed) <= timing.SMOKE_MAX_REPEATS < timing.MAX_REPEATS
    assert all(m["peaks"] == smoke_ns for m in measured if "peaks" in m)


# ------------------------------------------------------------------ one name per meaning

def _python_files():
    for top in ("claims", "fixtures", "data", "model", "tests", "benchmarks"):
        yield from sorted((ROOT / top).rglob("*.py"))


def test_figures_is_the_figure_table_wherever_it_is_named():
    """`FIGURES` means the figure table (claims/chapter_figures.py, `Figure` objects) in every
    module: nothing else is assigned that name, imported under it, or read as `<module>.FIGURES`."""
    table = ROOT / "claims" / "chapter_figures.py"
    other = []
    for path in _python_files():
        where = path.relative_to(ROOT)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                named = [a for a in node.names if (a.asname or a.name) == "FIGURES"]
                if named and (node.module != "claims.chapter_figures" or named[0].name != "FIGURES"):
                    other.append(f"{where}:{node.lineno}: FIGURES imported from {node.module}")
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AnnAssign) else []
            if path != table and any(isinstance(t, ast.Name) and t.id == "FIGURES" for t in targets):
                other.append(f"{where}:{node.lineno}: FIGURES assigned")
            if isinstance(node, ast.Attribute) and node.attr == "FIGURES" and \
                    not (isinstance(node.value, ast.Name) and node.value.id == "chapter_figures"):
                other.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    assert not other, "FIGURES that is not the figure table:\n" + "\n".join(other)


def test_the_registry_names_its_plain_values_for_what_they_are():
    from claims import registry
    assert not hasattr(registry, "FIGURES")
    assert registry.FIGURE_VALUES == {fid: f.value for fid, f in FIGURES.items()}


# ------------------------------------------------------------------ CI runs the slow tier

def ci_smoke_slow() -> list[str]:
    """The pytest command in .ci/run that runs the slow tier at the smoke scale, as argv after
    `python -m pytest`."""
    found = []
    for line in CI.read_text().replace("\\\n", " ").splitlines():
        argv = shlex.split(line, comments=True)
        args = argv[3:]
        if argv[:3] == ["python", "-m", "pytest"] and "--smoke" in args and "-m" in args[:-1] \
                and "slow" in args[args.index("-m") + 1]:
            found.append(args)
    assert len(found) == 1, f"{CI}: expected one `python -m pytest -m slow ... --smoke` line, found {len(found)}"
    return found[0]


def test_ci_runs_the_slow_tier_at_the_smoke_scale_into_its_own_report_dir():
    argv = ci_smoke_slow()
    assert argv[argv.index("-m") + 1] == "slow"
    assert {"--smoke", "--device"} <= set(argv) and argv[argv.index("--device") + 1] == "cpu"
    dirs = [a.split("=", 1)[1] for a in argv if a.startswith("--report-dir=")]
    assert dirs == ["report/smoke-slow"]                 # not report/ (the fast run's), nor report/smoke


class SlowItems:
    """Every collected test that carries the slow mark, before -m deselects anything."""

    def __init__(self):
        self.slow: list[str] = []

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, config, items):
        self.slow = [i.nodeid for i in items if i.get_closest_marker("slow")]


def test_every_slow_test_is_selected_by_the_ci_smoke_slow_command(tmp_path):
    """Collect with .ci/run's own arguments (less -n, its report dir here): every test that
    carries the slow mark, found before any deselection, is among the selected."""
    argv, skip = [], False
    for a in ci_smoke_slow():
        if skip:
            skip = False
        elif a in ("-n", "--numprocesses"):
            skip = True
        elif not (a.startswith("--report-dir=") or a.startswith("-n") and a[2:].isdigit() or a == "-q"):
            argv.append(a)
    # collected in this process (tests/inproc.py): what the command line selects is checked, not its process
    probe = SlowItems()
    p = inproc.command(lambda a: int(pytest.main(a, plugins=[probe])), *argv, "--co", "-q",
                       f"--report-dir={tmp_path / 'report'}", prog="python -m pytest")
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    selected = {line.strip() for line in p.stdout.splitlines() if "::" in line}
    slow = probe.slow
    assert len(slow) >= 20 and any("test_cost.py::test_time_grows_as_n_squared[cpu]" in s for s in slow)
    assert not sorted(set(slow) - selected), "slow tests the CI's smoke-slow command does not select"
