"""The runs each trained figure record rests on (issue 59, finding 7), by record key: every
(group, recipe) its `runs` must name and no other, as each trained test chooses them
(claims/test_*_trained.py, claims/test_winograd.py: their `trained(group, recipe, ...)` calls), and
where a value refers to a run's metric the recipe its place requires: `values` (a list per seed) and
each side of a comparison ("label": (a, b); None where the side is no run's metric).  A record's own
say is never taken: one naming another recipe's runs, or putting another recipe's metric in a
place, is refused on reading (textcheck/evidence.py decode, exit 2), in the re-derivation and in
every save (claims/run_check.py rests).  And CLAIM_RECORDS: the figure records each claim's
committed tests decide.  Pure.
"""
from __future__ import annotations

from dataclasses import dataclass

from claims.chapter_figures import FIGURES
from claims.record_rules import DECLARED


@dataclass(frozen=True)
class Rests:
    recipes: tuple[tuple[str, str], ...]
    values: str | None = None                       # the recipe `measured.values` refers to
    sides: tuple[tuple[str, tuple[str | None, str | None]], ...] = ()   # comparison label -> (a, b)
    # a value per seed combining two runs' metrics: (op, a, b), the value a - b or a / b of that
    # seed's runs of recipes a and b, in that order (issue 59, finding 7: b - a is refused)
    combine: tuple[str, str, str] | None = None


_L, _N, _P, _S, _W = "ladder/", "norm/", "positions/positions_", "scale/scale", "winograd/winograd_"
_POS4 = tuple(f"{_P}{s}" for s in ("alibi", "learned", "rope", "sinusoidal"))


def _r(*recipes: str, values: str | None = None, sides: dict | None = None,
       combine: tuple[str, str, str] | None = None) -> Rests:
    return Rests(tuple(tuple(r.split("/", 1)) for r in recipes), values,   # type: ignore[misc]
                 tuple((sides or {}).items()), combine)


def _minus(a: str, b: str, op: str = "-") -> Rests:
    """Each seed's value: its run of `a`'s metric minus (or over) its run of `b`'s."""
    return _r(a, b, combine=(op, a.split("/", 1)[1], b.split("/", 1)[1]))


