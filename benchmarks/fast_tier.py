"""Wall time of `pytest -m fast` from a cold interpreter, serial, with `-n auto` and with `-n 2` side by side, in the
same conditions (one after the other, after one collection that fills the bytecode cache), with
the CPU time each took (the run and its workers), the load on the machine before and after each,
and the ten slowest tests of the serial run.  On a busy machine the wall times grow with the load;
the CPU times much less.

  python benchmarks/fast_tier.py            # last line: fast_tier_seconds=serial:...,auto:...,n2:...

Python's bytecode cache is on for the runs, as on a laptop: where PYTHONDONTWRITEBYTECODE is set
(some sandboxes set it), every process would compile and rewrite every module again, which is
the environment's cost, not the suite's; the script says when it unset it.
"""
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# `-n auto` must never be slower than serial (fixtures/xdist_groups.py AUTO_SERIAL_BELOW); `-n 2` is
# two workers forced, whatever the machine.
RUNS = {"serial": [], "-n auto": ["-n", "auto"], "-n 2": ["-n", "2"]}


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def cpu_of_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(extra: list[str], env: dict) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall seconds, CPU seconds (the run and its workers, user + system) and the finished process."""
    cmd = [sys.executable, "-m", "pytest", "-m", "fast", "-q", "-p", "no:cacheprovider", "--durations=10",
           f"--report-dir={ROOT / 'report'}", *extra]
    t0, cpu0 = time.perf_counter(), cpu_of_children()
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, check=False, text=True, env=env)
    return time.perf_counter() - t0, cpu_of_children() - cpu0, p


def summary(p: subprocess.CompletedProcess) -> str:
    """pytest's last line without its own timing: '155 passed, 1046 deselected, 13 xfailed'."""
    last = p.stdout.splitlines()[-1] if p.stdout.strip() else p.stderr[-500:]
    return re.sub(r"\s+in [\d.]+s.*$", "", last.strip("= "))


if __name__ == "__main__":
    env = dict(os.environ)
    if env.pop("PYTHONDONTWRITEBYTECODE", None):
        print("PYTHONDONTWRITEBYTECODE was set: unset for these runs (the bytecode cache on, as on a laptop)")
    subprocess.run([sys.executable, "-m", "pytest", "-m", "fast", "-q", "-p", "no:cacheprovider", "--collect-only"],
                   cwd=ROOT, capture_output=True, check=False, env=env)      # fills the bytecode cache
    print(f"{os.cpu_count()} cores; load average (1/5/15 min) at the start: {load()}")
    seconds, failed = {}, []
    for name, extra in RUNS.items():
        before = load()
        seconds[name], cpu, p = run(extra, env)
        print(f"{name:>7}: {seconds[name]:6.1f} s wall, {cpu:6.1f} s CPU  {summary(p)}  "
              f"(load {before} before, {load()} after)")
        if name == "serial":
            lines = p.stdout.splitlines()
            start = next((i for i, line in enumerate(lines) if "slowest 10 durations" in line), None)
            if start is not None:
                print("\n".join("         " + line for line in lines[start + 1:start + 11]))
        if p.returncode != 0:
            failed.append(f"{name} (exit {p.returncode})")
    if failed:
        sys.exit(f"pytest -m fast failed: {', '.join(failed)}")
    print(f"fast_tier_seconds=serial:{seconds['serial']:.1f},auto:{seconds['-n auto']:.1f},n2:{seconds['-n 2']:.1f}")
