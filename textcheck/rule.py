"""One rule for every figure the chapter prints (docs/figure-rule.md), applied in a test.

- A figure is asserted as a number: one test, or one parametrized case, per stated figure.
- Trained figures: holds when |mean over seeds - stated| <= the chapter's rounding (half a unit
  of its last printed digit) + 2 seed-to-seed sd, over at least 3 seeds, and that band excludes
  the null the figure table declares beside it; refuted outside; otherwise undecided
  (`trained_figure`).  Orderings: the paired t test over seeds, significant at 5 % two-sided
  (`ordering`).  The rule inputs are the figure table's (the Chapter's `rule_inputs`), never the test's.
- The Chapter is the run's (textcheck/hooks.py chapter_of), read from the test's `request`.
- A figure our measurement contradicts is refuted: a strict xfail whose reason is generated
  here, from the measurement, at run time (`decide`); never a typed string.  An undecided one
  is skipped as "undecided: ..." (`settle`).
"""
from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

from textcheck import decide as rules
from textcheck.decide import MIN_SEEDS, RuleInputError, spread
from textcheck.device_readings import Measured, device_reading
from textcheck.formats import number
from textcheck.hooks import chapter_of
from textcheck.readings import DeclaredReading, ReadingError, declared_for, with_reading
from textcheck.specs import Spec
from textcheck.verdicts import record_key


def decide(request, holds: bool, reason: str) -> None:
    """Pass if the figure holds; otherwise mark the test refuted, with `reason` (the measurement,
    in words) as its xfail reason, and fail its assertion.  Strict, and only for the assertion:
    an error elsewhere in the test is still a failure, never a refutation."""
    if not holds:
        request.applymarker(pytest.mark.xfail(strict=True, raises=AssertionError, reason=f"refuted: {reason}"))
    assert holds, reason


def device_specific(request, device: str, ours: str) -> None:
    """Skip, as `not run: device-specific`, a test whose every figure is one the chapter measured
    on its own device (the figure table's device="cuda", the Chapter's `device`) when we measured on another
    device: our measurement, recorded before this, is a reading beside the chapter's figure,
    never a verdict on it (textcheck/device_readings.py device_reading, the one answer)."""
    chapter = chapter_of(request.config)
    ids = [f for m in request.node.iter_markers("figure") for f in m.args]
    entries = [chapter.figures[f] for f in ids]
    if ids and all(device_reading(chapter, f, Measured(device=device)) for f in ids):
        pytest.skip(f"not run: device-specific: {ours} on {device}, a reading beside the chapter's "
                    f"{', '.join(e.printed for e in entries)}, which is its {chapter.device or 'own device'}'s")


def instrument_reading(request, device: str, ours: str) -> None:
    """Skip, as `not run: device-specific`, a test that reads a clock or an allocator (its
    measurement: fixtures/measurements.py READ_OFF_INSTRUMENT) anywhere but on the chapter's kind
    of device (CUDA), whatever figure it is about: one rule, no exception (docs/cost.md).  Its
    measurement, recorded before this, is a reading beside the chapter's (textcheck/verdicts.py
    device_reading does the same for committed ones)."""
    if not str(device).startswith("cuda"):
        pytest.skip(f"not run: device-specific: {ours} on {device}, read off its clock or allocator; "
                    "decided only on the chapter's kind of device (CUDA)")


def settle(request, verdict: str, reason: str) -> None:
    """A decision's outcome: holds passes, refuted is a strict xfail (decide), undecided is
    skipped as "undecided: ..." (textcheck/plugin.py counts it as undecided, never as holds),
    underspecified is a strict xfail whose reason says so (counted as underspecified, never as
    holds or refuted)."""
    if verdict == "undecided":
        pytest.skip(f"undecided: {reason}")
    if verdict == "underspecified":
        request.applymarker(pytest.mark.xfail(strict=True, raises=AssertionError, reason=f"underspecified: {reason}"))
        raise AssertionError(reason)
    decide(request, verdict == "holds", reason)


def spec_of(request, label: str) -> Spec:
    """The rule inputs of the record this test makes (the Chapter's rule inputs): from the figure
    table, never from the test.  A test whose figure has none is an error."""
    claims = [m.args[0] for m in request.node.iter_markers("claim")]
    figures = list(dict.fromkeys(f for m in request.node.iter_markers("figure") for f in m.args))
    chapter = chapter_of(request.config)
    # the record as it is stored: its label under the field "figure" (textcheck/plugin.py record)
    key = record_key(chapter, {"figures": figures, "figure": label}, claims[0] if claims else "")
    try:
        return chapter.rule_inputs(key)
    except RuleInputError as e:
        raise AssertionError(f"{request.node.nodeid}: {e}") from None


def need_seeds(n: int) -> None:
    """A tolerance built from the seed-to-seed spread needs the spread: skip (after the
    measurement is recorded, so the report still shows it) with fewer than three seeds."""
    if n < MIN_SEEDS:
        pytest.skip(f"the tolerance is the seed-to-seed spread: needs >= {MIN_SEEDS} seeds, "
                    f"ran {n} (measured values are recorded)")


