"""The report model's tables (claimcheck/report/model/parts.py Table) rendered: report/tables.md,
and one table's grid, which the chapter view shows in place; index.html's section of them is its
template's (claimcheck/report/views/templates/index.html)."""
from __future__ import annotations

from collections.abc import Callable

from claimcheck.report.model.parts import Table
from claimcheck.report.views.escape import md, md_fence, md_line
from claimcheck.report.views.pages import environment

TITLE = "The chapter's tables, beside ours"


# -------------------------------------------------------------------------------------- Markdown

def grid_md(t: Table, ref: Callable[[str, str], str] | None = None) -> list[str]:
    """The grid as Markdown lines; `ref(figure ID, text)` writes a cell restating a figure the
    chapter prints (the chapter view's secondary mark), else the cell is escaped text."""
    def one(i: int, j: int, v: str) -> str:
        return ref(t.figures[(i, j)], v) if ref is not None and (i, j) in t.figures else md_line(v)
    return ["| " + " | ".join(md_line(h) for h in t.header) + " |", "|" + "".join("---|" for _ in t.header),
            *("| " + " | ".join(one(i, j, v) for j, v in enumerate(row)) + " |" for i, row in enumerate(t.cells))]


def table_md(t: Table) -> str:
    """One table in Markdown: its listings, each a code block under its label, then its grid."""
    lines = []
    for label, text in t.listings:
        lines += [f"{md(label)}:", "", md_fence(text), ""]
    if t.grid:
        lines += [f"{md(t.grid)}:", ""]
    return "\n".join(lines + (grid_md(t) if t.header else []))


def render(tables: list[Table]) -> str:
    """report/tables.md."""
    lines = [f"# {TITLE}", "",
             ("Built by `python -m claims.report` from the merged report and results/; the chapter's columns "
              "come from its text or from the figures the tests state. ± is one seed-to-seed sd, (n) the seeds."), ""]
    for t in tables:
        lines += [f"## {md(t.title)}", "", table_md(t), ""]
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------ HTML

def grid_html(t: Table, ref: Callable[[str, str], str] | None = None) -> str:
    """The grid as an HTML table (templates/grid.html, autoescaped); `ref` as in grid_md, returning
    a mark already written (Markup) or text, which the template escapes."""
    def one(i: int, j: int, v: str):
        return ref(t.figures[(i, j)], v) if ref is not None and (i, j) in t.figures else v
    cells = [[one(i, j, v) for j, v in enumerate(row)] for i, row in enumerate(t.cells)]
    return str(environment().get_template("grid.html").module.grid(t, cells))


def table_html(t: Table) -> str:
    """One table in HTML, from its template (templates/table.html, autoescaped): its listings, each
    a <pre> under its label, then its grid (index.html includes the same template)."""
    return environment().get_template("table.html").render(t=t)
