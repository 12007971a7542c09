"""An entry of the chapter's setup table (claims/chapter_setup.py): a number the chapter states
(`Stated`), its value parsed from the printed text, and the two kinds of declaration of
claims/chapter_setup.toml: a deviation from it (`Deviation`) and a setup number checked nowhere
(`Unchecked`).  Pure."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Annotated, Any

from pydantic import AfterValidator, ConfigDict, StrictStr
from pydantic.dataclasses import dataclass as pydantic_dataclass

# Numbers the setup sentences write as words ("no warmup" is a warmup of zero steps)
WORDS = {"no": 0, "one": 1, "two": 2, "three": 3, "four": 4, "eight": 8, "twelve": 12, "sixteen": 16,
         "two thousand": 2000, "twenty thousand": 20000, "doubling": 2}
POWER = re.compile(r"\$(?:(\d+) \\times )?10\^\{(-?\d+)\}\$")          # $10^{-3}$, $3 \times 10^{-3}$
DIGITS = re.compile(r"\d(?:,?\d)*(?:\.\d+)?")


def parse(printed: str):
    """The stated value as printed: digits, a power of ten, a number word, a list of numbers
    ("64, 128 and 256") or of words ("(tired, scared, slow, weak)"); anything else is its text."""
    text = printed.strip()
    if m := POWER.fullmatch(text):
        return float(Decimal(m.group(1) or 1) * Decimal(10) ** int(m.group(2)))
    if DIGITS.fullmatch(text):
        number = Decimal(text.replace(",", ""))
        return int(number) if number == number.to_integral_value() and "." not in text else float(number)
    if text.lower() in WORDS:
        return WORDS[text.lower()]
    if re.fullmatch(r"\d+(?:, \d+)* and \d+", text):
        return tuple(int(n) for n in re.findall(r"\d+", text))
    if text.startswith("(") and text.endswith(")"):
        return tuple(w.strip() for w in text[1:-1].split(","))
    return text


@dataclass(frozen=True)
class Stated:
    id: str
    anchor: str                               # verbatim, unique in the chapter
    printed: str                              # the value as printed, inside the anchor
    ours: Callable[[], dict[str, object]]     # where we use it -> what we use
    column: int | None = None                 # a printed table: its rows' numbers in this column
    elsewhere: dict[str, str] = field(default_factory=dict)   # recipe-name regex -> the Stated id that checks it

    @property
    def value(self):
        if self.column is not None:
            return tuple(int(DIGITS.findall(row)[self.column]) for row in self.anchor.strip("\n").split("\n"))
        return parse(self.printed)


# A TOML array is a list; what our code holds is a tuple: a declared value is compared as one.
Held = Annotated[Any, AfterValidator(lambda v: tuple(v) if isinstance(v, list) else v)]


@pydantic_dataclass(frozen=True, config=ConfigDict(extra="forbid"))
class Deviation:
    setup: StrictStr    # the Stated id
    users: StrictStr    # regex over `where` (Stated.ours's keys): the places that deviate
    ours: Held          # the value they hold instead (any other value is drift)
    choice: StrictStr   # the opening words of its entry in docs/choices.md, verbatim
    why: StrictStr


@pydantic_dataclass(frozen=True, config=ConfigDict(extra="forbid"))
class Unchecked:
    anchor: StrictStr   # a declaration of reason "setup", by its anchor
    why: StrictStr      # why no entry of SETUP checks it
