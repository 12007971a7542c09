"""A run's outcomes as the verdict arithmetic reads them: a test's record (`TestRecord`), a claim of
a run's report or the merged one (`ClaimSummary`), a run's report (`RunReport`), each read once at
its JSON edge (`of`) and written by one encoder (`as_json`, `outcome_object`): claims.json and
merged.json hold their fields in these orders.  A report's own objects, already checked or never
stored, are read by field name (`typed`; its counts by verdict: `Counts`).
"""
from __future__ import annotations

import dataclasses
from typing import Any

from pydantic import StrictStr
from pydantic.dataclasses import dataclass as pydantic_dataclass

from textcheck.records import CONFIG, TestOutcome, check, field_names
from textcheck.store import ClaimsFile

RECORD_FIELDS = ("figures", "figure", "part", "device", "rule", "measurement", "stated", "measured", "tolerance",
                 "seeds", "per_figure", "decision", "reading")


@dataclasses.dataclass(frozen=True)
class Counts:
    """A count by verdict (a report's summary of its claims or of its figures, a section's claims)
    as its readers name its parts: the verdicts they name, the device-specific readings, the total
    (a count by a verdict in a loop is the mapping's own, by the verdict's name)."""
    holds: int = 0
    fails: int = 0
    device_specific: int = 0
    total: int | None = None

    @classmethod
    def of(cls, counts) -> Counts:
        """`counts` by its keys, read as field names ("device-specific": device_specific)."""
        names = {f.name for f in dataclasses.fields(cls)}
        as_fields = {str(k).replace(" ", "_").replace("-", "_"): n for k, n in counts.items()}
        return cls(**{k: n for k, n in as_fields.items() if k in names})


@dataclasses.dataclass(frozen=True)
class TestRecord:
    """What a test recorded of one measurement (claim.record) as the verdict arithmetic reads it.
    `raw` is the JSON object itself, the one stored and shown (in the order the test wrote it);
    the fields are read off it once (`of`), absent ones None; `decided`: it keeps its rule inputs'
    measured values (`decision`), so a save can decide it again."""
    __test__ = False
    raw: dict
    decided: bool = False
    figures: list | None = None
    figure: Any = None
    part: Any = None
    device: Any = None
    rule: Any = None
    measurement: Any = None
    stated: Any = None
    measured: Any = None
    tolerance: Any = None
    seeds: Any = None
    per_figure: Any = None
    decision: Any = None
    reading: Any = None

    @classmethod
    def of(cls, raw) -> TestRecord:
        if isinstance(raw, TestRecord):
            return raw
        raw = raw if isinstance(raw, dict) else {}
        return cls(raw, "decision" in raw, **{k: raw[k] for k in RECORD_FIELDS if k in raw})

    @property
    def label(self) -> str:
        return str(self.figure or self.part or "")


def records_of(t) -> list[TestRecord]:
    """A test's records (those that are objects), typed."""
    return [TestRecord.of(r) for r in t.records or [] if isinstance(r, dict)]


def outcome(t) -> TestOutcome:
    """A test as a TestOutcome: itself, or its object as a report holds it (the report's rows)."""
    return t if isinstance(t, TestOutcome) else TestOutcome(**{k: v for k, v in t.items() if k in field_names(TestOutcome)})


@dataclasses.dataclass(frozen=True)
class ClaimSummary:
    """A claim of a run's report or the merged one, summarised from its tests
    (textcheck/verdicts.py summarise_claim); `as_json` is the object claims.json and merged.json
    hold, its fields in this order."""
    id: str
    section: Any
    statement: Any
    kind: Any
    stated: Any
    measured: Any
    tolerance: Any
    verdict: str
    reason: str
    tier: Any
    device: Any
    seeds: Any
    seconds: Any
    torch: Any
    python: Any
    timestamp: Any
    source: Any
    records: list
    tests: list[TestOutcome]

    @classmethod
    def of(cls, c) -> ClaimSummary:
        """A claim as a report's JSON holds it (its fields by name, absent ones None), its tests typed."""
        if isinstance(c, ClaimSummary):
            return c
        given = cls(**{f.name: c.get(f.name) for f in dataclasses.fields(cls)})
        return dataclasses.replace(given, tests=[outcome(t) for t in given.tests or []])

    def as_json(self) -> dict:
        return {**{f.name: getattr(self, f.name) for f in dataclasses.fields(self)},
                "tests": [outcome_object(t) for t in self.tests]}


