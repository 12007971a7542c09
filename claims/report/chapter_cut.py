"""This chapter's own lists for its chapter view (the view and its cut are the engine's, handed
them in claims/report/parts.py REPORT): where our tables and plots go (PLACES), the paragraphs that
introduce a formula rather than a table (FORMULAS), its sections (HEADINGS, WITHIN: the chapter
prints no headings).  Pure: no HTML, no torch.
"""
from __future__ import annotations

from textcheck import Place

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

# The chapter's sections (it prints no headings), each by a short verbatim phrase of its first
# paragraph (no figure in it, found once in the text; tests/acceptance/test_chapter_view.py checks
# both) and a title: a claim section's key (its title is claims/registry.py SECTIONS's) or ours.
# (anchor id, title, a phrase of the section's first paragraph)
HEADINGS = [
    ("recurrence", "recurrence", "the summary was a recurrent state"),
    ("average", "average", "The most obvious function of a variable number of vectors"),
    ("mask", "mask", "Averaging over a growing prefix looks like a loop."),
    ("qkv", "qkv", "The rest of this chapter is one question"),
    ("scale", "scale", "Almost every explanation of"),
    ("ladder", "ladder", "One head is one softmax row per position"),
    ("norm", "norm", "Look at where the normalisation sits"),
    ("positions", "positions", "Delete the position embeddings and the model still trains"),
    ("dropout", "dropout", "Dropout is inherited the same way"),
    ("cost", "cost", "Two tensors in the layer have shape"),
    ("decoder", "Encoder-decoder and decoder-only", "describes an encoder-decoder"),
    ("params", "params", "With the block defined, model size is arithmetic."),
    ("winograd", "winograd", "Perplexity is a number about a corpus."),
    ("implementation", "Checked against PyTorch", "Finally, the implementation."),
    ("next", "What you have, and what you do not", "You have the architecture every model"),
]
# claim sections that begin inside one of the above (the corpus, in the average's; depth, in the
# closing one): listed under it, with an anchor and a marker of their own
WITHIN = [
    ("corpus", "corpus", "The corpus below is"),
    ("depth", "depth", "stacking will not fix it by itself"),
]
