"""`python -m claims.convert`: this chapter's committed evidence rewritten in today's format, each
measured value stored once (the engine's claimcheck/convert.py, handed this chapter)."""
from __future__ import annotations

import sys

from claimcheck import convert
from claims.chapter import CHAPTER

# What a test showed that the last conversion (schema 2 to 3, 2026-12-07) leaves out of its record,
# each stored elsewhere (issue 57: each value once; the tests record them no more)
DROPPED = {
    "row_mean": "a map row's mean over seeds, cell by cell: each cell's figure record (winograd.map_<adj>_<block>_<pos>) "
                "holds its values per seed, and the erratum takes the mean of those",
    "peak_mb": "the peaks the memory exponent and last ratio are computed from: each is a row of results/cost_cpu.json "
               "and the value of a figure record cost.peak_mb_<n>",
}


def main(argv=None) -> int:
    return convert.main(CHAPTER, argv, dropped=DROPPED)


if __name__ == "__main__":
    sys.exit(main())
