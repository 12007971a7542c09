"""The errata of the chapter's closing section: depth (two blocks against one)."""
from __future__ import annotations

from claims.chapter_figures import FIGURES
from claims.formats import like_mean, over_seeds
from claims.report.errata.facts import Erratum

P = {fid: f.printed for fid, f in FIGURES.items()}      # as the chapter prints each figure

ERRATA: dict[str, Erratum] = {
    "depth.two_blocks_overfit": Erratum(
        quote="Two blocks on this corpus reach a training perplexity of 14.49",
        cause=lambda f: (f"two blocks reach {over_seeds(f.runs('ladder', 'two_blocks', 'train_ppl'))} on training text here; "
                         "the ordering the sentence draws (better on train, worse on held-out) and the other three "
                         "figures hold"),
        suggested=lambda f: (f"\"Two blocks on this corpus reach a training perplexity of "
                             f"{like_mean(f.runs('ladder', 'two_blocks', 'train_ppl'), P['depth.two_blocks_train'])} and a "
                             f"validation perplexity of {like_mean(f.runs('ladder', 'two_blocks'), P['ladder.two_blocks'])}, "
                             f"against one block's {like_mean(f.runs('ladder', 'layernorm', 'train_ppl'), P['depth.one_block_train'])} "
                             f"and {like_mean(f.runs('ladder', 'layernorm'), P['ladder.layernorm_val'])}.\"")),
}
