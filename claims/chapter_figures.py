"""The chapter's figures, each anchored in its text: the one home of a printed number.

Every entry: a stable figure ID (never renamed, like claim IDs), its claim ID, and an anchor: a
short verbatim quote around the number, unique in the chapter.  The number as printed ("37.82",
"99.9 %", "ten") is the anchor's last, typed (`printed=`) only where the figure is another number
of its anchor; its value and rounding are parsed from the printed digits, never typed again
(textcheck/figures.py).  A printed table's cells are figures too, each anchored by the table's text
up to it (`_cells`; the tables as printed: claims/printed_tables.py).  `device` says where a figure
can be decided.  Every other number of the chapter is declared in claims/accounting.py;
claims/bookkeeping/test_chapter_figures.py finds every anchor.  Pure: no torch, no pytest.
"""
from __future__ import annotations

from claims.printed_tables import (
    COST_N,
    COST_ROWS,
    GPT2_ROWS,
    MAP_SENTENCES,
    MASK_ROWS,
    VARIANCE_D,
    VARIANCE_ROWS,
)
from textcheck import Figure


def _f(fid: str, claim: str, anchor: str, device: str = "any", printed: str = "") -> tuple[str, Figure]:
    return fid, Figure(fid, claim, printed, anchor, device)


# Where a figure of the cost table can be decided (docs/cost.md, "Where a cost figure is decided"):
# by the instrument that produced it.  The chapter's laptop card's wall clock made the ms columns and
# what is fitted or divided from them ("for their ratios only"), its CUDA caching allocator the
# peak-MB column and its fit: another device is another instrument (a CPU layer is compute-bound at
# every length, a GPU one launch-bound at the short ones), so each is a reading there, never a
# verdict.  Arithmetic (bytes of a tensor, a ratio of printed cells) and theory (counted operations
# and bytes) hold on any device; a clock, an allocator, and a capacity (a run under a memory cap,
# which a CPU only emulates: rule version 3) decide only on CUDA (fixtures/measurements.py
# READ_OFF_INSTRUMENT).
INSTRUMENT_DEVICE = {"clock": "cuda", "allocator": "cuda", "arithmetic": "any", "theory": "any", "capacity": "cuda"}
COST_INSTRUMENT: dict[str, str] = {}        # figure ID -> instrument, for every figure of the cost table


def _cost(fid: str, claim: str, anchor: str, instrument: str, printed: str = "") -> tuple[str, Figure]:
    COST_INSTRUMENT[fid] = instrument
    return _f(fid, claim, anchor, INSTRUMENT_DEVICE[instrument], printed)


def _cells(prefix: str, claim: str, head: str, rows: list[str], names, device: str = "any", instrument: str = ""):
    """A printed table's cells, each a figure anchored by the text from `head` through the cell.
    names(row, column) -> the figure ID's suffix, or None to leave the cell out.  A cost-table cell
    gives its instrument instead of a device (COST_INSTRUMENT)."""
    out, above = [], head
    for r, row in enumerate(rows):
        for c, m in enumerate(Figure.NUMBER.finditer(row)):
            name = names(r, c)
            if name is not None:
                make = (lambda *a: _cost(*a, instrument)) if instrument else (lambda *a: _f(*a, device))
                out.append(make(f"{prefix}{name}", claim, above + row[: m.end()]))     # the cell: its anchor's last number
        above += row + "\n"
    return out


def _map_cells():
    out = []
    for adj, (head, rows) in MAP_SENTENCES.items():
        for blk in (1, 2):
            # a block's two printed lines: numbers 1 (the block's own) then 7 words, then 8 words
            def names(r, c, blk=blk, adj=adj):
                if r // 2 != blk - 1 or (r % 2 == 0 and c == 0):
                    return None
                return f"_{adj}_{blk}_{c - 1 if r % 2 == 0 else 7 + c}"
            out += _cells("winograd.map", "winograd.block1_first_noun" if blk == 1 else "winograd.block2_routing",
                          head, rows, names)
    return out


