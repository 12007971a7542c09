"""The rules as pure functions: a figure's verdict from its recorded measurement.

One definition of each rule (design.md, Tolerances), used three ways: by the tests, which decide
as they measure (claims/rule.py, claims/timing.py); by the evidence writer, which keeps what each
decision needs beside the figure (claims/figure_evidence.py); and by `python -m claims.rederive`,
which decides every committed figure again from results/ alone.  Imports neither torch, numpy
nor pytest, so deciding again needs no model and no test run.

Each rule takes the numbers its decision needs and returns a Decision: "holds", "refuted", or
"undecided" (a timed figure whose interval is too wide to tell, never a verdict), with the
tolerance it used and the measurement in words (a refutation's reason).
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from claims.chapter_figures import FIGURES
from claims.formats import NON_FINITE, number, over_seeds

MIN_SEEDS = 3


@dataclass(frozen=True)
class Decision:
    verdict: str                 # holds | refuted | undecided | too few seeds
    tolerance: float | None
    why: str                     # the measurement in words, generated here
    inputs: dict = field(default_factory=dict)   # what `again` needs to decide it once more

    @property
    def holds(self) -> bool:
        return self.verdict == "holds"


def spread(values: Sequence[float]) -> tuple[float, float]:
    mean = statistics.mean(values)
    return mean, (statistics.stdev(values) if len(values) > 1 else 0.0)


def trained(values: Sequence[float], stated: float, rounding: float, unit: str = "") -> Decision:
    """The trained-figure rule: |mean over seeds - stated| <= the chapter's rounding + 2 sd over
    at least MIN_SEEDS seeds."""
    values = [float(v) for v in values]
    mean, sd = spread(values)
    tol = rounding + 2 * sd
    why = f"{over_seeds(values, unit)}, not {stated}{unit} (tolerance {rounding} + 2 sd = {number(tol)})"
    inputs = {"kind": "trained", "values": values, "stated": stated, "rounding": rounding, "unit": unit}
    if len(values) < MIN_SEEDS:
        return Decision("too few seeds", tol, why, inputs)
    return Decision("holds" if abs(mean - stated) <= tol else "refuted", tol, why, inputs)


def reading_agrees(values: Sequence[float], stated: float, rounding: float) -> bool | None:
    """The trained-figure rule (rounding + 2 sd over seeds) applied to an alternative reading's
    values: None with fewer than MIN_SEEDS seeds, as a verdict would be skipped."""
    decision = trained(values, stated, rounding)
    return None if decision.verdict == "too few seeds" else decision.holds


def rate_tolerance(values: Sequence[float], n_items: int) -> float:
    """A printed rate (an accuracy, as a fraction) over seeds: the chapter's rounding (0.05
    percentage points) widened by 2 max(sd over seeds, the binomial SE of the mean of
    len(values) rates, each over n_items items)."""
    p = statistics.mean(values)
    se = math.sqrt(max(p * (1 - p), 1 / n_items) / n_items / len(values))
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return 0.0005 + 2 * max(sd, se)


def rate(values: Sequence[float], stated: float, n_items: int) -> Decision:
    values = [float(v) for v in values]
    tol = rate_tolerance(values, n_items)
    why = f"{over_seeds(values)}, not {stated} (tolerance 0.0005 + 2 max(sd, SE) = {number(tol)})"
    inputs = {"kind": "rate", "values": values, "stated": stated, "n_items": n_items}
    if len(values) < MIN_SEEDS:
        return Decision("too few seeds", tol, why, inputs)
    return Decision("holds" if abs(statistics.mean(values) - stated) <= tol else "refuted", tol, why, inputs)


def within(value: float, stated: float, tolerance: float, unit: str = "") -> Decision:
    """A single measurement (a byte count, an exponent fitted to them) at a stated tolerance."""
    why = f"{number(value)}{unit}, not {stated}{unit} (tolerance {tolerance})"
    inputs = {"kind": "within", "value": float(value), "stated": stated, "tolerance": tolerance, "unit": unit}
    return Decision("holds" if abs(float(value) - stated) <= tolerance else "refuted", tolerance, why, inputs)


def _number(x):
    """A value as recorded: JSON keeps an infinite or undefined float as a string ("inf")."""
    return float(x) if isinstance(x, str) and x in NON_FINITE else x


OPS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
       ">=": lambda a, b: a >= b, "==": lambda a, b: a == b}


def checks(conditions: Sequence[Sequence]) -> Decision:
    """All of [label, a, op, b]: comparisons of recorded numbers (an ordering, a bound)."""
    conditions = [[str(label), _number(a), op, _number(b)] for label, a, op, b in conditions]
    failed = [f"{label}: {a!r} {op} {b!r} is false" for label, a, op, b in conditions if not OPS[op](a, b)]
    return Decision("refuted" if failed else "holds", None, "; ".join(failed) or "every condition holds",
                    {"kind": "checks", "conditions": conditions})


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


# The timed figures of the cost claims (claims/test_cost.py) and how each is judged: a band the
# value must lie in (a slope, a ratio), or a printed figure with its rounding and the widest
# interval that may confirm it.  One table, used by the tests and by benchmarks/cost_flakes.py.
TIMED = {f.name: f for f in (
    TimedFigure("time slope", band=(1.85, 2.15)),                   # "quadratic": within 0.15 of 2
    TimedFigure("last ratio", band=(3.5, 4.5)),                     # "converges on 4": within 0.5
    # the printed figures, at their printed rounding (claims/chapter_figures.py): n^1.91 is
    # undecided wider than 0.2, the gap from 1.8 to 2.0; "ten" wider than 2 (8, linear, from 12)
    TimedFigure("time exponent", stated=FIGURES["cost.time_exponent"].value,
                rounding=FIGURES["cost.time_exponent"].rounding, too_wide=0.2, drift_of="time slope"),
    TimedFigure("projection slope", band=(0.85, 1.15)),             # "linear"
    TimedFigure("projections x for x8", stated=FIGURES["cost.projections_x8"].value,
                rounding=FIGURES["cost.projections_x8"].rounding, too_wide=2),
)}


def floor(value: float, drift: float) -> tuple[float, float]:
    """The narrowest interval a timed figure is judged on: value +- 2 run-to-run sd."""
    return value - 2 * drift, value + 2 * drift


def judge(figure: TimedFigure, value: float, a: float, b: float, drift: float = 0.0) -> tuple[str, float, float]:
    """(holds | outside | undecided, the interval judged).  [a, b] is the 95 % bootstrap interval
    over a run's processes; it is widened to at least value +- 2 drift, the run-to-run sd of the
    machine class (docs/cost.md).  A band: holds inside, outside wholly outside, undecided
    straddling an edge.  A printed figure: outside if it lies outside the interval widened by its
    rounding, undecided if it lies inside an interval wider than the gap the figure must tell
    apart (a wide interval confirms anything), else holds."""
    narrowest = floor(value, drift)
    a, b = min(a, narrowest[0]), max(b, narrowest[1])
    if figure.band:
        lo, hi = figure.band
        verdict = "holds" if lo <= a and b <= hi else "outside" if b < lo or a > hi else "undecided"
    elif not a - figure.rounding <= figure.stated <= b + figure.rounding:
        verdict = "outside"
    else:
        verdict = "undecided" if b - a > figure.too_wide else "holds"
    return verdict, a, b


def timed(figure: TimedFigure, value: float, interval: Sequence[float]) -> Decision:
    """A committed timed figure decided again on the interval it was judged on."""
    verdict, a, b = judge(figure, float(value), float(interval[0]), float(interval[1]))
    what = f"[{figure.band[0]}, {figure.band[1]}]" if figure.band else f"{figure.stated} +- {figure.rounding}"
    why = f"{number(value)}, interval [{number(a)}, {number(b)}], judged against {what}"
    return Decision({"outside": "refuted"}.get(verdict, verdict), None, why,
                    {"kind": "timed", "name": figure.name, "value": float(value), "interval": [a, b]})


KINDS = {"trained": ("values", "stated", "rounding"), "rate": ("values", "stated", "n_items"),
         "within": ("value", "stated", "tolerance"), "checks": ("conditions",), "timed": ("name", "value", "interval")}


def again(inputs: dict) -> Decision:
    """Decide once more from a Decision's `inputs`, as recorded (results/figures.json).  Raises
    ValueError naming what is missing or unknown."""
    kind = inputs.get("kind") if isinstance(inputs, dict) else None
    if kind not in KINDS:
        raise ValueError(f"unknown kind of decision {kind!r}; known: {', '.join(KINDS)}")
    missing = [k for k in KINDS[kind] if k not in inputs]
    if missing:
        raise ValueError(f"a {kind} decision without {', '.join(missing)}")
    if kind == "trained":
        return trained(inputs["values"], inputs["stated"], inputs["rounding"], inputs.get("unit", ""))
    if kind == "rate":
        return rate(inputs["values"], inputs["stated"], inputs["n_items"])
    if kind == "within":
        return within(inputs["value"], inputs["stated"], inputs["tolerance"], inputs.get("unit", ""))
    if kind == "checks":
        return checks(inputs["conditions"])
    if inputs["name"] not in TIMED:
        raise ValueError(f"unknown timed figure {inputs['name']!r}; known: {', '.join(TIMED)}")
    return timed(TIMED[inputs["name"]], inputs["value"], inputs["interval"])
