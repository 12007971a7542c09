"""What a newcomer's runs cost, in a fresh clone: the README's first command (`pytest -m fast &&
python -m claims.report`), the fast tier serial and with `-n 2`, each on its first run (an empty
cache: the BPE is trained, nothing is measured yet) and its second, and the README's test command
(`pytest -m "not slow" -n auto`).  Each is printed with its wall time, its CPU time and its twenty
slowest test files (the sum of their tests' setup, call and teardown); the last line is
`name=value`.

  python benchmarks/fresh_clone.py               # everything (the test command takes minutes)
  python benchmarks/fresh_clone.py --no-suite    # the fast tier and the first command only

The clone is of this checkout's HEAD (commit first), made in a temporary folder beside a link to
the corpus and the chapter (../shared), and uses this interpreter's packages.  Python writes no
bytecode (PYTHONDONTWRITEBYTECODE=1): a fresh clone has none, and the sandboxes this project runs
in never write it, so every process compiles the project's modules from source, as there.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DURATION = re.compile(r"^\s*([\d.]+)s\s+(setup|call|teardown)\s+(\S+?)::")


def cpu_of_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def slowest_files(out: str, n: int = 20) -> list[tuple[str, float]]:
    per = defaultdict(float)
    for line in out.splitlines():
        m = DURATION.match(line)
        if m:
            per[m[3]] += float(m[1])
    return sorted(per.items(), key=lambda kv: -kv[1])[:n]


def timed(name: str, cmd: str, clone: Path, env: dict) -> float:
    """Run `cmd` (a shell line) in the clone; print its wall and CPU time, pytest's last line and
    its slowest files; return the wall seconds (exit on a failure: a broken run times nothing)."""
    load = "/".join(f"{x:.2f}" for x in os.getloadavg())
    t0, cpu0 = time.perf_counter(), cpu_of_children()
    p = subprocess.run(cmd, shell=True, cwd=clone, env=env, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - t0, cpu_of_children() - cpu0
    last = next((line.strip("= ") for line in reversed(p.stdout.splitlines()) if " in " in line and "passed" in line), "")
    print(f"{name}: {wall:.1f} s wall, {cpu:.1f} s CPU (load {load} before)  {re.sub(r' in [0-9.]+s.*', '', last)}")
    for path, seconds in slowest_files(p.stdout):
        print(f"    {seconds:7.2f} s  {path}")
    if p.returncode != 0:
        sys.exit(f"{name} failed (exit {p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return wall


def main() -> int:
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--no-suite", action="store_true", help="skip the README's test command (minutes)")
    a.add_argument("--shared", default=str(ROOT.parent / "shared"), help="the corpus and chapter folder")
    args = a.parse_args()
    fast = "python -m pytest -m fast -q -p no:cacheprovider --durations=0"
    runs = [("first command, first run", f"{fast} && python -m claims.report > /dev/null", "a"),
            ("fast serial, first run", fast, "b"), ("fast serial, second run", fast, "b"),
            ("fast -n 2, first run", f"{fast} -n 2", "c"), ("fast -n 2, second run", f"{fast} -n 2", "c")]
    if not args.no_suite:
        suite = 'python -m pytest -m "not slow" -n auto -q -p no:cacheprovider --durations=0'
        runs.append(("test command (-n auto)", suite, "d"))
    seconds = {}
    with tempfile.TemporaryDirectory(prefix="fresh-clone-") as tmp:
        os.symlink(Path(args.shared).resolve(), Path(tmp) / "shared")
        clone = Path(tmp) / "attention-claims"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        print(f"{os.cpu_count()} cores; a fresh clone of {ROOT} at "
              f"{subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=clone, capture_output=True, text=True, check=False).stdout.strip()}")
        for name, cmd, cache in runs:
            env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", ATTENTION_CLAIMS_CACHE=str(Path(tmp) / f"cache-{cache}"))
            seconds[name] = timed(name, cmd, clone, env)
            shutil.rmtree(clone / "report", ignore_errors=True)
    short = {"first command, first run": "first_command", "fast serial, first run": "fast_serial_first",
             "fast serial, second run": "fast_serial_second", "fast -n 2, first run": "fast_n2_first",
             "fast -n 2, second run": "fast_n2_second", "test command (-n auto)": "test_command"}
    print("fresh_clone_seconds=" + ",".join(f"{short[k]}:{v:.1f}" for k, v in seconds.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
