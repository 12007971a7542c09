"""The cost timings: independent processes, and no decision on a machine with no core free."""
import json
import subprocess
import sys
from pathlib import Path
from statistics import NormalDist

import pytest

from claims import timing
from fixtures import cost, peak_memory
from textcheck import rules
from textcheck.decide import LEVEL

pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parent.parent.parent


def test_each_repeat_is_an_independent_timing_process():
    t = cost.Timings([16, 32]).more(2)
    assert t.repeats == 2 and all(len(v) == 2 for v in t.ms.values())
    assert len(t.others) == 2 * cost.PASSES              # sampled once per pass, in each process
    assert all(v > 0 for v in t.ms[16] + t.proj_ms[32])
    rows = t.rows()
    assert [r["n"] for r in rows] == [16, 32] and rows[0]["ms"] == min(t.ms[16])


def test_the_timing_process_prints_its_fastest_pass_per_length():
    p = subprocess.run([sys.executable, "-m", "fixtures.cost", "--passes", "3", "8", "16"],
                       capture_output=True, text=True, check=True)
    one = json.loads(p.stdout.strip().splitlines()[-1])
    assert set(one["ms"]) == {"8", "16"} and len(one["others"]) == 3


def test_timings_with_any_steady_neighbour_decide_nothing():
    t = cost.Timings([16, 32]).more(1)
    t.others = [1, 1, 0]                               # one busy loop, even on another core
    assert "the machine is busy: 1 other runnable thread(s)" in t.busy()
    t.others = [0, 1, 0]                               # a burst, not steady load: decide
    assert t.busy() is None
    assert cost.others_runnable() >= 0


def test_the_busy_guard_names_the_machines_cores_not_this_processs_affinity(monkeypatch):
    import os
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {1}, raising=False)   # pinned (taskset -c 1)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    t = cost.Timings([16])
    t.others = [1, 1, 1]
    assert "on 2 cores" in t.busy()


def _flake_runs():
    """The quiet runs of benchmarks/cost_flake_runs/session8_before_keeping.log (the committed log of
    the flake count), parsed by benchmarks/cost_flakes.py."""
    import importlib.util
    root = Path(__file__).resolve().parent.parent.parent / "benchmarks"
    spec = importlib.util.spec_from_file_location("cost_flakes", root / "cost_flakes.py")
    flakes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(flakes)
    runs = flakes.from_log((root / "cost_flake_runs" / "session8_before_keeping.log").read_text())
    return flakes, [(outcomes, figures) for cond, outcomes, figures in runs if cond == "quiet"]


def test_two_quiet_runs_minutes_apart_cannot_flip_a_verdict_once_the_run_to_run_spread_is_counted():
    """The committed quiet runs (docs/cost.md): judged on their own intervals, the time slope
    holds in one run and is refuted in another, a flip; widened to +-2 run-to-run sd of the other
    runs (as a run is judged once the spread is on record) no two of them disagree that way (rule
    version 3: +-1.96 run-to-run sd, the normal quantile at textcheck/decide.py LEVEL)."""
    flakes, quiet = _flake_runs()
    slope = timing.TIMED["time slope"]
    alone = [rules.judge(slope, f["time slope"]["value"], *f["time slope"]["bootstrap"])[0] for _, f in quiet]
    assert {"holds", "outside"} <= set(alone)                            # the flip, as the runs were judged
    as_run = {o["test_time_grows_as_n_squared[cpu]"] for o, _ in quiet}
    assert {"holds", "refuted"} <= as_run                                # and as pytest reported them
    widened = flakes.out_of_sample([f for _, f in quiet], [o for o, _ in quiet])
    assert not {"holds", "outside"} <= {v["time slope"] for v in widened}
    value, sd = quiet[0][1]["time slope"]["value"], 0.05
    _, lo, hi = rules.judge(slope, value, value - 0.01, value + 0.01, sd)
    z = NormalDist().inv_cdf(1 - LEVEL / 2)                                # 1.96
    assert (lo, hi) == pytest.approx((value - z * sd, value + z * sd))   # the spread sets the interval


