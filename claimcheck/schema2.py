"""The committed evidence's second format (schema 2), read once more by `python -m claims.convert`
for the last conversion to schema 3 (docs/evidence.md): the $-reference codec of
results/verdicts.json and the digested run references of results/figures.json, as they stood.
Deleted once the conversion is committed."""
from __future__ import annotations

import copy
import functools
import hashlib
import json
import math
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass, is_dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from claimcheck import records as typed
from claimcheck.decide import RuleInputError, spread
from claimcheck.records import FigureRecord, RecordFieldError, check
from claimcheck.store import EvidenceError, read_json
from claimcheck.verdicts import outcome_object, record_key, summarise_claim

if TYPE_CHECKING:
    from claimcheck.chapter import Chapter
    from claimcheck.records import RunRecord

FIGURES_NAME = "figures.json"
FIGURES_SCHEMA = 2


def file_of(chapter):
    return Path(chapter.root) / "results" / FIGURES_NAME


REF = "$run"
RunFile = Callable[[str], Path]          # a group's run records file ("norm" -> results/norm.json)


class RefError(ValueError):
    """A reference that names no run or no metric of it; names the field."""

    def __init__(self, field: str, message: str):
        super().__init__(f"field {field!r}: {message}")
        self.field = field


def digest(value: float) -> str:
    """What a reference keeps of the value it refers to: enough to see it changed, not the value."""
    return hashlib.sha256(repr(value).encode()).hexdigest()[:12]


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class RunIndex:
    """The runs a text's figure records name, each group's file read once, by the text's one reader
    of run records (`Chapter.run_records.load_file`), and looked up by (recipe, seed, key): the one
    index of runs, for the references here and for the text's check of a record against its runs
    (`Chapter.run_records.check`, handed one by the re-derivation)."""

    def __init__(self, chapter: Chapter, run_file: RunFile):
        self.chapter, self.run_file, self.files = chapter, run_file, {}

    def table(self, group: str) -> dict:
        """{(recipe, seed, key): RunRecord} of a group's file; ValueError (an EvidenceError of the text's
        reader) naming the file where it is not there, not readable, or not the group's."""
        if group not in self.files:
            path = self.run_file(group)
            if not path.exists():
                self.files[group] = ValueError(f"{path}: not found (the run records a figure record names)")
            else:
                try:
                    self.files[group] = {(r.recipe, r.seed, r.key): r
                                         for r in self.chapter.run_records.load_file(path, group)}
                except ValueError as e:
                    self.files[group] = e
        if isinstance(self.files[group], ValueError):
            raise self.files[group]
        return self.files[group]

    def run(self, ref) -> RunRecord | None:
        """The run a reference names, or None where there is none (no such group, file or run; a
        malformed name): a figure record's run (claimcheck/records.py RunRef), or the object a
        file holds for it ({"group", "recipe", "seed", "key"}; resolved before it is typed)."""
        ref = asdict(ref) if is_dataclass(ref) else ref
        if not isinstance(ref, dict) or ref.get("group") not in self.chapter.run_records.groups:
            return None
        where = (ref.get("recipe"), ref.get("seed"), ref.get("key"))
        if not all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in where):
            return None                                 # no run is named so (the record's validator says why)
        try:
            return self.table(ref["group"]).get(where)
        except ValueError:
            if not self.run_file(ref["group"]).exists():
                return None
            raise


def _lists(rec: dict) -> list[tuple[str, tuple, list]]:
    """Each list of per-seed values a record's measurement holds, as (its field's name, its path
    under `measured`, the list): the figure's `values`, and each comparison's two sides (`a`, `b`)
    of an ordering."""
    measured = rec.get("measured")
    if not isinstance(measured, dict):
        return []
    out = [("measured.values", ("values",), measured["values"])] if isinstance(measured.get("values"), list) else []
    comparisons = measured.get("comparisons")
    for label, c in comparisons.items() if isinstance(comparisons, dict) else ():
        out += [(f"measured.comparisons[{label!r}].{side}", ("comparisons", label, side), c[side])
                for side in ("a", "b") if isinstance(c, dict) and isinstance(c.get(side), list)]
    return out


def _with(rec: dict, path: tuple, values: list) -> dict:
    """`rec` with the list at `path` under `measured` replaced (a copy; `rec` is left as it was)."""
    measured = dict(rec["measured"])
    if path == ("values",):
        measured["values"] = values
    else:
        _, label, side = path
        measured["comparisons"] = {**measured["comparisons"], label: {**measured["comparisons"][label], side: values}}
    return dict(rec, measured=measured)


