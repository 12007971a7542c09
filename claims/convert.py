"""`python -m claims.convert`: this chapter's committed evidence rewritten in today's format, each
measured value stored once (the engine's claimcheck/convert.py, handed this chapter)."""
from __future__ import annotations

import sys

from claimcheck import convert
from claims.chapter import CHAPTER


def main(argv=None) -> int:
    return convert.main(CHAPTER, argv)


if __name__ == "__main__":
    sys.exit(main())