def test_a_printed_figure_is_refuted_by_any_interval_that_excludes_it_and_confirmed_only_by_a_narrow_one():
    exponent = timing.TIMED["time exponent"]                               # 1.91, rounding 0.005, gap 0.2
    assert rules.judge(exponent, 2.22, 2.10, 2.40)[0] == "outside"         # wide, but 1.91 is not in it
    assert rules.judge(exponent, 1.95, 1.80, 2.05)[0] == "undecided"       # 1.91 inside a 0.25-wide interval
    assert rules.judge(exponent, 1.92, 1.86, 1.96)[0] == "holds"
    assert rules.judge(exponent, 1.92, 1.86, 1.96, drift=0.1)[0] == "undecided"


def test_the_run_to_run_spread_is_read_from_the_committed_calibration(tmp_path, monkeypatch):
    monkeypatch.setattr(timing, "RESULTS_DIR", tmp_path)
    assert timing.drift_sd("cpu", timing.TIMED["time slope"]) == 0.0          # never measured: no widening
    (tmp_path / "cost_drift_cpu.json").write_text(json.dumps({"figures": {"time slope": {"sd": 0.06}}}))
    assert timing.drift_sd("cpu", timing.TIMED["time exponent"]) == 0.06      # the same statistic
    assert timing.drift_sd("cuda:0", timing.TIMED["time slope"]) == 0.0
    (tmp_path / "cost_drift_cpu.json").write_text("{not json")
    import pytest
    with pytest.raises(ValueError, match="regenerate it with python benchmarks/cost_flakes.py --calibrate"):
        timing.drift_sd("cpu", timing.TIMED["time slope"])


def test_a_straddling_figure_takes_more_processes_up_to_the_bound_and_then_stops():
    """CostRun.judge (claims/timing.py): while the interval straddles the band, 5 more timing
    processes, up to 15; then it returns (undecided), never loops."""
    from claims.timing import MAX_REPEATS, REPEAT_STEP, CostRun

    class Straddling:               # the fastest of a resample is 3.4 or 3.6: it straddles 3.5
        def __init__(self):
            self.repeats, self.ratios = 0, []
            self.more(5)

        def busy(self):
            return None

        def more(self, k):
            self.ratios += [3.4] + [3.6] * (k - 1)
            self.repeats += k
            return self

    run = CostRun("cpu", [128, 256])
    run._timings = Straddling()
    j = run.judge("last ratio", lambda ys: ys[0], lambda t: [t.ratios])
    assert j["verdict"] == "undecided" and j["repeats"] == MAX_REPEATS
    assert (MAX_REPEATS - 5) % REPEAT_STEP == 0


def test_without_the_private_memory_profiler_a_peak_is_not_measurable(monkeypatch):
    """fixtures/peak_memory.py cpu_peak_bytes: the one place the private API is used; without it the
    measurement says so (NotMeasurable), naming the torch version."""
    import builtins

    import pytest
    real = builtins.__import__

    def without(name, *a, **k):
        if name == "torch.profiler._memory_profiler":
            raise ImportError("no such module")
        return real(name, *a, **k)
    monkeypatch.setattr(builtins, "__import__", without)
    with pytest.raises(peak_memory.NotMeasurable, match="private API that torch .* lacks or changed"):
        peak_memory.cpu_peak_bytes(lambda: None)


def test_a_claim_test_that_meets_not_measurable_is_not_run_with_the_reason(inprocess, monkeypatch):
    pytester = inprocess                # run in this process (tests/conftest.py)
    # (no profiler here: pytester drops the modules a test imports, and torch's cannot be imported twice)
    import os
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    pytester.makeini("[pytest]\nmarkers =\n  claim(id)\n")
    (pytester.path / "claims").mkdir()
    (pytester.path / "claims" / "test_peak.py").write_text(
        "import pytest\nfrom fixtures.peak_memory import NotMeasurable\n"
        "@pytest.mark.claim('cost.peak_memory')\ndef test_p(claim_record):\n    raise NotMeasurable('no profiler')\n")
    result = pytester.runpytest_inprocess("-p", "fixtures.plugin", "-p", "claims.chapter", "-p", "no:cacheprovider", "-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*no profiler*"])
