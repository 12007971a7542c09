"""Every number the chapter prints, accounted for: the anchor of an asserted figure
(claims/chapter_figures.py FIGURES), a number a test reads without asserting it (READ, with
why), or declared here with its reason (textcheck/declared.py NUMBER_REASONS): setup, context, a
cross-reference, a year, code, notation, a repeat of an asserted figure (checked), an example,
device-specific context, or not a number.

What counts as a number, digits or words, is the engine's walk (textcheck/accounting.py); the
words that are not a figure are declared in claims/number_words.py.
claims/bookkeeping/test_bookkeeping.py fails on any number with neither an anchor nor a reason,
and names it with its context.  Pure: no torch, no pytest.
"""
from __future__ import annotations

from textcheck import Declared

# Patterns, each a reason for every number inside each of its matches
DECLARED_PATTERNS: list[tuple[str, str, str]] = [
    (r"Chapters? \d+(?: to \d+)?", "cross-reference", "a chapter of the course"),
    (r"(?<![\d,.])(?:199\d|20[0-2]\d)(?!\d|[.,]\d)", "year", "a date in the history the chapter tells"),
]


DECLARED: list[Declared] = [
    # the history and the course around the chapter
    Declared(r"\mathbf{h}_t = f(\mathbf{h}_{t-1}", "notation", "the recurrence's index, t - 1"),
    Declared(r"$\mathbf{h}_t$ needs $\mathbf{h}_{t-1}$", "notation", "the recurrence's index, t - 1"),
    # the setup every model shares (fixtures/recipes.py holds it).  Every "setup" number is compared with
    # what uses it, or says why not, in claims/chapter_setup.py (claims/bookkeeping/test_chapter_setup.py)
    Declared("with a vocabulary of 1024", "setup", "the BPE vocabulary (data/bpe.py)"),
    Declared("Every model is 128 wide, sees 128 tokens, and trains for 3000 steps of AdamW at $10^{-3}$ with a "
             "batch of 64", "setup", "the common recipe (fixtures/recipes.py)"),
    Declared("At position 100 the current token", "setup", "where the one-hundredth figure is read"),
    Declared("points out of 188", "repeat", "the 188 points the residual is worth",
             repeats="ladder.gain_residual_average"),
    Declared("and 9 for", "repeat", "the 9 points the residual is worth for one head", repeats="ladder.gain_residual_head"),
    # code: the chapter's listings and their indices
    Declared("A = A / A.sum(1, keepdim=True)          # rows", "code", "the listing"),
    Declared("print((A[-1] @ x - A[-1] @ y).abs().max().item())", "code", "the listing"),
    Declared("loop = torch.stack([x[:t + 1].mean(0) for t in range(T)])", "code", "the listing"),
    Declared("A = A / A.sum(1, keepdim=True)\nmat", "code", "the listing"),
    Declared('torch.tril(torch.ones(T, T)) == 0, float("-inf"))', "code", "the listing"),
    Declared("soft = F.softmax(S, dim=-1) @ x", "code", "the listing"),
    Declared("T = x.shape[1]", "code", "the listing"),
    Declared("s = q @ k.transpose(-2, -1)", "code", "the listing"),
    Declared("w = F.softmax(s, dim=-1)", "code", "the listing"),
    Declared("$w_i(1-w_i)$", "notation", "the softmax Jacobian's diagonal"),
    Declared("position $t$ could see position $t{+}1$", "notation", "the next position"),
    Declared("not -1e9", "context", "the finite constant the chapter advises against (mask.neg_inf_float16 "
             "tests what it does in float16)"),
    # the variance table: its d column is the setup, its sqrt(d) column the theory the figures meet
    *(Declared(f"\n{row[:6]}", "setup", "the table's d column") for row in (
        "     4        3.975", "    16       16.071", "    64       64.249", "   256      253.065",
        "  1024     1015.562")),
    # dividing by sqrt(d_k): where each figure is read
    Declared("One row of 64 scores", "setup", "the fresh head's row length"),
    Declared("Undivided, at $d_k = 256$", "setup", "where scale.effective_one is read"),
    Declared("exactly one token out of 64,", "setup", "the row length"),
    Declared("At $d_k = 1024$, seven", "setup", "where scale.frozen_seven is read"),
    Declared("come from the 3000-step budget above; the last three are a shorter run — 1500 steps, batch of 32",
             "setup", "the two recipes of the scale ablation (fixtures/recipes.py SCALE)"),
    Declared("At $d_k = 32$ the division", "setup", "where scale.worth_32 is read"),
    Declared("because at 256 it is worth", "setup", "where scale.worth_256 is read"),
    Declared("and at 1024 it is worth", "setup", "where scale.worth_1024 is read"),
    Declared("at 32, everything by 256", "setup", "the widths where scale.worth_32 and scale.worth_256 are read"),
    Declared("nothing at 32", "repeat", "what the division is worth at 32, restated", repeats="scale.worth_32",
             printed="nothing"),
    # pre-norm vs post-norm
    Declared("Twelve blocks, 1000 steps, learning rate $3 \\times 10^{-3}$", "setup",
             "the norm recipe (fixtures/recipes.py NORM)"),
    Declared("pre-norm    block 1 0.0498 ... block 12", "setup", "which blocks the profile prints"),
    Declared("post-norm   block 1 0.0977 ... block 12", "setup", "which blocks the profile prints"),
    Declared("pre-norm,  200-step warmup", "setup", "the warmup's length"),
    Declared("post-norm, 200-step warmup", "setup", "the warmup's length"),
    # positions
    Declared("trained on 64-token windows and evaluated at 64, 128 and 256", "setup",
             "the positions recipe (fixtures/recipes.py POSITIONS)"),
    Declared("because position 100 was never in a batch", "example", "a position past the trained 64"),
    Declared('"we extended the context to 128K"', "context", "an announcement the chapter quotes, not a measurement"),
    Declared("defined at position 200,", "example", "a position past the trained 64"),
    # the cost of attention
    Declared("One attention layer, 512 wide, 8 heads", "setup", "the cost layer (fixtures/cost.py)"),
    Declared("wall clock on an 8 GB laptop card that throttles from 1,785 MHz to under 300 MHz", "context",
             "the chapter's device and why its ms columns are read for their ratios only"),
    *(Declared(f"\n{row[:8]}", "setup", "the table's tokens column") for row in (
        "     128", "     256", "     512", "    1024", "    2048", "    4096", "    8192", "   16384")),
    *(Declared(ms, "device-specific context",
               "the ms columns: wall clock on the chapter's throttling laptop card, read for their ratios "
               "only; their convergence on 4 is asserted (cost.converges_on_4), their fitted exponent is "
               "cost.time_exponent, the projections' factor cost.projections_x8") for ms in (
        "2.246        -            1.324", "2.855     1.27            2.113", "5.761     2.02            3.105",
        "16.414     2.85            4.008", "51.573     3.14            9.989", "225.432", "20.176",
        "832.838", "40.106")),
    Declared("against a theoretical 4", "context", "the theory the 3.91 is compared with"),
    Declared("4.0 ms at 1024 tokens to 40.1 ms at 8192", "device-specific context",
             "the projections column's ends, wall clock; their ratio is cost.projections_x8"),
    Declared("on an 8 GB GPU at", "setup", "the device cap of cost.oom_16k (fixtures/capped.py)"),
    Declared("being 8 heads times 16,384 times 16,384 times 4 bytes", "setup",
             "the factors of cost.oom_matrix_gb (the layer's heads, the length, float32's bytes)"),
    # parameter arithmetic
    Declared("$4d^2 + 4d$", "notation", "the attention's count, params.block_formula"),
    Declared("as GPT-2 has them", "context", "the model's name"),
    Declared("at $d = 768$; $8d^2 + 5d$", "notation", "the MLP's count at GPT-2's width"),
    Declared("$12d^2 + 13d$", "notation", "the block formula, params.block_formula"),
    Declared("$4d$ for two LayerNorms", "notation", "the LayerNorms' count, part of params.block_formula"),
    Declared("For the shape of GPT-2 small — $d = 768$, 12 blocks, a vocabulary of 50,257, a context of 1024",
             "setup", "GPT-2 small's shape (claims/test_params.py GPT2)"),
    Declared("50,257 x 768", "setup", "the factors of the row (GPT-2 small's shape)"),
    Declared("1,024 x 768", "setup", "the factors of the row (GPT-2 small's shape)"),
    Declared("\n  12 blocks", "setup", "GPT-2 small's depth"),
    Declared("2 x 768", "setup", "the factors of the row"),
    Declared("a model like GPT-2 from nothing", "context", "the model's name"),
    # the Winograd maps
    Declared("the animal waited .\n  blk 1", "setup", "the block a printed row belongs to"),
    Declared("the street waited .\n  blk 1", "setup", "the block a printed row belongs to"),
    Declared("the:0.19\n  blk 2  the:0.00 animal:0.00 did:0.00 not:0.00 cross:0.00", "setup",
             "the block a printed row belongs to"),
    Declared("the:0.19\n  blk 2  the:0.00 animal:0.00 did:0.00 not:0.00 cross:0.03", "setup",
             "the block a printed row belongs to"),
    Declared("Block 1 is identical in both sentences — 0.70 on the first noun", "repeat",
             "the map's first-noun cell of block 1, asserted", repeats="winograd.map_tired_1_1", printed="0.70"),
    Declared("So block 1 does", "context", "which block"),
    Declared("Block 2 is where", "context", "which block"),
    Declared("block 1 put it there", "context", "which block"),
    # the implementation against PyTorch's
    Declared("$1.8 \\times 10^{-7}$", "repeat", "the max |diff| of qkv.diff_mha and qkv.diff_sdpa, rounded",
             repeats="qkv.diff_mha", printed="1.8e-7"),
]
