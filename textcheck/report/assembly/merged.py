"""The merged report (textcheck/merging.py) and a text's errata, typed once at the report model's
entry: its claims with their tests, its figure rows, the accountings of the text's numbers and
sentences, the errata entries.  The model and the views read attributes, never a dict's keys;
merged.json keeps the dict."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from textcheck.device_readings import only_readings
from textcheck.formats import typed
from textcheck.outcomes import Counts  # noqa: F401  Counts: the model's counts by verdict, as the views read them
from textcheck.verdicts import DECIDED, outcome_label, verdict_label


@dataclass(frozen=True)
class Merged:
    """The merged report's parts the model reads: its claims and figure rows (dicts, typed one by
    one below), the claims' and the figures' counts by verdict, the run's meta."""
    claims: list
    figures: list | None
    summary: dict
    figure_summary: dict | None
    meta: dict | None


@dataclass(frozen=True)
class Record:
    """A test's first record: the figure it names (its label) and what it measured."""
    figure: Any
    stated: Any
    measured: Any
    tolerance: Any


@dataclass(frozen=True)
class Test:
    nodeid: str
    outcome: str | None
    reason: str | None
    source: Any
    tier: Any
    device: Any
    timestamp: Any
    record: Record | None
    label: str                  # its outcome's label (textcheck/verdicts.py outcome_label)
    reading: bool               # decided, and every figure it measures is a device reading


@dataclass(frozen=True)
class Claim:
    id: str
    section: str
    statement: str
    stated: Any
    measured: Any
    tolerance: Any
    verdict: str
    reason: str | None
    source: Any
    tier: Any
    device: Any
    seeds: Any
    timestamp: Any
    torch: Any
    tests: tuple[Test, ...]
    label: str                  # its verdict's label (textcheck/verdicts.py verdict_label)


@dataclass(frozen=True)
class Listed:
    """What a claim or a test of the merged report lists: its tests, its records (objects, typed below)."""
    tests: list | None
    records: list | None


def _test(chapter, t: Mapping) -> Test:
    records = typed(Listed, t).records
    test = typed(Test, t, record=typed(Record, records[0]) if records else None, label=outcome_label(chapter, t),
                 reading=False)
    return replace(test, reading=test.outcome in DECIDED and only_readings(chapter, t))


def claim_of(chapter, c: Mapping) -> Claim:
    """A claim of the merged report, typed (`chapter`: the Chapter, for its labels)."""
    tests = tuple(_test(chapter, t) for t in typed(Listed, c).tests or ())
    return typed(Claim, c, tests=tests, label=verdict_label(chapter, c))


@dataclass(frozen=True)
class FigureRow:
    """A figure row (textcheck/merging.py figure_rows), with since when its verdict stands and
    what its mark shows, where the chapter view is built (since.py, details.py)."""
    id: str
    claim: str
    printed: str
    verdict: str
    label: str
    reason: str | None
    test: str | None
    measured: Any
    tolerance: Any
    seeds: Any
    source: Any
    measured_on: Any
    timestamp: Any
    since: str | None = None
    details: tuple[tuple[str, str], ...] = ()

    @property
    def kind(self) -> str:
        """Its mark's kind: its verdict, or "device-specific" for a reading of a figure of the
        text's own device."""
        return "device-specific" if self.label == "not run: device-specific" else self.verdict


def figure_row(d: Mapping) -> FigureRow:
    return typed(FigureRow, d, details=())


@dataclass(frozen=True)
class Entry:
    """An erratum of the text's: one claim not holding, its figures ({test, reason} each), the
    quote, cause, readings and suggested sentence (with its edits, where it has any)."""
    id: str
    verdict: str
    statement: str
    figures: list
    quote: str | None
    cause: str | None
    readings: list
    suggested: str | None
    edits: list
    diagnosed: bool | None
    needs_seeds: bool | None
    underspecified: bool | None


def entry(d: Mapping) -> Entry:
    e = typed(Entry, d)
    return replace(e, verdict=e.verdict or "refuted", edits=e.edits or [])


@dataclass(frozen=True)
class Accounting:
    """The text's numbers (textcheck/accounting.py), or why they are not accounted (`not_built`)."""
    figures: int | None
    numbers: int | None
    by_kind: dict | None
    words: int | None
    words_by_kind: dict | None
    not_built: str | None


@dataclass(frozen=True)
class SentenceCounts:
    """The text's sentences (textcheck/sentences.py counts_of), or why they are not (`not_built`)."""
    sentences: int | None
    sentences_by_kind: dict | None
    weakly_tested: int | None
    untested: int | None
    blocks: int | None
    blocks_by_kind: dict | None
    not_built: str | None


@dataclass(frozen=True)
class Todo:
    """What the text's author has to do: edits of the patch, choices to state, figures that need
    more runs and those one run cannot show."""
    edits: int
    choices: int
    more_runs: int
    one_run: int
