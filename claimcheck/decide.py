"""The rules as pure functions: a figure's verdict from its measured values and its rule inputs.

One definition of each rule (docs/figure-rule.md), used three ways: by the tests, which decide
as they measure (claimcheck/rule.py, claims/timing.py); by the evidence writer, which keeps the
measured values beside the figure (claimcheck/evidence.py); and by `python -m claims.rederive`,
which decides every committed figure again from results/ alone.  The rule inputs (the stated
value, its rounding, the null it is contrasted with, the comparisons an ordering makes) never
come from a record: claims/record_rules.py gives them from the figure table.  Imports neither
torch, numpy nor pytest, so deciding again needs no model and no test run.

Each rule returns a Decision: "holds", "refuted", "undecided" (the measurement cannot tell the
chapter's figure from the null it contrasts it with, or an ordering lies within 2 standard errors
of none), or "too few seeds", with the tolerance it used and the measurement in words.
"""
from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from claimcheck.formats import number, over_seeds

MIN_SEEDS = 3
MARGIN_SE = 2          # an ordering or a sign: the paired mean difference beyond 2 standard errors
# the sequential rule (docs/figure-rule.md): an undecided trained figure or ordering is run on the
# next number of seeds, and committed as undecided at the last
SEED_STEPS = (3, 5, 10)                 # starts at MIN_SEEDS (tests/integration/test_record_rules.py)


def next_seed_step(n: int) -> int | None:
    """The sequential rule's next number of seeds after a measurement on `n` (None at the cap:
    still undecided there, a figure is committed as undecided)."""
    return next((step for step in SEED_STEPS if step > n), None)


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


def spread(values: Sequence[float]) -> tuple[float, float]:
    mean = statistics.mean(values)
    return mean, (statistics.stdev(values) if len(values) > 1 else 0.0)


def _against(mean: float, stated: float, tol: float, null: float | None) -> str:
    """The one rule of a printed figure: refuted outside mean +- tol, undecided where that band
    also holds the null the sentence contrasts the figure with, else holds."""
    if abs(mean - stated) > tol:
        return "refuted"
    if null is not None and abs(mean - null) <= tol:
        return "undecided"
    return "holds"


def _null_words(verdict: str, mean: float, null: float | None, null_what: str) -> str:
    return (f"; undecided: cannot tell {number(mean)} from {null_what} {number(null)}"
            if verdict == "undecided" and null is not None else "")


def trained(values: Sequence[float], stated: float, rounding: float, unit: str = "",
            null: float | None = None, null_what: str = "") -> Decision:
    """The trained-figure rule: holds when |mean over seeds - stated| <= the chapter's rounding +
    2 sd over at least MIN_SEEDS seeds and that band excludes the declared null; refuted outside
    the band; otherwise undecided, naming the null."""
    values = measured_list(list(values), "values")
    mean, sd = spread(values)
    tol = rounding + 2 * sd
    if len(values) < MIN_SEEDS:
        verdict = "too few seeds"
    else:
        verdict = _against(mean, stated, tol, null)
    why = (f"{over_seeds(values, unit)}, {'against' if verdict == 'undecided' else 'not'} {stated}{unit} "
           f"(tolerance {rounding} + 2 sd = {number(tol)})")
    if verdict == "holds" and null is not None:
        why += f", told apart from {null_what} {number(null)}"
    return Decision(verdict, tol, why + _null_words(verdict, mean, null, null_what), {"values": values})


def reading_agrees(values: Sequence[float], stated: float, rounding: float) -> bool | None:
    """The trained-figure rule (rounding + 2 sd over seeds) applied to an alternative reading's
    values: None with fewer than MIN_SEEDS seeds, as a verdict would be skipped."""
    decision = trained(values, stated, rounding)
    return None if decision.verdict == "too few seeds" else decision.holds


def rate_tolerance(values: Sequence[float], n_items: int, rounding: float) -> float:
    """A printed rate (an accuracy, as a fraction) over seeds: the chapter's rounding widened by
    2 max(sd over seeds, the binomial SE of the mean of len(values) rates, each over n_items items)."""
    p = statistics.mean(values)
    se = math.sqrt(max(p * (1 - p), 1 / n_items) / n_items / len(values))
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return rounding + 2 * max(sd, se)


def rate(values: Sequence[float], stated: float, n_items: int, rounding: float,
         null: float | None = None, null_what: str = "") -> Decision:
    values = measured_list(list(values), "values")
    if any(not 0 <= v <= 1 for v in values):
        raise RuleInputError("values", f"{values!r}: a rate lies in [0, 1]")
    if isinstance(n_items, bool) or not isinstance(n_items, int) or not 0 < n_items <= MAX_MAGNITUDE:
        raise RuleInputError("n_items", f"{n_items!r} is not a positive count of items")
    tol = rate_tolerance(values, n_items, rounding)
    mean = statistics.mean(values)
    verdict = "too few seeds" if len(values) < MIN_SEEDS else _against(mean, stated, tol, null)
    why = f"{over_seeds(values)}, not {stated} (tolerance {rounding} + 2 max(sd, SE) = {number(tol)})"
    return Decision(verdict, tol, why + _null_words(verdict, mean, null, null_what),
                    {"values": values, "n_items": n_items})


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
    seed: holds when their mean is more than 2 standard errors in the chapter's direction,
    refuted when more than 2 standard errors the other way, otherwise undecided."""
    if op not in DIRECTION:
        raise RuleInputError("op", f"{op!r} is not an ordering (one of {', '.join(DIRECTION)})")
    if len(a) != len(b):
        raise RuleInputError(label, f"{len(a)} values of a against {len(b)} of b: not paired by seed")
    d = [DIRECTION[op] * (x - y) for x, y in zip(a, b)]
    if len(d) < MIN_SEEDS:
        return "too few seeds", f"{label}: {len(d)} seeds"
    mean, sd = spread(d)
    se = sd / math.sqrt(len(d))
    z = mean / se if se > 0 else (math.inf if mean > 0 else -math.inf if mean < 0 else 0.0)
    verdict = "holds" if z > MARGIN_SE else "refuted" if z < -MARGIN_SE else "undecided"
    signed = DIRECTION[op] * mean
    return verdict, (f"{label}: paired difference {number(signed)} +- {number(sd)} over {len(d)} seeds, "
                     f"{number(z)} SE in the chapter's direction" + ("" if verdict == "holds" else
                     f" ({verdict}: the margin is {MARGIN_SE} SE)"))


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
    """The narrowest interval a timed figure is judged on: value +- 2 run-to-run sd."""
    return value - 2 * drift, value + 2 * drift


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
