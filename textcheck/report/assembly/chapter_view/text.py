"""A text cut for the chapter view: its blocks (title, paragraphs, code and printed tables), the
marks of its printed figures and the refuted sentences the errata quote.  Pure: no torch, no HTML.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from textcheck.anchors import Anchor, index_of
from textcheck.figures import Figure
from textcheck.report.assembly.merged import Entry, FigureRow
from textcheck.sentences import is_prose


@dataclass(frozen=True)
class Block:
    start: int
    end: int
    kind: str          # "title", "p" (prose) or "pre" (code, output, a printed table)


def blocks(text: str) -> list[Block]:
    out, at = [], 0
    for i, para in enumerate(text.split("\n\n")):
        start, end = at, at + len(para)
        at = end + 2
        if not para.strip():
            continue
        single = "\n" not in para.strip("\n")
        # prose as the sentence walk reads it (textcheck/sentences.py is_prose): not code, output or
        # the template ("   # a comment", "2.98e-08", "the {x} did not cross ...")
        prose = single and is_prose(para.strip("\n"))
        out.append(Block(start, end, "title" if i == 0 else "p" if prose else "pre"))
    return out


@dataclass(frozen=True)
class Mark:
    start: int
    end: int
    row: FigureRow


@dataclass(frozen=True)
class Quote:
    start: int
    end: int
    claims: tuple[str, ...]      # the refuted claims whose erratum quotes this sentence


def marks(text: str, figures: Sequence[FigureRow], table: Mapping[str, Figure]) -> list[Mark]:
    rows = {r.id: r for r in figures}
    return sorted((Mark(*f.span(text), rows[fid]) for fid, f in table.items() if fid in rows), key=lambda m: m.start)


def quotes(text: str, entries: Sequence[Entry]) -> tuple[list[Quote], list[Entry]]:
    """The sentences the errata quote (overlapping ones merged), and the entries quoting none."""
    index = index_of(text)
    found = sorted((*index.span(Anchor(e.quote, "errata", e.id)), e.id) for e in entries if e.quote)
    merged: list[list] = []
    for a, b, cid in found:
        if merged and a < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
            merged[-1][2].append(cid)
        else:
            merged.append([a, b, [cid]])
    return [Quote(a, b, tuple(c)) for a, b, c in merged], [e for e in entries if not e.quote]
