"""results/verdicts.json, the index of the committed verdicts: claim -> test -> outcome, holding no value.

  {"schema": 3, "claims": [{"id", "verdict", "tests": [{"nodeid", "key", "outcome", "reason",
                                                         "tier", "seconds", "timestamp", "python", "source"}]}]}

A test is kept under what it measured (`key`: its figure records' keys, " & "-joined): what it
showed, its figures, its runs, its device and torch are its figure records' (results/figures.json;
a device or torch of its own is named here only where it differs).  A claim's verdict is stored
(the history of results/verdicts.json says since when it stands: textcheck/report/assembly/since.py);
the re-derivation checks it is what its tests give.  Read (`load`), each claim is a ClaimVerdict of TestOutcomes, typed
(textcheck/records.py); the one writer of both files (`texts`) puts each test's record into its
figure record's `shown` and writes the index beside them.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from textcheck import evidence
from textcheck.chapter import Chapter
from textcheck.records import (
    ClaimEntry,
    ClaimVerdict,
    FigureRecord,
    RecordFieldError,
    TestEntry,
    TestOutcome,
    check,
)
from textcheck.run_refs import RunFile
from textcheck.store import EvidenceError, read_json
from textcheck.verdicts import FIGURE_VERDICTS, record_key, summarise
from textcheck.vocabulary import NOT_MEASURED, SEPARATOR

NAME = "verdicts.json"
SCHEMA = 3              # 2: each test carried its records, by $-references; 3: an index, no value


@dataclass(frozen=True)
class VerdictsFile:
    """The file's object: its schema and its claims (each read as a ClaimEntry)."""
    schema: int
    claims: list


def load(chapter: Chapter, path: Path, figures: list[FigureRecord] | None = None, dangling: bool = False
         ) -> list[ClaimVerdict]:
    """The file's claims, each a ClaimVerdict of TestOutcomes built from its entries and their
    figure records (`figures`, by default results/figures.json beside it).  EvidenceError
    (RecordFieldError) names the file, the claim and test, and the field.  `dangling`: a test whose
    figure record is not there is kept without its record, for the re-derivation to name it."""
    path = Path(path)
    if not path.exists():
        return []
    data = read_json(path, "committed verdicts")
    head = VerdictsFile(**data) if isinstance(data, dict) and sorted(data) == ["claims", "schema"] else None
    if head is None or head.schema != SCHEMA or not isinstance(head.claims, list):
        raise EvidenceError(f"{path}: not committed verdicts of schema {SCHEMA} (an object of 'schema' and a list "
                            f"'claims'{'; keys ' + str(sorted(data)) if isinstance(data, dict) else ''})")
    if figures is None:
        beside = path.with_name(evidence.NAME)
        figures = evidence.load(chapter, beside) if beside.exists() or beside.is_symlink() else []
    by_key = {r.key: r for r in figures}
    out = []
    for i, c in enumerate(head.claims):
        where = f"{path}: claim {i}"
        entry = check(ClaimEntry, c, where)
        if entry.id not in chapter.claims:
            raise RecordFieldError(f"{where} ({entry.id})", "id", f"{entry.id!r} is not a claim of "
                                   f"{chapter.named('claims')}")
        tests = []
        for j, obj in enumerate(entry.tests):
            at = f"{path}: claim {entry.id}: test {j}"
            t = check(TestEntry, obj, at)
            at += f" ({t.key})"
            if t.outcome not in FIGURE_VERDICTS:
                raise RecordFieldError(at, "outcome", f"is {t.outcome!r}: a committed test is one its figure records "
                                       f"decided ({', '.join(FIGURE_VERDICTS)}); a test that decided nothing is not "
                                       "measured, and never committed (a save keeps decided tests only)")
            tests.append(_test(t, [by_key.get(k) for k in t.key.split(SEPARATOR)], at, dangling))
        out.append(ClaimVerdict(entry.id, entry.verdict, tests))
    return out