FIGURES: dict[str, Figure] = dict([
    # the recurrent summary: the history's arithmetic
    _f("recurrence.updates", "recurrence.sequential_updates", "only by surviving 495"),
    _f("recurrence.years", "recurrence.three_years_before", "in 2014, three"),
    # the corpus and its tokens
    _f("corpus.megabytes", "corpus.chars", "The corpus below is one"),
    _f("corpus.characters", "corpus.chars", "Shakespeare, 1,115,394 characters", printed="1,115,394"),
    _f("corpus.token_count", "corpus.tokens", "459,760 tokens at 2.43 characters each", printed="459,760"),
    _f("corpus.characters_per_token", "corpus.chars_per_token", "459,760 tokens at 2.43"),
    _f("corpus.split_train", "corpus.split", "split 90"),
    _f("corpus.split_held_out", "corpus.split", "split 90/10"),
    # the average: order, dilution, and the ladder's first rows
    _f("average.shuffle_diff", "average.permutation_invariant", "\n2.9802322387695312e-08"),
    _f("average.one_hundredth", "average.dilution", "the current token is one hundredth"),
    _f("average.model_lines", "average.model_fifteen_lines", "a complete language model in fifteen"),
    _f("average.four_times", "average.worse_than_baseline", "it makes the model four"),
    _f("average.positions_gain", "average.positions_dont_help", "bought 2.14"),
    # the mask: the loop, the matmul and the softmax, and the printed averaging matrix
    _f("mask.loop_vs_matmul", "mask.loop_matmul_softmax", "loop vs matmul   max |diff| = 5.960464477539063e-08"),
    _f("mask.loop_vs_softmax", "mask.loop_matmul_softmax", "loop vs softmax  max |diff| = 5.960464477539063e-08"),
    _f("mask.rows_sum_one", "mask.averaging_matrix", "whose rows sum to one"),
    _f("mask.upper_zero", "mask.averaging_matrix", "upper triangle is zero"),
    _f("mask.masked_zero", "mask.neg_inf_float16", "sends them to exactly zero"),
    _f("mask.row_sums", "mask.averaging_matrix", "(rows sum to 1"),
    *_cells("mask.a_", "mask.averaging_matrix", "\n", MASK_ROWS, lambda r, c: f"{r + 1}_{c + 1}"),
    # the thirty lines: the printed listing, counted
    _f("qkv.listing_lines", "qkv.head_thirty_lines", "In code it is thirty"),
    _f("qkv.listing_shape_lines", "qkv.head_thirty_lines", "thirty lines, twenty"),
    # queries, keys and values: the thirty lines against PyTorch's own
    _f("qkv.diff_mha", "qkv.head_matches_torch", "ours vs nn.MultiheadAttention           max |diff| = 1.7881393432617188e-07"),
    _f("qkv.diff_sdpa", "qkv.head_matches_torch", "ours vs F.scaled_dot_product_attention  max |diff| = 1.7881393432617188e-07"),
    # the variance of q.k: its Var and std columns (d is the setup, sqrt(d) the theory they meet)
    *_cells("scale.", "scale.variance_is_d", "\n", VARIANCE_ROWS,
            lambda r, c: f"var_{VARIANCE_D[r]}" if c == 1 else None),
    *_cells("scale.", "scale.std_is_sqrt_d", "\n", VARIANCE_ROWS,
            lambda r, c: f"std_{VARIANCE_D[r]}" if c == 2 else None),
    *_cells("scale.", "scale.std_is_sqrt_d", "\n", VARIANCE_ROWS,          # the theory column, sqrt of d
            lambda r, c: f"sqrt_{VARIANCE_D[r]}" if c == 3 else None),
    _f("scale.linear_doubles", "scale.softmax_scale_sensitive", "input doubles"),
    _f("scale.product_variance", "scale.variance_is_d", "each product $q_j k_j$ has variance one"),
    _f("scale.effective_one", "scale.effective_tokens", "attends to exactly one"),
    _f("scale.frozen_seven", "scale.frozen_rows", "seven rows in ten", printed="seven"),
    _f("scale.divided_flat_sum", "scale.divided_flat", "flat at 0.96"),
    _f("scale.divided_saturated", "scale.divided_never_saturates", "and nothing saturates", printed="nothing"),
    _f("scale.jacobian_ends", "scale.softmax_jacobian_diagonal", "$w_i(1-w_i)$, zero"),
    _f("scale.selector_gradient", "scale.softmax_jacobian_diagonal", "its gradient is nearly zero"),
    # the ladder's held-out perplexities the prose quotes, and depth's train perplexities
    _f("ladder.baseline", "average.residual_matches_baseline", "60.45 against a baseline of 59.71"),
    _f("ladder.residual_average_val", "average.residual_matches_baseline", "60.45 against a baseline of 59.71", printed="60.45"),
    _f("ladder.layernorm_val", "depth.two_blocks_overfit", "against one block's 18.77 and 38.07"),
    _f("ladder.two_blocks", "depth.two_blocks_overfit", "a validation perplexity of 40.57"),
    _f("depth.one_block_train", "depth.two_blocks_overfit", "against one block's 18.77 and 38.07", printed="18.77"),
    _f("depth.two_blocks_train", "depth.two_blocks_overfit", "a training perplexity of 14.49"),
    # the twelve-block table
    _f("norm.prenorm", "norm.prenorm_needs_no_warmup", "pre-norm,  no warmup          perplexity   37.82"),
    _f("norm.prenorm_warmup", "norm.prenorm_needs_no_warmup", "pre-norm,  200-step warmup    perplexity   37.62"),
    _f("norm.postnorm", "norm.postnorm_diverges", "post-norm, no warmup          perplexity  308.05"),
    _f("norm.postnorm_warmup", "norm.warmup_rescues_postnorm", "post-norm, 200-step warmup    perplexity   37.88"),
    # the gradient profile at initialisation
    _f("norm.grad_pre_first", "norm.grad_profile", "pre-norm    block 1 0.0498"),
    _f("norm.grad_pre_last", "norm.grad_profile", "block 12 0.0657"),
    _f("norm.grad_pre_ratio", "norm.grad_profile", "0.0657   ratio last/first  1.32"),
    _f("norm.grad_post_first", "norm.grad_profile", "post-norm   block 1 0.0977"),
    _f("norm.grad_post_last", "norm.grad_profile", "block 12 0.1613"),
    _f("norm.grad_post_ratio", "norm.grad_profile", "0.1613   ratio last/first  1.65"),
    # what dividing by sqrt(d_k) is worth, and the runaway
    _f("scale.worth_32", "scale.no_effect_at_32", "the division is worth nothing"),
    _f("scale.worth_256", "scale.matters_at_256", "at 256 it is worth 18 points", printed="18"),
    _f("scale.worth_1024", "scale.matters_at_256", "at 1024 it is worth 17"),
    _f("scale.runaway_init_sd", "scale.runaway", "goes from 21 at initialisation to 5147", printed="21"),
    _f("scale.runaway_sd", "scale.runaway", "goes from 21 at initialisation to 5147"),
    _f("scale.runaway_entropy", "scale.runaway", "the attention entropy falls to zero"),
    _f("scale.runaway_frozen", "scale.runaway", "99.9 % of rows put more than 0.99", printed="99.9 %"),
    _f("scale.divided_sd", "scale.runaway", "score standard deviation of 3.44"),
    # one attention layer's cost: each figure with the instrument that made it, which says where it
    # can be decided (INSTRUMENT_DEVICE, above)
    *_cells("cost.", "cost.matrix_bytes", "\n", COST_ROWS,
            lambda r, c: f"matrix_mb_{COST_N[r]}" if c == (3 if r == 0 else 1 if r == 7 else 4) else None,
            instrument="arithmetic"),
    *_cells("cost.", "cost.peak_memory", "\n", COST_ROWS[:7],
            lambda r, c: f"peak_mb_{COST_N[r]}" if c == (4 if r == 0 else 5) else None, instrument="allocator"),
    # the x4 columns as printed: ratios of the chapter's own printed cells, checked by arithmetic
    *_cells("cost.", "cost.x4_columns", "\n", COST_ROWS[1:7],
            lambda r, c: f"ms_x4_{COST_N[r + 1]}" if c == 2 else None, instrument="arithmetic"),
    *_cells("cost.", "cost.x4_columns", "\n", COST_ROWS[1:7],
            lambda r, c: f"mb_x4_{COST_N[r + 1]}" if c == 6 else None, instrument="arithmetic"),
    _cost("cost.time_exponent", "cost.time_quadratic", "time ~ n^1.91", "clock"),
    _cost("cost.memory_exponent", "cost.memory_quadratic", "memory ~ n^1.87", "allocator"),
    # the measured x4 columns converge on 4 (rule version 3: the sentence is about the chapter's
    # measurements; the counted operations and bytes are shown beside it as the theory, never a verdict)
    _cost("cost.converges_on_4", "cost.time_quadratic", "converges on exactly 4", "clock"),
    _cost("cost.memory_last_ratio", "cost.memory_quadratic", "3.91 at the last step", "allocator", printed="3.91"),
    _cost("cost.projections_x8", "cost.projections_linear", "a factor of ten for a factor of eight", "clock", printed="ten"),
    _cost("cost.projections_span", "cost.projections_linear", "for a factor of eight", "arithmetic"),
    _cost("cost.oom_tokens", "cost.oom_16k", "runs out of memory on an 8 GB GPU at 16,384", "capacity"),
    _cost("cost.oom_matrix_gb", "cost.matrix_bytes", "the score matrix alone would be 8", "arithmetic"),
    _cost("cost.square_tensors", "cost.two_nxn_tensors", "Two tensors in the layer", "arithmetic", printed="Two"),
    # parameter arithmetic: the GPT-2 small accounting, the bias, the embedding's share
    *_cells("params.", "params.gpt2_small", "\n", list(GPT2_ROWS.values()),
            lambda r, c: list(GPT2_ROWS)[r] if c == (2 if r in (0, 1, 4) else 1 if r == 3 else 0) else None),
    _f("params.bias_count", "params.bias_difference", "hence 2,304"),
    _f("params.embedding_share", "params.embedding_third", "nearly a third"),
    # the ladder's gains in points, and its parameter counts
    _f("ladder.gain_attention", "ladder.attention_beats_uniform", "Learned weights beat uniform ones by 14"),
    _f("ladder.gain_four_heads", "ladder.four_heads", "Four heads buy another 3"),
    _f("ladder.four_heads_params", "ladder.four_heads", "for 16,512"),
    _f("ladder.gain_residual_head", "ladder.residual_head", "worth 9 points more added", printed="9"),
    _f("ladder.gain_residual_average", "ladder.residual_average", "worth 188"),
    _f("ladder.layernorm_params", "ladder.layernorm", "It costs 768"),
    _f("ladder.gain_layernorm", "ladder.layernorm", "buys 1.8"),
    _f("ladder.model_params", "ladder.model_size", "a 500,000"),
    _f("ladder.mlp_share", "ladder.mlp_two_thirds", "Two thirds of every transformer block", printed="Two thirds"),
    _f("ladder.mlp_expansion", "ladder.mlp_expands_four_gelu", "expanding the width by four"),
    _f("ladder.attention_matrices", "ladder.attention_four_mlp_eight", "attention has four"),
    _f("ladder.mlp_matrices", "ladder.attention_four_mlp_eight", "the equivalent of eight"),
    _f("ladder.block_norms", "ladder.block_two_norms_two_adds", "two normalisations", printed="two"),
    _f("ladder.block_additions", "ladder.block_two_norms_two_adds", "and two additions", printed="two"),
    # post-norm without warmup
    _f("norm.eight_times", "norm.postnorm_diverges", "Post-norm without warmup is eight"),
    # ALiBi past the trained length
    _f("positions.alibi_64", "positions.alibi_improves", "from 44.95 to 42.49", printed="44.95"),
    _f("positions.alibi_256", "positions.alibi_improves", "from 44.95 to 42.49"),
    # the Winograd accuracies
    _f("winograd.cheatable_uniform", "winograd.category_cheat", "uniform causal average           held-out referent accuracy 100.0 %"),
    _f("winograd.cheatable_one_block", "winograd.category_cheat", "one transformer block            held-out referent accuracy  91.7 %"),
    _f("winograd.hardened_uniform", "winograd.uniform_fails", "The uniform average lands at 27.9 %"),
    _f("winograd.hardened_uniform_wrong_noun", "winograd.uniform_fails", "answers with the wrong noun of the pair exactly half the time", printed="half"),
    _f("winograd.hardened_one_block", "winograd.one_block", "one block reached 92.7 %"),
    _f("winograd.hardened_two_blocks", "winograd.two_blocks", "two reached 100 %"),
    _f("winograd.chance", "winograd.hard_chance", "Chance among the two nouns present is 50 %"),
    _f("winograd.uniform_each", "winograd.uniform_weight", "would put 0.067"),
    _f("winograd.visible_tokens", "winograd.template_counts", "each of the fifteen"),
    _f("winograd.query_position", "winograd.template_counts", "the at position 14"),
    *_map_cells(),
])


