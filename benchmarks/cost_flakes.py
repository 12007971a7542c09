"""Can a busy machine, or the minutes between two quiet runs, flip a cost timing verdict?  Issue 17's flake count.

  python benchmarks/cost_flakes.py [--runs 10] [--conditions quiet,busy] [--calibrate]
  # last line: cost_verdict_flips=N

Runs the cost timing claims (`pytest claims/test_cost.py -m slow -k "time or projections"`)
quiet and with one busy-loop process pinned to the other core, `--runs` times each condition
(or until the deadline), and tabulates each figure's outcome per condition: holds, refuted, or
not run (too noisy to decide, with the reason).  A flip is a figure that holds in one run and is
refuted in another; "too noisy" is not a flip (it is the verdict the rule gives when the noise
is larger than the band).  The pytest runs are pinned to the last core, the busy loop to the first.

Each quiet run's figures (value and bootstrap interval, from the run's claims.json) are kept
(--keep), and the quiet runs are judged again out of sample: run i under the run-to-run sd of
the *other* quiet runs (claims/timing.py judge, leave one out), which is how a future run is
judged once `--calibrate` has written that sd to results/cost_drift_<device>.json.
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BUSY = "while True: pass"


def one_run(busy: bool, core_test: int, core_busy: int, keep: Path | None) -> tuple[dict, dict, dict]:
    """({test: outcome}, {test: reason}, {figure name: {value, bootstrap}}) of one run."""
    loop = subprocess.Popen(["taskset", "-c", str(core_busy), sys.executable, "-c", BUSY]) if busy else None
    try:
        with tempfile.TemporaryDirectory() as d:
            cmd = ["taskset", "-c", str(core_test), sys.executable, "-m", "pytest", "claims/test_cost.py", "-m", "slow",
                   "-k", "time or projections", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                   f"--report-dir={d}", "--no-progress"]
            subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False,
                           env=dict(os.environ, OMP_NUM_THREADS="1"))
            text = (Path(d) / "claims.json").read_text()
    finally:
        if loop:
            loop.kill()
            loop.wait()
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / f"{time.strftime('%Y%m%dT%H%M%S')}_{'busy' if busy else 'quiet'}.json").write_text(text)
    return parse(json.loads(text))


def parse(claims: dict) -> tuple[dict, dict, dict]:
    out, why, figures = {}, {}, {}
    for c in claims["claims"]:
        for t in c.get("tests", []):
            outcome = t["outcome"]
            if outcome == "not run":
                outcome = "too noisy" if "too noisy" in (t.get("reason") or "") else "not run"
            name = current_name(t["nodeid"].split("::")[-1])
            out[name], why[name] = outcome, t.get("reason") or ""
            for r in t.get("records", []):
                m = r.get("measured") or {}
                if r.get("figure") and "95 % bootstrap interval" in m:
                    figures[r["figure"]] = {"value": m["value"], "bootstrap": m["95 % bootstrap interval"]}
    return out, why, figures


LOGGED = {"time exponent": r"time exponent \(last four rows\) ([0-9.]+) \(95 % bootstrap interval \[([0-9.]+), ([0-9.]+)\]",
          "last ratio": r"last ratio ([0-9.]+), 95 % bootstrap interval \[([0-9.]+), ([0-9.]+)\]",
          "projections x for x8": r"x8 \(1024 -> 8192\) ([0-9.]+) \(95 % bootstrap interval \[([0-9.]+), ([0-9.]+)\]"}


def from_log(text: str) -> list[tuple[str, dict, dict]]:
    """(condition, outcomes, figures) of each run in a log this script printed before it kept its
    runs (2026-12-01 and earlier): a figure's value is there only where its reason printed it."""
    import ast
    import re
    runs = []
    for block in re.split(r"\n(?=run \d+ (?:quiet|busy): )", "\n" + text):
        head = re.match(r"run \d+ (quiet|busy): (\{.*?\}) \(\d+ s\)", block)
        if not head:
            continue
        figures = {}
        for name, pattern in LOGGED.items():
            m = re.search(pattern, block)
            if m:
                figures[name] = {"value": float(m[1]), "bootstrap": [float(m[2]), float(m[3])]}
        if "time exponent" in figures:          # the same statistic and Timings as the slope test
            figures["time slope"] = figures["time exponent"]
        outcomes = {current_name(test): outcome for test, outcome in ast.literal_eval(head[2]).items()}
        runs.append((head[1], outcomes, figures))
    return runs


def per_run(figures: dict, name: str):
    """A run's value of a figure's statistic; the time slope's is the exponent's where both are
    there (the same statistic, timed over the most processes)."""
    if name == "time slope" and "time exponent" in figures:
        return figures["time exponent"]["value"]
    return figures[name]["value"] if name in figures else None


TESTS = {"test_time_grows_as_n_squared": "time slope", "test_time_ratio_per_doubling": "last ratio",
         "test_time_exponent_is_the_chapters": "time exponent",
         "test_projections_are_linear_in_n": "projection slope",
         "test_projections_factor_for_eightfold_n": "projections x for x8"}
# The names these tests had when the kept runs and the log of benchmarks/cost_flake_runs/ were
# recorded (before issue #33 took the chapter's figures out of test names): read as today's.
FORMERLY = {"test_time_per_doubling_converges_on_4": "test_time_ratio_per_doubling",
            "test_time_exponent_is_the_chapters_1_91": "test_time_exponent_is_the_chapters",
            "test_projections_grow_tenfold_for_eightfold_n": "test_projections_factor_for_eightfold_n"}