def _same(m, v) -> bool:
    """`m` is `v` as a reference gives it back: the same type and the same repr (0.0 is not -0.0)."""
    return _number(m) and _number(v) and type(m) is type(v) and repr(m) == repr(v)


def refer(chapter: Chapter, rec: dict, run_file: RunFile, runs: RunIndex | None = None) -> dict:
    """`rec` with each list of per-seed values (its values, each side of its comparisons) that is,
    position by position, a metric of one recipe's runs of that seed written as references to them
    (the first such recipe, in `runs` order, and at each seed the first metric, in the text's
    order); a list that is no single recipe's metrics stays numbers, so that a reference never
    names another recipe's run that happens to hold the same number (an accuracy of 1.0, say).
    `rec` itself where no list is, or where a run it names is not on record."""
    names = chapter.run_records.metrics.get(str(rec.get("measurement")).partition("/")[0], ())
    lists = _lists(rec)
    if not names or not lists or not isinstance(rec.get("runs"), list):
        return rec
    runs = runs or RunIndex(chapter, run_file)
    found = [runs.run(r) for r in rec["runs"]]
    if None in found:
        return rec
    seeds = sorted({run.seed for run in found})

    def refs_to(recipe: str, values: list) -> list | None:
        out = []
        for v, seed in zip(values, seeds):
            out.append(next(({REF: i, "metric": name, "digest": digest(v)} for i, run in enumerate(found)
                              if (run.recipe, run.seed) == (recipe, seed) for name in names
                              if _same(chapter.run_records.metric(run, name), v)), None))
            if out[-1] is None:
                return None
        return out
    recipes = list(dict.fromkeys(run.recipe for run in found))
    for _, path, values in lists:
        if len(seeds) == len(values):    # values per seed in seed order: each position's seed is known
            out = next((o for o in (refs_to(r, values) for r in recipes) if o is not None), None)
            rec = rec if out is None else _with(rec, path, out)
    return rec


def _references(rec: dict) -> list[tuple[str, tuple, int, dict]]:
    """(the list's field, its path, the index, the reference) of each reference a record holds."""
    return [(name, path, j, v) for name, path, values in _lists(rec) for j, v in enumerate(values) if isinstance(v, dict)]


def resolve(chapter: Chapter, rec: dict, run_file: RunFile, runs: RunIndex | None = None) -> dict:
    """`rec` with each reference of its per-seed values replaced by the metric it names (whether
    or not its digest still matches: `changed` says where not); RefError naming the field where a
    reference is malformed or names a run or metric that is not there."""
    refs = _references(rec)
    runs = runs or RunIndex(chapter, run_file)
    for name, path, values in _lists(rec) if refs else ():
        out = [_metric_of(chapter, rec, runs, run_file, f"{name}[{j}]", v)[0] if isinstance(v, dict) else v
               for j, v in enumerate(values)]
        rec = rec if out == values else _with(rec, path, out)
    return rec


def _metric_of(chapter: Chapter, rec: dict, runs: RunIndex, run_file: RunFile, field: str, v: dict
               ) -> tuple[float, str]:
    i, name = v.get(REF), v.get("metric")
    if sorted(v) != sorted((REF, "metric", "digest")) or not isinstance(i, int) or isinstance(i, bool) \
            or not isinstance(name, str) or not isinstance(v.get("digest"), str):
        raise RefError(field, f"{v!r} is not a number nor a reference "
                              f"{{{REF!r}: <index into runs>, 'metric': <name>, 'digest': <its value's>}}")
    named = rec.get("runs")
    if not isinstance(named, list) or not 0 <= i < len(named):
        raise RefError(field, f"{REF} {i} names no run of the record's {len(named or [])} (field 'runs')")
    run = runs.run(named[i])
    r = named[i] if isinstance(named[i], dict) else {}
    where = f"run {i} ({r.get('group')} {r.get('recipe')} seed {r.get('seed')} key {r.get('key')})"
    if run is None:
        raise RefError(field, f"{where} is not in its group's run records ({run_file(str(r.get('group')))})")
    m = chapter.run_records.metric(run, name)
    if not _number(m):
        raise RefError(field, f"{where} has no metric {name!r}")
    return m, f"{where}: its {name} in {run_file(str(r.get('group')))} is {m!r}"


