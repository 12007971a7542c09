"""Where a text's formulas are: each `$...$` (and `$$...$$`) of its prose, never of a code block or
a printed table.  A formula is an atom: a mark or a quote that cuts one is widened to hold it whole.
The delimiters follow Pandoc's rule: an opening `$` has a non-space after it, a closing one a
non-space before it and no digit after it ("$5 and $10" stays text); `\\$` is a literal dollar.
"""
from __future__ import annotations

import dataclasses
import re
from typing import TypeVar

MATH = re.compile(r"(?<!\\)\$\$(?P<display>.+?)(?<!\\)\$\$"
                  r"|(?<![\\$])\$(?P<inline>[^\s$](?:[^$]*?[^\s\\$])?)\$(?![\d$])", re.DOTALL)
ESCAPED_DOLLAR = re.compile(r"\\\$")


def formulas(text: str) -> list[re.Match]:
    return list(MATH.finditer(text))


def spans(text: str, blocks) -> list[tuple[int, int]]:
    return [(b.start + m.start(), b.start + m.end()) for b in blocks if b.kind != "pre"
            for m in formulas(text[b.start:b.end])]


T = TypeVar("T")


def widen(items: list[T], math: list[tuple[int, int]]) -> list[T]:
    """Marks or quotes (anything with .start and .end), each widened to every formula it cuts."""
    out = []
    for it in items:
        start, end = it.start, it.end
        for a, b in math:
            if a < start < b or (a < end < b) or (start <= a and b <= end) or (a <= start and end <= b):
                start, end = min(start, a), max(end, b)
        out.append(it if (start, end) == (it.start, it.end) else dataclasses.replace(it, start=start, end=end))
    return out
