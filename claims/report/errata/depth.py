"""The errata of the chapter's closing section: depth (two blocks against one)."""
from __future__ import annotations

from claims.formats import mean_of, over_seeds
from claims.report.errata.facts import Erratum

ERRATA: dict[str, Erratum] = {
    "depth.two_blocks_overfit": Erratum(
        quote="Two blocks on this corpus reach a training perplexity of 14.49",
        cause=lambda f: (f"two blocks reach {over_seeds(f.runs('ladder', 'two_blocks', 'train_ppl'))} on training text here; "
                         "the ordering the sentence draws (better on train, worse on held-out) and the other three "
                         "figures hold"),
        suggested=lambda f: (f"\"Two blocks on this corpus reach a training perplexity of "
                             f"{mean_of(f.runs('ladder', 'two_blocks', 'train_ppl'))} and a validation perplexity of "
                             f"{mean_of(f.runs('ladder', 'two_blocks'))}, against one block's "
                             f"{mean_of(f.runs('ladder', 'layernorm', 'train_ppl'))} and {mean_of(f.runs('ladder', 'layernorm'))}.\"")),
}
