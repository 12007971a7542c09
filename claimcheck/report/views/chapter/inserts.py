"""What the chapter view adds to the chapter, in place: our regenerated table wherever the chapter
introduces a table its text does not print, and each plot beside the paragraph it belongs to.

A table is built from its data (claims/report/table_data.py `Table`), never from another
rendering, and labelled as ours with the seeds, the dates and the devices of the evidence it is
built from.  A cell restating a figure the chapter prints in its prose carries a secondary mark:
the figure's verdict symbol and colour, linking to the figure's one mark in the text (the mark
that counts; a figure is marked once, where the chapter prints it).  A plot is embedded as a
data: URI, so that chapter.html stays one file; chapter.md links it by a relative path.  The
tables and the plots are the report model's (claimcheck/report/model/report.py), the ones index.html shows
(each plot encoded once for both pages: claimcheck/report/model/parts.py Plot); a plot with no place
here (a screenshot) is not shown.  Imports no torch.
"""
from __future__ import annotations

import html
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from claimcheck.anchors import Anchor, AnchorList, index_of
from claimcheck.report.model.parts import Plot, Table
from claimcheck.report.views.escape import md_line
from claimcheck.report.views.tables import grid_html, grid_md


@dataclass(frozen=True)
class Place:
    phrase: str         # verbatim, once in the chapter: the insert follows the paragraph holding it
    kind: str           # "table" (ours, for one the chapter introduces and does not print) or "plot"
    key: str            # the table's key (table_data.Table.key; "" where we have none) or the plot's stem


# Where each insert goes, by a verbatim phrase of its paragraph (tests/integration/test_chapter_inserts.py finds
# each once in the text).  The tables: every paragraph that ends by introducing a table ("...:")
# and is followed by prose, not by the table; the plots: the paragraph that discusses what they show.
PLACES = [
    Place("One row of 64 scores, with and without the division:", "table", "effective_tokens"),
    Place("Over two thousand random rows:", "table", "softmax_jacobian"),
    Place("Delete the division and train, at four head widths:", "table", "sqrt_dk_ablation"),
    Place("Delete the division and train, at four head widths:", "plot", "scale"),
    Place("The mechanism is visible in the scores themselves:", "table", "runaway"),
    Place("The full ladder, each row adding one piece to the row above it:", "table", "ladder"),
    Place("The full ladder, each row adding one piece to the row above it:", "plot", "ladder"),
    Place("Now where the parameters actually sit", "table", "mlp_share"),   # ladder.mlp_two_thirds's records
    Place("post-norm with warmup matches pre-norm exactly", "plot", "norm"),
    Place("Four ways to inject position,", "table", "positions"),
    Place("Four ways to inject position,", "plot", "positions"),
    Place("The x4 columns are the ratio to the row above", "plot", "cost_scaling_cpu"),
    Place("Block 1 is identical in both sentences", "plot", "winograd_attention"),
    Place("the same row across all eight adjectives shows the rule the model found:", "table", "winograd_routing"),
]
# The other paragraphs that end with a colon and are followed by prose introduce a formula the text
# does not print, not a table (not inserted: there is nothing of ours to show for them).
FORMULAS = ["returns one vector is the average:", "The formula is now bookkeeping:",
            "variances of independent things add:"]

CSS = """figure.ours{margin:.6em 0 1.4em;padding:.5em .7em;border:1px solid #c9d3df;border-left:4px solid #1565c0;
background:#f7f9fc;font-family:sans-serif;font-size:13px}
figure.ours figcaption{margin-bottom:.4em;color:#333}figure.ours figcaption b{color:#1565c0}
figure.ours table{border-collapse:collapse;width:100%}figure.ours td,figure.ours th{border:1px solid #d5dbe3;
padding:2px 6px;text-align:left;vertical-align:top}figure.ours th{background:#e8eef6}
figure.ours-plot img{max-width:100%;height:auto;display:block;margin:0 auto}
math{font-size:1.05em}"""      # a figure's secondary mark (a.figref) is styled with the marks: chapter_marks.py


