"""What decides each committed figure record: its rule inputs, from the figure table, never from the record.

A record's verdict is a pure function of the figure table (claims/chapter_figures.py: the stated
value, its rounding, its null), the rule code at the record's rule version (textcheck/decide.py,
textcheck/versions.py) and the measured values (docs/evidence.md).  `spec_for(key)` gives a record
key's rule inputs: a figure ID's from the figure table, or one of DECLARED (a figure the chapter
derives from two printed ones, an ordering a sentence states, a bound a test states beside one
measurement); a key neither names is an error.  `decide(spec, measured)` decides it.  Pure.
"""
from __future__ import annotations

from claims.chapter_figures import COST_INSTRUMENT, FIGURES, NO_GAIN, NULLS, UNIFORM_ROW
from textcheck import Spec, rules

# The timed figures of the cost claims (claims/test_cost.py) and how each is judged: a band the
# value must lie in (a slope, a ratio), or a printed figure with its rounding and the widest
# interval that may confirm it.  One table, used by the tests and by benchmarks/cost_flakes.py.
TIMED = {f.name: f for f in (
    rules.TimedFigure("time slope", band=(1.85, 2.15)),                   # "quadratic": within 0.15 of 2
    rules.TimedFigure("last ratio", band=(3.5, 4.5)),                     # "converges on 4": within 0.5
    # the printed figures, at their printed rounding (claims/chapter_figures.py): n^1.91 is
    # undecided wider than 0.2, the gap from 1.8 to 2.0; "ten" wider than 2 (8, linear, from 12)
    rules.TimedFigure("time exponent", stated=FIGURES["cost.time_exponent"].value,
                rounding=FIGURES["cost.time_exponent"].rounding, too_wide=0.2, drift_of="time slope"),
    rules.TimedFigure("projection slope", band=(0.85, 1.15)),             # "linear"
    rules.TimedFigure("projections x for x8", stated=FIGURES["cost.projections_x8"].value,
                rounding=FIGURES["cost.projections_x8"].rounding, too_wide=2),
)}

# the items each rate is counted over: its test set's size (claims/test_winograd.py: the cheatable
# set 128 items, the hardened 240), the design's, so a record's own count never decides its spread
RATE_ITEMS = {f"winograd.{fid}": 128 if fid.startswith("cheatable") else 240 for fid in (
    "cheatable_uniform", "cheatable_one_block", "hardened_uniform", "hardened_uniform_wrong_noun",
    "hardened_one_block", "hardened_two_blocks")}
# figures whose counted operations and bytes are shown as the theory beside the measurement the
# sentence is about (textcheck/device_readings.py theory: never a verdict)
COUNTED_FIGURES = ("cost.converges_on_4",)
TIMED_FIGURES = {"cost.time_exponent": "time exponent",
                 "cost.projections_x8": "projections x for x8"}


def _figure(fid: str) -> Spec:
    f = FIGURES[fid]
    if fid in RATE_ITEMS:
        return Spec("rate", f.value, f.rounding, NULLS.get(fid), n_items=RATE_ITEMS[fid])
    if fid in COUNTED_FIGURES:      # the theory beside a measured figure: its counts never decide it
        return Spec("converges", f.value, f.rounding, why="the layer's counted matrix-product operations")
    if fid in TIMED_FIGURES:
        return Spec("timed", timed=TIMED_FIGURES[fid])
    if fid in COST_INSTRUMENT:                   # a cost figure of one measurement: at its printed rounding
        return Spec("within", f.value, f.rounding)
    return Spec("trained", f.value, f.rounding, NULLS.get(fid))


def _difference(a: str, b: str, null=None) -> Spec:
    """A figure the chapter derives without printing it: the difference of two printed ones, at
    their printed hundredths."""
    return Spec("trained", round(FIGURES[a].value - FIGURES[b].value, 2), FIGURES[a].rounding, null,
                why=f"{a} - {b}")


def _level(fid: str, sentence: str) -> Spec:
    """A universal sentence ("its entire weight") decided as the level the chapter prints for it."""
    f = FIGURES[fid]
    return Spec("trained", f.value, f.rounding, UNIFORM_ROW, why=f"{sentence}: the level {fid} prints")


