"""What the chapter view adds to a text in place (textcheck/report/assembly/chapter_view/places.py):
our table, built from its data and labelled with its evidence's seeds, dates and devices, where the
text introduces a table it does not print (a cell restating a printed figure carries a secondary
mark linking to the figure's one mark), and each plot beside its paragraph (a data: URI in
chapter.html, a relative link in chapter.md).  Imports no torch.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from textcheck.report.assembly.chapter_view.places import Place
from textcheck.report.assembly.tables_plots import Plot, Table
from textcheck.report.views.pages import Written, macros
from textcheck.report.views.tables import grid_html, grid_md

CSS = """figure.ours{margin:.6em 0 1.4em;padding:.5em .7em;border:1px solid #c9d3df;border-left:4px solid #1565c0;
background:#f7f9fc;font-family:sans-serif;font-size:13px}
figure.ours figcaption{margin-bottom:.4em;color:#333}figure.ours figcaption b{color:#1565c0}
figure.ours table{border-collapse:collapse;width:100%}figure.ours td,figure.ours th{border:1px solid #d5dbe3;
padding:2px 6px;text-align:left;vertical-align:top}figure.ours th{background:#e8eef6}
figure.ours-plot img{max-width:100%;height:auto;display:block;margin:0 auto}
math{font-size:1.05em}"""      # a figure's secondary mark (a.figref) is styled with the marks: marks.py


@dataclass(frozen=True)
class Inserts:
    tables: dict[str, Table]        # by key
    plots: dict[str, Plot]          # by stem


def provenance_text(t: Table) -> str:
    """Where ours comes from: its seeds, device, dates and files; or that nothing was measured."""
    if not t.evidence:
        return "not measured in this report: no evidence recorded (run its tests for a fresh one)"
    p = t.provenance()
    return f"Seeds: {p.seeds}; device: {p.device}; date: {p.date}; from {p.files}"


NOT_REGENERATED = ("the chapter introduces a table here and does not print it, and this report has no table of "
                   "ours for it")


def html_after(places: list[Place], ins: Inserts, ref: Callable[[str, str], str]) -> list[str]:
    """The inserts that follow one paragraph: `ref(figure ID, text)` is a cell's secondary mark."""
    parts, out = macros("chapter_parts.html"), []
    for p in places:
        t = ins.tables.get(p.key)
        if p.kind == "table" and t is not None:      # the grid escapes each cell
            out.append(str(parts.ours_table(t, provenance_text(t), Markup(grid_html(t, ref)))))
        elif p.kind == "table":
            out.append(str(parts.ours_missing(NOT_REGENERATED)))
        elif p.key in ins.plots:
            plot = ins.plots[p.key]
            where = "results/, committed" if plot.path.parent.name == "results" else "this run's report directory"
            out.append(str(parts.ours_plot(plot, where)))
    return out


def md_after(places: list[Place], ins: Inserts, out: Path, ref: Callable[[str, str], str]) -> list[str]:
    """The same inserts in Markdown: a table as a Markdown table, a plot as a relative image link."""
    parts, lines = macros("chapter_parts.md"), []
    for p in places:
        t = ins.tables.get(p.key)
        if p.kind == "table" and t is not None:      # the grid escapes each cell
            lines += [parts.ours_table(t, provenance_text(t), Written(grid_md(t, ref))), ""]
        elif p.kind == "table":
            lines += [parts.ours_missing(NOT_REGENERATED), ""]
        elif p.key in ins.plots:
            rel = Path(os.path.relpath(ins.plots[p.key].path, out)).as_posix()
            lines += [parts.ours_plot(p.key, rel), ""]
    return lines
