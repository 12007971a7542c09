"""A record's rule inputs (a Spec) and its verdict from them and its measured values.

A verdict is a function of three things (docs/evidence.md): the text's figure table, which gives
each record key its Spec (the Chapter's `rule_inputs`); the rule (textcheck/decide.py); and the
measured values a record holds, nothing else.  Pure (no torch, no pytest).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from textcheck import decide as rules
from textcheck.decide import Decision, RuleInputError, TimedFigure


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
    n_items: int | None = None                   # a rate's count of items: its test set's size, the design's

    @property
    def rule(self) -> str:
        """The rule's name in textcheck/versions.py."""
        return {"trained": "trained", "rate": "rate", "timed": "timing", "ordering": "ordering",
                "within": "stated", "bounds": "stated",
                "converges": "counts"}[self.kind]

    def decide(self, measured, timed: Mapping[str, TimedFigure]) -> Decision:
        """The record decided from these inputs and its measured values (`timed`: the text's timed
        figures by name).  RuleInputError naming the measured field that is missing, extra (a record
        holds no rule inputs) or of the wrong type."""
        if not isinstance(measured, dict):
            raise RuleInputError("measured", f"{measured!r} is not an object of measured values")
        want = MEASURED[self.kind]
        missing = [k for k in want if k not in measured]
        extra = sorted(set(measured) - set(want))
        if missing or extra:
            raise RuleInputError("measured", f"a {self.kind} record holds {', '.join(want)}"
                                 + (f"; missing {', '.join(missing)}" if missing else "")
                                 + (f"; not a measured value: {', '.join(extra)}" if extra else ""))
        try:
            return _decide(self, measured, timed)
        except RuleInputError as e:
            raise RuleInputError(f"measured.{e.field}", str(e).split(": ", 1)[1]) from None


# The measured fields a record of each kind holds (results/figures.json "measured"): nothing else.
MEASURED = {"trained": ("values",), "rate": ("values", "n_items"), "within": ("value",),
            "timed": ("value", "interval"), "ordering": ("comparisons",), "bounds": ("conditions",),
            "converges": ("ns", "counts")}

@dataclass(frozen=True)
class Sides:
    """An ordering's comparison as a record holds it: its two sides' values per seed."""
    a: Any
    b: Any


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


def _decide(spec: Spec, m: dict, timed: Mapping[str, TimedFigure]) -> Decision:
    null, null_what = spec.null if spec.null else (None, "")
    given = [m[k] for k in MEASURED[spec.kind]]           # the kind's measured values, in MEASURED's order
    if spec.kind == "trained":
        return rules.trained(*given, spec.stated, spec.rounding, null=null, null_what=null_what)
    if spec.kind == "rate":
        values, n_items = given
        if spec.n_items is not None and n_items != spec.n_items:
            # the count a rate's binomial spread is taken over is the design's, never the record's own say
            raise RuleInputError("n_items", f"{n_items!r}, but the figure table's test set holds {spec.n_items} items")
        return rules.rate(values, spec.stated, n_items, spec.rounding, null=null, null_what=null_what)
    if spec.kind == "within":
        return rules.within(*given, spec.stated, spec.rounding)
    if spec.kind == "timed":
        return rules.timed(timed[spec.timed], *given)
    if spec.kind == "converges":
        return rules.converges(*given, spec.stated, spec.rounding)
    if spec.kind == "ordering":
        given = _comparisons(spec, *given, "comparisons")
        out = []
        for label, op, bound in spec.comparisons:
            pair = given[label]
            if not isinstance(pair, dict) or sorted(pair) != ["a", "b"]:
                raise RuleInputError(f"comparisons.{label}", f"{pair!r} is not an object of a and b, per seed")
            sides = Sides(**pair)
            out.append((label, op, _side(sides.a, None, f"comparisons.{label}.a", True),
                        _side(sides.b, bound, f"comparisons.{label}.b", True)))
        return rules.ordering(out)
    given = _comparisons(spec, *given, "conditions")
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
