"""The project's registry of the chapter's claims.

IDs are those of ../shared/claims.md (stable: never renamed or dropped).  Each entry gives the
claim in our own words and what the chapter states, each printed figure named by its ID
("{norm.prenorm}") and filled in from the figure table, its kind and the tier whose tests check
it.  The `claim` marker rejects any ID that is not here.
"""
from __future__ import annotations

import re

from claims import chapter_figures
from claims.chapter_reads import READ
from textcheck import Claim


def filled(template: str) -> str:
    """A template over figure IDs ("{norm.prenorm}") with each figure as the chapter prints it."""
    every = {**chapter_figures.FIGURES, **READ}
    return re.sub(r"\{([a-z0-9_.]+)\}", lambda m: every[m.group(1)].printed, template)


def _C(cid: str, statement_text: str, stated_figure_text: str, kind: str, tier: str) -> Claim:
    """A claim, its two templates over figure IDs filled in with the figures as printed."""
    return Claim(cid, filled(statement_text), filled(stated_figure_text), kind, tier)


SECTIONS = {
    "recurrence": "The recurrent summary (history)",
    "corpus": "The corpus and its tokens",
    "average": "The average",
    "mask": "Average = matmul = softmax",
    "qkv": "Queries, keys and values",
    "scale": "Dividing by sqrt(d_k)",
    "ladder": "Heads, residuals, MLP, LayerNorm",
    "norm": "Pre-norm vs post-norm",
    "positions": "Positions",
    "dropout": "Dropout",
    "cost": "What attention costs",
    "params": "Parameter arithmetic",
    "winograd": "The Winograd referent task",
    "depth": "Depth",
}

