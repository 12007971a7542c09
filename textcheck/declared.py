"""A number of the chapter declared with its reason (claims/accounting.py DECLARED, digits;
claims/number_words.py DECLARED_WORDS, words), and the reasons there are.  Pure."""
from __future__ import annotations

from dataclasses import dataclass

# No reason "derived": a number derived from other printed numbers reports a result, so it is a
# figure (claims/chapter_figures.py) whose test does the arithmetic.
NUMBER_REASONS = ("setup", "context", "cross-reference", "year", "code", "notation", "repeat",
                  "example", "device-specific context", "not a number")


@dataclass(frozen=True)
class Declared:
    anchor: str       # verbatim, unique in the chapter; every number inside it gets the reason
    reason: str       # one of NUMBER_REASONS
    why: str
    repeats: str = ""  # "repeat" only: the figure ID it restates (tests/integration/test_accounting.py checks the value)
    printed: str = ""  # "repeat" only: the restated number as a plain number ("1.8e-7"), if not as printed