def changed(chapter: Chapter, rec: dict, run_file: RunFile, runs: RunIndex | None = None) -> list[str]:
    """Where a reference's run metric is no longer the value the figure was measured as (its
    digest differs: the run record was edited, or the run trained again under the same key and
    recorded over it): a line per value, naming the field and the run file."""
    runs, out = runs or RunIndex(chapter, run_file), []
    for name, _, j, v in _references(rec):
        m, said = _metric_of(chapter, rec, runs, run_file, f"{name}[{j}]", v)
        if digest(m) != v["digest"]:
            out.append(f"field '{name}[{j}]': {said}, not the value this figure was measured as (its "
                       "digest differs): the run record changed after; measure the figure again")
    return out


class FigureEvidenceError(ValueError):
    """results/figures.json (or a record in it) is not what it should be; names the file, the record and the field."""


def decode_figure(chapter: Chapter, rec, where: str = "a figure record") -> FigureRecord:
    """The one decoder: one record of the file (its run references already resolved, on the raw
    object: claimcheck/py resolve) as a FigureRecord, every field checked by the one
    validator (claimcheck/records.py); FigureEvidenceError naming `where` and the first field it
    refuses, a rule input where a measurement belongs, or a figure the figure table does not know."""
    if isinstance(rec, dict) and "decision" in rec:
        raise FigureEvidenceError(f"{where}: field 'decision' holds rule inputs; a record holds measured values "
                                  "only ('measured')")
    try:
        typed = check(FigureRecord, rec, where)
    except RecordFieldError as e:
        raise FigureEvidenceError(str(e)) from None
    if not typed.key:
        raise FigureEvidenceError(f"{where}: field 'key' is not a non-empty string")
    unknown = [f for f in typed.figures if f not in chapter.figures]
    if unknown:
        raise FigureEvidenceError(f"{where}: field 'figures' names figures the figure table does not know: {unknown}")
    return typed


def run_files_beside(path: Path) -> RunFile:
    """The run records a figures.json refers to: the group files in its own folder."""
    return lambda group: Path(path).parent / f"{group}.json"


def load_figures(chapter: Chapter, path: Path | None = None, run_file: RunFile | None = None) -> list[FigureRecord]:
    """Every record of the file as a FigureRecord: each value that refers to a run's metric read
    from the run records (`run_file`, by default the group files beside it; claimcheck/py),
    then the record checked and typed (`decode`); raises FigureEvidenceError naming the file, the
    record and the field.  A FIFO, a device or an oversized file is refused unread
    (claimcheck/store.py read_json)."""
    path = file_of(chapter) if path is None else Path(path)
    run_file = run_files_beside(path) if run_file is None else run_file
    try:
        data = read_json(path, "figure evidence")     # the one reader: type and size checked before it is read
    except EvidenceError as e:
        raise FigureEvidenceError(str(e)) from None
    if not isinstance(data, dict) or data.get("schema") != FIGURES_SCHEMA or not isinstance(data.get("records"), list):
        raise FigureEvidenceError(f"{path}: not figure evidence of schema {FIGURES_SCHEMA} "
                                  "(an object with 'schema' and a list 'records')")
    seen, runs, out = set(), RunIndex(chapter, run_file), []     # each run file read once
    for i, rec in enumerate(data["records"]):
        where = f"{path}: record {i}" + (f" ({rec.get('key')})" if isinstance(rec, dict) else "")
        if isinstance(rec, dict):
            try:
                rec = resolve(chapter, rec, run_file, runs)
            except (RefError, ValueError) as e:         # a run file its reader refuses, too
                raise FigureEvidenceError(f"{where}: {e}") from None
        out.append(decode_figure(chapter, rec, where))
        if out[-1].key in seen:
            raise FigureEvidenceError(f"{where}: key {out[-1].key!r} appears twice")
        seen.add(out[-1].key)
    return out




NAME = "verdicts.json"
SCHEMA = 2               # 1 (no "schema"): claims carried copies of their records; 2: each value once
FIGURE, AT, TABLE = "$figure", "$at", "$table"
RUNS = "$runs"          # a path's first step: {"$figure": key, "$at": ["$runs", recipe, metric], "digest": ...}
DIGEST = "digest"       # of the list a $runs reference was written for: a run changed since is caught
TEST, CLAIM = "$test", "$claim"         # a value an earlier test of the file holds: {"$claim", "$test", "$at"}
TABLE_INPUTS = ("stated", "null")       # a test record's fields the figure table gives
SPREAD, PER_SEED = "$spread", "per seed"    # {"$spread": "mean" | "sd"}: of the sibling values per seed


def _json(x) -> str:
    return json.dumps(x, sort_keys=True)


