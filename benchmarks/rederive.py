"""How long `python -m claims.rederive` takes to decide every committed figure again, in-process
(the command's main, after its imports: wall and CPU seconds, the CPU figure the one to compare on
a machine shared with other work) and as a whole process, over several runs; the last line is
`name=value` (the in-process median, wall seconds).

  python benchmarks/rederive.py [--runs 5]
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=5)
    a = p.parse_args()
    from claims.chapter import CHAPTER
    from textcheck.rederive import main as rederive
    inside, cpu, whole = [], [], []
    from fixtures import results
    from textcheck import decide, formats
    for _ in range(a.runs):
        results._LOADED.clear()         # each run reads the run records afresh, as one command does,
        for memo in (getattr(formats, "_SPREADS", None), getattr(decide, "_SPREADS", None)):
            if memo is not None:        # ... and summarises and decides afresh (an older checkout
                memo.clear()            # kept the summaries in textcheck/decide.py)
        decide.t_quantile.cache_clear()
        started, cpu_started = time.perf_counter(), time.process_time()
        with contextlib.redirect_stdout(io.StringIO()):
            code = rederive(CHAPTER, [])
        inside.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
        if code != 0:
            print(f"python -m claims.rederive exited {code}", file=sys.stderr)
            return code
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "claims.rederive"], cwd=ROOT, capture_output=True, check=True)
        whole.append(time.perf_counter() - started)
    print(f"in-process: min {min(inside):.3f} s, median {statistics.median(inside):.3f} s, max {max(inside):.3f} s")
    print(f"in-process CPU: min {min(cpu):.3f} s, median {statistics.median(cpu):.3f} s, max {max(cpu):.3f} s "
          f"(load average {os.getloadavg()[0]:.1f})")
    print(f"a whole process: min {min(whole):.3f} s, median {statistics.median(whole):.3f} s, max {max(whole):.3f} s")
    print(f"rederive_in_process_seconds={statistics.median(inside):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
