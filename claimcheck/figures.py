"""A printed figure and where it stands in a text: the figure table's mechanics.

A figure is a stable figure ID, its claim ID, the number as the text prints it ("12.34",
"98.7 %", "ten") and an anchor: a short verbatim quote around it, unique in the text.  Its value
and rounding are parsed from the printed digits (half a unit of the last one; a percentage as a
fraction; a number word as its whole number), never typed again.  A text's own table of figures
is its Chapter's (claimcheck/chapter.py); nothing here holds one.  Pure: no pytest.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

# A number a text writes as a word: its value and its rounding (a whole number: half a unit;
# a fraction, "exactly half the time", "one hundredth", "two thirds": exact).
WORDS = {"nothing": (0, 0.5), "zero": (0, 0.5), "half": (0.5, 0.0), "one": (1, 0.5), "two": (2, 0.5),
         "three": (3, 0.5), "four": (4, 0.5), "seven": (7, 0.5), "eight": (8, 0.5), "ten": (10, 0.5),
         "fifteen": (15, 0.5), "twenty": (20, 0.5), "thirty": (30, 0.5), "doubles": (2, 0.0), "doubling": (2, 0.0),
         "one hundredth": (0.01, 0.0), "two thirds": (2 / 3, 0.0), "a third": (1 / 3, 0.0)}
DEVICES = ("any", "cuda")    # where a figure can be decided: anywhere, or on the text's kind of device

# A number as a text prints it: digits, thousands commas between digits, decimals, an exponent
NUMBER = re.compile(r"(?<![\w.])\d(?:,?\d)*(?:\.\d+)?(?:e[-+]?\d+)?(?![\w]|\.\d)")


@dataclass(frozen=True)
class Figure:
    id: str
    claim: str
    printed: str                 # as the text prints it
    anchor: str                  # verbatim, unique in the text; the printed number is its last
    device: str = "any"          # "cuda": a figure of the text's own device, a reading elsewhere
    why: str = ""                # a read only: why a test reads this number without asserting it

    @property
    def value(self) -> float:
        """The printed number: digits as written, a percentage as a fraction, a word as its number."""
        text = self.printed.strip()
        if text.lower() in WORDS:
            return WORDS[text.lower()][0]
        digits = text.rstrip(" %").replace(",", "")
        number = Decimal(digits)                                     # exact: 98.7 % is 0.987
        if text.endswith("%"):
            return float(number / 100)
        return int(number) if re.fullmatch(r"\d+", digits) else float(number)   # printed whole, kept whole

    @property
    def rounding(self) -> float:
        """Half a unit of the last printed digit (a number word: its own, WORDS)."""
        text = self.printed.strip()
        if text.lower() in WORDS:
            return WORDS[text.lower()][1]
        exponent = Decimal(text.rstrip(" %").replace(",", "")).as_tuple().exponent
        half = 0.5 * 10.0 ** exponent
        return half / 100 if text.endswith("%") else half


def located(text: str, figure: Figure) -> int:
    """Where the figure's anchor is in the text, or -1; raises if the anchor is there twice."""
    first = text.find(figure.anchor)
    if first >= 0 and text.find(figure.anchor, first + 1) >= 0:
        raise ValueError(f"{figure.id}: the anchor {figure.anchor!r} is not unique in the chapter")
    return first


def _printed(figure: Figure) -> list[re.Match]:
    return list(re.finditer(rf"(?<![\w.]){re.escape(figure.printed)}(?![\w]|\.\d)", figure.anchor))


def printed_in_anchor(figure: Figure) -> bool:
    """The printed number stands in its anchor as a whole number or word, not inside another."""
    return bool(_printed(figure))


def span(text: str, figure: Figure) -> tuple[int, int]:
    """Where the printed number stands in the text: its last occurrence in the anchor."""
    at = located(text, figure)
    if at < 0:
        raise ValueError(f"{figure.id}: the anchor {figure.anchor!r} is not in the chapter")
    m = _printed(figure)[-1]
    return at + m.start(), at + m.end()


def of_claim(figures: Mapping[str, Figure], claim: str) -> dict[str, Figure]:
    """The figures of a table that a claim asserts."""
    return {fid: f for fid, f in figures.items() if f.claim == claim}


def stale_anchors(text: str, figures: Iterable[Figure]) -> list[str]:
    """`  figure.id: anchor '...' not found` (or found twice) for every figure an altered text breaks."""
    out = []
    for f in figures:
        n = text.count(f.anchor)
        if n != 1:
            out.append(f"  {f.id}: anchor {f.anchor!r} {'not found' if n == 0 else f'found {n} times'}")
    return out
