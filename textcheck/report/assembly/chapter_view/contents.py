"""The chapter view's table of contents, as data: a text's sections, each with its marks per verdict
(rendered by textcheck/report/views/chapter_view/contents.py).

A text that prints no headings (this project's chapter: the title line, then paragraphs, code and
printed tables separated by blank lines, text.py `blocks`) has its sections declared by its
package, each by a short verbatim phrase of its first paragraph (no figure in it, found once in
the text) and a title: the claim section's title (the Chapter's `sections`) where the section is
one, else the text's own.  A section runs from the paragraph holding its phrase to the next
section; a phrase the text lacks, or holds twice, is the anchor index's one error
(textcheck/anchors.py), a phrase before its predecessor's drops its section, and the first
section found starts at the top, so every mark is counted in exactly one section.  The sections
and their counts (`Contents`) are computed once per render, in the text's cut (cut.py).

Every section has its anchor, sec-<key> (`section_anchor`; a README badge for a claim section may
link to it).  Sections that begin inside another (declared `within`) are listed under it, with an
anchor and a marker of their own; their marks count in the section that holds them.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from textcheck.anchors import Anchor, AnchorList, index_of

ANCHOR_KEY = re.compile(r"[a-z][a-z0-9_]*")
NONE: Mapping[str, str] = MappingProxyType({})      # no claim sections' titles: each heading's own


def section_anchor(key: str) -> str:
    """The id of a section in chapter.html: "sec-<key>".  Every claim section (a key of the
    Chapter's `sections`) has one there; the view's other sections (its table of contents) use the
    same scheme."""
    if not ANCHOR_KEY.fullmatch(key):
        raise ValueError(f"{key!r}: a section's key is lower-case letters, digits and _ (as a claim section's)")
    return f"sec-{key}"


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


Heading = tuple[str, str, str]      # (anchor key, title: a claim section's key or the text's own, a phrase)


def sections(text: str, block_starts: list[int], declared: Sequence[Heading], titles: Mapping[str, str] = NONE,
             within: bool = False) -> list[Section]:
    """The declared sections found in the text, in order; each anchored at its paragraph
    (`titles`: the claim sections' titles, the Chapter's `sections`)."""
    out: list[Section] = []
    index = index_of(text)
    for key, title, phrase in declared:
        at = index.locate(Anchor(phrase, "headings", key))
        if out and at <= out[-1].block:
            continue
        block = block_starts[max(bisect.bisect_right(block_starts, at) - 1, 0)]
        out.append(Section(key, titles.get(title, title), block if out or within else 0, block, within))
    return out


def anchor_list(*declared: Sequence[Heading]) -> AnchorList:
    """The sections' phrases, a list of quotes (textcheck/anchors.py), by section key."""
    return AnchorList("headings", tuple(Anchor(p, "headings", k) for d in declared for k, _, p in d))


def counts(secs: list[Section], marks: list[tuple[int, str]]) -> list[dict[str, int]]:
    """Per section, its marks per kind (`marks`: each mark's start and kind, text.py kind_of);
    together every mark once."""
    out: list[dict[str, int]] = [{} for _ in secs]
    starts = [s.start for s in secs]
    for at, kind in marks if secs else ():
        c = out[max(bisect.bisect_right(starts, at) - 1, 0)]
        c[kind] = c.get(kind, 0) + 1
    return out


@dataclass(frozen=True)
class Contents:
    """The contents as data, part of the text's cut (cut.py): computed once per render, rendered
    by textcheck/report/views/chapter_view/contents.py."""
    sections: list[Section]
    within: list[Section]               # the claim sections that begin inside one of `sections`
    counts: list[dict[str, int]]        # per section, its marks per kind; together every mark once


def contents(text: str, block_starts: list[int], marks: list[tuple[int, str]], declared: Sequence[Heading],
             within: Sequence[Heading] = (), titles: Mapping[str, str] = NONE) -> Contents:
    """The sections found in the text, those within them, and each section's marks per kind."""
    secs = sections(text, block_starts, declared, titles)
    subs = sections(text, block_starts, within, titles, within=True)
    return Contents(secs, subs, counts(secs, marks))
