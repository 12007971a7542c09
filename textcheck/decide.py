"""The rules as pure functions: a figure's verdict from its measured values and its rule inputs.

One definition of each rule (docs/figure-rule.md), used three ways: by the tests, which decide
as they measure (textcheck/rule.py, claims/timing.py); by the evidence writer, which keeps the
measured values beside the figure (textcheck/evidence.py); and by `python -m claims.rederive`,
which decides every committed figure again from results/ alone.  The rule inputs (the stated
value, its rounding, the null it is contrasted with, the comparisons an ordering makes) never
come from a record: claims/record_rules.py gives them from the figure table.  Imports neither
torch nor pytest, so deciding again needs no model and no test run; its quantiles and tests are
scipy.stats's (rule version 3), never hand constants (scipy brings numpy).

Each rule returns a Decision: "holds", "refuted", "undecided" (the measurement cannot tell the
chapter's figure from the null it contrasts it with, or an ordering is not significant either
way), or "too few seeds", with the tolerance it used and the measurement in words.  An undecided
printed figure also says which kind it is (`Decision.kind`): "more runs could settle it", or
"one run cannot show it" (single runs vary more than the figure's distance from its null).
"""
from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from textcheck.formats import number, over_seeds, spread  # spread: the rule's too (rule.py, shown.py)

MIN_SEEDS = 3
# The one level of every statistical decision (rule version 3): an ordering is significant at a
# two-sided 5 %, a printed figure is judged on the 95 % prediction interval for one new run.
LEVEL = 0.05
# The most seeds a CPU group is declared for (docs/choices.md, "Seeds per trained group"): the n at
# which "more runs could settle it" is asked; beyond it an undecided figure is "one run cannot show it".
FEASIBLE_SEEDS = 10
MORE_RUNS = "more runs could settle it"
ONE_RUN = "one run cannot show it"


def _stats():
    """scipy.stats, imported when a decision first needs it (it takes a second to import; the
    report's pages and the plugin import this module without deciding anything)."""
    from scipy import stats
    return stats


def ttest_1samp(d: Sequence[float]) -> tuple[float, float]:
    """(t, two-sided p) of Student's one-sample t test of `d` against 0: scipy.stats.ttest_1samp's
    own computation on the one axis of a list of finite numbers, without its wrapper for other
    axes, masks and NaN policies (two thirds of its time: the re-derivation runs 50 of them).  The
    same numbers, bit for bit (tests/engine/test_decision_rule.py checks them against the public call)."""
    import numpy
    test = _stats().ttest_1samp
    result = getattr(test, "__wrapped__", test)(numpy.asarray(d, dtype=float), 0.0)
    return float(result.statistic), float(result.pvalue)


@cache
def t_quantile(n: int) -> float:
    """Student's t quantile for a two-sided LEVEL at n - 1 degrees of freedom: scipy.stats.t.ppf's
    own function, scipy.special.stdtrit (the same number; tests/engine/test_decision_rule.py checks
    it), without importing scipy.stats (a second of a fast tier that decides no ordering)."""
    from scipy import special
    return float(special.stdtrit(n - 1, 1 - LEVEL / 2))


def prediction_halfwidth(sd: float, n: int) -> float:
    """Half the width of the prediction interval for one new run from n runs of spread sd:
    t(n - 1) * sd * sqrt(1 + 1/n)."""
    return t_quantile(n) * sd * math.sqrt(1 + 1 / n)


# The largest magnitude a measured number may have: every figure of the chapter is far below it,
# and the spread of numbers below it stays finite (1e308 would give an infinite tolerance).
MAX_MAGNITUDE = 1e12


class RuleInputError(ValueError):
    """A measured value or a rule input that is not what the rule needs; names the field."""

    def __init__(self, field: str, message: str):
        super().__init__(f"field {field!r}: {message}")
        self.field = field


@dataclass(frozen=True)
class Decision:
    verdict: str                 # holds | refuted | undecided | too few seeds
    tolerance: float | None
    why: str                     # the measurement in words, generated here
    measured: dict = field(default_factory=dict)   # the measured values a record keeps (no rule inputs)
    kind: str | None = None      # an undecided printed figure: MORE_RUNS or ONE_RUN

    @property
    def holds(self) -> bool:
        return self.verdict == "holds"


