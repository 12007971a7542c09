"""The committed evidence, keyed by a text's figures: results/figures.json (the evidence store).

One record per decided figure (a figure ID of the figure table, or, for a figure the chapter
derives without printing it, the claim and what it is), holding measured values and provenance
only, never a rule input (docs/evidence.md):

  key          the figure ID ("norm.postnorm"), "figure / claim" where two claims decide one
               figure, or "claim: what" for a derived figure or an ordering
  figures      the figure IDs it is evidence of; printed: each as the chapter printed it then
  claim        the claim ID
  rule         the rule and its version it was decided under ("trained/2", textcheck/versions.py)
  measured     the measured values, per seed in seed order or per cell (textcheck/specs.py
               MEASURED says which fields each kind holds); a value that is a run's own metric is
               a typed reference to it, {"recipe", "seed", "metric"}, among the record's runs
               (textcheck/run_refs.py); the stated figure, its rounding, its null and the rule's
               kind are the figure table's (the Chapter's rule_inputs)
  measurement  what was measured and its version ("perplexity/1", the Chapter's measurements)
  runs         the runs it came from: group, recipe, seed and cache key of each
  verdict      the verdict it was given: holds, refuted, underspecified or undecided
  reading      optional: a reading of a choice the chapter leaves open, declared in docs/choices.md
               (the Chapter's readings): its name, its measured values (decided by the same
               rule inputs), the date they were measured and the runs; it makes a refuted figure
               underspecified only if declared before that date
  device, date, code, torch   where, when and at which commit it was measured
  shown        what its test showed of it (the test's record: textcheck/shown.py), without what a
               rule derives, each value once

Read (`load`), each record is a FigureRecord (textcheck/records.py), its references read and what
its test showed expanded (`decode`); written (`dumps`), each is the object `encode` makes of it.
The one codec of the file: every reader elsewhere takes a record's fields by name.

Pure (no torch, no pytest): `python -m claims.rederive` decides every record again from this
file, the run records it refers to and the figure table alone.  A measurement taken from a model's weights (attention
statistics, attention maps, perplexity at other windows, gradient profiles) is recorded here when
it is taken, so no verdict needs the weights to be decided again; only measuring again does.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from textcheck import shown, versions
from textcheck.chapter import Chapter
from textcheck.decide import Decision, RuleInputError
from textcheck.device_readings import Measured
from textcheck.formats import typed
from textcheck.outcomes import RunReport, TestRecord, records_of
from textcheck.readings import ReadingError, declared_for, with_reading
from textcheck.records import FigureRecord, RecordFieldError, TestOutcome, check
from textcheck.run_refs import RunFile, RunIndex, Runs, check_refs, files_beside, refer, resolve
from textcheck.shown import ShownError
from textcheck.store import EvidenceError, read_json
from textcheck.verdicts import FIGURE_VERDICTS, most_severe, record_key
from textcheck.versions import RULE_VERSIONS, VersionError, rule_id, version_of

NAME = "figures.json"                                   # in a text's results/
SCHEMA = 3      # 2: verdicts.json held each test's record, by $-references; 3: its figure record shows it


def file_of(chapter: Chapter) -> Path:
    """The text's committed figure evidence: <root>/results/figures.json."""
    return Path(chapter.root) / "results" / NAME


class FigureEvidenceError(EvidenceError):
    """results/figures.json (or a record in it) is not what it should be; names the file, the record
    and the field.  An EvidenceError: whoever refuses bad evidence refuses it too."""