def _numbers(x) -> bool:
    """A measured value worth a reference: a list of numbers, or a number that is not whole."""
    if isinstance(x, float):
        return not x.is_integer()
    return isinstance(x, list) and bool(x) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in x)


def _values(x, path=()):
    """(path, value) of every measured value of a figure record's `measured`, outermost first, a
    record's fields in sorted order: the first path holding a value is the same whether the record
    was just written (a save) or read back (the converter)."""
    if _numbers(x):
        yield path, x
        if isinstance(x, list):         # and each of its numbers, by its index (a value beside its bound)
            for i, v in enumerate(x):
                if _numbers(v):
                    yield (*path, i), v
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _values(v, (*path, i))
    elif isinstance(x, dict):
        for k in sorted(x, key=str):
            yield from _values(x[k], (*path, k))


def _table_input(chapter: Chapter, key: str, field: str):
    """The figure table's value of a test record's `field` under `key` (stated, null); KeyError if none."""
    try:
        spec = chapter.rule_inputs(key)
    except (RuleInputError, KeyError):
        raise KeyError(field) from None
    if field == "stated" and spec.stated is not None:
        return spec.stated
    if field == "null" and spec.null:
        return {"value": spec.null[0], "what": spec.null[1]}
    raise KeyError(field)


class Dangling(typed.RecordFieldError):
    """A reference to a figure record, or to a value of one, that is not there."""


def run_metrics(chapter: Chapter, rec: typed.FigureRecord, runs: RunIndex | None) -> dict[tuple[str, str], list]:
    """{(recipe, metric): [the metric of each of the figure record's runs of that recipe]}, for
    every recipe its runs name and every run metric its measurement's values may be (the text's
    `run_records.metrics`); {} where a run is not on record or `runs` is None."""
    names = chapter.run_records.metrics.get(str(rec.measurement).partition("/")[0], ())
    found = [(r.recipe, runs.run(r)) for r in rec.runs] if runs is not None and names else []
    if not found or any(run is None for _, run in found):
        return {}
    out: dict[tuple[str, str], list] = {}
    for recipe, run in found:
        for name in names:
            out.setdefault((recipe, name), []).append(chapter.run_records.metric(run, name))
    return {k: v for k, v in out.items() if all(isinstance(m, (int, float)) for m in v)}


def changed_runs(chapter: Chapter, path: Path, figures: list[typed.FigureRecord], runs: RunIndex | None = None
                 ) -> list[str]:
    """A line per reference to a figure record's runs whose metrics are no longer the list the test
    showed (its digest differs: a run record edited, or a run trained again under its key and
    recorded over it), naming the claim, the test and the field; the re-derivation reports them
    (exit 1) and the report refuses to render on them, as on a figure record's own references."""
    path = Path(path)
    if not path.exists():
        return []
    runs = runs if runs is not None else RunIndex(chapter, run_files_beside(path))
    by_key, out = {r.key: r for r in figures}, []

    def walk(x, at, cid, test):
        if isinstance(x, dict) and isinstance(x.get(AT), list) and x[AT][:1] == [RUNS] and len(x[AT]) == 3:
            rec = by_key.get(x.get(FIGURE))
            now = run_metrics(chapter, rec, runs).get((x[AT][1], x[AT][2])) if rec is not None else None
            if now is not None and digest(now) != x.get(DIGEST):
                out.append(f"claim {cid}: test {test}: field {at!r}: the {x[AT][2]} of figure record {x[FIGURE]!r}'s "
                           f"{x[AT][1]} runs is now {now!r}, not what the test showed (its digest differs): the run "
                           "records changed after; measure the claim again")
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(v, f"{at}.{k}", cid, test)
        elif isinstance(x, list):
            for i, v in enumerate(x):
                walk(v, f"{at}[{i}]", cid, test)
    for c in read_json(path, "committed verdicts").get("claims") or []:
        for t in c.get("tests") or [] if isinstance(c, dict) else []:
            walk(t.get("records") if isinstance(t, dict) else None, "records", c.get("id"), t.get("key"))
    return out


