"""One reader of the run's evidence for the report's tables and errata alike (`Facts`): a figure's
measurement by its figure ID, a test's record by its evidence key (never a substring of a test id),
the runs of results/<group>.json (each file read once) and the readings.  Evidence of the wrong
shape is an EvidenceError naming the file, the claim, the test and the field."""
from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from claims.chapter_figures import FIGURES
from fixtures import results
from fixtures.results import EvidenceError, shown
from textcheck import RunRecord

OBJECT, NUMBER, LIST = (dict,), (int, float), (list,)       # the shapes a reader may ask a field for
RUN_FIELDS = frozenset(f.name for f in fields(RunRecord))   # a run's own fields; any other figure is a metric
_SHAPE_NAMES = {OBJECT: "an object", NUMBER: "a number", LIST: "a list"}


def cost_rows(results_dir: Path, device: str = "cpu") -> dict[int, dict]:
    """results/cost_<device>.json's rows by length n ({} where never measured), each checked."""
    path = Path(results_dir) / f"cost_{device}.json"
    return results.cost_table(path) if path.exists() else {}


class Runs:
    """results/<group>.json's runs by recipe (each seed's newest), each file read once; with a
    run's report folder (`fresh`), its unsaved runs too, the newer record of a seed winning."""

    def __init__(self, results_dir: Path, fresh: Path | None = None):
        self.results_dir, self.fresh = results_dir, fresh
        self._groups: dict[str, dict] = {}

    def group(self, group: str) -> dict[str, list[RunRecord]]:
        if group not in self._groups:
            self._groups[group] = results.by_recipe(group, self.results_dir, self.fresh)
        return self._groups[group]


class Facts:

    def __init__(self, merged: dict, results_dir: Path, report_dir: Path | None = None):
        self.results_dir = results_dir
        self.report_dir = report_dir
        # the merged report's claims come from the engine, each test checked where its file was read
        self.claims = {c["id"]: c for c in merged.get("claims", [])}
        # the merged report's figure rows, as the engine merged them (a report of claims alone: none)
        self.figures = {r["id"]: r for r in merged.get("figures") or []}
        self._runs = Runs(results_dir, report_dir)
        self.readings: dict = {}
        for d in (results_dir, report_dir):                   # the fresh run's readings win
            if d is not None and (Path(d) / "readings.json").exists():
                self.readings.update(results.readings(Path(d) / "readings.json"))

    def file_of(self, source) -> str:
        if source == "committed":
            return str(Path(self.results_dir) / "verdicts.json")
        return str(Path(self.report_dir) / "claims.json") if self.report_dir is not None else "the run's claims.json"

    def _where(self, source, claim, test=None) -> str:
        return f"{self.file_of(source)}: claim {claim}" + (f": test {test}" if test is not None else "")

    def _shaped(self, value, shape: tuple, source, claim, test, field: str):
        """`value` when it is of `shape` or absent (None); EvidenceError naming where otherwise."""
        if value is None or (isinstance(value, shape) and not isinstance(value, bool)):
            return value
        raise EvidenceError(f"{self._where(source, claim, test)}: field {field!r} is {shown(value)}, not "
                            f"{_SHAPE_NAMES.get(shape, ' or '.join(s.__name__ for s in shape))}")

    def group(self, group: str) -> dict[str, list[RunRecord]]:
        return self._runs.group(group)

    def per_run(self, group: str, recipe: str, key: str = "val_ppl", seeds=None) -> list:
        """One figure of each seed's newest run of a recipe (a record's field, else its metric), in
        seed order; of the `seeds` given alone, where given."""
        return [getattr(r, key) if key in RUN_FIELDS else r.metrics.get(key) for r in self.group(group).get(recipe, [])
                if seeds is None or r.seed in seeds]

    def over_runs(self, runs, key: str) -> list:
        """One figure of each run of `runs`, (group, recipe, seeds) in order; [] unless every one
        of those runs is on record (a mean over some of its seeds is no reading of it)."""
        values = [self.per_run(group, recipe, key, seeds) for group, recipe, seeds in runs]
        complete = all(len(v) == len(list(seeds)) for v, (_, _, seeds) in zip(values, runs))
        return [x for v in values for x in v] if complete else []

    def figure_row(self, fid: str) -> dict:
        """A figure's row of the merged report ({} if no test carries it)."""
        if fid not in FIGURES:
            raise KeyError(f"unknown figure ID {fid!r} (claims/chapter_figures.py)")
        return self.figures.get(fid, {})

    def figure_measured(self, fid: str, shape: tuple = OBJECT):
        """A figure's measurement, checked to be of `shape`; None if no test measured it."""
        row = self.figure_row(fid)
        return self._shaped(row.get("measured"), shape, row.get("source"), row.get("claim"), row.get("test"),
                            f"measured (figure {fid})")

    def _test(self, claim: str, key: str) -> dict:
        """The claim's test under `key` (textcheck/verdicts.py evidence_key), never by its name."""
        tests = self.claims.get(claim, {}).get("tests", [])
        return next((t for t in tests if t.get("key") == key), {})

    def record(self, claim: str, key: str) -> dict:
        """The first record of the claim's evidence under `key` ({} if none was recorded)."""
        return (self._test(claim, key).get("records") or [{}])[0]

    def outcome(self, claim: str, key: str) -> str | None:
        return self._test(claim, key).get("outcome")

    def measured(self, claim: str, key: str, shape: tuple = OBJECT, field: str = "measured"):
        """A field of the first record under `key`, checked to be of `shape`; None if unrecorded."""
        t = self._test(claim, key)
        return self._shaped(self.record(claim, key).get(field), shape, t.get("source"), claim, key, field)
