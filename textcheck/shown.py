"""What a test shows of its figure record: the record's `shown` in results/figures.json.

A test's record (claim.record: the stated figure, the measured value as it reads, the tolerance,
the rule, its label and its extras) is stored in the figure record it made, without what a rule
derives from the figure table or from the record itself, each value once:

  stated, null        the figure table's (the Chapter's rule inputs), where the test showed them
  rule, figures, measurement, reading   the figure record's own (its reading without its runs)
  mean, sd            beside values "per seed": their spread (textcheck/decide.py spread), first
  a list or a number that is one of the record's measured values: {"measured": [its path]}
  a run metric of the record's runs: {"recipe", "seed", "metric"}, or of each of one recipe's runs
                      {"recipe", "metric"} (textcheck/run_refs.py)
  absent              the fields above the test did not show (a record that showed no null)

Read (`expand`), the record is as the test showed it, its first fields in the order claim.record
writes them (stated, measured, tolerance, rule, ..., figures).  Written (`compact`), a value is
replaced by a pointer only where reading it gives back exactly that value; a display that cannot be
stored so is an error naming the field, never a value that reads differently.
"""
from __future__ import annotations

import copy
import json
import math

from textcheck.chapter import Chapter
from textcheck.decide import RuleInputError, spread
from textcheck.formats import SeedValues
from textcheck.outcomes import TestRecord
from textcheck.records import FigureRecord
from textcheck.run_refs import RefError, Runs, as_ref
from textcheck.store import EvidenceError

FIRST, LAST = ("stated", "measured", "tolerance", "rule"), "figures"
PER_SEED, ABSENT, POINTER = "per seed", "absent", "measured"
DERIVED_AFTER = ("measurement", "null", "reading")     # derived, they follow the test's label and seeds


class ShownError(EvidenceError):
    """A test's display of its record that cannot be read (a pointer to nothing) or written as shown."""


def _json(x) -> str:
    return json.dumps(x)


def derived(chapter: Chapter, rec: FigureRecord) -> dict:
    """The fields of a test's record a rule gives: the figure table's stated figure and null, the
    figure record's rule, figures, measurement and reading (its name, measured values and date)."""
    try:
        spec = chapter.rule_inputs(rec.key)
    except (RuleInputError, KeyError):
        spec = None
    reading = rec.reading
    out = {"stated": spec.stated if spec is not None else None,
           "null": {"value": spec.null[0], "what": spec.null[1]} if spec is not None and spec.null else None,
           "rule": rec.rule, "figures": list(rec.figures), "measurement": rec.measurement,
           "reading": None if reading is None else {"name": reading.name, "measured": reading.measured,
                                                    "date": reading.date}}
    return {k: v for k, v in out.items() if v is not None}        # what the rule gives no value is not derived


def _numbers(x) -> bool:
    """A value worth a pointer: a non-empty list of numbers, or a number that is not whole."""
    if isinstance(x, float):
        return not x.is_integer()
    return isinstance(x, list) and bool(x) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in x)


def _finite(values) -> bool:
    return isinstance(values, list) and bool(values) and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in values)


def _spread(values) -> dict | None:
    try:
        mean, sd = spread([float(v) for v in values]) if _finite(values) else (None, None)
    except (ArithmeticError, ValueError):
        return None
    return None if mean is None else {"mean": mean, "sd": sd}


def _is_pointer(x) -> bool:
    return isinstance(x, dict) and list(x) == [POINTER] and isinstance(x[POINTER], list)


def _value(x, measured, runs: Runs, field: str):
    """One shown value with its pointers read and its mean and sd beside its values per seed."""
    if _is_pointer(x):
        value = measured
        for step in x[POINTER]:
            ok = (isinstance(value, dict) and step in value) or (isinstance(value, list) and isinstance(step, int)
                                                                 and 0 <= step < len(value))
            if not ok:
                raise ShownError(f"field {field!r}: the record holds no measured value at {x[POINTER]}")
            value = value[step]
        return copy.deepcopy(value)
    ref = as_ref(x)
    try:
        if ref is not None:
            return runs.value(ref, field)
    except RefError as e:
        raise ShownError(str(e)) from None
    if isinstance(x, dict):
        out = {k: _value(v, measured, runs, f"{field}.{k}") for k, v in x.items()}
        stats = _spread(out.get(PER_SEED)) if "mean" not in out and "sd" not in out else None
        return {**stats, **out} if stats else out
    if isinstance(x, list):
        return [_value(v, measured, runs, f"{field}[{i}]") for i, v in enumerate(x)]
    return x


def _ordered(fields: dict, stored: list[str]) -> dict:
    """The fields in claim.record's order: stated, measured, tolerance, rule; the test's own in the
    order stored, the measurement and null derived after its label and seeds; figures last."""
    rest = [k for k in stored if k in fields and k not in (*FIRST, LAST)]
    for name in DERIVED_AFTER:
        if name in fields and name not in rest:
            before = DERIVED_AFTER[: DERIVED_AFTER.index(name)][::-1]
            anchor = next((k for k in (*before, "seeds", "figure") if k in rest), None)
            rest.insert(rest.index(anchor) + 1 if anchor else 0, name)
    keys = [k for k in FIRST if k in fields] + rest + [k for k in fields if k not in rest and k not in (*FIRST, LAST)]
    return {k: fields[k] for k in [*keys, LAST] if k in fields}


