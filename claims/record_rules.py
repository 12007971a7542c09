"""What decides each committed figure record: the rule inputs, from the figure table, never from a record.

A record of results/figures.json holds measured values and provenance only.  Its verdict is a pure
function of three things (docs/evidence.md): the figure table (claims/chapter_figures.py: the
stated value, its rounding, the null the sentence contrasts it with), the rule code
(claims/decide.py) at the record's rule version (claims/rule_versions.py), and the measured values.
This module joins the first two: `spec_for(key)` gives a record key's rule inputs, `decide(spec,
measured)` decides it, and `MEASURED` says what a record of each kind holds.

A record key is a figure ID (its rule inputs read from the figure table) or one of DECLARED: a
figure the chapter derives from two of its printed ones, an ordering a sentence states (its
comparisons and their directions), a bound a test states beside a single measurement.  A key
neither names is an error, never decided by what the record says of itself.

Pure (no torch, no pytest).
"""
from __future__ import annotations

from dataclasses import dataclass

from claims import decide as rules
from claims.chapter_figures import COST_INSTRUMENT, FIGURES, NO_GAIN, NULLS, UNIFORM_ROW
from claims.decide import TIMED, Decision, RuleInputError


@dataclass(frozen=True)
class Spec:
    """A record's rule inputs.  kind: trained | rate | within | timed | ordering | bounds | converges."""
    kind: str
    stated: float | None = None
    rounding: float = 0.0
    null: tuple[float, str] | None = None        # (value, what it is): the null the sentence contrasts
    timed: str | None = None                     # decide.TIMED's name, for a timed figure
    # (label, op, bound): an ordering's or a bound's comparisons; bound None where the other side is measured
    comparisons: tuple[tuple[str, str, object], ...] = ()
    why: str = ""                                # where a declared spec's inputs come from

    @property
    def rule(self) -> str:
        """The rule's name in claims/rule_versions.py."""
        return {"trained": "trained", "rate": "rate", "timed": "timing", "ordering": "ordering",
                "within": "stated", "bounds": "stated",
                "converges": "counts"}[self.kind]


# The measured fields a record of each kind holds (results/figures.json "measured"): nothing else.
MEASURED = {"trained": ("values",), "rate": ("values", "n_items"), "within": ("value",),
            "timed": ("value", "interval"), "ordering": ("comparisons",), "bounds": ("conditions",),
            "converges": ("ns", "counts")}

RATE_FIGURES = ("winograd.cheatable_uniform", "winograd.cheatable_one_block", "winograd.hardened_uniform",
                "winograd.hardened_uniform_wrong_noun", "winograd.hardened_one_block", "winograd.hardened_two_blocks")
TIMED_FIGURES = {"cost.time_exponent": "time exponent",
                 "cost.projections_x8": "projections x for x8"}


def _figure(fid: str) -> Spec:
    f = FIGURES[fid]
    if fid in RATE_FIGURES:
        return Spec("rate", f.value, f.rounding, NULLS.get(fid))
    if COST_INSTRUMENT.get(fid) == "theory":    # decided on the layer's counts (docs/choices.md)
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
    "mask.leak_without_mask: without the mask: held-out perplexity": _ordering(
        ("the unmasked model's held-out perplexity below the masked one's", "<", None),
        ("the unmasked model's held-out perplexity below 2", "<", 2.0)),
    "winograd.order_blind_answers_backwards: the order-blind model: the other noun over the referent": _ordering(
        ("the other noun named more often than the referent", ">", None)),
    "winograd.order_blind_answers_backwards: the order-blind model: each held-out answer is the training order's": _bounds(
        ("held-out answers, over every seed, unlike the answer to the same nouns in the training order", "==", 0)),
    "winograd.two_hop_ablation: two blocks: each block's attention at the query position needed": _ordering(
        ("accuracy with block 1's attention output at the query zeroed below the intact model's", "<", None),
        ("accuracy with block 2's attention output at the query zeroed below the intact model's", "<", None)),
    "winograd.block1_carries_first_noun: after block 1: the first noun in the residual stream": _ordering(
        ("the first noun favoured over the second in more than half the held-out sentences", ">", 0.5),
        ("more often than with block 1's attention at the query zeroed", ">", None)),
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
    "cost.fused_kernel_avoids_matrix: the fused kernel runs at the longest length, memory linear in n": _bounds(
        ("16384 tokens run under the 8 GiB cap", "==", True), ("peak memory's log-log slope at most 1 + 0.15", "<=", 1.15)),
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
    raise RuleInputError("key", f"{key!r} is neither a figure of claims/chapter_figures.py nor declared in "
                                "claims/record_rules.py DECLARED: no rule inputs to decide it by")


