"""`python -m claims.convert`: this chapter's committed evidence rewritten in today's format, each
measured value stored once (the engine's textcheck/convert.py, handed this chapter)."""
from __future__ import annotations

import sys

from claims.chapter import CHAPTER
from textcheck import convert


def main(argv=None) -> int:
    return convert.main(CHAPTER, argv)


if __name__ == "__main__":
    sys.exit(main())
