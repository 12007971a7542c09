"""The errata of the chapter's closing section: depth (two blocks against one)."""
from __future__ import annotations

from claimcheck.formats import over_seeds
from claims.report.errata.facts import Erratum, in_sentence

ERRATA: dict[str, Erratum] = {
    "depth.two_blocks_overfit": Erratum(
        figure="depth.two_blocks_train",
        cause=lambda f: (f"two blocks reach {over_seeds(f.per_run('ladder', 'two_blocks', 'train_ppl'))} on training text here; "
                         "the ordering the sentence draws (better on train, worse on held-out) and the other three "
                         "figures hold"),
        suggested=lambda f: (f"\"Two blocks on this corpus reach a training perplexity of "
                             f"{in_sentence(f, 'depth.two_blocks_train', f.per_run('ladder', 'two_blocks', 'train_ppl'))} "
                             f"and a validation perplexity of {in_sentence(f, 'ladder.two_blocks', f.per_run('ladder', 'two_blocks'))}, "
                             "against one block's "
                             f"{in_sentence(f, 'depth.one_block_train', f.per_run('ladder', 'layernorm', 'train_ppl'))} and "
                             f"{in_sentence(f, 'ladder.layernorm_val', f.per_run('ladder', 'layernorm'))}.\"")),
}