def decode(chapter: Chapter, obj, where: str = "a figure record", index: RunIndex | None = None) -> FigureRecord:
    """The one decoder: one record of the file as a FigureRecord, its run references read
    (textcheck/run_refs.py), every field checked (textcheck/records.py), what its test showed
    read back (textcheck/shown.py); FigureEvidenceError naming `where` and the first field it
    refuses, a rule input where a measurement belongs, or a figure the figure table does not know."""
    if isinstance(obj, dict) and "decision" in obj:
        raise FigureEvidenceError(f"{where}: field 'decision' holds rule inputs; a record holds measured values "
                                  "only ('measured')")
    try:
        typed = check(FigureRecord, obj, where)
        stored = typed.shown                # as the file stores it: read back below
        runs = Runs(chapter, typed.runs, index)
        check_refs(chapter, typed.measurement, typed.measured, runs)
        for field, problem in chapter.run_records.rests(typed)[:1]:      # the text's declared runs, never the record's
            raise FigureEvidenceError(f"{where}: field {field!r}: {problem}")
        typed = replace(typed, measured=resolve(typed.measured, runs, "measured"), shown=None)
        if not typed.key:
            raise FigureEvidenceError(f"{where}: field 'key' is not a non-empty string")
        unknown = [f for f in typed.figures if f not in chapter.figures]
        if unknown:
            raise FigureEvidenceError(f"{where}: field 'figures' names figures the figure table does not know: {unknown}")
        if stored is None:
            return typed
        return replace(typed, shown=shown.expand(chapter, typed, stored, runs, where))
    except (RecordFieldError, ShownError) as e:
        raise FigureEvidenceError(str(e)) from None
    except FigureEvidenceError:
        raise                               # names `where` already
    except ValueError as e:                 # a reference to a run not there, or a run file its reader refuses
        raise FigureEvidenceError(f"{where}: {e}") from None


def _sorted(x):
    return {k: _sorted(x[k]) for k in sorted(x)} if isinstance(x, dict) else [_sorted(v) for v in x] \
        if isinstance(x, list) else x


def encode(chapter: Chapter, rec: FigureRecord, index: RunIndex | None = None) -> dict:
    """The one encoder: a figure record as the file's JSON object, its fields in sorted order, a
    value per seed that is its run's metric as a reference to it, `reading` only where it keeps
    one, and what its test showed as textcheck/shown.py stores it (in the order the test showed it)."""
    runs = Runs(chapter, rec.runs, index)
    left_out = {"shown"} | ({"reading"} if rec.reading is None else set())
    fields = {**asdict(rec), "measured": refer(chapter, rec.measurement, rec.measured, runs)}
    out = _sorted({k: v for k, v in fields.items() if k not in left_out})
    if rec.shown is None:
        return out
    try:
        return {**out, "shown": shown.compact(chapter, rec, rec.shown, runs, f"record {rec.key}")}
    except ShownError as e:
        raise FigureEvidenceError(str(e)) from None


@dataclass(frozen=True)
class Keyed:
    """A record as a message names it before it is read: by its key."""
    key: object


@dataclass(frozen=True)
class FiguresFile:
    """The file's object: its schema and its records (each read by `decode`)."""
    schema: int
    records: list


def load(chapter: Chapter, path: Path | None = None, run_file: RunFile | None = None, index: RunIndex | None = None
         ) -> list[FigureRecord]:
    """Every record of the file as a FigureRecord (`decode`), its run references read from the run
    records (`index`, else one of the files `run_file` gives, by default the group files beside
    it), each run file read once; raises
    FigureEvidenceError naming the file, the record and the field.  A FIFO, a device or an
    oversized file is refused unread (textcheck/store.py read_json)."""
    path = file_of(chapter) if path is None else Path(path)
    try:
        data = read_json(path, "figure evidence")     # the one reader: type and size checked before it is read
    except EvidenceError as e:
        raise FigureEvidenceError(str(e)) from None
    head = FiguresFile(**data) if isinstance(data, dict) and sorted(data) == ["records", "schema"] else None
    if head is None or head.schema != SCHEMA or not isinstance(head.records, list):
        raise FigureEvidenceError(f"{path}: not figure evidence of schema {SCHEMA} "
                                  "(an object with 'schema' and a list 'records')")
    index, seen, out = index or RunIndex(chapter, run_file or files_beside(path)), set(), []
    for i, obj in enumerate(head.records):
        where = f"{path}: record {i}" + (f" ({typed(Keyed, obj).key})" if isinstance(obj, dict) else "")
        out.append(decode(chapter, obj, where, index))
        if out[-1].key in seen:
            raise FigureEvidenceError(f"{where}: key {out[-1].key!r} appears twice")
        seen.add(out[-1].key)
    return out


