"""Can a busy machine flip a cost timing verdict?  Issue 17's flake count.

  python benchmarks/cost_flakes.py [--runs 10] [--deadline-minutes 60]   # last line: cost_verdict_flips=N

Runs the cost timing claims (`pytest claims/test_cost.py -m slow -k "time or projections"`)
alternately quiet and with one busy-loop process pinned to the other core, `--runs` times each
(or until the deadline), and tabulates each figure's outcome per condition: holds, refuted, or
not run (too noisy to decide, with the reason).  A flip is a figure that holds in one run and is
refuted in another; "too noisy" is not a flip (it is the verdict the rule gives when the noise
is larger than the band).  The pytest runs are pinned to the last core, the busy loop to the first.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUSY = "while True: pass"


def one_run(busy: bool, core_test: int, core_busy: int) -> tuple[dict[str, str], dict[str, str]]:
    """({test id: outcome}, {test id: reason}) of one run of the timing claims."""
    loop = subprocess.Popen(["taskset", "-c", str(core_busy), sys.executable, "-c", BUSY]) if busy else None
    try:
        with tempfile.TemporaryDirectory() as d:
            cmd = ["taskset", "-c", str(core_test), sys.executable, "-m", "pytest", "claims/test_cost.py", "-m", "slow",
                   "-k", "time or projections", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                   f"--report-dir={d}", "--no-progress"]
            subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False,
                           env=dict(os.environ, OMP_NUM_THREADS="1"))
            claims = json.loads((Path(d) / "claims.json").read_text())
    finally:
        if loop:
            loop.kill()
            loop.wait()
    out, why = {}, {}
    for c in claims["claims"]:
        for t in c.get("tests", []):
            outcome = t["outcome"]
            if outcome == "not run":
                outcome = "too noisy" if "too noisy" in (t.get("reason") or "") else "not run"
            name = t["nodeid"].split("::")[-1]
            out[name], why[name] = outcome, t.get("reason") or ""
    return out, why


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=10, help="runs per condition")
    p.add_argument("--deadline-minutes", type=float, default=float("inf"))
    p.add_argument("--first", choices=("quiet", "busy"), default="quiet", help="which condition each round starts with")
    a = p.parse_args()
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        p.error("needs two cores: one for the timing thread, one for the busy loop")
    stop = time.time() + 60 * a.deadline_minutes
    seen = {"quiet": [], "busy": []}
    for i in range(a.runs):
        for cond in (("quiet", "busy") if a.first == "quiet" else ("busy", "quiet")):
            if time.time() > stop:
                break
            t0 = time.time()
            outcomes, reasons = one_run(cond == "busy", cores[-1], cores[0])
            seen[cond].append(outcomes)
            print(f"run {i + 1} {cond}: {outcomes} ({time.time() - t0:.0f} s)", flush=True)
            for name, reason in reasons.items():
                print(f"    {name}: {reason[:300]}", flush=True)
    tests = sorted({t for runs in seen.values() for r in runs for t in r})
    flips = 0
    print(f"\n{'figure':70s} {'quiet':28s} {'busy':28s} flip")
    for t in tests:
        counts = {c: collections.Counter(r.get(t, "missing") for r in runs) for c, runs in seen.items()}
        both = counts["quiet"] + counts["busy"]
        flip = (both["holds"] > 0 and both["refuted"] > 0) or both["fails"] > 0    # a crash is a flake too
        flips += flip
        print(f"{t:70s} {dict(counts['quiet'])!s:28s} {dict(counts['busy'])!s:28s} {'FLIP' if flip else '-'}")
    print(f"runs: {len(seen['quiet'])} quiet, {len(seen['busy'])} busy")
    print(f"cost_verdict_flips={flips}")


if __name__ == "__main__":
    main()