def trained_figure(request, claim_record, *, label: str, stated: float, values: Sequence[float],
                   rounding: float, measurement: str, unit: str = "", note: str = "",
                   reading: tuple[str, Sequence[float], str] | None = None, **details) -> None:
    """The trained-figure rule for one printed figure: record stated vs measured (mean, sd, per
    seed), the tolerance, the measured values and what was measured (`measurement`, a kind of
    fixtures/measurements.py: "perplexity", "softmax_stats", ...), then decide.  The rule inputs
    (stated, rounding, the null) are the figure table's (spec_of); `stated` and `rounding`, as the
    test reads them, must agree with it.  `note` is appended to a refutation's reason.
    `reading`: (name, values per seed, when they were measured) of a reading the Chapter declares
    for this figure (textcheck/readings.py), decided by the same rule inputs: where the primary
    refutes the figure and the reading, declared before it was measured, reproduces it, the
    figure is underspecified; otherwise the verdict is the primary's and the reading is shown."""
    spec = spec_of(request, label)
    if spec.kind != "trained" or spec.stated != stated or spec.rounding != rounding:
        raise AssertionError(f"{label}: the test states {stated} +- {rounding}, the figure table "
                             f"(the Chapter's rule inputs) a {spec.kind} figure {spec.stated} +- {spec.rounding}")
    values = [float(v) for v in values]
    mean, sd = spread(values)
    null, null_what = spec.null if spec.null else (None, "")
    decision = rules.trained(values, stated, rounding, unit, null=null, null_what=null_what)
    verdict, why, read = decision.verdict, decision.why, {}
    if reading is not None:
        name, read_values, measured_at = reading
        declared = _declared(request, label, name)
        alternative = rules.trained([float(v) for v in read_values], stated, rounding, unit, null=null, null_what=null_what)
        verdict, said = with_reading(decision.verdict, alternative.verdict, declared, measured_at)
        why = f"{decision.why}; {said} (the reading: {alternative.why})"
        read = {"reading": {"name": name, "measured": alternative.measured, "date": measured_at}}
    claim_record(stated=stated, measured={"mean": mean, "sd": sd, "per seed": values}, label=label,
                 tolerance=f"{rounding} + t({len(values) - 1}) sd sqrt(1 + 1/n) = {number(decision.tolerance)}", decision=decision.measured,
                 seeds=len(values), rule="trained", measurement=measurement,
                 **({"null": {"value": null, "what": null_what}} if spec.null else {}), **read, **details)
    need_seeds(len(values))
    settle(request, verdict, f"{label}: {why}" + (f"; {note}" if note else ""))


def _declared(request, label: str, name: str) -> DeclaredReading:
    """The Chapter's declaration of the reading `name` for the record this test makes."""
    claims = [m.args[0] for m in request.node.iter_markers("claim")]
    figures = list(dict.fromkeys(f for m in request.node.iter_markers("figure") for f in m.args))
    chapter = chapter_of(request.config)
    key = record_key(chapter, {"figures": figures, "figure": label}, claims[0] if claims else "")
    try:
        return declared_for(chapter.readings, key, name)
    except ReadingError as e:
        raise AssertionError(f"{request.node.nodeid}: {e}") from None


def _by_comparison(conditions) -> list[tuple[str, str, list, list]]:
    """[what, a, op, b] conditions, one per seed ("seed 0: what"), as comparisons over seeds:
    (what, op, a per seed, b per seed)."""
    out: dict[str, tuple[str, list, list]] = {}
    for label, a, op, b in conditions:
        m = re.fullmatch(r"seed \d+: (.*)", str(label), re.DOTALL)
        what = m.group(1) if m else str(label)
        _, xs, ys = out.setdefault(what, (op, [], []))
        if out[what][0] != op:
            raise AssertionError(f"{what}: compared with {out[what][0]} and {op} on different seeds")
        xs.append(a)
        ys.append(b)
    return [(what, op, xs, ys) for what, (op, xs, ys) in out.items()]


def ordering(request, claim_record, *, label: str, stated, measured, conditions, tolerance: str,
             measurement: str, seeds: int | None = None, reason: str = "", **details) -> None:
    """An ordering or a bound the chapter states (not a printed number).  `conditions` are
    [what, a, op, b], numbers of the measurement, one per seed ("seed 0: what"); the comparisons and
    their directions must be the ones the Chapter's rule inputs declare for this record.  An ordering
    over seeds is decided by the paired rule (decide.ordering: a paired t test, significant at 5 %
    two-sided, else undecided); a bound beside a single measurement exactly (decide.bounds).  Recorded with the
    measured sides, so `python -m claims.rederive` decides it again from results/ alone."""
    spec = spec_of(request, label)
    if spec.kind == "ordering":
        comparisons = _by_comparison(conditions)
        declared = sorted((what, op) for what, op, _ in spec.comparisons)
        if sorted((what, op) for what, op, _, _ in comparisons) != declared:
            raise AssertionError(f"{label}: the test compares {sorted((w, o) for w, o, _, _ in comparisons)}, "
                                 f"the Chapter's rule inputs declare {declared}")
        decision, rule = rules.ordering(comparisons), "ordering"
    elif spec.kind == "bounds":
        decision, rule = rules.bounds(conditions), "stated"
    else:
        raise AssertionError(f"{label}: the Chapter's rule inputs decide it as a {spec.kind} figure, not an ordering")
    claim_record(stated=stated, measured=measured, tolerance=tolerance, label=label, decision=decision.measured,
                 rule=rule, measurement=measurement, **({"seeds": seeds} if seeds is not None else {}), **details)
    if seeds is not None:
        need_seeds(seeds)
    settle(request, decision.verdict, f"{reason}; {decision.why}" if reason else decision.why)
