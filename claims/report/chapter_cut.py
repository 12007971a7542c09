"""The chapter cut once per render, for both views of it (chapter.html, chapter.md): its blocks,
its formulas, the marks of its figures and the refuted sentences the errata quote (each widened
to the whole of a formula it cuts: claims/report/chapter_math.py widen), the errata whose quote
is not in the text, the places of our tables and plots (claims/report/chapter_inserts.py), the
sentences that assert claims (claims/report/chapter_sentences.py), and its sections with their
marks per verdict (claims/report/chapter_toc.py).  Every quote is found by the text's one anchor
index (claimcheck/anchors.py; `anchor_lists` names all of this chapter's).  Pure: no HTML, no torch.
"""
from __future__ import annotations

from dataclasses import dataclass

from claimcheck.anchors import Anchor, AnchorList
from claims.chapter import CHAPTER
from claims.report import chapter_inserts, chapter_math, chapter_sentences, chapter_toc
from claims.report.chapter_inserts import Place, placed
from claims.report.chapter_marks import kind_of
from claims.report.chapter_sentences import Asserting
from claims.report.chapter_text import Block, Mark, Quote, blocks, marks, quotes
from claims.report.chapter_toc import Contents
from claims.report.errata import ERRATA


@dataclass(frozen=True)
class Cut:
    text: str
    blocks: list[Block]
    math: list[tuple[int, int]]          # the formulas of its prose
    marks: list[Mark]                    # one per figure row, in order
    quotes: list[Quote]
    unplaced: list[dict]                 # the errata entries whose quote the text does not hold
    places: dict[int, list[Place]]       # our inserts, by the start of the paragraph they follow
    asserting: list[Asserting]           # the sentences that assert claims, in order
    contents: Contents                   # its sections, each with its marks per verdict (chapter_toc.py)


def anchor_lists() -> tuple[AnchorList, ...]:
    """Every list of quotes of this chapter, for its one anchor index (claimcheck/anchors.py): the
    Chapter's (figures, reads, declared numbers and words, sentences, setup numbers), the view's
    (places, formulas, headings) and the errata's quotes (by claim ID)."""
    errata = AnchorList("errata", tuple(Anchor(e.quote, "errata", cid) for cid, e in ERRATA.items()))
    return (*CHAPTER.anchor_lists(), *chapter_inserts.anchor_lists(), *chapter_toc.anchor_lists(), errata)


def cut(text: str, figures: list[dict], entries: list[dict], accounted, claims: dict[str, dict]) -> Cut:
    """`figures`: the figure rows; `entries`: the errata; `accounted`: the sentence walk
    (claimcheck/sentences.py accounted; [] where it could not be made); `claims`: the claims by ID."""
    bs = blocks(text)
    math = chapter_math.spans(text, bs)
    ms = chapter_math.widen(marks(text, figures), math)        # a formula is an atom: a mark holds it whole
    qs, unplaced = quotes(text, entries)
    sentences = chapter_sentences.asserting(accounted, claims, [(m.start, m.end) for m in ms] + math)
    contents = chapter_toc.contents(text, [b.start for b in bs], [(m.start, kind_of(m.row)) for m in ms])
    return Cut(text, bs, math, ms, chapter_math.widen(qs, math), unplaced, placed(text, bs), sentences, contents)