RECORD_RUNS: dict[str, Rests] = {
    # the ladder (claims/test_ladder_trained.py), the average's claims among them
    "average.four_times": _minus(_L + "average", _L + "baseline", "/"),
    "average.positions_gain": _minus(_L + "average", _L + "average_positions"),
    "average.residual_matches_baseline: residual average - baseline":
        _minus(_L + "residual_average", _L + "baseline"),
    "depth.one_block_train": _r(_L + "layernorm"),
    "depth.two_blocks_train": _r(_L + "two_blocks"),
    "depth.two_blocks_overfit: two blocks: train lower, held-out higher": _r(_L + "layernorm", _L + "two_blocks", sides={
        "two blocks' train perplexity below one block's": (_L + "two_blocks", _L + "layernorm"),
        "two blocks' held-out perplexity above one block's": (_L + "two_blocks", _L + "layernorm")}),
    **{key: _r(_L + recipe) for key, recipe in (
        ("ladder.baseline", "baseline"), ("ladder.baseline / average.worse_than_baseline", "baseline"),
        ("ladder.layernorm_val", "layernorm"), ("ladder.residual_average_val", "residual_average"),
        ("ladder.two_blocks", "two_blocks"))},
    "ladder.gain_attention": _minus(_L + "residual_average", _L + "one_head_added"),
    "ladder.gain_four_heads": _minus(_L + "one_head_added", _L + "four_heads"),
    "ladder.gain_layernorm": _minus(_L + "mlp", _L + "layernorm"),
    "ladder.gain_residual_average": _minus(_L + "average", _L + "residual_average"),
    "ladder.gain_residual_head": _minus(_L + "one_head", _L + "one_head_added"),
    # the mask (claims/test_mask_trained.py)
    "mask.leak_without_mask: without the mask: held-out perplexity": _r(_L + "layernorm", "mask/layernorm_unmasked", sides={
        "the unmasked model's held-out perplexity below the masked one's": ("mask/layernorm_unmasked", _L + "layernorm"),
        "the unmasked model's held-out perplexity below 2": ("mask/layernorm_unmasked", None)}),
    # pre-norm and post-norm (claims/test_norm_trained.py)
    "norm.eight_times": _minus(_N + "postnorm", _N + "prenorm", "/"),
    "norm.postnorm": _r(_N + "postnorm", _N + "prenorm", values=_N + "postnorm"),
    **{f"norm.{recipe}": _r(_N + recipe) for recipe in ("postnorm_warmup", "prenorm", "prenorm_warmup")},
    "norm.prenorm_needs_no_warmup: prenorm - prenorm_warmup": _minus(_N + "prenorm", _N + "prenorm_warmup"),
    "norm.warmup_rescues_postnorm: post-norm with warmup nearer pre-norm than the plateau":
        _r(_N + "postnorm", _N + "postnorm_warmup", _N + "prenorm_warmup"),
    "norm.warmup_rescues_postnorm: postnorm_warmup - prenorm_warmup": _minus(_N + "postnorm_warmup", _N + "prenorm_warmup"),
    # positions (claims/test_positions_trained.py)
    **{key: _r(_P + "alibi") for key in ("positions.alibi_64", "positions.alibi_256",
                                         "positions.alibi_improves: alibi gain from 64 to 256",
                                         "positions.alibi_improves: alibi: 64 > 128 > 256")},
    "positions.learned_cliff: learned at 128: does not extrapolate": _r(*_POS4),
    "positions.learned_cliff: learned: best at 64, the steepest cliff": _r(*_POS4, sides={
        f"learned at 64 at most {s}'s": (_P + "learned", _P + s) for s in ("sinusoidal", "rope", "alibi")}),
    "positions.no_positions_still_trains: no positions: below the no-context baseline at 64": _r(_P + "none"),
    "positions.no_positions_cannot_tell_where: no positions: a linear probe for the position on block 1's output":
        _r(_P + "none", _P + "learned"),
    **{f"positions.rope_degrades: rope at {n}": _r(_P + "rope") for n in (128, 256)},
    "positions.rope_degrades: rope: worse at 256, by less than learned and sinusoidal": _r(
        _P + "learned", _P + "rope", _P + "sinusoidal", sides={"rope worse at 256 than at 64": (None, _P + "rope")}),
    **{f"positions.sinusoid_no_extrapolation: sinusoidal{what}": _r(_P + "sinusoidal")
       for what in (" at 128", " at 256", ": 64 < 128 < 256")},
    "positions.untrained_rows_random: untrained position rows: still their starting vectors": _r(_P + "learned"),
    # queries, keys and values (claims/test_qkv_trained.py)
    "qkv.raw_dot_product_works_badly: raw dot products: below the no-context baseline": _r(
        _L + "baseline", "qkv/raw_dot_product", sides={
            "the raw head's held-out perplexity below the baseline's": ("qkv/raw_dot_product", _L + "baseline")}),
    "qkv.raw_dot_product_works_badly: raw dot products: between the average and a learned head": _r(
        _L + "average_positions", _L + "one_head", "qkv/raw_dot_product", sides={
            "the raw head's held-out perplexity below the average's": ("qkv/raw_dot_product", _L + "average_positions"),
            "the raw head's held-out perplexity above the learned head's": ("qkv/raw_dot_product", _L + "one_head")}),
    "qkv.value_map_helps: one head: with W_v below without": _r(_L + "one_head", "qkv/no_value_map", sides={
        "the learned head's held-out perplexity below the head without W_v's": (_L + "one_head", "qkv/no_value_map")}),
    "qkv.weights_not_plain_parameters: hardened task: one block above fixed weights": _r(
        _L + "average_positions", _L + "one_head", "qkv/fixed_weights", _W + "hardened_fixed_weights",
        _W + "hardened_one_block", sides={"one block's held-out accuracy above the fixed-weights block's": (
            _W + "hardened_one_block", _W + "hardened_fixed_weights")}),
    # dividing by sqrt(d_k) (claims/test_scale_trained.py)
    **{key: _r(_S + "1024_undivided") for key in (
        "scale.collapse_stable: undivided at 1024: the share of frozen rows after the collapse",
        *(f"scale.runaway_{s}" for s in ("entropy", "frozen", "init_sd", "sd")))},
    "scale.divided_sd": _r(_S + "1024_divided"),
    "scale.no_effect_at_32: undivided ahead at d_k = 32": _r(_L + "layernorm", _S + "32_undivided"),
    "scale.worth_32": _minus(_S + "32_undivided", _L + "layernorm"),
    **{f"scale.worth_{n}": _minus(f"{_S}{n}_undivided", f"{_S}{n}_divided") for n in (256, 1024)},
    **{f"scale.soft_blend_still_changeable: at 1024 after the same training: the divided head {what}":
       _r(_S + "1024_divided", _S + "1024_undivided") for what in ("blends more", "still has a gradient")},
    # the Winograd task (claims/test_winograd.py)
    "winograd.bag_beats_transformer: animal/place task: the bag of words above the transformer": _r(
        _W + "cheatable_uniform", _W + "cheatable_one_block", sides={
            "the uniform average's held-out accuracy above one block's": (_W + "cheatable_uniform",
                                                                          _W + "cheatable_one_block")}),
    **{f"winograd.{fid}": _r(_W + fid) for fid in ("cheatable_uniform", "cheatable_one_block", "hardened_uniform",
                                                   "hardened_one_block", "hardened_two_blocks")},
    **{key: _r(_W + "hardened_uniform") for key in (
        "winograd.hardened_uniform_wrong_noun",
        "winograd.order_blind_answers_backwards: the order-blind model: the other noun over the referent")},
    "winograd.two_hop_ablation: two blocks above one": _r(_W + "hardened_two_blocks", _W + "hardened_one_block", sides={
        "two blocks' held-out accuracy above one block's": (_W + "hardened_two_blocks", _W + "hardened_one_block")}),
    **{k: _r(_W + "hardened_two_blocks") for k in (
        "winograd.two_hop_ablation: two blocks: each block's attention at the query position needed",
        "winograd.two_hop_heads_near_chance: two blocks: one head of each block removed at the query",
        "winograd.two_hop_heads_near_chance: two blocks: either block's attention removed at the query",
        "winograd.block1_carries_first_noun: after block 1: the first noun in the residual stream",
        "winograd.block1_first_noun: block 1: argmax on the first noun, whatever the adjective",
        "winograd.block2_routing: block 2, crosser adjectives: argmax on the adjective",
        "winograd.block2_routing: block 2, crossed adjectives: argmax on 'street'",
        # the two attention maps, cell by cell (claims/test_winograd.py: the two-block model)
        *(fid for fid in FIGURES if fid.startswith("winograd.map_")))},
}