def outcome_object(t: TestOutcome) -> dict:
    """The one encoder of a test's outcome as a run's claims.json and the report's merged.json hold
    it (results/ splits it: its record in its figure record, the rest in the index,
    textcheck/verdict_file.py), its fields in their order, its runs as objects, left out only where
    it has none (`None`; an empty list is kept)."""
    left_out = {"runs"} if t.runs is None else set()
    return {k: v for k, v in dataclasses.asdict(t).items() if k not in left_out}


@pydantic_dataclass(frozen=True, config=CONFIG)
class ReportHead:
    """A run's report (its claims.json) as its reader checks it: a list of claims, and its meta."""
    claims: list
    meta: dict | None = None


@pydantic_dataclass(frozen=True, config=CONFIG)
class ClaimHead:
    """A claim of a run's report as its reader checks it: its ID, its verdict and its tests (each a TestOutcome)."""
    id: StrictStr
    verdict: StrictStr
    tests: list


@dataclasses.dataclass(frozen=True)
class RunReport:
    """A run's report (its claims.json) as the merge and the save read it: its claims, each with
    its tests typed, its meta as written (`meta`) and the fields they read off it."""
    claims: list[ClaimSummary]
    meta: dict
    timestamp: Any = None
    device: Any = None
    commit: Any = None
    torch: Any = None
    from_results: Any = None
    from_records: Any = None
    scale: Any = None

    @classmethod
    def of(cls, fresh, where: str = "the run's claims.json") -> RunReport:
        """A run's report read from its JSON object, the one check of it: an object with a list of
        claims, each with an ID, a verdict and its tests, each a TestOutcome; RecordFieldError naming
        `where`, the claim, the test and the field otherwise."""
        if isinstance(fresh, RunReport):
            return fresh
        if isinstance(fresh, ClaimsFile):          # read from its file (textcheck/store.py run_report): checked once
            if fresh.typed is None:
                fresh.typed = cls.of(dict(fresh), str(fresh.path))
            return fresh.typed
        head = check(ReportHead, fresh, where, extra=True)
        claims = []
        for i, c in enumerate(head.claims):
            claim = check(ClaimHead, c, f"{where}: claim {i}", extra=True)
            tests = [t if isinstance(t, TestOutcome) else check(TestOutcome, t, f"{where}: claim {claim.id}: test {j}")
                     for j, t in enumerate(claim.tests)]
            claims.append(dataclasses.replace(ClaimSummary.of(c), tests=tests))
        meta = head.meta or {}
        return cls(claims, meta, **{f.name: meta.get(f.name) for f in dataclasses.fields(cls)[2:]})


@dataclasses.dataclass
class TestResult:
    """What one claim test found in a run (textcheck/run_verdicts.py gathers it from its reports):
    a run's report is built from these (textcheck/merging.py build_report)."""
    __test__ = False
    nodeid: str
    claims: list = dataclasses.field(default_factory=list)
    tier: str | None = None
    device: str | None = None
    figures: list = dataclasses.field(default_factory=list)
    outcome: str | None = None
    reason: str = ""
    seconds: float = 0.0
    records: list = dataclasses.field(default_factory=list)
    runs: list = dataclasses.field(default_factory=list)          # each trained run it used (its fixtures note them)
    runs_from: set = dataclasses.field(default_factory=set)       # and whether they were read from the committed records

    @classmethod
    def of(cls, r) -> TestResult:
        """A test's result, or its object (its fields by name)."""
        names = {f.name for f in dataclasses.fields(TestResult)}
        return r if isinstance(r, TestResult) else TestResult(**{k: v for k, v in r.items() if k in names})
