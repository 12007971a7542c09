"""A figure record's per-seed values that are its runs' own metrics, stored once (docs/evidence.md).

A trained figure such as a held-out perplexity is measured by the training run itself: the value
stands in the run's record (results/<group>.json, its `metrics`).  In results/figures.json such a
value is written as a reference to it, `{"$run": i, "metric": "val_ppl", "digest": "..."}`: the
metric of the record's i-th run (its field `runs`), and a digest of the value it was measured as
(the first 12 hex digits of the SHA-256 of its repr), so that a run record changed afterwards
(edited, or the run trained again under the same key) is caught, naming both files, as the two
copies used to catch it -- without a second copy.  A value that is no single run's metric (a difference of two
runs, a value measured from the weights after training) stays a number.

`refer` writes the references when figures.json is written (the save, the conversion); `resolve`
reads them back when it is read (claimcheck/evidence.py load), so every reader sees numbers, and
a reference to a run or metric that is not there is an error naming the file, the record and
the field.  `changed` lists the references whose run's metric is no longer the value measured:
the re-derivation reports them (exit 1), and a save refuses to keep one it does not measure again.  Which metrics a measurement's values may be, and how a run's metric is read, are the
text's (the Chapter's `run_records`: `metrics`, `metric`).  Pure: standard library only.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from claimcheck.chapter import Chapter
    from claimcheck.records import RunRecord

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