def current_name(test: str) -> str:
    """A test's name ("test_x[case]") as it is called today."""
    base, bracket, case = test.partition("[")
    return FORMERLY.get(base, base) + bracket + case


def out_of_sample(quiet: list[dict], outcomes: list[dict] | None = None) -> list[dict[str, str]]:
    """Each quiet run's figures judged under the run-to-run sd of the other quiet runs.  A figure
    a logged run held without printing its value stays "holds" (widening can only make it
    undecided, so counting it as held can only add flips, never hide one)."""
    from claims.record_rules import TIMED
    from textcheck.decide import judge
    verdicts = []
    for i, run in enumerate(quiet):
        mine = {}
        for test, outcome in (outcomes[i] if outcomes else {}).items():
            name = TESTS.get(test.split("[")[0])
            if name and name not in run and outcome == "holds":
                mine[name] = "holds"
        for name, f in run.items():
            timed = TIMED[name]
            others = [v for j, r in enumerate(quiet) if j != i
                      for v in [per_run(r, timed.drift_of or name)] if v is not None]
            sd = statistics.stdev(others) if len(others) > 1 else 0.0
            mine[name] = judge(timed, f["value"], *f["bootstrap"], sd)[0]
        verdicts.append(mine)
    return verdicts


def flips_of(runs: list[dict[str, str]], holds="holds", refuted="refuted") -> tuple[int, list[str]]:
    keys = sorted({k for r in runs for k in r})
    lines, flips = [], 0
    for k in keys:
        counts = collections.Counter(r.get(k, "missing") for r in runs)
        flip = (counts[holds] > 0 and counts[refuted] > 0) or counts["fails"] > 0     # a crash is a flake too
        flips += flip
        lines.append(f"{k:70s} {dict(counts)!s:45s} {'FLIP' if flip else '-'}")
    return flips, lines


def calibrate(quiet: list[dict], device: str = "cpu") -> Path:
    """results/cost_drift_<device>.json: each figure's sd over the quiet runs (claims/timing.py drift)."""
    from fixtures.results import RESULTS_DIR
    names = sorted({k for r in quiet for k in r} - {"time exponent"})     # the exponent is the time slope
    per = {k: [v for r in quiet for v in [per_run(r, k)] if v is not None] for k in names}
    out = {"source": f"python benchmarks/cost_flakes.py --calibrate: {len(quiet)} quiet runs, "
                     f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores",
           "figures": {k: {"per run": v, "sd": statistics.stdev(v)} for k, v in per.items() if len(v) > 1}}
    path = RESULTS_DIR / f"cost_drift_{device}.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    return path


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=10, help="runs per condition")
    p.add_argument("--conditions", default="quiet,busy", help="which conditions, in the order each round runs them")
    p.add_argument("--deadline-minutes", type=float, default=float("inf"))
    p.add_argument("--keep", type=Path, default=None, help="keep each run's claims.json here")
    p.add_argument("--from-kept", type=Path, default=None, help="count the kept runs of a directory, running none")
    p.add_argument("--from-log", type=Path, action="append", default=[],
                   help="also count the runs of a log this script printed before it kept runs")
    p.add_argument("--calibrate", action="store_true",
                   help="write the quiet runs' run-to-run sd to results/cost_drift_cpu.json")
    a = p.parse_args()
    conditions = [c for c in a.conditions.split(",") if c]
    if not conditions or set(conditions) - {"quiet", "busy"}:
        p.error(f"--conditions: quiet and/or busy, not {a.conditions!r}")
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2 and not (a.from_kept or a.from_log):
        p.error("needs two cores: one for the timing thread, one for the busy loop")
    stop = time.time() + 60 * a.deadline_minutes
    seen = {"quiet": [], "busy": []}
    figures = []                                            # the quiet runs' figures
    for log in a.from_log:
        for cond, outcomes, figs in from_log(log.read_text()):
            seen[cond].append(outcomes)
            if cond == "quiet":
                figures.append(figs)
    if a.from_kept:
        for path in sorted(a.from_kept.glob("*.json")):
            outcomes, _, figs = parse(json.loads(path.read_text()))
            cond = "busy" if path.stem.endswith("busy") else "quiet"
            seen[cond].append(outcomes)
            if cond == "quiet":
                figures.append(figs)
    for i in range(0 if a.from_kept or a.from_log else a.runs):
        for cond in conditions:
            if time.time() > stop:
                break
            t0 = time.time()
            outcomes, reasons, figs = one_run(cond == "busy", cores[-1], cores[0], a.keep)
            seen[cond].append(outcomes)
            if cond == "quiet":
                figures.append(figs)
            print(f"run {i + 1} {cond}: {outcomes} ({time.time() - t0:.0f} s)", flush=True)
            for name, reason in reasons.items():
                print(f"    {name}: {reason[:300]}", flush=True)
    print(f"\nas run ({len(seen['quiet'])} quiet, {len(seen['busy'])} busy):")
    flips, lines = flips_of(seen["quiet"] + seen["busy"])
    print("\n".join(lines))
    if len(figures) > 2:
        oos = out_of_sample(figures, seen["quiet"])
        print(f"\nthe quiet runs judged out of sample (each under the run-to-run sd of the other {len(figures) - 1}):")
        oos_flips, lines = flips_of(oos, refuted="outside")
        print("\n".join(lines))
        print(f"cost_verdict_flips_out_of_sample={oos_flips}")
    if a.calibrate and len(figures) > 1:
        print(f"run-to-run sd written to {calibrate(figures)}")
    print(f"cost_verdict_flips={flips}")


if __name__ == "__main__":
    main()
