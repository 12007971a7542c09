"""The chapter view's table of contents: the chapter's sections, each with its marks per verdict.

The chapter prints no headings: its text is the title line, then paragraphs, code and printed
tables separated by blank lines (claims/report/chapter.py `blocks`).  Its sections are therefore
declared here, each by a short verbatim phrase of its first paragraph (no figure in it, found
once in the text; tests/acceptance/test_chapter_view.py checks both) and a title: the claim section's title
(claims/registry.py SECTIONS) where the section is one, else ours.  A section runs from the
paragraph holding its phrase to the next section; a phrase the text lacks, or holds twice, is
the anchor index's one error (claimcheck/anchors.py; the chapter is checked by sha256, so that
is a text that is not the chapter), a phrase before its predecessor's drops its section, and the first
section found starts at the top, so every mark is counted in exactly one section.  The sections
and their counts are data (`Contents`), computed once per render in the chapter cut
(claims/report/chapter_cut.py); this module renders them.

Every claim section has its anchor, sec-<key> (claims/report/site.py section_anchor: the README's
badge for a section links to it).  The two that begin inside a section of the text (the corpus,
in the average's; depth, in the closing one) are listed under it (WITHIN), with an anchor and a
marker of their own; their marks count in the section that holds them.
"""
from __future__ import annotations

import bisect
import html
from dataclasses import dataclass

from claimcheck.anchors import Anchor, AnchorList, index_of
from claims.registry import SECTIONS as CLAIM_SECTIONS
from claims.report.site import section_anchor

# (anchor id, title: a claim section's key or a title of ours, a phrase of the section's first paragraph)
SECTIONS = [
    ("recurrence", "recurrence", "the summary was a recurrent state"),
    ("average", "average", "The most obvious function of a variable number of vectors"),
    ("mask", "mask", "Averaging over a growing prefix looks like a loop."),
    ("qkv", "qkv", "The rest of this chapter is one question"),
    ("scale", "scale", "Almost every explanation of"),
    ("ladder", "ladder", "One head is one softmax row per position"),
    ("norm", "norm", "Look at where the normalisation sits"),
    ("positions", "positions", "Delete the position embeddings and the model still trains"),
    ("dropout", "dropout", "Dropout is inherited the same way"),
    ("cost", "cost", "Two tensors in the layer have shape"),
    ("decoder", "Encoder-decoder and decoder-only", "describes an encoder-decoder"),
    ("params", "params", "With the block defined, model size is arithmetic."),
    ("winograd", "winograd", "Perplexity is a number about a corpus."),
    ("implementation", "Checked against PyTorch", "Finally, the implementation."),
    ("next", "What you have, and what you do not", "You have the architecture every model"),
]
# claim sections that begin inside one of the above: (key, title, a phrase of their first paragraph)
WITHIN = [
    ("corpus", "corpus", "The corpus below is"),
    ("depth", "depth", "stacking will not fix it by itself"),
]


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    start: int          # where its first block starts in the chapter's text (0 for the first found)
    block: int          # where its anchor goes: the start of the block holding its phrase
    within: bool = False     # listed under the section that holds it; its marks count there

    @property
    def anchor(self) -> str:
        return section_anchor(self.key)


def sections(chapter: str, block_starts: list[int], declared=SECTIONS, within: bool = False) -> list[Section]:
    """The declared sections found in the text, in order; each anchored at its paragraph."""
    out: list[Section] = []
    index = index_of(chapter)
    for key, title, phrase in declared:
        at = index.locate(Anchor(phrase, "headings", key))
        if out and at <= out[-1].block:
            continue
        block = block_starts[max(bisect.bisect_right(block_starts, at) - 1, 0)]
        out.append(Section(key, CLAIM_SECTIONS.get(title, title), block if out or within else 0, block, within))
    return out


def anchor_lists() -> tuple[AnchorList, ...]:
    """The sections' phrases, a list of quotes (claimcheck/anchors.py), by section key."""
    return (AnchorList("headings", tuple(Anchor(p, "headings", k) for k, _, p in SECTIONS + WITHIN)),)


def counts(secs: list[Section], marks: list[tuple[int, str]]) -> list[dict[str, int]]:
    """Per section, its marks per kind (`marks`: each mark's start and kind, claims/report/chapter_marks.py
    kind_of); together every mark once."""
    out: list[dict[str, int]] = [{} for _ in secs]
    starts = [s.start for s in secs]
    for at, kind in marks:
        c = out[max(bisect.bisect_right(starts, at) - 1, 0)]
        c[kind] = c.get(kind, 0) + 1
    return out


@dataclass(frozen=True)
class Contents:
    """The contents as data, part of the chapter cut (claims/report/chapter_cut.py): computed once
    per render, rendered by toc_html and anchors_html."""
    sections: list[Section]
    within: list[Section]               # the claim sections that begin inside one of `sections`
    counts: list[dict[str, int]]        # per section, its marks per kind; together every mark once


def contents(chapter: str, block_starts: list[int], marks: list[tuple[int, str]]) -> Contents:
    """The sections found in the text, those within them, and each section's marks per kind."""
    secs, subs = sections(chapter, block_starts), sections(chapter, block_starts, WITHIN, within=True)
    return Contents(secs, subs, counts(secs, marks))


def toc_html(contents: Contents, symbols: dict[str, str]) -> str:
    """<nav id="toc">: each section a link to its anchor, with its marks per verdict (symbol and
    count, as the contents counted them; each count also in a data-<kind> attribute), and the
    sections within it."""
    items, secs, subs = [], contents.sections, contents.within
    for i, (s, c) in enumerate(zip(secs, contents.counts)):
        end = secs[i + 1].start if i + 1 < len(secs) else float("inf")
        inner = "".join(f"<li data-within='{html.escape(x.anchor)}'><a href='#{html.escape(x.anchor)}'>"
                        f"{html.escape(x.title)}</a></li>" for x in subs if s.start <= x.block < end)
        data = "".join(f" data-{html.escape(k.replace(' ', '-'))}='{n}'" for k, n in sorted(c.items()))
        tally = " ".join(f"<span class='n {html.escape(k.replace(' ', '-'))}' title='{html.escape(k)}'>"
                         f"{symbols[k]}&#8239;{n}</span>" for k, n in sorted(c.items(), key=lambda kv: list(symbols)
                                                                              .index(kv[0])))
        items.append(f"<li data-section='{html.escape(s.anchor)}'{data}><a href='#{html.escape(s.anchor)}'>"
                     f"{html.escape(s.title)}</a> <span class='tally'>{tally or 'no figures'}</span>"
                     + (f"<ul class='within'>{inner}</ul>" if inner else "") + "</li>")
    return f"<nav id='toc' aria-label='Contents'><b>Contents</b> (figures per verdict)<ol>{''.join(items)}</ol></nav>"


def anchors_html(secs: list[Section]) -> dict[int, str]:
    """{block start: the section's marker}, put before that block: a small label of ours, not the
    chapter's text, with a link back to the contents."""
    out: dict[int, str] = {}
    for s in secs:
        out[s.block] = out.get(s.block, "") + (
            f"<div class='sec-start{' within' if s.within else ''}' id='{html.escape(s.anchor)}'>"
            f"§ {html.escape(s.title)} <a href='#toc' title='back to the contents'>↑</a></div>")
    return out


def render(contents: Contents, symbols: dict[str, str]) -> tuple[str, dict[int, str]]:
    """The contents for the header, and each section's marker by the block it goes before."""
    return toc_html(contents, symbols), anchors_html(contents.sections + contents.within)
