"""The cost timings: independent processes, and no decision on a machine with no core free."""
import json
import subprocess
import sys

from fixtures import cost


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
