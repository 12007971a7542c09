"""The chapter's tables, regenerated beside ours: the list of them as data (`data`, in the
chapter's order; claims/report/table_builders.py builds each one) and their renderings from that
data: report/tables.md, index.html's section, and one table's grid, which the chapter view shows
in place (claims/report/chapter_inserts.py).

Built from the merged report (the figure rows every test recorded) and the committed run records
(results/<group>.json); the chapter's own columns come from the chapter's text
(../shared/chapter.txt) or from the figures each test recorded as `stated`.  Nothing measured is
typed here.  Imports no torch, like the reporter.
"""
from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

from claimcheck.formats import cell
from claims.chapter import CHAPTER
from claims.report.escape import md, md_fence, md_line
from claims.report.evidence import Facts
from claims.report.table_builders import (
    _cost_table,
    _ladder_table,
    _norm_table,
    _positions_table,
    _scale_tables,
    _winograd_tables,
)
from claims.report.table_data import Table, _figure_table

TITLE = "The chapter's tables, beside ours"


def data(merged: dict, results_dir: Path, chapter: str | None = None, missing: str = "",
         facts: Facts | None = None) -> list[Table]:
    """Every table the chapter prints or describes, as data.  `chapter`: its text (read here when
    None); `missing`: why there is none, which the chapter's own columns then say; `facts`: the
    render's one reader of the evidence (claims/report/evidence.py), else one made here."""
    facts = facts or Facts(merged, results_dir)
    if chapter is None and not missing:
        chapter, missing = CHAPTER.text_or_none()
    if chapter is None or missing:           # the chapter's own columns say why they are empty; ours stay
        why = missing.splitlines()[1].strip() if len(missing.splitlines()) > 1 else missing.strip()
        missing, chapter = "chapter text not found (" + why + ")", ""
    return [*_scale_tables(merged, facts), _ladder_table(facts),
            _figure_table("mlp_share", ("Where the parameters sit: the MLP's share of one block's parameters "
                                        "(biases and norms included, by width) and of a whole model's"), merged,
                          "ladder.mlp_two_thirds", "ladder.mlp_holds_most_parameters", key_field="d"),
            _figure_table("gpt2_small", "GPT-2 small, parameter by parameter", merged, "params.gpt2_small",
                          "params.block_formula", "params.published_size", key_field="row"),
            _norm_table(facts),
            _figure_table("grad_profile", "The gradient profile at initialisation", merged, "norm.grad_profile"),
            _positions_table(merged), _cost_table(results_dir, chapter, missing),
            *_winograd_tables(merged, facts, chapter, missing)]


# -------------------------------------------------------------------------------------- Markdown

def grid_md(t: Table, ref: Callable[[str, str], str] | None = None) -> list[str]:
    """The grid as Markdown lines; `ref(figure ID, text)` writes a cell restating a figure the
    chapter prints (the chapter view's secondary mark), else the cell is escaped text."""
    def one(i: int, j: int, v) -> str:
        return ref(t.figures[(i, j)], cell(v)) if ref is not None and (i, j) in t.figures else md_line(cell(v))
    return ["| " + " | ".join(md_line(h) for h in t.header) + " |", "|" + "---|" * len(t.header),
            *("| " + " | ".join(one(i, j, v) for j, v in enumerate(row)) + " |" for i, row in enumerate(t.rows))]


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
    """The grid as an HTML table; `ref` as in grid_md."""
    def one(i: int, j: int, v) -> str:
        return ref(t.figures[(i, j)], cell(v)) if ref is not None and (i, j) in t.figures else html.escape(cell(v))
    head = "".join(f"<th>{html.escape(h)}</th>" for h in t.header)
    body = "".join("<tr>" + "".join(f"<td>{one(i, j, v)}</td>" for j, v in enumerate(row)) + "</tr>"
                   for i, row in enumerate(t.rows))
    return f"<table class='chapter-table'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def table_html(t: Table) -> str:
    """One table in HTML: its listings, each a <pre> under its label, then its grid."""
    parts = [f"<p>{html.escape(label)}:</p><pre>{html.escape(text)}</pre>" for label, text in t.listings]
    if t.grid:
        parts.append(f"<p>{html.escape(t.grid)}:</p>")
    return "".join(parts) + (grid_html(t) if t.header else "")


def render_html(tables: list[Table]) -> str:
    """The tables as a section of index.html."""
    return "\n".join([f"<h2 id='tables'>{TITLE}</h2>"]
                     + [f"<h3>{html.escape(t.title)}</h3>{table_html(t)}" for t in tables])