def _at(figures: dict[str, typed.FigureRecord], ref: dict, where: str, chapter: Chapter | None = None,
        runs: RunIndex | None = None):
    """The value a reference names (of `figures`, the figure records by key), or Dangling naming it."""
    rec = figures.get(ref.get(FIGURE)) if isinstance(ref.get(FIGURE), str) else None
    if rec is None or not isinstance(ref.get(AT), list):
        raise Dangling(where, FIGURE, f"{shown_ref(ref)} names no figure record of results/figures.json")
    if ref[AT][:1] == [RUNS]:
        if len(ref[AT]) != 3 or not all(isinstance(x, str) for x in ref[AT]) or not isinstance(ref.get(DIGEST), str) \
                or sorted(ref) != sorted((FIGURE, AT, DIGEST)):
            raise typed.RecordFieldError(where, AT, f"{shown_ref(ref)} is not a reference to a figure record's runs "
                                         f'{{"{FIGURE}": <key>, "{AT}": ["{RUNS}", <recipe>, <metric>], "{DIGEST}": ...}}')
        table = run_metrics(chapter, rec, runs) if chapter is not None else {}
        if not table:           # its runs are not on record here: the re-derivation names them missing
            raise Dangling(where, AT, f"{shown_ref(ref)}: the runs of figure record {ref[FIGURE]!r} are not in "
                                      "the run records beside it")
        found = table.get((ref[AT][1], ref[AT][2]))
        if found is None:
            raise typed.RecordFieldError(where, AT, f"{shown_ref(ref)}: figure record {ref[FIGURE]!r} names no runs of "
                                         "that recipe with that metric in the run records beside it")
        return found
    value = rec.measured
    for step in ref[AT]:
        ok = (isinstance(value, dict) and isinstance(step, str) and step in value) or \
             (isinstance(value, list) and isinstance(step, int) and not isinstance(step, bool) and 0 <= step < len(value))
        if not ok:
            raise Dangling(where, AT, f"{shown_ref(ref)}: figure record {ref[FIGURE]!r} holds no value at {ref[AT]}")
        value = value[step]
    return copy.deepcopy(value)


def shown_ref(ref: dict) -> str:
    return _json(ref)[:120]


def _shared(earlier: dict, ref: dict, where: str):
    """The value a reference to an earlier test's record names, or RecordFieldError naming it."""
    test = earlier.get((ref.get(CLAIM), ref.get(TEST)))
    value = test.records if test is not None and isinstance(ref.get(AT), list) else None
    for step in ref.get(AT) or [None]:
        ok = (isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value)) or \
             (isinstance(value, dict) and step in value)
        if not ok:
            raise typed.RecordFieldError(where, TEST, f"{shown_ref(ref)} names no value of an earlier test of the file")
        value = value[step]
    return copy.deepcopy(value)


def _expand(x, figures: dict, table, where: str, dangling: bool = False, earlier: dict | None = None,
            chapter: Chapter | None = None, runs: RunIndex | None = None):
    if isinstance(x, dict):
        if TEST in x:
            return _shared(earlier or {}, x, where)
        if FIGURE in x:
            try:
                return _at(figures, x, where, chapter, runs)
            except Dangling:
                if dangling:        # left as it is: the re-derivation names the figure record missing
                    return x
                raise
        if TABLE in x:
            try:
                return table(x[TABLE])
            except KeyError:
                raise typed.RecordFieldError(where, TABLE, f"{shown_ref(x)}: the figure table gives no "
                                             f"{x[TABLE]!r} for this record") from None
        out = {k: _expand(v, figures, table, where, dangling, earlier, chapter, runs) for k, v in x.items()}
        if not any(isinstance(v, dict) and SPREAD in v for v in out.values()):
            return out
        return _with_spread(out, where, dangling)
    if isinstance(x, list):
        return [_expand(v, figures, table, where, dangling, earlier, chapter, runs) for v in x]
    return x


def _finite_numbers(values) -> bool:
    try:
        return isinstance(values, list) and bool(values) and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in values)
    except OverflowError:       # an integer too large for a float
        return False


def _with_spread(x: dict, where: str, dangling: bool = False) -> dict:
    """A measured object with its derived mean and sd computed from its values per seed (read
    with `dangling`, for the re-derivation: values it cannot summarise are left for it to name in
    their figure record, the derived statistics unresolved)."""
    per = x.get(PER_SEED)
    if per is None:
        raise typed.RecordFieldError(where, SPREAD, f"a derived statistic beside no numbers {PER_SEED!r}")
    if not _finite_numbers(per):
        if dangling:            # a dangling reference, or its figure record's values, which the re-derivation names
            return x
        raise typed.RecordFieldError(where, SPREAD, f"a derived statistic beside {PER_SEED!r} that are not finite numbers")
    try:
        mean, sd = spread([float(v) for v in x[PER_SEED]])
    except (ArithmeticError, statistics.StatisticsError):
        if dangling:
            return x
        raise typed.RecordFieldError(where, SPREAD, f"its numbers {PER_SEED!r} have no mean and sd") from None
    stats = {"mean": mean, "sd": sd}
    out = {}
    for k, v in x.items():
        if isinstance(v, dict) and SPREAD in v:
            if v != {SPREAD: k} or k not in stats:
                raise typed.RecordFieldError(where, k, f"{shown_ref(v)}: only 'mean' and 'sd' are derived, each under its name")
            v = stats[k]
        out[k] = v
    return out


