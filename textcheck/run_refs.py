"""A figure record's values that are its runs' own metrics, stored once, in the run records.

A trained figure such as a held-out perplexity is measured by the training run itself: the value
stands in the run's record (results/<group>.json, its `metrics`).  In results/figures.json such a
value is a typed reference to it, `{"recipe": "postnorm", "seed": 0, "metric": "val_ppl"}`: the
metric of the run of that recipe and seed among the record's own `runs`.  What a test shows of a
whole recipe's runs is `{"recipe": "average", "metric": "val_ppl"}`: that metric of each of the
record's runs of the recipe, in the order the record names them.  No digest: a run record edited
by hand changes what every reader reads, which the re-derivation and the regenerated pages show
(docs/evidence.md).

`refer` writes the references where the file is written (a save, the conversion); `resolve` reads
them back, so that every reader sees numbers, and a reference to a run or metric that is not there
is a RefError naming the field.  Which metrics a measurement's values may be, and how a run's
metric is read, are the text's (the Chapter's `run_records`: `metrics`, `metric`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import is_dataclass
from pathlib import Path
from typing import Any, NamedTuple

from textcheck.chapter import Chapter
from textcheck.records import RunRecord

RunFile = Callable[[str], Path]          # a group's run records file ("norm" -> results/norm.json)


class Named(NamedTuple):
    """A run a figure record names (a RunRef's fields, or the object a file holds)."""
    group: Any
    recipe: Any
    seed: Any
    key: Any


class Ref(NamedTuple):
    """A reference in a record's values: one run's metric (`seed` an int), or that metric of each of
    a recipe's runs (`seed` None)."""
    metric: str
    recipe: str
    seed: int | None = None

    def as_json(self) -> dict:
        return {"recipe": self.recipe, "metric": self.metric} if self.seed is None else \
            {"recipe": self.recipe, "seed": self.seed, "metric": self.metric}


def as_ref(x) -> Ref | None:
    """`x` as a reference: an object of exactly the keys of one (its values typed), else None."""
    if not isinstance(x, dict) or sorted(x) not in (sorted(Ref._fields), sorted(Ref._fields[:2])):
        return None
    ref = Ref(*map(x.get, Ref._fields))
    if not (isinstance(ref.metric, str) and isinstance(ref.recipe, str)):
        return None
    if len(x) == len(Ref._fields) and not (isinstance(ref.seed, int) and not isinstance(ref.seed, bool)):
        return None
    return ref


class RefError(ValueError):
    """A reference that names no run or no metric of it; names the field."""

    def __init__(self, field: str, message: str):
        super().__init__(f"field {field!r}: {message}")
        self.field = field


def files_beside(path: Path) -> RunFile:
    """The run records a results file refers to: the group files in its own folder."""
    return lambda group: Path(path).parent / f"{group}.json"


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class RunIndex:
    """The runs a text's figure records name, each group's file read once by the text's one reader
    of run records (`Chapter.run_records.load_file`, or its `load_file_metrics`, which need not read
    the training curves: nothing here reads them), looked up by (recipe, seed, key): the one index
    of runs, for the references and for the text's check of a record against its runs."""

    def __init__(self, chapter: Chapter, run_file: RunFile):
        self.chapter, self.run_file, self.files = chapter, run_file, {}

    def table(self, group: str) -> dict:
        """{(recipe, seed, key): RunRecord} of a group's file; ValueError (an EvidenceError of the
        text's reader) naming the file where it is not there, not readable, or not the group's."""
        if group not in self.files:
            path = self.run_file(group)
            if not path.exists():
                self.files[group] = ValueError(f"{path}: not found (the run records a figure record names)")
            else:
                try:
                    read = self.chapter.run_records.load_file_metrics or self.chapter.run_records.load_file
                    self.files[group] = {(r.recipe, r.seed, r.key): r for r in read(path, group)}
                except ValueError as e:
                    self.files[group] = e
        if isinstance(self.files[group], ValueError):
            raise self.files[group]
        return self.files[group]

    def run(self, ref) -> RunRecord | None:
        """The run a figure record names (a RunRef, or its object as a file holds it), or None where
        there is none (no such group, file or run; a malformed name)."""
        ref = _named(ref)
        if ref is None or ref.group not in self.chapter.run_records.groups:
            return None
        where = (ref.recipe, ref.seed, ref.key)
        if not all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in where):
            return None
        try:
            return self.table(ref.group).get(where)
        except ValueError:
            if not self.run_file(ref.group).exists():
                return None
            raise


def _named(r) -> Named | None:
    """A run a record names (a RunRef, or the object a file holds), or None for what names no run."""
    if isinstance(r, Named):
        return r
    if is_dataclass(r):
        return Named(r.group, r.recipe, r.seed, r.key)
    if isinstance(r, dict) and isinstance(r.get(Named._fields[0]), str):
        return Named(*map(r.get, Named._fields))
    return None


