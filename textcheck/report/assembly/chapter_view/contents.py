"""The chapter view's table of contents, as data: a text's sections, declared by its package (each
by a verbatim phrase of its first paragraph and a title), each with its marks per verdict.  A section
runs from the paragraph holding its phrase to the next one; a phrase before its predecessor's drops
its section, and the first found starts at the top, so every mark counts in exactly one section.
Sections that begin inside another (`within`) are listed under it, their marks counted there.
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
    """The id of a section in chapter.html (a README badge may link to it)."""
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
    """The declared sections found in the text, in order (`titles`: the claim sections' titles)."""
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
    """Per section, its marks per kind (`marks`: each mark's start and kind)."""
    out: list[dict[str, int]] = [{} for _ in secs]
    starts = [s.start for s in secs]
    for at, kind in marks if secs else ():
        c = out[max(bisect.bisect_right(starts, at) - 1, 0)]
        c[kind] = c.get(kind, 0) + 1
    return out


@dataclass(frozen=True)
class Contents:
    sections: list[Section]
    within: list[Section]               # the claim sections that begin inside one of `sections`
    counts: list[dict[str, int]]        # per section, its marks per kind; together every mark once


def contents(text: str, block_starts: list[int], marks: list[tuple[int, str]], declared: Sequence[Heading],
             within: Sequence[Heading] = (), titles: Mapping[str, str] = NONE) -> Contents:
    secs = sections(text, block_starts, declared, titles)
    subs = sections(text, block_starts, within, titles, within=True)
    return Contents(secs, subs, counts(secs, marks))