def _derive_spread(small: dict, rec):
    """`small` (a record's stored form) with each mean and sd that its values per seed give back
    exactly written as {"$spread": ...}: stored once, as those values."""
    if not isinstance(rec, dict):
        return small
    out = {k: _derive_spread(v, rec.get(k)) if isinstance(v, dict) else v for k, v in small.items()}
    values = rec.get(PER_SEED)
    if _finite_numbers(values):
        try:
            mean, sd = spread([float(v) for v in values])
        except ArithmeticError:
            return out
        for k, stat in (("mean", mean), ("sd", sd)):
            if isinstance(rec.get(k), float) and rec[k] == stat:
                out[k] = {SPREAD: k}
    return out


def _compact(x, index: dict):
    if _numbers(x) and _json(x) in index:
        return index[_json(x)]
    if isinstance(x, dict):
        return {k: _compact(v, index) for k, v in x.items()}
    if isinstance(x, list):
        return [_compact(v, index) for v in x]
    return x


def dangling(x) -> list[str]:
    """The references left unresolved in a test's records (read with `dangling`), as their keys."""
    if isinstance(x, dict):
        if FIGURE in x:
            return [str(x.get(FIGURE))]
        return [k for v in x.values() for k in dangling(v)]
    if isinstance(x, list):
        return [k for v in x for k in dangling(v)]
    return []


def _test_keys(chapter: Chapter, claim: str, test: dict) -> list[str]:
    return [record_key(chapter, r, claim) for r in test.get("records") or [] if isinstance(r, dict)]


def compact_test(chapter: Chapter, claim: str, test: dict, figures: dict[str, typed.FigureRecord],
                 runs: RunIndex | None = None) -> dict:
    """A test as the file stores it: each value a figure record holds (its own first), and each
    rule input the figure table gives, as a reference.  A record whose references would not give
    it back exactly is stored as it is.  A reference to another test's figure record cannot drift:
    every save that rewrites figures.json rewrites this file from what it read before (save.py)."""
    # its own figure records first, then its claim's, then any: the one place each value is stored
    own = _test_keys(chapter, claim, test)
    index = {}
    for key in sorted(figures, key=lambda k: (k not in own, figures[k].claim != claim, k)):
        for path, value in _values(figures[key].measured):
            index.setdefault(_json(value), {FIGURE: key, AT: list(path)})
        for (recipe, name), value in run_metrics(chapter, figures[key], runs).items():
            index.setdefault(_json(value), {FIGURE: key, AT: [RUNS, recipe, name], DIGEST: digest(value)})
    out = []
    for rec in test.get("records") or []:
        if not isinstance(rec, dict):
            out.append(rec)
            continue
        key = record_key(chapter, rec, claim)
        small = {}
        for field, value in rec.items():
            try:
                given = field in TABLE_INPUTS and _table_input(chapter, key, field)
            except KeyError:
                given = None
            small[field] = {TABLE: field} if given is not None and _json(given) == _json(value) \
                else _derive_spread(_compact(value, index), value) if isinstance(value, dict) \
                else _compact(value, index)
        try:
            same = _json(expand_record(chapter, claim, small, figures, "", runs=runs)) == _json(rec)
        except EvidenceError:
            same = False
        out.append(small if same else rec)
    return dict(test, records=out) if "records" in test else dict(test)


def expand_record(chapter: Chapter, claim: str, rec: dict, figures: dict[str, typed.FigureRecord], where: str,
                  dangling: bool = False, earlier: dict | None = None, runs: RunIndex | None = None) -> dict:
    """One test record with its references resolved: values from its figure record and its runs
    (`runs`), rule inputs from the figure table (`dangling`: a reference to a figure record not
    there is left as it is)."""
    if not isinstance(rec, dict):
        return rec
    return _expand(rec, figures, lambda field: _table_input(chapter, record_key(chapter, rec, claim), field), where,
                   dangling, earlier, chapter, runs)


