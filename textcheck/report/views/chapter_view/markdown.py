"""report/chapter.md: the text with each asserted figure in bold with its verdict's symbol and a
footnote with our measurement, so that it renders on a forge.  Its asserting sentences are counted in
its header, not marked (a forge's Markdown has no span to put a verdict on).  Every part comes from
the macros of templates/chapter_parts.md, every value escaped there; this module decides what goes
where.  Imports no torch.
"""
from __future__ import annotations

import re
from pathlib import Path

from textcheck.report.views.chapter_view import inserts
from textcheck.report.views.chapter_view.legend import SYMBOL, legend
from textcheck.report.views.pages import Written, macros
from textcheck.report.views.wording import (
    SMOKE,
    accounting_line,
    author_todo,
    figures_line,
    sentences_line,
    suggestion,
)


def _note_id(fid: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "-", fid)


def _key(row) -> tuple[str, str]:
    """What a figure's mark carries: its verdict's symbol and its footnote's id."""
    return SYMBOL[row.kind], _note_id(row.id)


def _note(row) -> str:
    """A figure's footnote; its details after the figure and the verdict, which its head names."""
    symbol, at = _key(row)
    return macros("chapter_parts.md").note(at, symbol, row, row.details[2:])


def _ref(row, text: str) -> Written:
    """A secondary mark, in one of our tables (inserts.py): a cell restating a figure the chapter
    prints, with the figure's verdict and footnote."""
    symbol, at = _key(row)
    return Written(macros("chapter_parts.md").ref(text, symbol, at))


def _header(r) -> str:
    """The page's head: the counts, then the key to the marks."""
    fs = r.figure_summary
    return macros("chapter_parts.md").header(r, SMOKE, figures_line(fs), accounting_line(r.accounting, fs), sentences_line(r.sentences),
                           SYMBOL, legend(r.device), author_todo(r.todo))


def _prose(text: str, b, inside: list) -> str:
    """A paragraph (or the title) with its marks in bold, each with its symbol and footnote; a mark
    shows the figure as the row prints it, or the text's own where it holds math."""
    pieces, at = [], b.start
    for m in inside:
        shown = m.row.printed if "$" not in text[m.start:m.end] else text[m.start:m.end]
        pieces.append((text[at:m.start], shown, *_key(m.row)))
        at = m.end
    return macros("chapter_parts.md").paragraph(b.kind == "title", pieces, text[at:b.end])


def _listing(text: str, b, inside: list) -> str:
    """A code block of the text, then the figures printed in it (a code block holds no bold), each
    with its symbol and footnote."""
    return macros("chapter_parts.md").listing(text[b.start:b.end], [(m.row.printed, *_key(m.row)) for m in inside])


def _refuted(text: str, q, entries: dict, shown: dict[str, str]) -> list[str]:
    """A quoted refuted sentence and its suggestion, per claim; one suggestion several claims share
    is written once (`shown`: sentence -> the claim it was written for)."""
    lines = []
    for cid in q.claims:
        said = suggestion(entries[cid])
        lines += [macros("chapter_parts.md").refuted(cid, text[q.start:q.end], said, shown.get(said)), ""]
        shown.setdefault(said, cid)
    return lines


def render_markdown(r, report_dir: Path) -> str:
    """The page, its math left as TeX."""
    cut, rows = r.cut, {f.id: f for f in r.figures}
    ref = lambda fid, text: _ref(rows[fid], text) if fid in rows else text      # text: escaped by the grid
    placed = inserts.Inserts({t.key: t for t in r.tables}, r.plots_by_stem)
    by_id = {e.id: e for e in r.errata}
    lines, notes, shown = [_header(r), ""], [], {}
    for b in cut.blocks:
        inside = [m for m in cut.marks if b.start <= m.start < b.end]
        lines += [_listing(cut.text, b, inside) if b.kind == "pre" else _prose(cut.text, b, inside), ""]
        notes += [_note(m.row) for m in inside]
        for q in cut.quotes:
            if b.start <= q.start < b.end:
                lines += _refuted(cut.text, q, by_id, shown)
        # our tables and plots, in place (inserts.py)
        lines += inserts.md_after(cut.places.get(b.start, []), placed, report_dir, ref)
    if cut.unplaced:
        lines += [macros("chapter_parts.md").unplaced(cut.unplaced), ""]
    return "\n".join(lines + ["---", ""] + notes) + "\n"