def rests_on(key: str) -> Rests | None:
    """The runs a record key rests on (RECORD_RUNS; a key "... (cuda)" is its base's), or None."""
    return RECORD_RUNS.get(key.removesuffix(" (cuda)"))


# ---------------------------------------------------------------------------------------------
# The figure records each claim's committed tests decide (issue 59, finding 12): derived from the
# figure table (each figure's claim), DECLARED (a key "claim: what") and RECORD_RUNS (a key
# "figure / claim"), less the figures of a committed claim that only its fast tests decide (never
# committed: results/ holds the trained and slow tiers).  A committed claim with one of them
# missing is not measured (textcheck/verdict_file.py verdict_of), never decided on the figures left.
FAST_ONLY = {
    "ladder.four_heads_params": "an exact parameter count, claims/test_ladder.py (fast)",
    "ladder.layernorm_params": "an exact parameter count, claims/test_ladder.py (fast)",
    "cost.projections_span": "the ratio of the sentence's two printed lengths, claims/test_cost.py (fast)",
}


def _claim_of(key: str) -> str | None:
    if key in FIGURES:
        return FIGURES[key].claim
    if " / " in key:
        return key.split(" / ", 1)[1]
    return key.split(": ", 1)[0] if ": " in key else None


def _claim_records() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for key in [*FIGURES, *DECLARED, *RECORD_RUNS]:
        claim = _claim_of(key)
        if claim and key not in FAST_ONLY and key not in out.get(claim, []):
            out.setdefault(claim, []).append(key)
    return {c: tuple(keys) for c, keys in out.items()}


CLAIM_RECORDS: dict[str, tuple[str, ...]] = _claim_records()