CLAIMS: dict[str, Claim] = {c.id: c for c in [
    # corpus
    _C("corpus.chars", "The corpus is {corpus.characters} characters long.", "{corpus.characters}", "exact", "fast"),
    _C("corpus.tokens", "Byte-level BPE with 1024 symbols turns the corpus into about {corpus.token_count} tokens.", "{corpus.token_count}", "exact", "fast"),
    _C("corpus.chars_per_token", "Each token covers {corpus.characters_per_token} characters on average.", "{corpus.characters_per_token}", "exact", "fast"),
    _C("corpus.split", "The split is {corpus.split_train}/{corpus.split_held_out} and the held-out part is the last {corpus.split_held_out} %.", "{corpus.split_train}/{corpus.split_held_out}", "exact", "fast"),
    # average
    _C("average.permutation_invariant", "Shuffling the window leaves the last position's average unchanged up to float noise.", "{average.shuffle_diff}", "exact", "fast"),
    _C("average.dilution", "At position t the current token is 1/(t+1) of the average.", "{average.one_hundredth} at position 100", "exact", "fast"),
    _C("average.worse_than_baseline", "Replacing each token by the average is about four times worse than using no context.", "{average.four_times} times the baseline's {ladder.baseline}", "trained", "gpu"),
    _C("average.positions_dont_help", "Learned positions added before averaging barely help.", "{average.positions_gain} of {ladder.gain_residual_average} points", "trained", "gpu"),
    _C("average.residual_matches_baseline", "Added as a residual, the average contributes nothing over the baseline.", "{ladder.residual_average_val} vs {ladder.baseline}", "trained", "gpu"),
    # mask
    _C("mask.loop_matmul_softmax", "The prefix-mean loop, the triangular matmul and the masked softmax agree to float precision.", "{mask.loop_vs_matmul}", "exact", "fast"),
    _C("mask.averaging_matrix", "The averaging matrix has rows summing to 1, a zero upper triangle and 1/(t+1) in row t.", "the printed 6x6, {mask.a_1_1} ... {mask.a_6_6}", "exact", "fast"),
    _C("mask.neg_inf_float16", "-inf survives a cast to float16 and masked weights are exactly 0; -1e9 behaves differently across dtypes.", "-inf in fp16", "exact", "fast"),
    # qkv
    _C("qkv.self_attention_dominates", "Scored by raw x_t . x_i, tokens attend mostly to themselves.", "mostly self", "stat", "fast"),
    _C("qkv.raw_scores_symmetric", "Raw dot-product scores are symmetric; with W_q != W_k they are not.", "symmetric", "exact", "fast"),
    _C("qkv.raw_dot_product_works_badly", "Raw dot-product attention (x_t . x_i, no learned map) works, badly: better than the average, worse than a learned head.", "works, badly", "trained", "gpu"),
    # added 2026-12-07 (issue 56): two steps of the section's argument, each on a model built for it
    _C("qkv.value_map_helps", "Learning a third map, W_v, helps: the one-head model with it has a lower held-out perplexity than the same head mixing the tokens themselves.", "so learn a third map", "trained", "gpu"),
    _C("qkv.weights_not_plain_parameters", "The weights cannot be plain parameters: on a task where the right position depends on the words (the hardened Winograd task), a learned T x T matrix, the same for every sentence, falls below one block of attention.", "they cannot be plain parameters", "trained", "gpu"),
    _C("qkv.head_matches_torch", "The thirty-line head matches nn.MultiheadAttention and SDPA at float32 precision.", "{qkv.diff_mha} (outputs of mean magnitude {qkv.out_magnitude})", "exact", "fast"),
    # scale
    _C("scale.variance_is_d", "Var(q . k) = d for unit-variance entries.", "{scale.var_4} {scale.var_16} {scale.var_64} {scale.var_256} {scale.var_1024}", "stat", "fast"),
    _C("scale.std_is_sqrt_d", "The score standard deviation is sqrt(d).", "{scale.std_4} {scale.std_16} {scale.std_64} {scale.std_256} {scale.std_1024}", "stat", "fast"),
    _C("scale.effective_tokens", "Undivided at d_k = 256, a fresh head over 64 positions attends to about one effective token.", "{scale.effective_one} of 64", "stat", "fast"),
    _C("scale.frozen_rows", "Undivided at d_k = 1024, about {scale.frozen_seven} rows in ten of 2,000 are frozen.", "{scale.frozen_seven} in ten", "stat", "fast"),
    _C("scale.divided_flat", "Divided, the mean of sum_i w_i(1 - w_i) is {scale.divided_flat_sum} at every width.", "{scale.divided_flat_sum}", "stat", "fast"),
    _C("scale.no_effect_at_32", "At d_k = 32 dropping the division costs nothing.", "worth {scale.worth_32}; undivided very slightly ahead", "trained", "gpu"),
    _C("scale.matters_at_256", "Without the division perplexity is ~{scale.worth_256} points worse at d_k = 256 and ~{scale.worth_1024} at 1024.", "{scale.worth_256} / {scale.worth_1024} points", "trained", "gpu"),
    _C("scale.runaway", "Undivided scores run away: std {scale.runaway_init_sd} -> {scale.runaway_sd}, entropy -> {scale.runaway_entropy}, {scale.runaway_frozen} of rows > 0.99 on one token; divided std {scale.divided_sd}.", "{scale.runaway_init_sd} -> {scale.runaway_sd}; entropy {scale.runaway_entropy}; {scale.runaway_frozen}; {scale.divided_sd}", "trained", "gpu"),
    # ladder
    _C("ladder.attention_beats_uniform", "Learned attention weights beat uniform ones by about {ladder.gain_attention} points.", "{ladder.gain_attention} points", "trained", "gpu"),
    _C("ladder.four_heads", "Four heads buy ~{ladder.gain_four_heads} points for exactly {ladder.four_heads_params} extra parameters.", "{ladder.gain_four_heads} points; {ladder.four_heads_params}", "trained", "gpu"),
    _C("ladder.residual_head", "The same head is worth ~{ladder.gain_residual_head} points more added than replacing.", "{ladder.gain_residual_head} points", "trained", "gpu"),
    _C("ladder.residual_average", "Residual connections are worth ~{ladder.gain_residual_average} points for the average.", "{ladder.gain_residual_average} points", "trained", "gpu"),
    _C("ladder.layernorm", "LayerNorm costs exactly {ladder.layernorm_params} parameters and buys ~{ladder.gain_layernorm} points.", "{ladder.layernorm_params}; {ladder.gain_layernorm} points", "trained", "gpu"),
    _C("ladder.mlp_two_thirds", "The MLP holds two thirds of every block's parameters at every width.", "{ladder.mlp_share}", "exact", "fast"),
    _C("ladder.heads_partition_width", "h heads of width d/h cost the same q/k/v parameters as one head of width d.", "partition", "exact", "fast"),
    _C("ladder.ffn_is_positionwise", "The MLP computes within a position; attention mixes across positions.", "within / across", "exact", "fast"),
    _C("ladder.model_size", "A one-block model here has about {ladder.model_params} parameters.", "{ladder.model_params}", "exact", "fast"),
    # norm
    _C("norm.grad_profile", "At initialisation the per-block gradient norm grows with depth: pre-norm {norm.grad_pre_ratio}x, post-norm {norm.grad_post_ratio}x.", "{norm.grad_pre_first}..{norm.grad_pre_last} ({norm.grad_pre_ratio}); {norm.grad_post_first}..{norm.grad_post_last} ({norm.grad_post_ratio})", "stat", "fast"),
    _C("norm.postnorm_diverges", "Post-norm without warmup ends eight times worse.", "{norm.postnorm}, {norm.eight_times} times worse", "trained", "gpu"),
    _C("norm.warmup_rescues_postnorm", "A 200-step warmup makes post-norm match pre-norm.", "{norm.postnorm_warmup}", "trained", "gpu"),
    _C("norm.prenorm_needs_no_warmup", "Pre-norm is the same with and without warmup.", "{norm.prenorm_warmup} vs {norm.prenorm}", "trained", "gpu"),
    # positions
    _C("positions.permutation_equivariant", "Without positions, self-attention is permutation-equivariant.", "equivariant", "exact", "fast"),
    _C("positions.rope_relative", "With RoPE the score depends only on t - i.", "relative", "exact", "fast"),
    _C("positions.alibi_slopes", "ALiBi adds a distance-proportional penalty with a geometric slope per head.", "geometric slopes", "exact", "fast"),
    _C("positions.learned_cliff", "Learned absolute positions win at 64 and fall off a cliff past it.", "cliff", "trained", "gpu"),
    _C("positions.sinusoid_no_extrapolation", "Sinusoids do not extrapolate either.", "worse than no context past 64", "trained", "gpu"),
    _C("positions.rope_degrades", "RoPE degrades past the trained length, gracefully.", "worse past 64, better than no context", "trained", "gpu"),
    _C("positions.alibi_improves", "ALiBi improves as the window grows.", "{positions.alibi_64} -> {positions.alibi_256}", "trained", "gpu"),
    # dropout
    _C("dropout.placement", "Dropout acts on the attention weights, each sub-layer's output and the embedding sum; identity in eval.", "three places", "exact", "fast"),
    # cost
    _C("cost.matrix_bytes", "The score matrix takes heads x n x n x 4 bytes.", "{cost.matrix_mb_128} MB at 128 ... {cost.matrix_mb_16384} MB at 16384", "exact", "fast"),
    _C("cost.time_quadratic", "Time per doubling of n converges on {cost.converges_on_4}.", "converges on {cost.converges_on_4}; n^{cost.time_exponent}", "timed", "slow"),
    _C("cost.memory_quadratic", "Peak memory per doubling converges on {cost.converges_on_4}.", "{cost.memory_last_ratio} at the last step; n^{cost.memory_exponent}", "timed", "slow"),
    _C("cost.projections_linear", "The projections are linear in n.", "a factor of {cost.projections_x8} for eight", "timed", "slow"),
    _C("cost.oom_16k", "One layer at {cost.oom_tokens} tokens runs out of memory on an 8 GB device.", "out of memory at {cost.oom_tokens}", "timed", "slow"),
    _C("cost.fused_kernel_avoids_matrix", "A fused kernel gives the same result without storing the n x n matrix.", "same result, no matrix", "exact", "slow"),
    # params
    _C("params.block_formula", "A block has 12d^2 + 13d parameters.", "12d^2 + 13d", "exact", "fast"),
    _C("params.bias_difference", "Dropping the bias on three projections removes {params.bias_count} per block at d = 768.", "{params.bias_count}", "exact", "fast"),
    _C("params.gpt2_small", "GPT-2 small's accounting adds up to {params.total} with tied weights.", "{params.total}", "exact", "fast"),
    _C("params.embedding_third", "Nearly {params.embedding_share} of GPT-2 small is the token table.", "nearly {params.embedding_share}", "exact", "fast"),
    # winograd
    _C("winograd.category_cheat", "With animal/place candidates the uniform average gets {winograd.cheatable_uniform} and one block {winograd.cheatable_one_block}.", "{winograd.cheatable_uniform} / {winograd.cheatable_one_block}", "trained", "slow"),
    # added 2026-12-07 (issue 56): the headline sentence of the cheat section, an ordering
    _C("winograd.bag_beats_transformer", "On the animal/place task the bag of words (the uniform average) beats the transformer (one block) on held-out referents.", "the bag of words beats the transformer", "trained", "slow"),
    _C("winograd.hard_chance", "In the hardened task chance among the two nouns is {winograd.chance}.", "{winograd.chance}", "exact", "fast"),
    _C("winograd.uniform_fails", "The uniform average lands at ~{winograd.hardened_uniform} and names the wrong noun of the pair exactly {winograd.hardened_uniform_wrong_noun} the time.", "{winograd.hardened_uniform}; wrong noun {winograd.hardened_uniform_wrong_noun} the time", "trained", "slow"),
    _C("winograd.one_block", "One block reaches ~{winograd.hardened_one_block}.", "{winograd.hardened_one_block}", "trained", "slow"),
    _C("winograd.two_blocks", "Two blocks reach {winograd.hardened_two_blocks}.", "{winograd.hardened_two_blocks}", "trained", "slow"),
    _C("winograd.uniform_weight", "A uniform average over the visible tokens puts {winograd.uniform_each} on each.", "{winograd.uniform_each}", "exact", "fast"),
    _C("winograd.block1_first_noun", "Block 1 at the referent position is identical across a pair and puts ~{winograd.map_tired_1_1} on the first noun.", "{winograd.map_tired_1_1} on the first noun; the printed row", "trained", "slow"),
    _C("winograd.block2_routing", "Block 2 reads the adjective for crosser adjectives and fetches the other noun for crossed ones.", "tired {winograd.map_tired_2_11}; street {winograd.map_wet_2_6}, too {winograd.map_wet_2_10}, the {winograd.map_wet_2_14}", "trained", "slow"),
    # the inventory's IDs 64-71 (../shared/claims.md)
    _C("qkv.first_layer_query_own_token", "In the first layer a position's query depends only on its own token and index.", "own token and index", "exact", "fast"),
    _C("scale.divided_never_saturates", "Divided, no row at any width puts more than 0.99 on one token.", "none > 0.99", "stat", "fast"),
    _C("norm.postnorm_grad_badly_scaled", "At initialisation post-norm's per-block gradient is worse scaled with depth than pre-norm's.", "post ratio > pre ratio", "stat", "fast"),
    _C("params.published_size", "{params.total} is GPT-2 small's published size (the released implementation's own count).", "{params.total}", "exact", "fast"),
    _C("params.formula_is_the_model", "V d + n_ctx d + L(12d^2 + 13d) + 2d is the built model's count for any size.", "exact for any size", "exact", "fast"),
    _C("cost.peak_memory", "Peak memory per length is an allocator byte count that does not move.", "{cost.peak_mb_128} ... {cost.peak_mb_8192} MB", "timed", "slow"),
    _C("cost.two_nxn_tensors", "Exactly two tensors of the layer are n x n: the scores and the weights.", "two n x n", "exact", "fast"),
    _C("winograd.block1_same_row_argument", "A first-layer query depends only on its own token, so block 1's row is the same for both sentences.", "same row", "exact", "fast"),
    # found by reading the chapter sentence by sentence (issue 34; claims/sentence_table.py)
    _C("recurrence.sequential_updates", "Token 5 reaches token 500 only through {recurrence.updates} sequential updates.", "{recurrence.updates}", "exact", "fast"),
    _C("recurrence.three_years_before", "Bahdanau et al.'s attention (2014) came {recurrence.years} years before the transformer ({recurrence.transformer_year}).", "{recurrence.years} years", "exact", "fast"),
    _C("average.positions_still_invariant", "Positions added before averaging leave the average order-blind: shuffling the tokens, positions in place, leaves it unchanged.", "the sum forgets them", "exact", "fast"),
    _C("mask.causal_no_future_leak", "With the causal mask no output depends on a later token; without it, it does.", "no leak", "exact", "fast"),
    _C("mask.any_scores_valid_weights", "Under the mask the softmax of any scores is a valid weight matrix, and equal scores give exactly the uniform average.", "valid weights", "exact", "fast"),
    _C("qkv.head_thirty_lines", "The Head listing is {qkv.listing_lines} lines, {qkv.listing_shape_lines} of which are shapes.", "{qkv.listing_lines} lines, {qkv.listing_shape_lines} shapes", "exact", "fast"),
    _C("scale.softmax_scale_sensitive", "Doubling a linear layer's input {scale.linear_doubles} its output; scores multiplied by ten turn a soft blend into a hard choice.", "{scale.linear_doubles}; soft -> hard", "exact", "fast"),
    _C("scale.softmax_jacobian_diagonal", "The softmax Jacobian's diagonal is w_i(1 - w_i), zero at both ends, so a committed row has almost no derivative.", "w_i(1 - w_i)", "exact", "fast"),
    _C("ladder.head_linear_along_features", "With its weights fixed, every operation of the head is linear along the feature axis.", "linear", "exact", "fast"),
    _C("ladder.mlp_expands_four_gelu", "The block's MLP expands the width by four and comes back, with a GELU in the middle, at each position independently.", "x4, GELU", "exact", "fast"),
    _C("ladder.attention_four_mlp_eight", "Attention has {ladder.attention_matrices} d x d matrices and the MLP the equivalent of {ladder.mlp_matrices}.", "{ladder.attention_matrices} and {ladder.mlp_matrices}", "exact", "fast"),
    _C("ladder.block_two_norms_two_adds", "A block is {ladder.block_norms} normalisations and {ladder.block_additions} additions around attention and the MLP.", "{ladder.block_norms} and {ladder.block_additions}", "exact", "fast"),
    _C("ladder.layernorm_per_example", "LayerNorm needs no batch, keeps no running statistics, is the same in training and inference and indifferent to length.", "per example", "exact", "fast"),
    _C("norm.residual_path_identity", "In pre-norm the residual path is never normalised; post-norm puts a LayerNorm on it.", "identity path", "exact", "fast"),
    _C("positions.no_positions_still_trains", "Without position embeddings the model still trains (beats the no-context baseline).", "still trains", "trained", "gpu"),
    _C("positions.no_positions_cannot_tell_where", "Without positions the trained model cannot tell where anything is: a linear probe reads no more of a token's absolute position from its block's output than chance.", "it simply cannot tell where anything is", "trained", "gpu"),
    _C("positions.prefix_orderings_stack", "Without positions, every ordering of a prefix gives the same output at its last position.", "all orderings alike", "exact", "fast"),
    _C("positions.untrained_rows_random", "Rows of a learned position table past the trained length are still the random vectors they started as.", "still the random vector", "trained", "gpu"),
    _C("winograd.heldout_reversed_in_training", "Every held-out noun pair was in training in the reversed order, never in its own.", "reversed in training", "exact", "fast"),
    _C("average.summary_properties", "The average takes any number of inputs to one fixed-size output, is differentiable and has no parameters.", "any number, fixed size, differentiable, free", "exact", "fast"),
    _C("ladder.mlp_holds_most_parameters", "Most of a model's parameters are in its per-position MLPs.", "most (over half)", "exact", "fast"),
    _C("winograd.template_counts", "In the template the referent is predicted at position {winograd.query_position}, which sees {winograd.visible_tokens} tokens.", "position {winograd.query_position}; {winograd.visible_tokens} visible", "exact", "fast"),
    _C("cost.x4_columns", "The x4 columns are the ratio of each row to the row above.", "{cost.ms_x4_256} ... {cost.mb_x4_8192}", "exact", "fast"),
    # the assertions a review of the sentence table found untested (issue 44)
    _C("mask.leak_without_mask", "Without the causal mask the next token is in the input: a model trained that way predicts held-out text almost perfectly.", "the answer in the input", "trained", "gpu"),
    _C("winograd.order_blind_answers_backwards", "An order-blind model answers each held-out sentence as it answers the same nouns in the training order, so it names the other noun.", "must answer backwards", "trained", "slow"),
    _C("winograd.two_hop_ablation", "Two blocks solve the hardened task by composition: removing either block's attention at the query position breaks it, and two blocks beat one.", "two-hop circuit; {winograd.hardened_one_block} vs {winograd.hardened_two_blocks}", "trained", "slow"),
    _C("scale.collapse_stable", "Once the undivided head has collapsed it stays collapsed: nothing pulls it back.", "above 0.9 of rows frozen at every point after the collapse", "trained", "gpu"),
    # added 2026-12-07 (issue 56): "the one whose expensive step is a matrix multiply"
    _C("recurrence.matmul_step", "The architecture that won is the one whose expensive step is a matrix multiply: matrix products are most of a transformer block's arithmetic.", "the expensive step is a matrix multiply", "exact", "fast"),
    _C("recurrence.gradient_vanishes", "Backpropagating through a recurrence multiplies one Jacobian per step, so the gradient on an early token vanishes or explodes geometrically; the average's does not.", "vanishes or explodes", "exact", "fast"),
    _C("winograd.block1_carries_first_noun", "Block 1 moves the first noun into the residual stream at the query position: read through the unembedding there, it favours the first noun over the second.", "drags the first noun forward", "trained", "slow"),
    # added 2026-12-07 (issue 56): three sentences measured as strongly as they say (docs/choices.md)
    _C("winograd.two_hop_heads_near_chance", "One head of each block carries the two-hop circuit: removing block 1's or block 2's most needed head at the query position (or either block's attention there) leaves the two-block model near chance.", "one head moves a candidate forward, a head in a later layer reads a token", "trained", "slow"),
    _C("scale.soft_blend_still_changeable", "After the same training the divided 1024-wide head blends more tokens than the collapsed undivided one, and the loss's gradient still reaches it where the collapsed head's is nearly zero.", "a soft blend that can still be changed; the collapsed head's gradient nearly zero", "trained", "gpu"),
    _C("average.model_fifteen_lines", "Embedding table, the causal average and a linear layer to the vocabulary are a complete language model in at most {average.model_lines} lines.", "a complete language model in {average.model_lines} lines", "exact", "fast"),
    # depth
    _C("depth.two_blocks_overfit", "Two blocks fit the training set better and the held-out set worse than one.", "{depth.two_blocks_train}/{ladder.two_blocks} vs {depth.one_block_train}/{ladder.layernorm_val}", "trained", "gpu"),
]}


