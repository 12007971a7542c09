"""Wall time of `pytest -m fast` from a cold interpreter, and its ten slowest tests.

  python benchmarks/fast_tier.py            # last line: fast_tier_seconds=...
"""
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if __name__ == "__main__":
    cmd = [sys.executable, "-m", "pytest", "-m", "fast", "-q", "-p", "no:cacheprovider",
           "--durations=10", f"--report-dir={ROOT / 'report'}"]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, check=False, text=True)
    seconds = time.perf_counter() - t0
    lines = p.stdout.splitlines()
    start = next((i for i, l in enumerate(lines) if "slowest 10 durations" in l), None)
    if start is not None:
        print("\n".join(lines[start:start + 12]))
    print(lines[-1] if lines else p.stderr[-500:])
    if p.returncode != 0:
        sys.exit(f"pytest -m fast failed (exit {p.returncode})")
    print(f"fast_tier_seconds={seconds:.1f}")