def dumps(chapter: Chapter, records: list[FigureRecord], run_file: RunFile | None = None) -> str:
    """The file's text: records (each as `encode` writes it, against the run records `run_file`
    gives: without them, a run's metric stays a number) sorted by key, one stable layout (a diff
    shows what changed)."""
    index = RunIndex(chapter, run_file) if run_file is not None else None
    objects = [encode(chapter, r, index) for r in sorted(records, key=lambda r: r.key)]
    return json.dumps({"schema": SCHEMA, "records": objects}, indent=1) + "\n"


class RecordError(ValueError):
    """One record that cannot be decided: names its field."""

    def __init__(self, field: str, message: str):
        super().__init__(f"field {field!r}: {message}")
        self.field = field


def stale(chapter: Chapter, rec: FigureRecord) -> str | None:
    """Why a record is stale (decided under an older version of its rule, or under another rule
    the figure table no longer decides it by, or measured under an older version of its
    measurement), or None.  RecordError for a key with no rule inputs and for an unknown,
    malformed or newer rule or measurement version: no rule code here decides those."""
    try:
        chapter.rule_inputs(rec.key)
    except RuleInputError as e:
        raise RecordError("key", str(e).split(": ", 1)[1]) from None
    try:
        version_of(rec.rule, RULE_VERSIONS, "rule")
    except VersionError as e:
        raise RecordError("rule", str(e)) from None
    try:
        version_of(rec.measurement, chapter.measurements, "measurement")
    except VersionError as e:
        raise RecordError("measurement", str(e)) from None
    # checked above; what is stale is the one answer's
    return versions.stale(chapter, rec.rule, rec.measurement, rec.key)


def redecide(chapter: Chapter, rec: FigureRecord) -> Decision:
    """The record decided again from its measured values and the figure table's rule inputs, and
    with its declared reading where it keeps one (textcheck/readings.py: underspecified
    where the primary refutes, the reading reproduces and was declared before it was measured).
    RecordError naming the field where the values are missing or mistyped, or the reading undeclared."""
    try:
        spec = chapter.rule_inputs(rec.key)
        primary = spec.decide(rec.measured, chapter.timed)
    except RuleInputError as e:
        raise RecordError(e.field, str(e).split(": ", 1)[1]) from None
    if rec.reading is None:
        return primary
    r = rec.reading
    try:
        declared = declared_for(chapter.readings, rec.key, r.name)
        reading = spec.decide(r.measured, chapter.timed)
        verdict, why = with_reading(primary.verdict, reading.verdict, declared, r.date)
    except RuleInputError as e:
        raise RecordError(f"reading.{e.field}", str(e).split(": ", 1)[1]) from None
    except ReadingError as e:
        raise RecordError(e.field, str(e).split(": ", 1)[1]) from None
    return Decision(verdict, primary.tolerance, f"{primary.why}; {why} (the reading: {reading.why})",
                    primary.measured)


def seeds_of(rec: FigureRecord) -> int:
    """How many seeds a trained record rests on: the most runs of any one recipe it names (0 for
    a record of no trained run).  The sequential rule's steps (textcheck/decide.py SEED_STEPS)
    are counted in it."""
    per_recipe: dict[tuple, set] = {}
    for run in rec.runs:
        per_recipe.setdefault((run.group, run.recipe), set()).add(run.seed)
    return max((len(s) for s in per_recipe.values()), default=0)


def printed_now(chapter: Chapter, figures: list[str]) -> list[str]:
    """The figures as the figure table prints them today (a changed figure must be decided again)."""
    return [chapter.figures[f].printed for f in figures]