def _test(t, found: list[FigureRecord | None], where: str, dangling: bool) -> TestOutcome:
    missing = [k for k, r in zip(t.key.split(SEPARATOR), found) if r is None or r.shown is None]
    if missing and not dangling:
        raise RecordFieldError(where, "key", f"names {', '.join(map(repr, missing))}, which results/figures.json "
                               "does not hold (or holds without what its test showed)")
    found = [r for r in found if r is not None and r.shown is not None]
    first = found[0] if found else None
    runs = list({(r.group, r.recipe, r.seed, r.key): r for f in found for r in f.runs}.values())
    return TestOutcome(nodeid=t.nodeid, outcome=t.outcome, reason=t.reason, records=[f.shown for f in found],
                       tier=t.tier, device=t.device or (first.device if first else None),
                       figures=list(first.figures) if first else [], runs=runs or None, seconds=t.seconds,
                       timestamp=t.timestamp, torch=t.torch or (first.torch if first else None), python=t.python,
                       source=t.source, key=t.key)




def missing_records(chapter: Chapter, claim: str, tests: list[TestOutcome]) -> list[str]:
    """The figure records the text declares the claim's committed tests decide (its Chapter's
    `claim_records`) that none of `tests` carries: a record deleted, or never measured."""
    # a record measured on CUDA is keyed "<key> (cuda)" (textcheck/verdicts.py record_key): the same record
    carried = {k.removesuffix(" (cuda)") for t in tests for k in str(t.key).split(SEPARATOR)}
    return [k for k in chapter.claim_records.get(claim, ()) if k not in carried]


def verdict_of(chapter: Chapter, claim: str, tests: list[TestOutcome]) -> str:
    """A claim's verdict as its tests give it (textcheck/verdicts.py summarise, read off each
    test's fields: nothing is copied).  A claim one of whose declared figure records is missing
    (`missing_records`) is not measured ("not run"): never holds, undecided or underspecified on the
    figures left; refuted (or failing) stays so, which no further figure can change."""
    given = summarise(chapter, claim, tests, True).verdict
    return "not run" if given in NOT_MEASURED and missing_records(chapter, claim, tests) else given


def summary(chapter: Chapter, c: ClaimVerdict) -> dict:
    """A committed claim as the report's row of it summarises it (its seeds, its statement...)."""
    return summarise(chapter, c.id, c.tests, True).as_json()


def entry(t: TestOutcome, first: FigureRecord | None) -> dict:
    """A test as the index holds it: its device and torch only where they are not its figure record's."""
    out = {"nodeid": t.nodeid, "key": t.key, "outcome": t.outcome, "reason": t.reason, "tier": t.tier,
           "seconds": t.seconds, "timestamp": t.timestamp, "python": t.python, "source": t.source}
    for name in ("device", "torch"):
        if getattr(t, name) != (getattr(first, name) if first else None):
            out[name] = getattr(t, name)
    return out


def dumps(claims: list[ClaimVerdict], figures: list[FigureRecord]) -> str:
    """The index's text for `claims`, in the order given."""
    by_key = {r.key: r for r in figures}
    return json.dumps({"schema": SCHEMA, "claims": [
        {"id": c.id, "verdict": c.verdict,
         "tests": [entry(t, by_key.get(str(t.key).split(SEPARATOR)[0])) for t in c.tests]} for c in claims]},
        indent=1) + "\n"


def texts(chapter: Chapter, claims: list[ClaimVerdict], figures: list[FigureRecord],
          run_file: RunFile | None = None) -> dict[str, str]:
    """{file name: its text} of results/verdicts.json and results/figures.json: each test's record
    put into its figure record's `shown` (the one place it is stored), the index written beside them.
    EvidenceError where a test's record has no figure record to be stored in (nothing is written)."""
    by_key = {r.key: r for r in figures}
    for c in claims:
        for t in c.tests:
            for rec in t.records:
                key = record_key(chapter, rec, c.id)
                if key not in by_key:
                    raise EvidenceError(f"claim {c.id}: test {t.nodeid}: its record {key!r} has no figure record to "
                                        "be stored in (a test kept in results/ records a decision); nothing saved")
                if by_key[key].shown != rec:
                    by_key[key] = replace(by_key[key], shown=rec)
    try:
        return {NAME: dumps(claims, list(by_key.values())),
                evidence.NAME: evidence.dumps(chapter, list(by_key.values()), run_file)}
    except evidence.FigureEvidenceError as e:
        raise EvidenceError(str(e)) from None
