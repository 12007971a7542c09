"""`python -m examples.running_mean.save --report-dir DIR`: a run's decided slow verdicts and their
figure records into the text's results/ (claimcheck/save.py, handed this text)."""
import argparse
import sys
from pathlib import Path

from claimcheck.save import save_run
from claimcheck.store import read_json
from examples.running_mean.chapter import CHAPTER


class NoFiles:
    """The text's own evidence files beside its verdicts: none (its tests write no tables or plots)."""

    def save(self, tx=None, held=None) -> list[str]:
        return []


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m examples.running_mean.save", description=__doc__)
    p.add_argument("--report-dir", required=True, help="the --report-dir of a run of the example's tests")
    a = p.parse_args(argv)
    fresh = read_json(Path(a.report_dir) / "claims.json", "run's claim report")
    for line in save_run(CHAPTER, fresh, NoFiles(), CHAPTER.root / "results"):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