def measured_number(x, field: str) -> float:
    """A measured number, typed: an int or a float, finite and below MAX_MAGNITUDE; never a
    bool, a string ("151" is not three seeds) or a 5000-digit integer."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise RuleInputError(field, f"{x!r} is a {type(x).__name__}, not a number")
    if isinstance(x, int) and abs(x) > MAX_MAGNITUDE:
        raise RuleInputError(field, f"an integer of {len(str(abs(x)))} digits, beyond {MAX_MAGNITUDE:g}")
    if not math.isfinite(x) or abs(x) > MAX_MAGNITUDE:
        raise RuleInputError(field, f"{x!r} is not a finite number below {MAX_MAGNITUDE:g}")
    return float(x)


def measured_list(xs, field: str) -> list[float]:
    """A non-empty list of measured numbers (one per seed, or per cell)."""
    if not isinstance(xs, list) or not xs:
        raise RuleInputError(field, f"{xs!r} is not a non-empty list of numbers")
    return [measured_number(x, f"{field}[{i}]") for i, x in enumerate(xs)]


def _against(mean: float, stated: float, half: float, rounding: float, null: float | None) -> str:
    """The one rule of a printed figure: refuted when it lies outside the prediction interval
    mean +- half widened by its rounding, undecided where that interval also holds the null the
    sentence contrasts the figure with, else holds."""
    if abs(mean - stated) > half + rounding:
        return "refuted"
    if null is not None and abs(mean - null) <= half:
        return "undecided"
    return "holds"


def undecided_kind(mean: float, sd: float, null: float) -> str:
    """Whether more runs could tell the figure from its null: the prediction interval at
    FEASIBLE_SEEDS seeds (the same spread) would exclude it; otherwise single runs vary more than
    the figure's distance from its null, and no number of seeds changes that."""
    return MORE_RUNS if abs(mean - null) > prediction_halfwidth(sd, FEASIBLE_SEEDS) else ONE_RUN


def _null_words(verdict: str, mean: float, null: float | None, null_what: str, kind: str | None) -> str:
    return (f"; undecided ({kind}): cannot tell {number(mean)} from {null_what} {number(null)}"
            if verdict == "undecided" and null is not None else "")


def _figure(values: list[float], sd: float, stated: float, rounding: float, null: float | None,
            null_what: str, what: str, unit: str = "") -> Decision:
    """A printed figure over seeds, judged on the prediction interval of one new run (the spread
    `sd`: the seeds' own, or a floor a rate's binomial noise sets)."""
    n = len(values)
    mean = spread(values)[0]                    # statistics.mean, summarised once
    half = prediction_halfwidth(sd, n) if n > 1 else math.inf
    if n < MIN_SEEDS:
        return Decision("too few seeds", half + rounding,
                        f"{over_seeds(values, unit)}: {n} seeds, fewer than {MIN_SEEDS}", {"values": values})
    verdict = _against(mean, stated, half, rounding, null)
    kind = undecided_kind(mean, sd, null) if verdict == "undecided" and null is not None else None
    tol = half + rounding
    why = (f"{over_seeds(values, unit)}, {'against' if verdict == 'undecided' else 'not'} {stated}{unit} "
           f"(one new run: {number(mean)} +- {number(half)}, t({n - 1}) {what}, + rounding {rounding})")
    if verdict == "holds" and null is not None:
        why += f", told apart from {null_what} {number(null)}"
    return Decision(verdict, tol, why + _null_words(verdict, mean, null, null_what, kind), {"values": values}, kind)


def trained(values: Sequence[float], stated: float, rounding: float, unit: str = "",
            null: float | None = None, null_what: str = "") -> Decision:
    """The trained-figure rule: holds when the chapter's figure lies inside the 95 % prediction
    interval for one new run, mean +- t(n - 1) sd sqrt(1 + 1/n), widened by its rounding, and that
    interval excludes the declared null; refuted outside; otherwise undecided (of one of two kinds,
    `undecided_kind`), naming the null.  At least MIN_SEEDS seeds."""
    values = measured_list(list(values), "values")
    _, sd = spread(values)
    return _figure(values, sd, stated, rounding, null, null_what, "sd sqrt(1 + 1/n)", unit)


def reading_agrees(values: Sequence[float], stated: float, rounding: float) -> bool | None:
    """The trained-figure rule applied to an alternative reading's values: None with fewer than
    MIN_SEEDS seeds, as a verdict would be skipped."""
    decision = trained(values, stated, rounding)
    return None if decision.verdict == "too few seeds" else decision.holds


def rate_sd(values: Sequence[float], n_items: int) -> float:
    """The spread of one run's printed rate: the seeds' sd, at least the binomial sd of one rate
    over n_items items (a run whose seeds happen to agree still has that much noise)."""
    p = statistics.mean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return max(sd, math.sqrt(max(p * (1 - p), 1 / n_items) / n_items))


