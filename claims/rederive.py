"""`python -m claims.rederive`: every committed figure of this chapter decided again from
results/ alone (the engine's claimcheck/rederive.py, handed this chapter: claims/chapter.py)."""
from __future__ import annotations

import sys

from claimcheck import rederive
from claims.chapter import CHAPTER


def main(argv=None) -> int:
    return rederive.main(CHAPTER, argv)


def refusals(results_dir) -> list[str]:
    """What the re-derivation would refuse in `results_dir` (claimcheck/rederive.py refusals)."""
    return rederive.refusals(CHAPTER, results_dir)


if __name__ == "__main__":
    sys.exit(main())
