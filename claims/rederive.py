"""`python -m claims.rederive`: every committed figure of this chapter decided again from
results/ alone (the engine's textcheck/rederive.py, handed this chapter: claims/chapter.py).

`python -m claims.rederive --remeasure [--help]`: the figures measured from a model's weights,
measured again from the trained cache and compared with the committed values (claims/remeasure.py;
it runs their tests with pytest and torch, which the re-derivation itself never imports)."""
from __future__ import annotations

import sys

from claims.toml_table import TableError

try:
    from claims.chapter import CHAPTER
except TableError as e:              # a malformed data table of this chapter (claims/*.toml): named, exit 2
    print(f"error: {e}", file=sys.stderr)
    raise SystemExit(2) from None
from textcheck import accepted_evidence, command

PROG = "python -m claims.rederive"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--remeasure" in argv:
        from claims import remeasure
        return remeasure.main([x for x in argv if x != "--remeasure"])
    if "-h" in argv or "--help" in argv:         # the re-derivation's help, then the re-measurement's
        from claims import remeasure
        try:
            return command(CHAPTER, "rederive", argv, prog=PROG)
        finally:
            print("\n--remeasure: the figures measured from a model's weights, measured again from the trained "
                  "cache (docs/evidence.md):\n")
            print(remeasure.parser(description=None).format_help())
    return command(CHAPTER, "rederive", argv, prog=PROG)


def accepted(results_dir):
    """The committed figure records and claims of `results_dir` where the re-derivation accepts
    them all, else EvidenceError listing what it refuses (the engine's `accepted_evidence`)."""
    return accepted_evidence(CHAPTER, results_dir, PROG)


if __name__ == "__main__":
    sys.exit(main())