def load(chapter: Chapter, path: Path, figures: list[typed.FigureRecord] | None = None, dangling: bool = False,
         runs: RunIndex | None = None) -> list[typed.ClaimVerdict]:
    """The file's claims, each a ClaimVerdict (`decode`: every record checked by the one validator,
    claimcheck/records.py, each reference resolved against `figures`, by default
    results/figures.json beside it).  EvidenceError (RecordFieldError) names the file, the claim
    and test, and the field.  `dangling`: a reference to a figure record that is not there is left
    unresolved, for the re-derivation to name the record missing (exit 1), as it names a test
    whose figure record was dropped."""
    path = Path(path)
    if not path.exists():
        return []
    return expanded(chapter, read_json(path, "committed verdicts"), path, figures, dangling, runs)


def expanded(chapter: Chapter, data, path: Path, figures: list[typed.FigureRecord] | None = None,
             dangling: bool = False, runs: RunIndex | None = None) -> list[typed.ClaimVerdict]:
    """`load` of the file's parsed JSON `data` (`path` names it in errors, and finds figures.json
    and, unless `runs` is given, the run records beside it)."""
    runs = runs if runs is not None else RunIndex(chapter, run_files_beside(Path(path)))
    if not isinstance(data, dict) or not isinstance(data.get("claims"), list):
        raise EvidenceError(f"{path}: expected an object with a 'claims' list")
    schema = data.get("schema", 1)
    if schema not in (1, SCHEMA) or sorted(data) != sorted(["claims"] + (["schema"] if "schema" in data else [])):
        raise EvidenceError(f"{path}: not committed verdicts of schema 1 or {SCHEMA} "
                            f"(an object of 'schema' and 'claims'; keys {sorted(data)})")
    by_key = functools.cache(lambda: _figures(chapter, path, figures))    # read where a test refers to it
    earlier: dict[tuple[str, str], typed.TestOutcome] = {}
    return [decode(chapter, c, f"{path}: claim {i}" + (f" ({c.get('id')})" if isinstance(c, dict) else ""),
                   Reader(path, schema, by_key, earlier, runs, dangling))
            for i, c in enumerate(data["claims"])]


@dataclass(frozen=True)
class Reader:
    """What decoding a claim of one file needs besides the claim: the file (named in errors) and its
    schema, its figure records by key (read once, where a test first refers to one), the tests read
    before it (a value stored once is referred to from later tests), its run records, and whether a
    reference to a figure record not there is left unresolved (`dangling`)."""
    path: Path
    schema: int
    figures: Callable[[], dict[str, typed.FigureRecord]]
    earlier: dict
    runs: RunIndex | None = None
    dangling: bool = False


def decode(chapter: Chapter, c, where: str, read: Reader) -> typed.ClaimVerdict:
    """The one decoder: a claim of the file as a ClaimVerdict, each test a TestOutcome with its
    references resolved (`decode_test`), its verdict as its tests give it (claimcheck/verdicts.py
    summarise_claim: a stored verdict its tests no longer give is not shown).  Schema 2 holds a
    claim's ID, verdict and tests only; schema 1's copies are not read."""
    if not isinstance(c, dict) or not isinstance(c.get("id"), str) or not isinstance(c.get("tests"), list):
        raise EvidenceError(f"{where}: has no id or no tests list")
    typed.check(typed.ClaimVerdict, dict(c, tests=[]) if read.schema == SCHEMA
                else {"id": c["id"], "verdict": str(c.get("verdict", "")), "tests": []}, where)
    if c["id"] not in chapter.claims:
        raise typed.RecordFieldError(where, "id", f"{c['id']!r} is not a claim of {chapter.named('claims')}")
    tests = []
    for j, t in enumerate(c["tests"]):
        at = f"{read.path}: claim {c['id']}: test {j}" + (f" ({t.get('key')})" if isinstance(t, dict) else "")
        tests.append(decode_test(chapter, c["id"], t, at, read))
        read.earlier[(c["id"], tests[-1].key)] = tests[-1]
    return typed.ClaimVerdict(c["id"], verdict_of(chapter, c["id"], tests), tests)


def decode_test(chapter: Chapter, claim: str, t, at: str, read: Reader) -> typed.TestOutcome:
    """One stored test as a TestOutcome: checked by the one validator, kept under what it measured
    (a run's report may hold a test with no key; the file never), of figures the figure table
    knows, each of its records' references resolved (`expand_record`)."""
    out = typed.check(typed.TestOutcome, t, at)
    if not out.key:
        raise typed.RecordFieldError(at, "key", f"is {out.key!r}: a test is kept under what it measured")
    unknown = [f for f in out.figures if f not in chapter.figures]
    if unknown:
        raise typed.RecordFieldError(at, "figures", f"holds {', '.join(map(repr, unknown))}, not a figure "
                                     f"ID of {chapter.named('figures')}")
    figures = read.figures() if _json(t).find(f'"{FIGURE}"') >= 0 else {}
    return replace(out, records=[expand_record(chapter, claim, r, figures, f"{at}: record {k}", read.dangling,
                                               read.earlier, read.runs) for k, r in enumerate(out.records)])