class Runs:
    """One figure record's runs (its `runs`, RunRefs or their objects), found in the index: what its
    references resolve against."""

    def __init__(self, chapter: Chapter, named: list, index: RunIndex | None):
        self.chapter, self.index = chapter, index
        self.named = [n for n in map(_named, named or []) if n is not None]

    def _found(self, field: str, recipe, seed=None) -> list[tuple[Named, RunRecord]]:
        if self.index is None:
            raise RefError(field, "refers to a run, but no run records were given to read it from")
        out = []
        for r in self.named:
            if r.recipe == recipe and seed in (None, r.seed):
                run = self.index.run(r)
                if run is None:
                    raise RefError(field, f"run {r.group} {recipe} seed {r.seed} key {r.key} is "
                                          f"not in its group's run records ({self.index.run_file(str(r.group))})")
                out.append((r, run))
        if not out:
            raise RefError(field, f"names no run of recipe {recipe!r}" + (f" seed {seed}" if seed is not None else "")
                           + " among the record's runs (field 'runs')")
        return out

    def value(self, ref: Ref, field: str):
        """What `ref` refers to: one run's metric, or a recipe's runs' metric, a list in their order."""
        if ref.seed is None:
            return [self.value(Ref(ref.metric, r.recipe, r.seed), field) for r, _ in self._found(field, ref.recipe)]
        (r, run), *_ = self._found(field, ref.recipe, ref.seed)
        m = self.chapter.run_records.metric(run, ref.metric)
        if not _number(m):
            raise RefError(field, f"run {r.group} {r.recipe} seed {r.seed} has no metric {ref.metric!r}")
        return m

    def refs(self, names) -> list[tuple[dict, object]]:
        """(reference, value) of each metric `names` of each recipe's runs, then of each run: what
        a test's display of its record may refer to; [] where a run is not on record."""
        out = []
        try:
            for seed in (False, True):
                for r in self.named:
                    for name in names:
                        ref = Ref(name, r.recipe, r.seed if seed else None)
                        out.append((ref.as_json(), self.value(ref, "")))
        except (RefError, KeyError, TypeError, ValueError):
            return []
        return out


def check_refs(chapter: Chapter, measurement, measured, runs: Runs, field: str = "measured") -> None:
    """The references in a record's measured values against what its measurement and runs allow,
    never against what the record says of itself: each names a metric its measurement's values may
    be (the text's `run_records.metrics`: never a run's wall time), and a list of values per seed
    refers to one recipe's runs, its i-th value to the i-th seed of the record's runs.  RefError
    naming the field otherwise: a reference to another seed's or recipe's run, or another metric."""
    kind = str(measurement).partition("/")[0]
    names = tuple(chapter.run_records.metrics.get(kind, ()))
    seeds = sorted({r.seed for r in runs.named})

    def walk(x, at: str) -> None:
        ref = as_ref(x)
        if ref is not None:
            if ref.metric not in names:
                raise RefError(at, f"refers to the runs' metric {ref.metric!r}; a {kind} value may be "
                                   f"{' or '.join(map(repr, names)) if names else 'no run metric'}")
        elif isinstance(x, list):
            refs = [(i, ref) for i, ref in enumerate(map(as_ref, x)) if ref is not None and ref.seed is not None]
            if len({ref.recipe for _, ref in refs}) > 1:
                raise RefError(at, "refers to the runs of several recipes: a list of values per seed is one "
                                   "recipe's")
            if refs and len(x) != len(seeds):
                raise RefError(at, f"holds {len(x)} values, but the record's runs are of {len(seeds)} seeds")
            for i, ref in refs:
                if ref.seed != seeds[i]:
                    raise RefError(f"{at}[{i}]", f"refers to seed {ref.seed}'s run, but value {i} is seed "
                                                 f"{seeds[i]}'s (the record's runs, in seed order)")
            for i, v in enumerate(x):
                walk(v, f"{at}[{i}]")
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(v, f"{at}.{k}")
    walk(measured, field)


def resolve(x, runs: Runs, field: str):
    """`x` (a record's measured values as stored) with every reference to a run's metric replaced by
    the number; RefError naming the field where one names a run or metric that is not there."""
    ref = as_ref(x)
    if ref is not None and ref.seed is not None:
        return runs.value(ref, field)
    if isinstance(x, dict):
        return {k: resolve(v, runs, f"{field}.{k}") for k, v in x.items()}
    if isinstance(x, list):
        return [resolve(v, runs, f"{field}[{i}]") for i, v in enumerate(x)]
    return x


def refer(chapter: Chapter, measurement, measured, runs: Runs):
    """`measured` with each list of values per seed (its `values`, each side of its comparisons)
    that is, seed by seed, one recipe's runs' metric written as references to them; a list that is
    no single recipe's metric stays numbers (never another recipe's run that happens to hold the
    same number).  Only the record's own runs, and only the metrics its measurement's values may
    be (the text's `run_records.metrics`)."""
    names = chapter.run_records.metrics.get(str(measurement).partition("/")[0], ())
    if not names or not isinstance(measured, dict) or runs.index is None:
        return measured
    try:
        found = [(r, runs.index.run(r)) for r in runs.named]
    except ValueError:
        return measured
    if not found or any(run is None for _, run in found):
        return measured
    seeds = sorted({run.seed for _, run in found})

    def refs_to(recipe: str, values: list) -> list | None:
        out = []
        for v, seed in zip(values, seeds):
            out.append(next((Ref(name, recipe, seed).as_json() for _, run in found
                             if (run.recipe, run.seed) == (recipe, seed) for name in names
                             if _same(chapter.run_records.metric(run, name), v)), None))
            if out[-1] is None:
                return None
        return out

    def referred(values):
        if not isinstance(values, list) or len(values) != len(seeds):
            return values
        recipes = dict.fromkeys(run.recipe for _, run in found)
        return next((o for o in (refs_to(r, values) for r in recipes) if o is not None), values)

    def sides(c):
        return {**c, **{side: referred(c[side]) for side in ("a", "b") if side in c}} if isinstance(c, dict) else c

    def each(name: str, v):
        if name == "values":
            return referred(v)
        if name == "comparisons" and isinstance(v, dict):
            return {label: sides(c) for label, c in v.items()}
        return v
    return {k: each(k, v) for k, v in measured.items()}


def _same(m, v) -> bool:
    """`m` is `v` as a reference gives it back: the same type and the same repr (0.0 is not -0.0)."""
    return _number(m) and _number(v) and type(m) is type(v) and repr(m) == repr(v)
