"""One reader of the run's evidence for the report's tables and errata alike (`Facts`): a chapter
figure's measurement by its figure ID (the merged report's figure rows, textcheck/merging.py
figure_rows), a test's record by its exact name, the runs of results/<group>.json by recipe (each
file read once), and the alternative readings the tests record (readings.json).  Never a substring
of a test id.

The shapes are checked here, once: a claim's tests, a test's records and the readings are checked
when Facts is built, and a record's field is checked against the shape its reader needs
(`measured`, `figure_measured`).  Evidence of the wrong shape is an EvidenceError naming the file
(results/verdicts.json for a committed test, the run's claims.json otherwise), the claim, the test
and the field, never an AttributeError from inside an erratum."""
from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from claims.chapter import CHAPTER
from claims.chapter_figures import FIGURES
from fixtures import results
from fixtures.results import EvidenceError, shown
from textcheck import merging
from textcheck.records import RunRecord, TestOutcome, check

OBJECT, NUMBER, LIST = (dict,), (int, float), (list,)       # the shapes a reader may ask a field for
RUN_FIELDS = frozenset(f.name for f in fields(RunRecord))   # a run's own fields; any other figure is a metric
_SHAPE_NAMES = {OBJECT: "an object", NUMBER: "a number", LIST: "a list"}


def cost_rows(results_dir: Path, device: str = "cpu") -> dict[int, dict]:
    """results/cost_<device>.json's rows by length n ({} where never measured), each checked
    (fixtures/results.py cost_table, the reader the re-derivation and a save read it with too)."""
    path = Path(results_dir) / f"cost_{device}.json"
    return results.cost_table(path) if path.exists() else {}


class Runs:
    """results/<group>.json's runs by recipe (each seed's newest), each file read once: the runs
    Facts reads for the errata and the tables, and those the plots show (plot_data.py), which the
    command reads before a save changes results/ (the plots it draws are saved with the run).
    With a run's report folder (`fresh`), the runs it trained and has not saved yet are read too,
    the newer record of a seed winning, as its readings win over the committed ones."""

    def __init__(self, results_dir: Path, fresh: Path | None = None):
        self.results_dir, self.fresh = results_dir, fresh
        self._groups: dict[str, dict] = {}

    def group(self, group: str) -> dict[str, list[RunRecord]]:
        if group not in self._groups:
            self._groups[group] = results.by_recipe(group, self.results_dir, self.fresh)
        return self._groups[group]