def _comparisons(spec: Spec, given, name: str) -> dict:
    """The measured sides of each declared comparison, by label: exactly the declared labels."""
    if not isinstance(given, dict):
        raise RuleInputError(name, f"{given!r} is not an object of comparisons by label")
    labels = [label for label, _, _ in spec.comparisons]
    if sorted(given) != sorted(labels):
        raise RuleInputError(name, f"labels {sorted(given)} are not the declared {sorted(labels)}")
    return given


def _side(x, bound, field: str, per_seed: bool):
    if per_seed:
        xs = rules.measured_list(x, field)
        if bound is not None and any(v != bound for v in xs):
            raise RuleInputError(field, f"{x!r} is not the declared bound {bound!r}")
        return xs
    if isinstance(bound, bool) or isinstance(x, bool):
        if not isinstance(x, bool):
            raise RuleInputError(field, f"{x!r} is not a yes/no measurement")
        return x
    return rules.measured_number(x, field)


def decide(spec: Spec, measured) -> Decision:
    """A record decided from its spec and its measured values.  RuleInputError naming the
    measured field that is missing, extra (a record holds no rule inputs) or of the wrong type."""
    if not isinstance(measured, dict):
        raise RuleInputError("measured", f"{measured!r} is not an object of measured values")
    want = MEASURED[spec.kind]
    missing = [k for k in want if k not in measured]
    extra = sorted(set(measured) - set(want))
    if missing or extra:
        raise RuleInputError("measured", f"a {spec.kind} record holds {', '.join(want)}"
                             + (f"; missing {', '.join(missing)}" if missing else "")
                             + (f"; not a measured value: {', '.join(extra)}" if extra else ""))
    try:
        return _decide(spec, measured)
    except RuleInputError as e:
        raise RuleInputError(f"measured.{e.field}", str(e).split(": ", 1)[1]) from None


def _decide(spec: Spec, m: dict) -> Decision:
    null, null_what = spec.null if spec.null else (None, "")
    if spec.kind == "trained":
        return rules.trained(m["values"], spec.stated, spec.rounding, null=null, null_what=null_what)
    if spec.kind == "rate":
        return rules.rate(m["values"], spec.stated, m["n_items"], spec.rounding, null=null, null_what=null_what)
    if spec.kind == "within":
        return rules.within(m["value"], spec.stated, spec.rounding)
    if spec.kind == "timed":
        return rules.timed(TIMED[spec.timed], m["value"], m["interval"])
    if spec.kind == "converges":
        return rules.converges(m["ns"], m["counts"], spec.stated, spec.rounding)
    if spec.kind == "ordering":
        given = _comparisons(spec, m["comparisons"], "comparisons")
        out = []
        for label, op, bound in spec.comparisons:
            pair = given[label]
            if not isinstance(pair, dict) or sorted(pair) != ["a", "b"]:
                raise RuleInputError(f"comparisons.{label}", f"{pair!r} is not an object of a and b, per seed")
            out.append((label, op, _side(pair["a"], None, f"comparisons.{label}.a", True),
                        _side(pair["b"], bound, f"comparisons.{label}.b", True)))
        return rules.ordering(out)
    given = _comparisons(spec, m["conditions"], "conditions")
    out = []
    for label, op, bound in spec.comparisons:
        pair = given[label]
        if not isinstance(pair, list) or len(pair) != 2:
            raise RuleInputError(f"conditions.{label}", f"{pair!r} is not a pair [measured, bound]")
        a = _side(pair[0], bound, f"conditions.{label}[0]", False)
        b = _side(pair[1], bound, f"conditions.{label}[1]", False)
        if bound is not None and b != bound:
            raise RuleInputError(f"conditions.{label}[1]", f"{b!r} is not the declared bound {bound!r}")
        out.append((label, a, op, b))
    return rules.bounds(out)
