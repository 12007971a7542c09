"""`python -m claims.convert`: this chapter's committed evidence rewritten in today's format, each
measured value stored once (the engine's `convert`, handed this chapter)."""
from __future__ import annotations

import sys

from claims.toml_table import TableError

try:
    from claims.chapter import CHAPTER
except TableError as e:              # a malformed data table of this chapter (claims/*.toml): named, exit 2
    print(f"error: {e}", file=sys.stderr)
    raise SystemExit(2) from None
from textcheck import command


def main(argv=None) -> int:
    return command(CHAPTER, "convert", argv, prog="python -m claims.convert")


if __name__ == "__main__":
    sys.exit(main())
