"""Which measurement is a reading beside a text's figure, never a verdict on it: measured elsewhere
than on the text's kind of device, read off a clock or an allocator, or a count shown as the theory
(docs/cost.md: one rule, no exception).  The one answer the tests' skips (textcheck/rule.py), the
claims' verdicts (textcheck/verdicts.py), the figure rows (textcheck/merging.py) and the
re-derivation ask.  Pure: a test's outcome or a figure record (`Measured`), and the text's Chapter.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from textcheck.chapter import Chapter
from textcheck.formats import typed
from textcheck.outcomes import TestRecord, records_of
from textcheck.records import TestOutcome


@dataclass(frozen=True)
class Measured:
    """What these answers read of a test, or of a figure record (textcheck/evidence.py as_test):
    the figures it measures, the device it ran on, its records."""
    figures: list = field(default_factory=list)
    device: str | None = None
    records: list[TestRecord] = field(default_factory=list)


def measured(t) -> Measured:
    """A test (a TestOutcome, or its object as a report holds it: one with no list of records is
    one record itself) as what it measured."""
    if isinstance(t, Measured):
        return t
    if isinstance(t, TestOutcome):
        return Measured(list(t.figures or []), t.device, records_of(t))
    given = typed(Measured, t)
    records = given.records if isinstance(given.records, list) else [t]
    return Measured(list(given.figures or []), given.device, [TestRecord.of(r) for r in records
                                                                 if isinstance(r, dict)])


def on_cuda(t) -> bool:
    return measured_on(t).startswith("cuda")


def read_off_instrument(chapter: Chapter, t) -> bool:
    """Whether every record of a test (or a figure record, as textcheck/evidence.py as_test gives it)
    was read off a clock or an allocator: its measurement is one (the Chapter's `instruments`), or it
    was decided by the timing rule (records from before measurements were named)."""
    recs = measured(t).records
    return bool(recs) and all(chapter.instruments.get(str(r.measurement).partition("/")[0])
                              or str(r.rule or "").startswith("timing/") for r in recs)


THEORY_RULES = ("counts/",)     # counts and arithmetic identities: shown as the theory, never a verdict


def theory(t) -> bool:
    """Whether every record of a test (or a figure record) was decided by counting, not measured:
    a count of operations or bytes is the theory shown beside a measured figure, and never
    decides it, on any device (rule version 3)."""
    recs = measured(t).records
    return bool(recs) and all(str(r.rule or "").startswith(THEORY_RULES) for r in recs)


def device_reading(chapter: Chapter, figure: str | None, t) -> bool:
    """Whether a test's (a figure record's, as_test) measurement of `figure` (a figure ID; None for a
    record of no printed figure) is a reading shown beside the chapter's figure, never a verdict
    on it: measured elsewhere than on the chapter's kind of device (CUDA), of a figure the chapter
    measured on its own device (device="cuda"), or read off a clock or an allocator whatever
    it is about (docs/cost.md: one rule, no exception).  The one answer: the tests' skips
    (textcheck/rule.py), the claims', the figures' rows and the re-derivation ask it."""
    if theory(t):
        return True
    if on_cuda(t):
        return False
    f = chapter.figures.get(figure) if figure is not None else None
    return (f is not None and f.device == "cuda") or read_off_instrument(chapter, t)


def only_readings(chapter: Chapter, t) -> bool:
    """Whether every figure a test (or a figure record, as textcheck/evidence.py as_test gives it)
    measures is a device reading (device_reading)."""
    t = measured(t)
    return all(device_reading(chapter, f, t) for f in t.figures or [None])


def measured_on(t) -> str:
    """The device a test measured on: its record's `device` where it names one (a cost test's
    cpu case runs on the CPU whatever the run's device), else the run's."""
    t = measured(t)
    return str((t.records[0].device if t.records else None) or t.device or "")


DEVICE_SPECIFIC = ("not run: device-specific: measured on {device}; the chapter's figure is its {theirs}'s, "
                   "so ours is a reading beside it, not a verdict")


def device_specific(chapter: Chapter, t) -> str:
    """Why a reading off the text's kind of device decides nothing, naming both devices (the text's
    as its Chapter names it)."""
    return DEVICE_SPECIFIC.format(device=measured_on(t), theirs=chapter.device or "own device")