@dataclass(frozen=True)
class Inserts:
    tables: dict[str, Table]        # by key
    plots: dict[str, Plot]          # by stem


def placed(chapter: str, blocks) -> dict[int, list[Place]]:
    """The inserts after each paragraph (by the paragraph's start); a phrase not in a prose
    paragraph places nothing (`unplaced` names it); one the text does not hold once is the anchor
    index's one error (claimcheck/anchors.py)."""
    out: dict[int, list[Place]] = {}
    index = index_of(chapter)
    for p in PLACES:
        at = index.locate(Anchor(p.phrase, "places", p.key))
        b = next((b for b in blocks if b.start <= at < b.end and b.kind == "p"), None)
        if b is not None:
            out.setdefault(b.start, []).append(p)
    return out


def anchor_lists() -> tuple[AnchorList, ...]:
    """The view's lists of quotes: the places of our inserts (by key) and the formulas (by position)."""
    return (AnchorList("places", tuple(Anchor(p.phrase, "places", p.key) for p in PLACES)),
            AnchorList("formulas", tuple(Anchor(f, "formulas", f"#{i}") for i, f in enumerate(FORMULAS))))


def unplaced(chapter: str, blocks) -> list[str]:
    where = {p.phrase for ps in placed(chapter, blocks).values() for p in ps}
    return [p.phrase for p in PLACES if p.phrase not in where]


def provenance_text(t: Table) -> str:
    """Where ours comes from: its seeds, device, dates and files; or that nothing was measured."""
    if not t.evidence:
        return "not measured in this report: no evidence recorded (run its tests for a fresh one)"
    p = t.provenance()
    return f"Seeds: {p['seeds']}; device: {p['device']}; date: {p['date']}; from {p['from']}"


# ------------------------------------------------------------------------------------------ HTML

def _table_html(t: Table, ref: Callable[[str, str], str]) -> str:
    key = html.escape(t.key)
    return (f"<figure class='ours ours-table' id='ours-table-{key}' data-table='{key}'><figcaption><b>Ours</b>, "
            f"regenerated by this project (the chapter does not print its table): {html.escape(t.title)}. "
            f"<span class='provenance'>{html.escape(provenance_text(t))}.</span></figcaption>"
            f"{grid_html(t, ref)}</figure>")


NOT_REGENERATED = ("the chapter introduces a table here and does not print it, and this report has no table of "
                   "ours for it")


def _missing_html() -> str:
    return (f"<figure class='ours ours-table not-regenerated' data-table=''><figcaption><b>Ours</b>: "
            f"{NOT_REGENERATED}.</figcaption></figure>")


def _plot_html(plot: Plot) -> str:
    s = html.escape(plot.stem)
    return (f"<figure class='ours ours-plot' id='ours-plot-{s}' data-plot='{s}'>"
            f"<img alt='our plot: {s}' src='{plot.uri}'>"
            f"<figcaption><b>Ours</b>: {html.escape(plot.name)}, drawn from this project's evidence "
            f"({html.escape(_where(plot.path))}).</figcaption></figure>")


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

def _table_md(t: Table, ref: Callable[[str, str], str]) -> list[str]:
    label = (f"**Ours**, regenerated by this project (the chapter does not print its table): {md_line(t.title)}. "
             f"_{md_line(provenance_text(t))}._")
    return [label, "", *grid_md(t, ref), ""]


def md_after(places: list[Place], ins: Inserts, out: Path, ref: Callable[[str, str], str]) -> list[str]:
    """The same inserts in Markdown: a table as a Markdown table, a plot as a relative image link."""
    lines = []
    for p in places:
        if p.kind == "table":
            t = ins.tables.get(p.key)
            lines += _table_md(t, ref) if t is not None else [f"**Ours**: {NOT_REGENERATED}.", ""]
        elif p.key in ins.plots:
            rel = Path(os.path.relpath(ins.plots[p.key].path, out)).as_posix()
            lines += [f"![Ours: {md_line(p.key)}, drawn from this project's evidence]({rel})", ""]
    return lines