def verdict_of(chapter: Chapter, claim: str, tests: list[typed.TestOutcome]) -> str:
    """A claim's verdict as its tests give it (claimcheck/verdicts.py summarise_claim)."""
    return summarise_claim(chapter, claim, [encode_test(t) for t in tests], True)["verdict"]


def summary(chapter: Chapter, c: typed.ClaimVerdict) -> dict:
    """A committed claim as the report's row of it summarises it (its seeds, its statement...)."""
    return summarise_claim(chapter, c.id, [encode_test(t) for t in c.tests], True)


encode_test = outcome_object       # the one encoder of a test (claimcheck/verdicts.py: the merge's rows use it too)


def plain(c: typed.ClaimVerdict) -> dict:
    """A claim as a JSON object, its references resolved: what a reader sees of it."""
    return {"id": c.id, "verdict": c.verdict, "tests": [encode_test(t) for t in c.tests]}


def _figures(chapter: Chapter, path: Path, figures: list[typed.FigureRecord] | None) -> dict[str, typed.FigureRecord]:
    """The figure records a file's references resolve against, by key (by default results/figures.json beside it)."""
    if figures is None:
        figures = load_figures(chapter, path.with_name("figures.json"))
    return {r.key: r for r in figures}


def encode(chapter: Chapter, c: typed.ClaimVerdict, figures: dict[str, typed.FigureRecord],
           runs: RunIndex | None = None) -> dict:
    """The one encoder of a claim: the object the file stores, its ID, verdict and tests, each test's
    values its figure records hold written as references to them (`compact_test`)."""
    return {"id": c.id, "verdict": c.verdict,
            "tests": [compact_test(chapter, c.id, encode_test(t), figures, runs) for t in c.tests]}


def dumps(chapter: Chapter, claims: list[typed.ClaimVerdict], figures: list[typed.FigureRecord],
          run_file: RunFile | None = None) -> str:
    """The file's text for `claims` (as `load` gives them): each claim as `encode` writes it (`figures`:
    the figure records it is saved with; `run_file`: the run records they name, as the file is
    saved beside them), a measurement several tests record stored once (`_share`)."""
    by_key = {r.key: r for r in figures}
    runs = RunIndex(chapter, run_file) if run_file is not None else None
    stored = [encode(chapter, c, by_key, runs) for c in claims]
    shared = _share(stored)
    # kept only where reading it gives back every test exactly (else each test stands alone)
    try:
        back = expanded(chapter, json.loads(json.dumps({"schema": SCHEMA, "claims": shared}, default=str)),
                        Path(NAME), figures, runs=runs)
        same = _json([plain(c)["tests"] for c in back]) == _json([plain(c)["tests"] for c in claims])
    except EvidenceError:
        same = False
    return json.dumps({"schema": SCHEMA, "claims": shared if same else stored}, indent=1, default=str) + "\n"


def _group(x) -> bool:
    """A measurement worth sharing between tests: a list or an object of two numbers or more."""
    values = list(x.values()) if isinstance(x, dict) else x if isinstance(x, list) else []
    return len(values) >= 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values) \
        and not (isinstance(x, dict) and (FIGURE in x or TEST in x or TABLE in x))


def _share(claims: list[dict]) -> list[dict]:
    """The claims with each measurement that several tests record (a curve each test of a section
    records, say) stored at its first place and referred to from the others by claim, test and path."""
    first: dict[str, dict] = {}

    def walk(x, claim, key, path):
        if _group(x):
            ref = first.setdefault(_json(x), {CLAIM: claim, TEST: key, AT: list(path)})
            if (ref[CLAIM], ref[TEST], ref[AT]) != (claim, key, list(path)):
                return ref
        if isinstance(x, dict) and not (FIGURE in x or TEST in x or TABLE in x):
            return {k: walk(v, claim, key, (*path, k)) for k, v in x.items()}
        if isinstance(x, list):
            return [walk(v, claim, key, (*path, i)) for i, v in enumerate(x)]
        return x
    return [dict(c, tests=[dict(t, records=walk(t.get("records") or [], c["id"], t["key"], ()))
                           if "records" in t else t for t in c["tests"]]) for c in claims]