def rate(values: Sequence[float], stated: float, n_items: int, rounding: float,
         null: float | None = None, null_what: str = "") -> Decision:
    """A printed rate (an accuracy, as a fraction) over seeds: the trained-figure rule with the
    spread `rate_sd`."""
    values = measured_list(list(values), "values")
    if any(not 0 <= v <= 1 for v in values):
        raise RuleInputError("values", f"{values!r}: a rate lies in [0, 1]")
    if isinstance(n_items, bool) or not isinstance(n_items, int) or not 0 < n_items <= MAX_MAGNITUDE:
        raise RuleInputError("n_items", f"{n_items!r} is not a positive count of items")
    d = _figure(values, rate_sd(values, n_items), stated, rounding, null, null_what,
                "max(sd, binomial sd) sqrt(1 + 1/n)")
    return Decision(d.verdict, d.tolerance, d.why, {"values": values, "n_items": n_items}, d.kind)


def within(value: float, stated: float, tolerance: float, unit: str = "") -> Decision:
    """A single measurement (a byte count, an exponent fitted to them) at a stated tolerance."""
    value = measured_number(value, "value")
    why = f"{number(value)}{unit}, not {stated}{unit} (tolerance {tolerance})"
    return Decision("holds" if abs(value - stated) <= tolerance else "refuted", tolerance, why, {"value": value})


OPS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
       ">=": lambda a, b: a >= b, "==": lambda a, b: a == b}
DIRECTION = {"<": -1, "<=": -1, ">": 1, ">=": 1}     # which sign of a - b the chapter states


def paired(label: str, op: str, a: Sequence[float], b: Sequence[float]) -> tuple[str, str]:
    """One ordering over seeds: the chapter says a op b.  The paired differences a - b, seed by
    seed, under Student's one-sample t test at n - 1 degrees of freedom (scipy.stats.ttest_1samp,
    two-sided at LEVEL): holds when significant in the chapter's direction, refuted when
    significant the other way, otherwise undecided.  Differences that are all equal have no
    spread: their sign decides (a nonzero constant) or nothing does (zero)."""
    if op not in DIRECTION:
        raise RuleInputError("op", f"{op!r} is not an ordering (one of {', '.join(DIRECTION)})")
    if len(a) != len(b):
        raise RuleInputError(label, f"{len(a)} values of a against {len(b)} of b: not paired by seed")
    d = [DIRECTION[op] * (x - y) for x, y in zip(a, b)]
    if len(d) < MIN_SEEDS:
        return "too few seeds", f"{label}: {len(d)} seeds"
    mean, sd = spread(d)
    if sd == 0:
        t, p = (math.copysign(math.inf, mean), 0.0) if mean else (0.0, 1.0)
    else:
        t, p = ttest_1samp(d)
    verdict = "undecided" if p >= LEVEL else "holds" if t > 0 else "refuted"
    signed = DIRECTION[op] * mean
    return verdict, (f"{label}: paired difference {number(signed)} +- {number(sd)} over {len(d)} seeds, "
                     f"t({len(d) - 1}) = {number(t)} in the chapter's direction, p = {p:.2g}"
                     + ("" if verdict == "holds" else f" ({verdict}: significant at {LEVEL:g} two-sided)"
                        if verdict == "refuted" else f" ({verdict}: not significant at {LEVEL:g} two-sided)"))


def ordering(comparisons: Sequence[tuple[str, str, Sequence[float], Sequence[float]]]) -> Decision:
    """Every ordering a sentence states, each decided by `paired`: holds when all hold, refuted
    when one is refuted, otherwise undecided."""
    if not comparisons:
        raise RuleInputError("comparisons", "an ordering of no comparisons decides nothing")
    results = [paired(label, op, a, b) for label, op, a, b in comparisons]
    verdicts = [v for v, _ in results]
    verdict = ("refuted" if "refuted" in verdicts else "too few seeds" if "too few seeds" in verdicts
               else "undecided" if "undecided" in verdicts else "holds")
    return Decision(verdict, None, "; ".join(why for _, why in results),
                    {"comparisons": {label: {"a": list(a), "b": list(b)} for label, _, a, b in comparisons}})


def bounds(conditions: Sequence[tuple[str, object, str, object]]) -> Decision:
    """Single measurements against the bound a test states beside them (exact: nothing over seeds)."""
    if not conditions:
        raise RuleInputError("conditions", "no conditions decide nothing")
    failed = []
    for label, a, op, b in conditions:
        if op not in OPS:
            raise RuleInputError(label, f"op {op!r} is not one of {', '.join(OPS)}")
        if not OPS[op](a, b):
            failed.append(f"{label}: {a!r} {op} {b!r} is false")
    return Decision("refuted" if failed else "holds", None, "; ".join(failed) or "every condition holds",
                    {"conditions": {label: [a, b] for label, a, _, b in conditions}})


