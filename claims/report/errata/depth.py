"""The errata of the chapter's closing section: depth (two blocks against one)."""
from __future__ import annotations

from claims.report.errata.facts import Erratum, figures_edit
from textcheck import printing

ERRATA: dict[str, Erratum] = {
    "depth.two_blocks_overfit": Erratum(
        figure="depth.two_blocks_train",
        cause=lambda f: (f"two blocks reach {printing.over_seeds(f.per_run('ladder', 'two_blocks', 'train_ppl'))} on training text here; "
                         "the ordering the sentence draws (better on train, worse on held-out) and the other three "
                         "figures hold"),
        suggested=lambda f: (figures_edit(
            f, "a training perplexity of {depth.two_blocks_train} and a validation perplexity of {ladder.two_blocks}, "
               "against one block's {depth.one_block_train} and {ladder.layernorm_val}",
            {"depth.two_blocks_train": f.per_run("ladder", "two_blocks", "train_ppl"),
             "ladder.two_blocks": f.per_run("ladder", "two_blocks"),
             "depth.one_block_train": f.per_run("ladder", "layernorm", "train_ppl"),
             "ladder.layernorm_val": f.per_run("ladder", "layernorm")}),)),
}
