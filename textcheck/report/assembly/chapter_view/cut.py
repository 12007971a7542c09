"""A text cut once per render for both renderings of its chapter view: its blocks, formulas, figure
marks, the errata's quotes (each widened to the formulas it cuts), the errata quoting nothing, the
places of our tables and plots, the asserting sentences and the contents.  Every quote is found by
the text's one anchor index (textcheck/anchors.py).  Pure: no HTML, no torch.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from textcheck.report.assembly.chapter_view import contents as toc
from textcheck.report.assembly.chapter_view import formulas, sentences
from textcheck.report.assembly.chapter_view.contents import Contents, Heading
from textcheck.report.assembly.chapter_view.places import Place, placed
from textcheck.report.assembly.chapter_view.sentences import Asserting
from textcheck.report.assembly.chapter_view.text import Block, Mark, Quote, blocks, marks, quotes
from textcheck.report.assembly.merged import Claim, Entry, FigureRow


@dataclass(frozen=True)
class View:
    """A text's own lists for its chapter view, each quote verbatim and once in the text: where our
    tables and plots go, its sections (key, title, a phrase) and those that begin inside one."""
    places: Sequence[Place] = ()
    headings: Sequence[Heading] = ()
    within: Sequence[Heading] = ()


@dataclass(frozen=True)
class Cut:
    text: str
    blocks: list[Block]
    math: list[tuple[int, int]]          # the formulas of its prose
    marks: list[Mark]                    # one per figure row, in order
    quotes: list[Quote]
    unplaced: list[Entry]                # the errata entries whose quote the text does not hold
    places: dict[int, list[Place]]       # our inserts, by the start of the paragraph they follow
    asserting: list[Asserting]           # the sentences that assert claims, in order
    contents: Contents                   # its sections, each with its marks per verdict (contents.py)


def cut(chapter, view: View, text: str, figures: Sequence[FigureRow], entries: Sequence[Entry], accounted,
        claims: Mapping[str, Claim]) -> Cut:
    """`accounted`: the sentence walk (textcheck/sentences.py accounted; [] where it failed)."""
    bs = blocks(text)
    math = formulas.spans(text, bs)
    ms = formulas.widen(marks(text, figures, chapter.figures), math)   # a formula is an atom: a mark holds it whole
    qs, unplaced = quotes(text, entries)
    said = sentences.asserting(accounted, claims, [(m.start, m.end) for m in ms] + math)
    found = toc.contents(text, [b.start for b in bs], [(m.start, m.row.kind) for m in ms], view.headings,
                         view.within, chapter.sections)
    return Cut(text, bs, math, ms, formulas.widen(qs, math), unplaced, placed(text, bs, view.places), said, found)