BASELINE = FIGURES["ladder.baseline"].value          # the no-context baseline the positions compare with


# "near chance" (winograd.two_hop_heads_near_chance, declared in docs/choices.md 2026-12-07 before it
# was measured): at most chance among the two nouns plus 10 points.  The alternatives it admits are
# shown beside the verdict, decided by the same rule on the same accuracies, never deciding.
NEAR_CHANCE_MARGIN = 0.10
NEAR_CHANCE = round(FIGURES["winograd.chance"].value + NEAR_CHANCE_MARGIN, 2)
NEAR_CHANCE_ALTERNATIVES = {
    "halfway from chance to the two-block model's printed accuracy":
        round((FIGURES["winograd.chance"].value + FIGURES["winograd.hardened_two_blocks"].value) / 2, 2),
    "the blind review's 'survives' line (docs/falsifiers-blind.md)": 0.80,
}


def near_chance(what: str, block: int) -> str:
    """The label of the comparison with the bound, `what` of block `block` (1 or 2) removed."""
    return f"accuracy with block {block}'s {what} at the query zeroed below chance plus 10 points"


# "cannot tell where anything is" (positions.no_positions_cannot_tell_where, declared in docs/choices.md
# 2026-12-07 before it was measured): a linear classifier's held-out accuracy for the position, on the
# scale from chance (0) to every position (1), below 0.1 on block 1's output.  The alternatives are
# shown beside the verdict, decided by the same rule, never deciding.
PROBE_BOUND = 0.1
PROBE_ALTERNATIVES = (0.05, 0.25)
PROBE_BELOW = (f"the position classifier's held-out accuracy on block 1's output, from chance (0) to every "
               f"position (1), below {PROBE_BOUND}")          # the comparison's label


def _ordering(*comparisons) -> Spec:
    return Spec("ordering", comparisons=tuple(comparisons))


def _bounds(*comparisons) -> Spec:
    return Spec("bounds", comparisons=tuple(comparisons))


