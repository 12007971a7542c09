"""The chapter's tables, regenerated beside ours: the list of them as data (`data`, in the
chapter's order; claims/report/table_builders.py builds each one); the engine's views render them
(textcheck/report/views/tables.py: report/tables.md, and one table's grid, which the chapter view
shows in place, the engine's textcheck/report/views/chapter_view/inserts.py; index.html's section is its template's).

Built from the merged report (the figure rows every test recorded) and the committed run records
(results/<group>.json); the chapter's own columns come from the chapter's text
(../shared/chapter.txt) or from the figures each test recorded as `stated`.  Nothing measured is
typed here.  Imports no torch, like the reporter.
"""
from __future__ import annotations

from pathlib import Path

from claims.chapter import CHAPTER
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


def data(merged: dict, results_dir: Path, text: str | None = None, missing: str = "",
         facts: Facts | None = None) -> list[Table]:
    """Every table the chapter prints or describes, as data.  `text`: its text (read here when
    None); `missing`: why there is none, which the chapter's own columns then say; `facts`: the
    render's one reader of the evidence (claims/report/evidence.py), else one made here."""
    facts = facts or Facts(merged, results_dir)
    if text is None and not missing:
        text, missing = CHAPTER.text_or_none()
    if text is None or missing:           # the chapter's own columns say why they are empty; ours stay
        why = missing.splitlines()[1].strip() if len(missing.splitlines()) > 1 else missing.strip()
        missing, text = "chapter text not found (" + why + ")", ""
    return [*_scale_tables(merged, facts), _ladder_table(facts),
            _figure_table("mlp_share", ("Where the parameters sit: the MLP's share of one block's parameters "
                                        "(biases and norms included, by width) and of a whole model's"), merged,
                          "ladder.mlp_two_thirds", "ladder.mlp_holds_most_parameters", key_field="d"),
            _figure_table("gpt2_small", "GPT-2 small, parameter by parameter", merged, "params.gpt2_small",
                          "params.block_formula", "params.published_size", key_field="row"),
            _norm_table(facts),
            _figure_table("grad_profile", "The gradient profile at initialisation", merged, "norm.grad_profile"),
            _positions_table(merged), _cost_table(results_dir, text, missing),
            *_winograd_tables(merged, facts, text, missing)]
