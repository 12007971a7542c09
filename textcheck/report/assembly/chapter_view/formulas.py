"""Where a text's formulas are: each `$...$` (and `$$...$$`) of its prose, never of a code block or
a printed table (typeset as MathML by textcheck/report/views/chapter_view/mathml.py; chapter.md keeps
the TeX).

A formula is an atom: a figure's mark or a quoted sentence that begins or ends inside one is
widened to the whole formula (`widen`), so that a mark wraps the whole <math> and no formula is
ever cut in two.  The delimiters follow Pandoc's rule: an opening `$` has a non-space after it, a
closing one a non-space before it and no digit after it ("$5 and $10" stays text), and `\\$` is a
literal dollar.  Pure: no HTML, no torch.
"""
from __future__ import annotations

import dataclasses
import re
from typing import TypeVar

MATH = re.compile(r"(?<!\\)\$\$(?P<display>.+?)(?<!\\)\$\$"
                  r"|(?<![\\$])\$(?P<inline>[^\s$](?:[^$]*?[^\s\\$])?)\$(?![\d$])", re.DOTALL)
ESCAPED_DOLLAR = re.compile(r"\\\$")


def formulas(text: str) -> list[re.Match]:
    """The formulas of a piece of prose, in order."""
    return list(MATH.finditer(text))


def spans(text: str, blocks) -> list[tuple[int, int]]:
    """Where the formulas are in the chapter: in its prose blocks (titles and paragraphs), never
    in a code block or a printed table."""
    return [(b.start + m.start(), b.start + m.end()) for b in blocks if b.kind != "pre"
            for m in formulas(text[b.start:b.end])]


T = TypeVar("T")


def widen(items: list[T], math: list[tuple[int, int]]) -> list[T]:
    """Marks or quotes (anything with .start and .end), each widened to the whole of every
    formula it cuts: a figure printed inside `$1.8 \\times 10^{-7}$` marks the whole formula."""
    out = []
    for it in items:
        start, end = it.start, it.end
        for a, b in math:
            if a < start < b or (a < end < b) or (start <= a and b <= end) or (a <= start and end <= b):
                start, end = min(start, a), max(end, b)
        out.append(it if (start, end) == (it.start, it.end) else dataclasses.replace(it, start=start, end=end))
    return out