def as_test(rec: FigureRecord) -> Measured:
    """A figure record as the verdict arithmetic reads a test of one record (textcheck/device_readings.py
    only_readings, read_off_instrument): its figures, and its measurement, rule and device."""
    return Measured(rec.figures, rec.device, [TestRecord({}, measurement=rec.measurement, rule=rec.rule,
                                                         device=rec.device)])


def from_test(chapter: Chapter, test: TestOutcome, claim: str, run: RunReport) -> list[FigureRecord]:
    """The figure records of one test's result (of the claim `claim`, in the run's report `run`):
    one per record, each keeping its measured values (the record's "decision").  Its verdict is
    decided here from them and the figure table, checked against the test's outcome: a test that
    holds has every record holding, a refuted one at least one refuted, an undecided one none
    refuted and one undecided; one that decided otherwise, under another rule than the figure
    table's, or recorded none, is named here and never saved."""
    out = [_figure_record(chapter, test, run, claim, rec) for rec in records_of(test) if rec.decided]
    if test.outcome in FIGURE_VERDICTS:
        verdicts = [r.verdict for r in out]
        if not out:
            raise FigureEvidenceError(f"{test.nodeid}: {test.outcome}, but it recorded no decision "
                                      "(textcheck/rule.py trained_figure, ordering, or claim.record(decision=...)): "
                                      "its verdict could never be decided again; nothing saved")
        if outcome_of(verdicts) != test.outcome:       # each a figure verdict (`decode` checks it)
            raise FigureEvidenceError(f"{test.nodeid}: the test's outcome is {test.outcome}, but its recorded "
                                      f"decisions give {', '.join(verdicts)}; nothing saved")
    return out


def _figure_record(chapter: Chapter, test: TestOutcome, run: RunReport, claim: str, rec: TestRecord) -> FigureRecord:
    """The figure record of one of a test's records (`from_test`): decided from its decision and
    the figure table, with its declared reading where it keeps one; FigureEvidenceError naming the
    test and the record where it cannot be, and nothing saved."""
    key = record_key(chapter, rec, claim)
    where = f"{test.nodeid}: record {key}"
    try:
        spec = chapter.rule_inputs(key)
        decided = spec.decide(rec.decision, chapter.timed)
    except RuleInputError as e:
        raise FigureEvidenceError(f"{where}: {e}; nothing saved") from None
    if rec.rule != rule_id(spec.rule):
        raise FigureEvidenceError(f"{where}: decided under {rec.rule}, "
                                  f"the figure table decides it under {rule_id(spec.rule)}; nothing saved")
    if str(rec.measurement).partition("/")[0] in chapter.trained_measurements and not test.runs:
        raise FigureEvidenceError(f"{where}: a {rec.measurement} measurement "
                                  "that names no runs (nothing shows it was trained); nothing saved")
    figures = list(rec.figures or [])
    runs = test.runs or []
    obj = {"key": key, "figures": figures, "printed": printed_now(chapter, figures),
           "claim": claim, "rule": rec.rule, "measured": rec.decision,
           "measurement": rec.measurement, "runs": runs, "verdict": decided.verdict,
           "device": rec.device or test.device or run.device,
           "date": test.timestamp or run.timestamp, "code": run.commit,
           "torch": test.torch or run.torch,
           "shown": {k: v for k, v in rec.raw.items() if k != "decision"},     # what the test showed of it
           # a declared reading, decided with the primary (textcheck/rule.py)
           "reading": {**rec.reading, "runs": runs} if rec.reading else None}
    try:
        out = decode(chapter, obj, where)
        return replace(out, verdict=redecide(chapter, out).verdict) if out.reading is not None else out
    except (RecordError, FigureEvidenceError) as e:
        raise FigureEvidenceError(f"{where}: {str(e).removeprefix(where + ': ')}; nothing saved") from None


def outcome_of(verdicts: list[str]) -> str:
    """A test's outcome from its records' verdicts: the most severe (textcheck/verdicts.py LADDER),
    holds for none."""
    return most_severe(verdicts)
