"""A text, cut for the chapter view (textcheck/report/views/chapter_view/: html.py, markdown.py): its
blocks (title, paragraphs, code and printed tables), the marks of its printed figures (each found
by its anchor, the Chapter's figure table) and the refuted sentences the errata quote.  Pure: no
torch, no HTML.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from textcheck.anchors import Anchor, index_of
from textcheck.figures import Figure, span
from textcheck.sentences import is_prose


@dataclass(frozen=True)
class Block:
    start: int
    end: int
    kind: str          # "title", "p" (prose) or "pre" (code, output, a printed table)


def blocks(text: str) -> list[Block]:
    """The chapter's paragraphs, code blocks and printed tables, in order (blank-line separated)."""
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
    row: dict          # the figure's row of the merged report


@dataclass(frozen=True)
class Quote:
    start: int
    end: int
    claims: tuple[str, ...]      # the refuted claims whose erratum quotes this sentence


def kind_of(row: dict) -> str:
    """A figure mark's kind: its verdict, or "device-specific" for a reading of a figure of the text's own device."""
    return "device-specific" if row["label"] == "not run: device-specific" else row["verdict"]


def marks(text: str, figures: list[dict], table: Mapping[str, Figure]) -> list[Mark]:
    """A mark for each figure row (textcheck/merging.py figure_rows), where its anchor is printed
    (`table`: the Chapter's figure table, figure ID -> Figure)."""
    rows = {r["id"]: r for r in figures}
    out = []
    for fid, f in table.items():
        if fid in rows:
            a, b = span(text, f)
            out.append(Mark(a, b, rows[fid]))
    return sorted(out, key=lambda m: m.start)


def quotes(text: str, entries: list[dict]) -> tuple[list[Quote], list[dict]]:
    """The refuted sentences the errata quote, where the chapter prints them (overlapping quotes
    merged into one), and the entries that quote no sentence (listed in the header).  A quote
    the text does not hold once is the anchor index's one error (textcheck/anchors.py)."""
    found, unplaced = [], []
    index = index_of(text)
    for e in entries:
        if not e.get("quote"):
            unplaced.append(e)
        else:
            found.append((*index.span(Anchor(e["quote"], "errata", e["id"])), e["id"]))
    merged: list[list] = []
    for a, b, cid in sorted(found):
        if merged and a < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
            merged[-1][2].append(cid)
        else:
            merged.append([a, b, [cid]])
    return [Quote(a, b, tuple(c)) for a, b, c in merged], unplaced