def converges(ns, counts, limit: float, rounding: float) -> Decision:
    """"A doubling of n converges on exactly <limit>", read as docs/choices.md declares it
    (2026-12-03, before the counts were taken): over lengths that double, the ratio of successive
    counts rises at every doubling, never exceeds the limit, and the ratio at the last doubling
    lies within the printed limit's rounding.  Counts are exact: holds or refuted, never undecided."""
    ns, counts = measured_list(ns, "ns"), measured_list(counts, "counts")
    if len(ns) != len(counts) or len(ns) < 3:
        raise RuleInputError("counts", f"{len(counts)} counts at {len(ns)} lengths: one per length, at least 3")
    if any(b != 2 * a for a, b in itertools.pairwise(ns)) or any(c <= 0 for c in counts):
        raise RuleInputError("ns", f"{ns!r}: lengths that double, each with a positive count")
    ratios = [b / a for a, b in itertools.pairwise(counts)]
    failed = [f"the ratio falls from {number(a)} to {number(b)}" for a, b in itertools.pairwise(ratios) if b <= a]
    failed += [f"a ratio {number(r)} above {number(limit)}" for r in ratios if r > limit]
    if abs(ratios[-1] - limit) > rounding:
        failed.append(f"the last ratio {number(ratios[-1])} is not within {rounding} of {number(limit)}")
    why = (f"ratios per doubling {', '.join(number(r) for r in ratios)}: "
           + ("; ".join(failed) if failed else f"rising, at most {number(limit)}, the last within {rounding} of it"))
    return Decision("refuted" if failed else "holds", rounding, why, {"ns": ns, "counts": counts})


# ----------------------------------------------------------------- timed figures (claims/timing.py)

@dataclass(frozen=True)
class TimedFigure:
    """How a timed figure is judged: a band its value must lie in (a slope, a ratio), or a
    printed figure with its rounding and the widest interval that may confirm it."""
    name: str
    band: tuple[float, float] | None = None
    stated: float | None = None
    rounding: float = 0.0
    too_wide: float = float("inf")
    drift_of: str | None = None          # whose run-to-run spread it shares (the same statistic)


def floor(value: float, drift: float) -> tuple[float, float]:
    """The narrowest interval a timed figure is judged on: value +- the normal quantile of LEVEL
    (1.96) run-to-run sd."""
    z = float(_stats().norm.ppf(1 - LEVEL / 2))
    return value - z * drift, value + z * drift


def judge(timed: TimedFigure, value: float, a: float, b: float, drift: float = 0.0) -> tuple[str, float, float]:
    """(holds | outside | undecided, the interval judged).  [a, b] is the 95 % bootstrap interval
    over a run's processes; it is widened to at least value +- 2 drift, the run-to-run sd of the
    machine class (docs/cost.md).  A band: holds inside, outside wholly outside, undecided
    straddling an edge.  A printed figure: outside if it lies outside the interval widened by its
    rounding, undecided if it lies inside an interval wider than the gap the figure must tell
    apart (a wide interval confirms anything), else holds."""
    narrowest = floor(value, drift)
    a, b = min(a, narrowest[0]), max(b, narrowest[1])
    if timed.band:
        lo, hi = timed.band
        verdict = "holds" if lo <= a and b <= hi else "outside" if b < lo or a > hi else "undecided"
    elif not a - timed.rounding <= timed.stated <= b + timed.rounding:
        verdict = "outside"
    else:
        verdict = "undecided" if b - a > timed.too_wide else "holds"
    return verdict, a, b


def timed(timed: TimedFigure, value: float, interval: Sequence[float]) -> Decision:
    """A committed timed figure decided again on the interval it was judged on."""
    value = measured_number(value, "value")
    if not isinstance(interval, (list, tuple)) or len(interval) != 2:
        raise RuleInputError("interval", f"{interval!r} is not an interval [a, b]")
    lo, hi = measured_number(interval[0], "interval[0]"), measured_number(interval[1], "interval[1]")
    if lo > hi:
        raise RuleInputError("interval", f"[{lo}, {hi}] is empty")
    verdict, a, b = judge(timed, value, lo, hi)
    what = f"[{timed.band[0]}, {timed.band[1]}]" if timed.band else f"{timed.stated} +- {timed.rounding}"
    why = f"{number(value)}, interval [{number(a)}, {number(b)}], judged against {what}"
    return Decision({"outside": "refuted"}.get(verdict, verdict), None, why, {"value": value, "interval": [lo, hi]})
