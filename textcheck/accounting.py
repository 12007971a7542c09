"""Every number a text prints, accounted for: the anchor of an asserted figure (the Chapter's
figures), a number a test reads without asserting it (its reads, with why), or declared with its
reason (textcheck/declared.py NUMBER_REASONS), by an anchor or by a pattern.

A number is a run of digits as the text prints it ("1,234,567", "0.0123", "5.96e-08", the "3" of
"$3 \\times 10^{-3}$", "128K", the "4" of "$4d^2$"; not the digits of a name, "float32").  Numbers
written as words are walked the same way and counted apart (WORD: one to twenty, the tens, hundred,
thousand, half, third, quarter, twice, double, zero, nothing, "tens", "an order of magnitude", a
range "seven to ten" as one).  A text's test fails on any number, digits or words, with neither an
anchor nor a reason, and names it with its context.  Pure: no torch, no pytest.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from textcheck.anchors import Anchor, index_of
from textcheck.chapter import Chapter
from textcheck.figures import NUMBER

# What the walk counts: a number as printed, or one written against a letter ("128K", "4d^2")
WALK = re.compile(NUMBER.pattern + r"|(?<![\w.])\d+(?=[A-Za-z])")

# A number written as a word; the longest reading first: a range ("seven to ten"), a fraction
# ("one hundredth", "two thirds"), a compound ("ten thousand"), then one word
_N = ("one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
      "seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety")
WORD = re.compile(rf"\b(?:(?:{_N}) to (?:{_N})|(?:{_N})[ -](?:hundredths?|thirds|quarters|halves)"
                  rf"|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-(?:one|two|three|four|five|six|seven|eight|nine)"
                  rf"|(?:{_N})(?: (?:hundred|thousand))+|an order of magnitude"
                  rf"|{_N}|zero|nothing|tens|hundred(?:s|th)?|thousands?|half|thirds?|quarters?|twice|doubl(?:e[sd]?|ing))\b", re.IGNORECASE)

@dataclass(frozen=True)
class Number:
    start: int
    end: int
    text: str
    kind: str          # "figure", "read", or a reason (textcheck/declared.py NUMBER_REASONS); "" when unaccounted
    by: str            # the figure ID, or why
    word: bool = False  # written as a word (WORD), counted apart from digits

    def context(self, text: str, width: int = 40) -> str:
        line = text.count("\n", 0, self.start) + 1
        before = text[max(0, self.start - width):self.start].replace("\n", " ")
        after = text[self.end:self.end + width].replace("\n", " ")
        return f"line {line}: ...{before}[{self.text}]{after}..."


def walk(text: str) -> list[tuple[int, int, str, bool]]:
    """Every number of the chapter, in digits or in words: (start, end, text, word)."""
    found = [(m.start(), m.end(), m.group(), False) for m in WALK.finditer(text)]
    found += [(m.start(), m.end(), m.group(), True) for m in WORD.finditer(text)]
    return sorted(found)


def numbers(text: str, chapter: Chapter) -> list[Number]:
    """Every number in the chapter, digits and words, each with what accounts for it (kind "" if
    nothing does).  A figure or a declaration accounts for every number inside its span."""
    nums = walk(text)
    owner: dict[int, tuple[str, str]] = {}

    def claim(start: int, end: int, kind: str, by: str) -> None:
        for s, e, _, _ in nums:
            if s >= start and e <= end:
                owner.setdefault(s, (kind, by))

    for f in chapter.figures.values():
        claim(*f.span(text), "figure", f.id)
    for f in chapter.reads.values():
        claim(*f.span(text), "read", f"{f.id}: {f.why}")
    index = index_of(text)
    for i, d in enumerate(chapter.declared):
        claim(*index.span(declared_anchor(i, d)), d.reason, d.why)
    for pattern, reason, why in chapter.declared_patterns:
        for m in re.finditer(pattern, text):
            claim(m.start(), m.end(), reason, why)
    return [Number(s, e, printed, *owner.get(s, ("", "")), word=word) for s, e, printed, word in nums]


def _by_kind(nums: list[Number]) -> dict[str, int]:
    return dict(Counter(n.kind or "unaccounted" for n in nums))


def accounting(text: str, chapter: Chapter) -> dict:
    """The counts the report states: numbers in digits and in words, asserted figures, the rest
    by reason (digits under "by kind", words under "words by kind")."""
    nums = numbers(text, chapter)
    digits, words = [n for n in nums if not n.word], [n for n in nums if n.word]
    return {"numbers": len(digits), "figures": len(chapter.figures), "by kind": _by_kind(digits),
            "words": len(words), "words by kind": _by_kind(words)}


def declared_anchor(i: int, d) -> Anchor:
    """The i-th declaration's quote, as the Chapter's list "declared" names it (Chapter.anchor_lists)."""
    return Anchor(d.anchor, "declared", f"#{i} ({d.reason})")


def stale_declarations(text: str, chapter: Chapter) -> list[str]:
    """`  declared #i (reason): anchor '...' not found` for every declaration an altered text
    breaks (the anchor index's stale report of that list)."""
    return index_of(text).stale_report([lst for lst in chapter.anchor_lists() if lst.name == "declared"])
