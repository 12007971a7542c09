"""The report model's tables rendered: report/tables.md, and one table's grid, which the chapter
view shows in place, each from its template (Markdown or HTML, every value escaped there)."""
from __future__ import annotations

from collections.abc import Callable

from textcheck.report.assembly.tables_plots import Table
from textcheck.report.views.pages import environment, markdown_environment

TITLE = "The chapter's tables, beside ours"


def _cells(t: Table, ref: Callable[[str, str], object] | None) -> list[list]:
    """The grid's cells, or `ref(figure ID, text)` where a cell restates a figure the text prints."""
    return [[ref(t.figures[(i, j)], v) if ref is not None and (i, j) in t.figures else v for j, v in enumerate(row)]
            for i, row in enumerate(t.cells)]


# -------------------------------------------------------------------------------------- Markdown

def grid_md(t: Table, ref: Callable[[str, str], str] | None = None) -> str:
    return markdown_environment().get_template("grid.md").render(t=t, cells=_cells(t, ref))


def table_md(t: Table) -> str:
    return markdown_environment().get_template("table.md").render(t=t)


def render(tables: list[Table]) -> str:
    return markdown_environment().get_template("tables.md").render(title=TITLE, tables=tables)


# ------------------------------------------------------------------------------------------ HTML

def grid_html(t: Table, ref: Callable[[str, str], str] | None = None) -> str:
    return str(environment().get_template("grid.html").module.grid(t, _cells(t, ref)))


def table_html(t: Table) -> str:
    return environment().get_template("table.html").render(t=t)
