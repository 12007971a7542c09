"""The chapter view's Markdown: report/chapter.md, a rendering of the report model
(claimcheck/report/model/report.py), the text with each asserted figure marked in bold with its
verdict's symbol and a footnote with our measurement, so that it renders on a forge (the HTML view:
html.py).  The sentences that assert claims are counted in its header, not marked in its prose: a
forge's Markdown has no span to put a verdict on, and a note after every asserting sentence would
bury the text (chapter.html marks each one).  The footnotes, our tables' secondary marks and our
inserts (inserts.py) come from the macros of templates/chapter_parts.md, each value written by
md_line there (pages.py markdown_environment), as every cell of a grid is (templates/grid.md).
Imports no torch.
"""
from __future__ import annotations

import re
from pathlib import Path

from claimcheck.report.model.chapter.text import kind_of
from claimcheck.report.views.chapter import inserts
from claimcheck.report.views.chapter.legend import LEGEND, SYMBOL
from claimcheck.report.views.escape import md, md_code, md_fence, md_prose_with_math
from claimcheck.report.views.pages import Written, markdown_environment
from claimcheck.report.views.wording import SMOKE, accounting_line, figures_line, sentences_line, suggestion


def _note_id(fid: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "-", fid)


def _parts():
    """chapter.md's macros (templates/chapter_parts.md, each value written by md_line)."""
    return markdown_environment().get_template("chapter_parts.md").module


def _note(row: dict) -> str:
    """A figure's footnote; its details after the figure and the verdict, which its head names."""
    return _parts().note(_note_id(row["id"]), SYMBOL[kind_of(row)], row, row["details"][2:])


def _ref(row: dict, text: str) -> Written:
    """A secondary mark, in one of our tables (inserts.py): a cell restating a figure the chapter
    prints, with the figure's verdict and footnote."""
    return Written(_parts().ref(text, SYMBOL[kind_of(row)], _note_id(row["id"])))


def _header(r) -> list[str]:
    fs = r.figure_summary
    return ["# The chapter, checked in place", "",
             *([f"**Smoke scale**: {md(SMOKE)}", ""] if r.smoke else []),
             md(f"Claims: {r.summary_line}. {figures_line(fs)}"),
             "", md(accounting_line(r.accounting, fs)), "", md(sentences_line(r.sentences)), "",
             "Each marked figure carries its verdict's symbol and a footnote with our measurement: "
             + ", ".join(f"{SYMBOL[k]} {v}" for k, v in LEGEND.items()) + ". A refuted sentence is followed by "
             "the suggested one. The report with every row: index.html; the errata: errata.md.", "", "---", ""]


def _prose(text: str, b, inside: list) -> str:
    """A paragraph (or the title) with its marks in bold, each with its symbol and footnote."""
    out, at = [], b.start
    for m in inside:
        out.append(md_prose_with_math(text[at:m.start]))
        shown_text = m.row["printed"] if "$" not in text[m.start:m.end] else text[m.start:m.end]
        out.append(f"**{md_prose_with_math(shown_text)}**{SYMBOL[kind_of(m.row)]}[^{_note_id(m.row['id'])}]")
        at = m.end
    out.append(md_prose_with_math(text[at:b.end]))
    return ("# " if b.kind == "title" else "") + "".join(out)


def _refuted(text: str, q, entries: dict[str, dict], shown: dict[str, str]) -> list[str]:
    """A quoted refuted sentence and its suggestion, per claim; one suggestion several claims share
    is written once (`shown`: sentence -> the claim it was written for)."""
    lines = []
    for cid in q.claims:
        said = suggestion(entries[cid])
        written = (f"the sentence suggested for {md_code(shown[said])}, above" if said in shown
                   else md_prose_with_math(said))
        shown.setdefault(said, cid)
        lines += [f"> **Refuted** ({md_code(cid)}): \"{md_prose_with_math(text[q.start:q.end])}\"  ",
                  f"> **Suggested:** {written}", ""]
    return lines


def render_markdown(r, report_dir: Path) -> str:
    """`r`: the report model (claimcheck/report/model/report.py Report), with its cut (`r.cut`); its math stays TeX."""
    cut, rows = r.cut, {f["id"]: f for f in r.figures}
    ref = lambda fid, text: _ref(rows[fid], text) if fid in rows else text      # text: escaped by the grid
    placed = inserts.Inserts({t.key: t for t in r.tables}, r.plots_by_stem)
    by_id = {e["id"]: e for e in r.errata}
    lines, notes, shown = _header(r), [], {}
    for b in cut.blocks:
        inside = [m for m in cut.marks if b.start <= m.start < b.end]
        if b.kind == "pre":
            lines += [md_fence(cut.text[b.start:b.end]), ""]
            if inside:
                lines += ["Printed above: " + ", ".join(f"{md(m.row['printed'])} {SYMBOL[kind_of(m.row)]}"
                                                         f"[^{_note_id(m.row['id'])}]" for m in inside), ""]
        else:
            lines += [_prose(cut.text, b, inside), ""]
        notes += [_note(m.row) for m in inside]
        for q in cut.quotes:
            if b.start <= q.start < b.end:
                lines += _refuted(cut.text, q, by_id, shown)
        # our tables and plots, in place (inserts.py)
        lines += inserts.md_after(cut.places.get(b.start, []), placed, report_dir, ref)
    if cut.unplaced:
        lines += ["---", "", "Refuted claims whose erratum quotes no sentence of the text:", ""]
        lines += [f"- {md_code(e['id'])}: {md_prose_with_math(e.get('suggested') or e['statement'])}"
                  for e in cut.unplaced] + [""]
    return "\n".join(lines + ["---", ""] + notes) + "\n"
