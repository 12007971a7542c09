"""The report model's tables (textcheck/report/assembly/tables_plots.py Table) rendered: report/tables.md,
and one table's grid, which the chapter view shows in place, each from its template (Markdown:
templates/tables.md, table.md, grid.md, every value escaped there; HTML: table.html, grid.html,
autoescaped); index.html's section of them is its template's (templates/index.html)."""
from __future__ import annotations

from collections.abc import Callable

from textcheck.report.assembly.tables_plots import Table
from textcheck.report.views.pages import environment, markdown_environment

TITLE = "The chapter's tables, beside ours"


def _cells(t: Table, ref: Callable[[str, str], object] | None) -> list[list]:
    """The grid's rows of cells, each its text, or `ref(figure ID, text)` where the cell restates a
    figure the chapter prints (the chapter view's secondary mark, already written)."""
    return [[ref(t.figures[(i, j)], v) if ref is not None and (i, j) in t.figures else v for j, v in enumerate(row)]
            for i, row in enumerate(t.cells)]


# -------------------------------------------------------------------------------------- Markdown

def grid_md(t: Table, ref: Callable[[str, str], str] | None = None) -> str:
    """The grid as a Markdown table (templates/grid.md, each text written by md_line); `ref` returns
    a mark already written (pages.py Written) or text, which the template escapes."""
    return markdown_environment().get_template("grid.md").render(t=t, cells=_cells(t, ref))


def table_md(t: Table) -> str:
    """One table in Markdown, from its template (templates/table.md): its listings, each a code
    block under its label, then its grid (tables.md includes the same template)."""
    return markdown_environment().get_template("table.md").render(t=t)


def render(tables: list[Table]) -> str:
    """report/tables.md, from its template (templates/tables.md)."""
    return markdown_environment().get_template("tables.md").render(title=TITLE, tables=tables)


# ------------------------------------------------------------------------------------------ HTML

def grid_html(t: Table, ref: Callable[[str, str], str] | None = None) -> str:
    """The grid as an HTML table (templates/grid.html, autoescaped); `ref` returns a mark already
    written (Markup) or text, which the template escapes."""
    return str(environment().get_template("grid.html").module.grid(t, _cells(t, ref)))


def table_html(t: Table) -> str:
    """One table in HTML, from its template (templates/table.html, autoescaped): its listings, each
    a <pre> under its label, then its grid (index.html includes the same template)."""
    return environment().get_template("table.html").render(t=t)
