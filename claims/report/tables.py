"""The chapter's tables, regenerated beside ours: `report/tables.md` (and a section of index.html).

Built from the merged report (the figure rows every test recorded) and the committed run records
(results/<group>.json); the chapter's own columns come from the chapter's text
(../shared/chapter.txt) or from the figures each test recorded as `stated`.  Nothing measured is
typed here.  Imports no torch, like the reporter.
"""
from __future__ import annotations

from pathlib import Path

from claims.accounting import EXPLAINERS
from claims.report.markdown import md
from claims.report.table_builders import (  # noqa: F401  (_runaway_wide_rows: read here by the tests)
    RUNAWAY_ROWS,
    _cost_table,
    _ladder_table,
    _norm_table,
    _positions_table,
    _runaway_wide_rows,
    _scale_tables,
    _winograd_tables,
)
from claims.report.table_data import Table, _figure_table, chapter_cost_table, chapter_maps  # noqa: F401
from data.chapter import chapter_or_none


def data(merged: dict, results_dir: Path, chapter: str | None = None) -> list[Table]:
    """Every table the chapter prints or describes, as data."""
    missing = ""
    if chapter is None:
        chapter, missing = chapter_or_none(explain=EXPLAINERS)
    if chapter is None:                  # the chapter's own columns say why they are empty; ours stay
        missing, chapter = "chapter text not found (" + missing.splitlines()[1].strip() + ")", ""
    return [*_scale_tables(merged, results_dir), _ladder_table(results_dir),
            _figure_table("gpt2_small", "GPT-2 small, parameter by parameter", merged, "params.gpt2_small",
                          "params.block_formula", "params.published_size", key_field="row"),
            _norm_table(results_dir),
            _figure_table("grad_profile", "The gradient profile at initialisation", merged, "norm.grad_profile"),
            _positions_table(merged), _cost_table(results_dir, chapter, missing),
            *_winograd_tables(merged, results_dir, chapter, missing)]


def build(merged: dict, results_dir: Path, chapter: str | None = None) -> list[tuple[str, str]]:
    """[(title, markdown)] for every table the chapter prints or describes."""
    return [(t.title, t.markdown()) for t in data(merged, results_dir, chapter)]


def _fence(line: str, fence: str | None) -> str | None:
    """The fence a line opens (outside a code block) or closes (inside one, its own fence), else None."""
    if fence is None:
        return line[:len(line) - len(line.lstrip("`"))] if line.startswith("```") else None
    return fence if line.strip() == fence else None


def _escaped(body: str) -> str:
    """A table's Markdown with every string outside its code blocks escaped (markdown.py md): a
    cell or a line from a file cannot open HTML; a code block is shown as it is."""
    out, fence = [], None
    for line in body.split("\n"):
        edge = _fence(line, fence)
        out.append(line if edge or fence else md(line))
        if edge:
            fence = None if fence else edge
    return "\n".join(out)


def render(tables: list[tuple[str, str]]) -> str:
    lines = ["# The chapter's tables, beside ours", "",
             ("Built by `python -m claims.report` from the merged report and results/; the chapter's columns "
             "come from its text or from the figures the tests state. ± is one seed-to-seed sd, (n) the seeds."), ""]
    for title, body in tables:
        lines += [f"## {md(title)}", "", _escaped(body), ""]
    return "\n".join(lines)


def render_html(tables: list[tuple[str, str]]) -> str:
    """The same tables as an index.html section (markdown tables to <table>, code blocks to <pre>)."""
    import html
    parts = ["<h2 id='tables'>The chapter's tables, beside ours</h2>"]
    for title, body in tables:
        parts.append(f"<h3>{html.escape(title)}</h3>")
        rows, fence, code = [], None, []
        for line in body.splitlines() + [""]:
            edge = _fence(line, fence)
            if edge:
                if fence:
                    parts.append(f"<pre>{html.escape(chr(10).join(code))}</pre>")
                    code = []
                fence = None if fence else edge
                continue
            if fence:
                code.append(line)
            elif line.startswith("|"):
                if not set(line) <= set("|-"):
                    rows.append([c.strip().replace("\\|", "|") for c in line.strip("|").split(" | ")])
            else:
                if rows:
                    head, *rest = rows
                    parts.append("<table class='chapter-table'><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in head)
                                 + "</tr>" + "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>"
                                                     for r in rest) + "</table>")
                    rows = []
                if line.strip():
                    parts.append(f"<p>{html.escape(line)}</p>")
    return "\n".join(parts)
