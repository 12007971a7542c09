"""What the chapter view adds to a text, in place (where: the text's places,
textcheck/report/assembly/chapter_view/places.py): our regenerated table wherever the text introduces a
table it does not print, and each plot beside the paragraph it belongs to.

A table is built from its data (textcheck/report/assembly/tables_plots.py `Table`, the text's tables),
never from another rendering, and labelled as ours with the seeds, the dates and the devices of
the evidence it is built from.  A cell restating a figure the text prints in its prose carries a
secondary mark: the figure's verdict symbol and colour, linking to the figure's one mark in the
text (the mark that counts; a figure is marked once, where the text prints it).  A plot is
embedded as a data: URI, so that chapter.html stays one file; chapter.md links it by a relative
path.  The tables and the plots are the report model's (textcheck/report/assembly/report.py), the
ones index.html shows (each plot encoded once for both pages: textcheck/report/assembly/tables_plots.py
Plot); a plot with no place here (a screenshot) is not shown.  Imports no torch.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from textcheck.report.assembly.chapter_view.places import Place
from textcheck.report.assembly.tables_plots import Plot, Table
from textcheck.report.views.pages import Written, environment, markdown_environment
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


# ------------------------------------------------------------------------------------------ HTML

def _parts():
    """The inserts' macros (templates/chapter_parts.html, autoescaped)."""
    return environment().get_template("chapter_parts.html").module


def _table_html(t: Table, ref: Callable[[str, str], str]) -> str:
    return str(_parts().ours_table(t, provenance_text(t), Markup(grid_html(t, ref))))   # the grid escapes each cell


NOT_REGENERATED = ("the chapter introduces a table here and does not print it, and this report has no table of "
                   "ours for it")


def _missing_html() -> str:
    return str(_parts().ours_missing(NOT_REGENERATED))


def _plot_html(plot: Plot) -> str:
    return str(_parts().ours_plot(plot, _where(plot.path)))


def _where(path: Path) -> str:
    return "results/, committed" if path.parent.name == "results" else "this run's report directory"


def html_after(places: list[Place], ins: Inserts, ref: Callable[[str, str], str]) -> list[str]:
    """The inserts that follow one paragraph: `ref(figure ID, text)` is a cell's secondary mark."""
    out = []
    for p in places:
        if p.kind == "table":
            t = ins.tables.get(p.key)
            out.append(_table_html(t, ref) if t is not None else _missing_html())
        elif p.key in ins.plots:
            out.append(_plot_html(ins.plots[p.key]))
    return out


# -------------------------------------------------------------------------------------- Markdown

def _md_parts():
    """The inserts' Markdown macros (templates/chapter_parts.md, each value written by md_line)."""
    return markdown_environment().get_template("chapter_parts.md").module


def _table_md(t: Table, ref: Callable[[str, str], str]) -> str:
    return _md_parts().ours_table(t, provenance_text(t), Written(grid_md(t, ref)))     # the grid escapes each cell


def md_after(places: list[Place], ins: Inserts, out: Path, ref: Callable[[str, str], str]) -> list[str]:
    """The same inserts in Markdown: a table as a Markdown table, a plot as a relative image link."""
    lines = []
    for p in places:
        if p.kind == "table":
            t = ins.tables.get(p.key)
            lines += [_table_md(t, ref) if t is not None else _md_parts().ours_missing(NOT_REGENERATED), ""]
        elif p.key in ins.plots:
            rel = Path(os.path.relpath(ins.plots[p.key].path, out)).as_posix()
            lines += [_md_parts().ours_plot(p.key, rel), ""]
    return lines