def expand(chapter: Chapter, rec: FigureRecord, stored, runs: Runs, where: str) -> dict:
    """The test's record as it showed it, from `stored` (a figure record's `shown`) and the record
    `rec` (its measured values read); ShownError naming `where` and the field otherwise."""
    if not isinstance(stored, dict):
        raise ShownError(f"{where}: field 'shown' is not an object")
    absent = stored.get(ABSENT, [])
    if not isinstance(absent, list) or not all(isinstance(k, str) for k in absent):
        raise ShownError(f"{where}: field 'shown.{ABSENT}' is not a list of field names")
    try:
        fields = {k: _value(v, rec.measured, runs, f"shown.{k}") for k, v in stored.items() if k != ABSENT}
    except ShownError as e:
        raise ShownError(f"{where}: {e}") from None
    for k, v in derived(chapter, rec).items():
        if k not in fields and k not in absent:
            fields[k] = copy.deepcopy(v)
    return _ordered(fields, list(stored))


def _close(a, b) -> bool:
    return isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) \
        and not isinstance(b, bool) and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def disagreements(rec: FigureRecord) -> list[str]:
    """Where a test's display (the record's `shown`, read) is not its own figure record (issue 59):
    where the record holds values per seed, what the test shows as measured is those values (`per
    seed`), their mean and sd beside them, and `seeds` counts them.  One line each, naming the
    record and the field: a display edited by hand shows numbers the verdict never rested on."""
    values = SeedValues.of(rec.measured).values
    if not _finite(values) or not isinstance(rec.shown, dict):
        return []
    shown = TestRecord.of(rec.shown)                # the test's record, its fields read
    m = shown.measured
    if not isinstance(m, dict) or _json(m.get(PER_SEED)) != _json(values):
        got = m.get(PER_SEED) if isinstance(m, dict) else m
        return [(f"{rec.key}: field 'shown.measured': the test shows {_json(got)[:80]} per seed, but the record's "
                 f"values are {_json(values)[:80]}")]
    out = [(f"{rec.key}: field 'shown.measured.{name}': the test shows {m[name]!r}, but its record's values per "
            f"seed give {want!r}") for name, want in (_spread(values) or {}).items()
           if name in m and not _close(m[name], want)]
    if shown.seeds is not None and shown.seeds != len(values):
        out.append(f"{rec.key}: field 'shown.seeds': the test shows {shown.seeds!r} seeds, but its record holds "
                   f"{len(values)} values per seed")
    return out


def _values(x, path=()):
    """(path, value) of every value of a record's measured values worth a pointer, outermost first."""
    if _numbers(x):
        yield path, x
        if isinstance(x, list):
            for i, v in enumerate(x):
                if _numbers(v):
                    yield (*path, i), v
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _values(v, (*path, i))
    elif isinstance(x, dict):
        for k in sorted(x, key=str):
            yield from _values(x[k], (*path, k))


def _compact(x, index: dict):
    if _numbers(x) and _json(x) in index:
        return copy.deepcopy(index[_json(x)])
    if isinstance(x, dict):
        out = {k: _compact(v, index) for k, v in x.items()}
        stats = _spread(x.get(PER_SEED))
        # a spread that stands first and is its values' own is derived again on reading: left out
        if stats and _json(list(x.items())[:2]) == _json(list(stats.items())):
            return dict(list(out.items())[2:])
        return out
    if isinstance(x, list):
        return [_compact(v, index) for v in x]
    return x


def compact(chapter: Chapter, rec: FigureRecord, shown: dict, runs: Runs, where: str) -> dict:
    """`shown` (a test's record, as the test showed it) as its figure record stores it: what a rule
    derives left out, each value the record holds a pointer to it (`rec`: the record, its measured
    values read).  ShownError naming the field where a value would not read back as shown."""
    given = derived(chapter, rec)
    index: dict = {}
    for path, value in _values(rec.measured):
        index.setdefault(_json(value), {POINTER: list(path)})
    names = chapter.run_records.metrics.get(str(rec.measurement).partition("/")[0], ())
    for ref, value in runs.refs(names) if names else ():
        if _numbers(value):
            index.setdefault(_json(value), ref)
    if ABSENT in shown:
        raise ShownError(f"{where}: field {ABSENT!r}: a test's record may not have a field of that name")
    out = {k: v for k, v in shown.items() if not (k in given and _json(v) == _json(given[k]))}
    for k, v in out.items():
        for stored in (_compact(v, index), v):
            try:
                if _json(_value(stored, rec.measured, runs, k)) == _json(v):
                    out[k] = stored
                    break
            except ShownError:
                pass
        else:
            raise ShownError(f"{where}: field 'shown.{k}' would not read back as the test showed it: {_json(v)[:120]}")
    absent = [k for k in given if k not in shown]
    return {**out, ABSENT: absent} if absent else out