class Facts:
    """The measurements an erratum may cite: a chapter figure's by its figure ID (the merged
    report's figure rows, textcheck/merging.py figure_rows), a test's by its exact name, and the
    runs, readings and rows of results/."""

    def __init__(self, merged: dict, results_dir: Path, report_dir: Path | None = None):
        self.results_dir = results_dir
        self.report_dir = report_dir
        self.claims = {c["id"]: c for c in self._checked_claims(merged.get("claims", []))}
        self.figures = {r["id"]: r for r in merged.get("figures") or merging.figure_rows(CHAPTER, list(self.claims.values()))}
        self._runs = Runs(results_dir, report_dir)
        self.readings: dict = {}
        for d in (results_dir, report_dir):                   # the fresh run's readings win
            if d is not None and (Path(d) / "readings.json").exists():
                self.readings.update(results.readings(Path(d) / "readings.json"))

    # ------------------------------------------------------------ where a piece of evidence came from

    def file_of(self, source) -> str:
        """The file a test's evidence was read from: results/verdicts.json for a committed test,
        the run's claims.json otherwise."""
        if source == "committed":
            return str(Path(self.results_dir) / "verdicts.json")
        return str(Path(self.report_dir) / "claims.json") if self.report_dir is not None else "the run's claims.json"

    def _where(self, source, claim, test=None) -> str:
        return f"{self.file_of(source)}: claim {claim}" + (f": test {test}" if test is not None else "")

    def _checked_claims(self, claims) -> list[dict]:
        """The merged report's claims, each test checked by the one validator of evidence
        (textcheck/records.py TestOutcome: a node id, a list of records, each an object)."""
        if not isinstance(claims, list):
            raise EvidenceError(f"{self.file_of(None)}: field 'claims' is {shown(claims)}, not a list")
        for i, c in enumerate(claims):
            if not isinstance(c, dict) or not isinstance(c.get("id"), str):
                raise EvidenceError(f"{self.file_of(getattr(c, 'get', lambda k: None)('source'))}: claim {i} is "
                                    f"{shown(c)}, not an object with an id")
            tests = c.get("tests", [])
            if not isinstance(tests, list):
                raise EvidenceError(f"{self._where(c.get('source'), c['id'])}: field 'tests' is {shown(tests)}, "
                                    "not a list")
            for j, t in enumerate(tests):
                source = t.get("source", c.get("source")) if isinstance(t, dict) else c.get("source")
                # a run's merged tests may carry what a later version adds: only the fields read are checked
                check(TestOutcome, t, f"{self._where(source, c['id'])}: test {j}", extra=True)
        return claims

    def _shaped(self, value, shape: tuple, source, claim, test, field: str):
        """`value` when it is of `shape` or absent (None); EvidenceError naming where otherwise."""
        if value is None or (isinstance(value, shape) and not isinstance(value, bool)):
            return value
        raise EvidenceError(f"{self._where(source, claim, test)}: field {field!r} is {shown(value)}, not "
                            f"{_SHAPE_NAMES.get(shape, ' or '.join(s.__name__ for s in shape))}")

    # ------------------------------------------------------------ what an erratum reads

    def group(self, group: str) -> dict[str, list[RunRecord]]:
        """results/<group>.json's runs by recipe (each seed's newest), its file read once per Facts:
        the errata and the tables read the same runs (claims/report/table_builders.py)."""
        return self._runs.group(group)

    def per_run(self, group: str, recipe: str, key: str = "val_ppl", seeds=None) -> list:
        """One figure of each seed's newest run of a recipe (a record's field, else its metric), in
        seed order; of the `seeds` given alone, where given."""
        return [getattr(r, key) if key in RUN_FIELDS else r.metrics.get(key) for r in self.group(group).get(recipe, [])
                if seeds is None or r.seed in seeds]

    def over_runs(self, runs, key: str) -> list:
        """One figure of each run of `runs`, (group, recipe, seeds) in order: a measurement taken
        over runs of more than one recipe (fixtures/setup.py winograd_reading_runs); [] unless every
        one of those runs is on record (a mean over some of its seeds is no reading of it)."""
        values = [self.per_run(group, recipe, key, seeds) for group, recipe, seeds in runs]
        complete = all(len(v) == len(list(seeds)) for v, (_, _, seeds) in zip(values, runs))
        return [x for v in values for x in v] if complete else []

    def figure_row(self, fid: str) -> dict:
        """The evidence of one of the chapter's figures, by its figure ID: its row of the merged
        report's figure rows ({} if no test carries it)."""
        if fid not in FIGURES:
            raise KeyError(f"unknown figure ID {fid!r} (claims/chapter_figures.py)")
        return self.figures.get(fid, {})

    def figure_measured(self, fid: str, shape: tuple = OBJECT):
        """A figure's measurement, checked to be of `shape` (an object by default); None if no
        test measured it."""
        row = self.figure_row(fid)
        return self._shaped(row.get("measured"), shape, row.get("source"), row.get("claim"), row.get("test"),
                            f"measured (figure {fid})")

    def _test(self, claim: str, key: str) -> dict:
        """The claim's evidence under `key`: what it measured (textcheck/verdicts.py evidence_key: a figure
        ID, or "claim: what"), never a test's name."""
        tests = self.claims.get(claim, {}).get("tests", [])
        return next((t for t in tests if t.get("key") == key), {})

    def record(self, claim: str, key: str) -> dict:
        """The first record of the claim's evidence under `key` ({} if none was recorded)."""
        return (self._test(claim, key).get("records") or [{}])[0]

    def outcome(self, claim: str, key: str) -> str | None:
        return self._test(claim, key).get("outcome")

    def measured(self, claim: str, key: str, shape: tuple = OBJECT, field: str = "measured"):
        """A field (`measured` by default) of the first record of the claim's evidence under `key`,
        checked to be of `shape` (an object by default); None if nothing recorded it."""
        t = self._test(claim, key)
        return self._shaped(self.record(claim, key).get(field), shape, t.get("source"), claim, key, field)
