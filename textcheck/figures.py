"""A printed figure and where it stands in a text: the figure table's mechanics.

A figure is a stable figure ID, its claim ID, an anchor: a short verbatim quote around it, unique
in the text (textcheck/anchors.py: found by the text's one anchor index), and the number as the
text prints it ("12.34", "98.7 %", "ten"): the anchor's last number, derived from it, and typed
only where the figure is another number of its anchor.  Its value and rounding are parsed from
the printed digits (half a unit of the last one; a percentage as a fraction; a number word as its
whole number), never typed again.  A text's own table of figures
is its Chapter's (textcheck/chapter.py); nothing here holds one.  Pure: no pytest.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

from textcheck.anchors import Anchor

# A number a text writes as a word: its value and its rounding (a whole number: half a unit;
# a fraction, "exactly half the time", "one hundredth", "two thirds": exact).
WORDS = {"nothing": (0, 0.5), "zero": (0, 0.5), "half": (0.5, 0.0), "one": (1, 0.5), "two": (2, 0.5),
         "three": (3, 0.5), "four": (4, 0.5), "seven": (7, 0.5), "eight": (8, 0.5), "ten": (10, 0.5),
         "fifteen": (15, 0.5), "twenty": (20, 0.5), "thirty": (30, 0.5), "doubles": (2, 0.0), "doubling": (2, 0.0),
         "one hundredth": (0.01, 0.0), "two thirds": (2 / 3, 0.0), "a third": (1 / 3, 0.0)}
DEVICES = ("any", "cuda")    # where a figure can be decided: anywhere, or on the text's kind of device

# A number as a text prints it: digits, thousands commas between digits, decimals, an exponent
NUMBER = re.compile(r"(?<![\w.])\d(?:,?\d)*(?:\.\d+)?(?:e[-+]?\d+)?(?![\w]|\.\d)")
# The number an anchor ends with: digits as NUMBER reads them, a percentage ("99.9 %"), or a word
_LAST_DIGITS = re.compile(r"(?<![\w.])\d(?:,?\d)*(?:\.\d+)?(?:e[-+]?\d+)?(?: ?%)?\Z")
_LAST_WORD = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in sorted(WORDS, key=len, reverse=True)) + r")\Z",
                        re.IGNORECASE)


def printed_of(anchor: str) -> str:
    """The number an anchor ends with, as printed ("" if it ends with none)."""
    m = _LAST_DIGITS.search(anchor) or _LAST_WORD.search(anchor)
    return m.group() if m else ""


@dataclass(frozen=True)
class Figure:
    """`Figure(id, claim, anchor=...)`: the printed number is the anchor's last (printed_of); typed
    (`printed=`) only where it is another number of the anchor."""
    id: str
    claim: str
    printed: str = ""            # as the text prints it; "" = the anchor's last number
    anchor: str = ""             # verbatim, unique in the text; it holds the printed number
    device: str = "any"          # "cuda": a figure of the text's own device, a reading elsewhere
    why: str = ""                # a read only: why a test reads this number without asserting it
    NUMBER: ClassVar[re.Pattern] = NUMBER      # a number as a text prints it (a table's cells are read by it)

    def __post_init__(self):
        if not self.anchor:
            raise ValueError(f"{self.id}: a figure needs its anchor, a verbatim quote of the text")
        if not self.printed:
            printed = printed_of(self.anchor)
            if not printed:
                raise ValueError(f"{self.id}: the anchor {self.anchor!r} ends with no number: say which is printed")
            object.__setattr__(self, "printed", printed)

    @property
    def listed_in(self) -> str:
        """The list of quotes it belongs to: a read (it has a why) or a figure."""
        return "reads" if self.why else "figures"

    def quoted(self) -> Anchor:
        return Anchor(self.anchor, self.listed_in, self.id)

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

    def located(self, text: str) -> int:
        """Where its anchor stands in the text, by the text's one anchor index; AnchorError (a
        ValueError) where it is missing or doubled."""
        return self.quoted().located(text)

    def _printed(self) -> list[re.Match]:
        return list(re.finditer(rf"(?<![\w.]){re.escape(self.printed)}(?![\w]|\.\d)", self.anchor))

    def printed_in_anchor(self) -> bool:
        """The printed number stands in its anchor as a whole number or word, not inside another."""
        return bool(self._printed())

    def span(self, text: str) -> tuple[int, int]:
        """Where the printed number stands in the text: its last occurrence in the anchor."""
        at = self.located(text)
        m = self._printed()[-1]
        return at + m.start(), at + m.end()