DECLARED: dict[str, Spec] = {
    # differences of two printed figures
    "average.residual_matches_baseline: residual average - baseline":
        _difference("ladder.residual_average_val", "ladder.baseline"),
    "norm.prenorm_needs_no_warmup: prenorm - prenorm_warmup": _difference("norm.prenorm", "norm.prenorm_warmup"),
    "norm.warmup_rescues_postnorm: postnorm_warmup - prenorm_warmup":
        _difference("norm.postnorm_warmup", "norm.prenorm_warmup"),
    "positions.alibi_improves: alibi gain from 64 to 256":
        _difference("positions.alibi_64", "positions.alibi_256", NO_GAIN),
    # orderings over seeds (the paired rule); a bound given is the other side on every seed
    "depth.two_blocks_overfit: two blocks: train lower, held-out higher": _ordering(
        ("two blocks' train perplexity below one block's", "<", None),
        ("two blocks' held-out perplexity above one block's", ">", None)),
    "norm.warmup_rescues_postnorm: post-norm with warmup nearer pre-norm than the plateau": _ordering(
        ("|log(post-norm warmup / pre-norm warmup)| below |log(post-norm warmup / post-norm)|", "<", None)),
    "positions.alibi_improves: alibi: 64 > 128 > 256": _ordering(
        ("alibi at 256 below 128", "<", None), ("alibi at 128 below 64", "<", None)),
    "positions.learned_cliff: learned at 128: does not extrapolate": _ordering(
        ("learned at 128 at least the no-context baseline", ">=", BASELINE)),
    "positions.learned_cliff: learned: best at 64, the steepest cliff": _ordering(
        ("learned 128/64 above 1.5", ">", 1.5),
        ("learned at 64 at most sinusoidal's", "<=", None), ("learned at 64 at most rope's", "<=", None),
        ("learned at 64 at most alibi's", "<=", None), ("learned 128/64 at least sinusoidal's", ">=", None),
        ("learned 128/64 at least rope's", ">=", None), ("learned 128/64 at least alibi's", ">=", None)),
    "positions.no_positions_still_trains: no positions: below the no-context baseline at 64": _ordering(
        ("no positions at 64 below the no-context baseline", "<", BASELINE)),
    **{f"positions.rope_degrades: rope at {n}": _ordering(
        (f"rope at {n} below the no-context baseline", "<", BASELINE), (f"rope at {n} worse than at 64", ">", None))
       for n in (128, 256)},
    "positions.rope_degrades: rope: worse at 256, by less than learned and sinusoidal": _ordering(
        ("rope worse at 256 than at 64", ">", None), ("rope 256/64 below learned's", "<", None),
        ("rope 256/64 below sinusoidal's", "<", None)),
    **{f"positions.sinusoid_no_extrapolation: sinusoidal at {n}": _ordering(
        (f"sinusoidal at {n} at least the no-context baseline", ">=", BASELINE)) for n in (128, 256)},
    "positions.sinusoid_no_extrapolation: sinusoidal: 64 < 128 < 256": _ordering(
        ("sinusoidal at 64 below 128", "<", None), ("sinusoidal at 128 below 256", "<", None)),
    "positions.untrained_rows_random: untrained position rows: still their starting vectors": _ordering(
        ("every untrained row in its starting direction (cosine above 1 - 1e-4)", ">", 0.9999),
        ("every untrained row its start times one factor (off by under 1e-4)", "<", 0.0001)),
    "qkv.raw_dot_product_works_badly: raw dot products: below the no-context baseline": _ordering(
        ("the raw head's held-out perplexity below the baseline's", "<", None)),
    "qkv.raw_dot_product_works_badly: raw dot products: between the average and a learned head": _ordering(
        ("the raw head's held-out perplexity below the average's", "<", None),
        ("the raw head's held-out perplexity above the learned head's", ">", None)),
    "qkv.value_map_helps: one head: with W_v below without": _ordering(
        ("the learned head's held-out perplexity below the head without W_v's", "<", None)),
    "qkv.weights_not_plain_parameters: hardened task: one block above fixed weights": _ordering(
        ("one block's held-out accuracy above the fixed-weights block's", ">", None)),
    "winograd.bag_beats_transformer: animal/place task: the bag of words above the transformer": _ordering(
        ("the uniform average's held-out accuracy above one block's", ">", None)),
    "scale.soft_blend_still_changeable: at 1024 after the same training: the divided head blends more": _ordering(
        ("the divided head's attention entropy above the undivided head's", ">", None)),
    "scale.soft_blend_still_changeable: at 1024 after the same training: the divided head still has a gradient": _ordering(
        ("the gradient at the divided head's softmax input above the undivided head's", ">", None),
        ("the gradient of the divided head's W_q and W_k above the undivided head's", ">", None)),
    "scale.collapse_stable: undivided at 1024: the share of frozen rows after the collapse": _ordering(
        ("the lowest share of frozen rows after the collapse above 0.9", ">", 0.9)),
    "mask.leak_without_mask: without the mask: held-out perplexity": _ordering(
        ("the unmasked model's held-out perplexity below the masked one's", "<", None),
        ("the unmasked model's held-out perplexity below 2", "<", 2.0)),
    "winograd.order_blind_answers_backwards: the order-blind model: the other noun over the referent": _ordering(
        ("the other noun named more often than the referent", ">", None)),
    "winograd.two_hop_ablation: two blocks: each block's attention at the query position needed": _ordering(
        ("accuracy with block 1's attention output at the query zeroed below the intact model's", "<", None),
        ("accuracy with block 2's attention output at the query zeroed below the intact model's", "<", None)),
    "winograd.block1_carries_first_noun: after block 1: the first noun in the residual stream": _ordering(
        ("the first noun favoured over the second in more than half the held-out sentences", ">", 0.5),
        ("more often than with block 1's attention at the query zeroed", ">", None)),
    "winograd.two_hop_heads_near_chance: two blocks: one head of each block removed at the query": _ordering(
        *[(near_chance("most needed head", b), "<", NEAR_CHANCE) for b in (1, 2)]),
    "winograd.two_hop_heads_near_chance: two blocks: either block's attention removed at the query": _ordering(
        *[(near_chance("attention output", b), "<", NEAR_CHANCE) for b in (1, 2)]),
    "positions.no_positions_cannot_tell_where: no positions: a linear probe for the position on block 1's output":
        _ordering((PROBE_BELOW, "<", PROBE_BOUND)),
    "winograd.two_hop_ablation: two blocks above one": _ordering(
        ("two blocks' held-out accuracy above one block's", ">", None)),
    "scale.no_effect_at_32: undivided ahead at d_k = 32": _ordering(
        ("the divided model's gain below 0", "<", 0)),
    # universal sentences: the level the chapter prints for them, never an exact share of rows
    "winograd.block1_first_noun: block 1: argmax on the first noun, whatever the adjective":
        _level("winograd.map_tired_1_1", "block 1 looks at the first noun whatever the adjective"),
    "winograd.block2_routing: block 2, crosser adjectives: argmax on the adjective":
        _level("winograd.map_tired_2_11", "for a crosser-adjective block 2 spends its entire weight on the adjective"),
    "winograd.block2_routing: block 2, crossed adjectives: argmax on 'street'":
        _level("winograd.map_wet_2_6", "for a crossed-adjective block 2 fetches the other noun"),
    # bounds a test states beside a single measurement (nothing over seeds: exact)
    # "converges on exactly 4" for memory: the layer's counted peak bytes (docs/choices.md)
    "cost.converges_on_4 / cost.memory_quadratic": Spec(
        "converges", FIGURES["cost.converges_on_4"].value, FIGURES["cost.converges_on_4"].rounding,
        why="the layer's counted peak bytes"),
    # the measured ratios beside it: read off a clock or an allocator, decided on CUDA only (docs/cost.md)
    "cost.time_quadratic: last time ratio": Spec("timed", timed="last ratio"),
    "cost.memory_quadratic: last peak-memory ratio and slope": _bounds(
        ("last ratio within 0.15 of 4", "<=", 0.15), ("last ratio at least the one before", ">=", None),
        ("slope within 0.15 of 2", "<=", 0.15)),
    # capacity, decided anywhere; the slope, read off an allocator, decided on CUDA only (docs/cost.md)
    "cost.fused_kernel_avoids_matrix: the fused kernel runs at the longest length": _bounds(
        ("16384 tokens run under the 8 GiB cap", "==", True)),
    "cost.fused_kernel_avoids_matrix: the fused kernel's peak memory linear in n": _bounds(
        ("peak memory's log-log slope at most 1 + 0.15", "<=", 1.15)),
    "cost.fused_kernel_avoids_matrix: the fused kernel's output is the explicit path's": _bounds(
        *[(f"max |difference| at {n} tokens within the fp32 bound", "<=", None) for n in (128, 1024, 4096)]),
    "cost.oom_tokens": _bounds(("16384 tokens run out of memory", "==", False), ("8192 tokens fit", "==", True),
                               ("16384 tokens: the error names memory", "==", True)),
    # timed figures that are not printed numbers: a band of decide.TIMED
    "cost.projections_linear: projection slope": Spec("timed", timed="projection slope"),
    "cost.time_quadratic: time slope": Spec("timed", timed="time slope"),
}


def spec_for(key: str) -> Spec:
    """A record key's rule inputs: DECLARED, else its figure's (a key "figure / claim" or "... (cuda)"
    is that figure's).  RuleInputError naming the key where neither knows it."""
    base = key.removesuffix(" (cuda)")
    if base in DECLARED:
        return DECLARED[base]
    fid = base.split(" / ")[0]
    if fid in FIGURES:
        return _figure(fid)
    raise rules.RuleInputError("key", f"{key!r} is neither a figure of claims/chapter_figures.py nor declared in "
                                "claims/record_rules.py DECLARED: no rule inputs to decide it by")


def decide(spec: Spec, measured) -> rules.Decision:
    """A record of this chapter decided from its spec and its measured values (textcheck/specs.py)."""
    return spec.decide(measured, TIMED)
