"""The project's registry of the chapter's claims.

IDs are those of ../shared/claims.md (stable: never renamed or dropped).  Each entry gives the
chapter section, the claim in our own words, the chapter's figure, its kind and the tier whose
tests check it.  The `claim` marker rejects any ID that is not here.
"""
from __future__ import annotations

from dataclasses import dataclass

from claims import chapter_figures


@dataclass(frozen=True)
class Claim:
    id: str
    statement: str
    figure: str
    kind: str
    tier: str

    @property
    def section(self) -> str:
        return self.id.split(".")[0]


SECTIONS = {
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

_C = Claim
CLAIMS: dict[str, Claim] = {c.id: c for c in [
    # corpus
    _C("corpus.chars", "The corpus is 1,115,394 characters long.", "1,115,394", "exact", "fast"),
    _C("corpus.tokens", "Byte-level BPE with 1024 symbols turns the corpus into about 459,760 tokens.", "459,760", "exact", "fast"),
    _C("corpus.chars_per_token", "Each token covers 2.43 characters on average.", "2.43", "exact", "fast"),
    _C("corpus.split", "The split is 90/10 and the held-out part is the last 10 %.", "90/10", "exact", "fast"),
    # average
    _C("average.permutation_invariant", "Shuffling the window leaves the last position's average unchanged up to float noise.", "2.98e-8", "exact", "fast"),
    _C("average.dilution", "At position t the current token is 1/(t+1) of the average.", "1/100 at position 100", "exact", "fast"),
    _C("average.worse_than_baseline", "Replacing each token by the average is about four times worse than using no context.", "~4x of 59.71", "trained", "gpu"),
    _C("average.positions_dont_help", "Learned positions added before averaging barely help.", "2.14 of 188 points", "trained", "gpu"),
    _C("average.residual_matches_baseline", "Added as a residual, the average contributes nothing over the baseline.", "60.45 vs 59.71", "trained", "gpu"),
    # mask
    _C("mask.loop_matmul_softmax", "The prefix-mean loop, the triangular matmul and the masked softmax agree to float precision.", "5.96e-8", "exact", "fast"),
    _C("mask.averaging_matrix", "The averaging matrix has rows summing to 1, a zero upper triangle and 1/(t+1) in row t.", "the printed 6x6", "exact", "fast"),
    _C("mask.neg_inf_float16", "-inf survives a cast to float16 and masked weights are exactly 0; -1e9 behaves differently across dtypes.", "-inf in fp16", "exact", "fast"),
    # qkv
    _C("qkv.self_attention_dominates", "Scored by raw x_t . x_i, tokens attend mostly to themselves.", "mostly self", "stat", "fast"),
    _C("qkv.raw_scores_symmetric", "Raw dot-product scores are symmetric; with W_q != W_k they are not.", "symmetric", "exact", "fast"),
    _C("qkv.head_matches_torch", "The thirty-line head matches nn.MultiheadAttention and SDPA at float32 precision.", "1.8e-7 on outputs of mean magnitude 0.159", "exact", "fast"),
    # scale
    _C("scale.variance_is_d", "Var(q . k) = d for unit-variance entries.", "3.975 16.071 64.249 253.065 1015.562", "stat", "fast"),
    _C("scale.std_is_sqrt_d", "The score standard deviation is sqrt(d).", "1.994 4.009 8.016 15.908 31.868", "stat", "fast"),
    _C("scale.effective_tokens", "Undivided at d_k = 256, a fresh head over 64 positions attends to about one effective token.", "1 of 64", "stat", "fast"),
    _C("scale.frozen_rows", "Undivided at d_k = 1024, about 7 rows in 10 of 2,000 are frozen.", "7 in 10", "stat", "fast"),
    _C("scale.divided_flat", "Divided, the mean of sum_i w_i(1 - w_i) is 0.96 at every width.", "0.96", "stat", "fast"),
    _C("scale.no_effect_at_32", "At d_k = 32 dropping the division costs nothing.", "worth 0 points; undivided very slightly ahead", "trained", "gpu"),
    _C("scale.matters_at_256", "Without the division perplexity is ~18 points worse at d_k = 256 and ~17 at 1024.", "18 / 17 points", "trained", "gpu"),
    _C("scale.runaway", "Undivided scores run away: std 21 -> 5147, entropy -> 0, 99.9 % of rows > 0.99 on one token; divided std 3.44.", "21 -> 5147; 99.9 %; 3.44", "trained", "gpu"),
    # ladder
    _C("ladder.attention_beats_uniform", "Learned attention weights beat uniform ones by about 14 points.", "14 points", "trained", "gpu"),
    _C("ladder.four_heads", "Four heads buy ~3 points for exactly 16,512 extra parameters.", "3 points; 16,512", "trained", "gpu"),
    _C("ladder.residual_head", "The same head is worth ~9 points more added than replacing.", "9 points", "trained", "gpu"),
    _C("ladder.residual_average", "Residual connections are worth ~188 points for the average.", "188 points", "trained", "gpu"),
    _C("ladder.layernorm", "LayerNorm costs exactly 768 parameters and buys ~1.8 points.", "768; 1.8 points", "trained", "gpu"),
    _C("ladder.mlp_two_thirds", "The MLP holds two thirds of every block's parameters at every width.", "2/3", "exact", "fast"),
    _C("ladder.heads_partition_width", "h heads of width d/h cost the same q/k/v parameters as one head of width d.", "partition", "exact", "fast"),
    _C("ladder.ffn_is_positionwise", "The MLP computes within a position; attention mixes across positions.", "within / across", "exact", "fast"),
    _C("ladder.model_size", "A one-block model here has about 500,000 parameters.", "500,000", "exact", "fast"),
    # norm
    _C("norm.grad_profile", "At initialisation the per-block gradient norm grows with depth: pre-norm 1.32x, post-norm 1.65x.", "0.0498..0.0657 (1.32); 0.0977..0.1613 (1.65)", "stat", "fast"),
    _C("norm.postnorm_diverges", "Post-norm without warmup ends eight times worse.", "308.05", "trained", "gpu"),
    _C("norm.warmup_rescues_postnorm", "A 200-step warmup makes post-norm match pre-norm.", "37.88", "trained", "gpu"),
    _C("norm.prenorm_needs_no_warmup", "Pre-norm is the same with and without warmup.", "37.62 vs 37.82", "trained", "gpu"),
    # positions
    _C("positions.permutation_equivariant", "Without positions, self-attention is permutation-equivariant.", "equivariant", "exact", "fast"),
    _C("positions.rope_relative", "With RoPE the score depends only on t - i.", "relative", "exact", "fast"),
    _C("positions.alibi_slopes", "ALiBi adds a distance-proportional penalty with a geometric slope per head.", "geometric slopes", "exact", "fast"),
    _C("positions.learned_cliff", "Learned absolute positions win at 64 and fall off a cliff past it.", "cliff", "trained", "gpu"),
    _C("positions.sinusoid_no_extrapolation", "Sinusoids do not extrapolate either.", "worse than no context past 64", "trained", "gpu"),
    _C("positions.rope_degrades", "RoPE degrades past the trained length, gracefully.", "worse past 64, better than no context", "trained", "gpu"),
    _C("positions.alibi_improves", "ALiBi improves as the window grows.", "44.95 -> 42.49", "trained", "gpu"),
    # dropout
    _C("dropout.placement", "Dropout acts on the attention weights, each sub-layer's output and the embedding sum; identity in eval.", "three places", "exact", "fast"),
    # cost
    _C("cost.matrix_bytes", "The score matrix takes heads x n x n x 4 bytes.", "0.5 MB at 128 ... 8192 MB at 16384", "exact", "fast"),
    _C("cost.time_quadratic", "Time per doubling of n converges on 4.", "x3.69..4.37; n^1.91", "timed", "slow"),
    _C("cost.memory_quadratic", "Peak memory per doubling converges on 4.", "x3.91; n^1.87", "timed", "slow"),
    _C("cost.projections_linear", "The projections are linear in n.", "x10 for x8", "timed", "slow"),
    _C("cost.oom_16k", "One layer at 16,384 tokens runs out of memory on an 8 GB device.", "OOM at 16384", "timed", "slow"),
    _C("cost.fused_kernel_avoids_matrix", "A fused kernel gives the same result without storing the n x n matrix.", "same result, no matrix", "exact", "slow"),
    # params
    _C("params.block_formula", "A block has 12d^2 + 13d parameters.", "12d^2 + 13d", "exact", "fast"),
    _C("params.bias_difference", "Dropping the bias on three projections removes 2,304 per block at d = 768.", "2,304", "exact", "fast"),
    _C("params.gpt2_small", "GPT-2 small's accounting adds up to 124,439,808 with tied weights.", "124,439,808", "exact", "fast"),
    _C("params.embedding_third", "Nearly a third of GPT-2 small is the token table.", "~1/3", "exact", "fast"),
    # winograd
    _C("winograd.category_cheat", "With animal/place candidates the uniform average gets 100 % and one block 91.7 %.", "100 % / 91.7 %", "trained", "slow"),
    _C("winograd.hard_chance", "In the hardened task chance among the two nouns is 50 %.", "50 %", "exact", "fast"),
    _C("winograd.uniform_fails", "The uniform average lands at ~27.9 % and names the wrong noun of the pair exactly half the time.", "27.9 %; wrong noun 50 %", "trained", "slow"),
    _C("winograd.one_block", "One block reaches ~92.7 %.", "92.7 %", "trained", "slow"),
    _C("winograd.two_blocks", "Two blocks reach 100 %.", "100 %", "trained", "slow"),
    _C("winograd.uniform_weight", "A uniform average over the 15 visible tokens puts 0.067 on each.", "0.067", "exact", "fast"),
    _C("winograd.block1_first_noun", "Block 1 at the referent position is identical across a pair and puts ~0.70 on the first noun.", "0.70 on the first noun; the printed row", "trained", "slow"),
    _C("winograd.block2_routing", "Block 2 reads the adjective for crosser adjectives and fetches the other noun for crossed ones.", "tired 1.00; street 0.49, too 0.20, the 0.25", "trained", "slow"),
    # the inventory's IDs 64-71 (../shared/claims.md)
    _C("qkv.first_layer_query_own_token", "In the first layer a position's query depends only on its own token and index.", "own token and index", "exact", "fast"),
    _C("scale.divided_never_saturates", "Divided, no row at any width puts more than 0.99 on one token.", "none > 0.99", "stat", "fast"),
    _C("norm.postnorm_grad_badly_scaled", "At initialisation post-norm's per-block gradient is worse scaled with depth than pre-norm's.", "post ratio > pre ratio", "stat", "fast"),
    _C("params.published_size", "124,439,808 is GPT-2 small's published size (the released implementation's own count).", "124,439,808", "exact", "fast"),
    _C("params.formula_is_the_model", "V d + n_ctx d + L(12d^2 + 13d) + 2d is the built model's count for any size.", "exact for any size", "exact", "fast"),
    _C("cost.peak_memory", "Peak memory per length is an allocator byte count that does not move.", "14.6 ... 4300.1 MB", "timed", "slow"),
    _C("cost.two_nxn_tensors", "Exactly two tensors of the layer are n x n: the scores and the weights.", "two n x n", "exact", "fast"),
    _C("winograd.block1_same_row_argument", "A first-layer query depends only on its own token, so block 1's row is the same for both sentences.", "same row", "exact", "fast"),
    # depth
    _C("depth.two_blocks_overfit", "Two blocks fit the training set better and the held-out set worse than one.", "14.49/40.57 vs 18.77/38.07", "trained", "gpu"),
]}


# The chapter's printed figures that tests, plots and tables read, by figure ID: their values as
# parsed from the chapter's printed digits (claims/chapter_figures.py, anchored in the text).
FIGURES = {fid: f.value for fid, f in chapter_figures.FIGURES.items()}


# The chapter's peak-MB column of its cost table (CUDA allocator byte counts, by tokens)
CHAPTER_PEAK_MB = {int(fid.rsplit("_", 1)[1]): f.value for fid, f in chapter_figures.FIGURES.items()
                   if fid.startswith("cost.peak_mb_")}

# (first block, last block, last/first) of the gradient profile, by norm scheme ("pre", "post")
GRAD_PROFILE = {n: tuple(FIGURES[f"norm.grad_{n}_{w}"] for w in ("first", "last", "ratio")) for n in ("pre", "post")}


def figures(prefix: str) -> dict[str, float]:
    """The chapter's figures under one prefix, by the rest of their key: figures("norm")["prenorm"]."""
    return {k.split(".", 1)[1]: v for k, v in FIGURES.items() if k.startswith(prefix + ".")}


class UnknownClaim(KeyError):
    pass


def get(claim_id: str) -> Claim:
    try:
        return CLAIMS[claim_id]
    except KeyError:
        raise UnknownClaim(f"unknown claim ID {claim_id!r}: not in claims/registry.py "
                           "(IDs come from ../shared/claims.md)") from None