# The chapter's printed figures that tests, plots and tables read, by figure ID: their plain values
# as parsed from the chapter's printed digits.  Not named FIGURES: that name is the figure table
# itself (claims/chapter_figures.py, `Figure` objects with their rounding and anchor).
FIGURE_VALUES = {fid: f.value for fid, f in chapter_figures.FIGURES.items()}


# The chapter's peak-MB column of its cost table (CUDA allocator byte counts, by tokens)
CHAPTER_PEAK_MB = {int(fid.rsplit("_", 1)[1]): f.value for fid, f in chapter_figures.FIGURES.items()
                   if fid.startswith("cost.peak_mb_")}

# (first block, last block, last/first) of the gradient profile, by norm scheme ("pre", "post")
GRAD_PROFILE = {n: tuple(FIGURE_VALUES[f"norm.grad_{n}_{w}"] for w in ("first", "last", "ratio")) for n in ("pre", "post")}


def figures(prefix: str) -> dict[str, float]:
    """The chapter's figures under one prefix, by the rest of their key: figures("norm")["prenorm"]."""
    return {k.split(".", 1)[1]: v for k, v in FIGURE_VALUES.items() if k.startswith(prefix + ".")}


def get(claim_id: str) -> Claim:
    try:
        return CLAIMS[claim_id]
    except KeyError:
        raise KeyError(f"unknown claim ID {claim_id!r}: not in claims/registry.py "
                           "(IDs come from ../shared/claims.md)") from None