# The ladder's rows the chapter quotes (its table is not in the text), by recipe name
# (fixtures/recipes.py LADDER): the figure each row's held-out perplexity is asserted as.
LADDER_ROW_FIGURE = {"baseline": "ladder.baseline", "residual_average": "ladder.residual_average_val",
                     "layernorm": "ladder.layernorm_val", "two_blocks": "ladder.two_blocks"}


# The null a sentence contrasts a printed figure with, declared beside the figure (docs/figure-rule.md):
# a figure whose band (mean over seeds +- rounding + 2 sd) also holds its null cannot be told from
# it, and is undecided.  Only figures whose sentence makes the contrast: a gain the chapter says
# something buys (against no gain), a ratio it calls worse (against 1), an accuracy (against
# chance, "Chance among the two nouns present is 50 %"), and the attention map, which the
# chapter introduces against "A uniform average would put 0.067 on each of the fifteen visible
# tokens": its cells printed as 0.00 (nothing) or at 0.19 and above (where the weight went).  A
# cell printed at 0.03 to 0.06 is printed as about the uniform weight, not against it.
def _printed_null(fid: str, words: str) -> tuple[float, str] | None:
    """A null the chapter prints itself, read from its figure (None while that figure is not in the
    table, as in docs/adding-a-claim.md's worked example, which removes and re-adds a claim)."""
    return (FIGURES[fid].value, words) if fid in FIGURES else None


NO_GAIN = (0, "no gain")
CHANCE = _printed_null("winograd.chance", "chance between the two nouns")
UNIFORM_ROW = _printed_null("winograd.uniform_each", "a uniform row's weight")
NULLS: dict[str, tuple[float, str] | None] = {
    **{fid: NO_GAIN for fid in ("ladder.gain_attention", "ladder.gain_four_heads", "ladder.gain_residual_head",
                                "ladder.gain_residual_average", "ladder.gain_layernorm",
                                "scale.worth_256", "scale.worth_1024")},
    "average.four_times": (1, "no worse than the baseline (a ratio of 1)"),
    "norm.eight_times": (1, "no worse than pre-norm (a ratio of 1)"),
    **{fid: CHANCE for fid in ("winograd.cheatable_uniform", "winograd.cheatable_one_block",
                               "winograd.hardened_uniform", "winograd.hardened_one_block",
                               "winograd.hardened_two_blocks")},
    **{fid: UNIFORM_ROW for fid, f in FIGURES.items()
       if fid.startswith("winograd.map_") and (f.value == 0 or f.value >= 0.19)},
}
