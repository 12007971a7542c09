"""The Chapter: everything the engine knows of one text, built once by the text's own package.

A text's package (this project's claims/chapter.py; examples/running_mean/chapter.py) builds one
Chapter and hands it to the engine through ONE entry:

- under pytest, the hook `pytest_textcheck_chapter(config)` (textcheck/hooks.py), which the
  project's conftest.py implements; the engine's plugin (textcheck/plugin.py) asks it once per
  session and keeps the answer in `config.stash[CHAPTER]`;
- in a command, as the first argument of the engine's `main(chapter, argv)` (textcheck/rederive.py;
  the text's package keeps its command name as a thin module that builds the Chapter and calls it).

From there it is an argument everywhere: no module of the engine imports a text's tables.
Pure: no pytest.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textcheck.anchors import AnchorList, index_of
from textcheck.declared import Declared
from textcheck.figures import Figure
from textcheck.records import FigureRecord, RunRecord
from textcheck.sentences import Sentence

Explainer = Callable[[str], list[str]]      # an altered text -> one line per anchor it breaks


@dataclass(frozen=True)
class Claim:
    """A claim of the text: its ID ("section.name"), the claim in our own words, what the text
    states, its kind and the tier whose tests check it.  A text may bring its own claim type with
    these attributes (this project's claims/registry.py `_C` fills its figures in from the table)."""
    id: str
    statement: str
    stated_figure: str     # what the text states, as text ("37.62 vs 37.82")
    kind: str = "exact"
    tier: str = "fast"

    @property
    def section(self) -> str:
        return self.id.split(".")[0]


@dataclass(frozen=True)
class RunRecords:
    """A text's run records (results/<group>.json: the trained runs its figure records name), as
    the engine reads them: the groups there are, one group's records from a folder, one file
    checked, one figure record checked against the runs it names (a list of problems), and the
    run metrics a figure record refers to instead of repeating them.  A run is the RunRecord
    the text's one decoder gives (textcheck/records.py): the engine takes its fields by name."""
    groups: tuple[str, ...] = ()
    load: Callable[[str, Path], list[RunRecord]] = lambda group, directory: []
    load_file: Callable[[Path, str], list[RunRecord]] = lambda path, group: []
    # one file's records as the run index reads them (their metrics and identity, checked as
    # load_file checks them; their training curves need not be read): load_file where None
    load_file_metrics: Callable[[Path, str], list[RunRecord]] | None = None
    # a figure record against the runs it names, looked up in the engine's one index of them
    # (textcheck/run_refs.py RunIndex): a line per disagreement
    check: Callable[[FigureRecord, Any], list[str]] = lambda record, runs: []
    # the run metrics a measurement's per-seed values may be ("perplexity" -> ("val_ppl", ...)), and
    # one run's metric by name (None where it has none): figures.json refers to them (textcheck/run_refs.py)
    metrics: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    metric: Callable[[RunRecord, str], float | None] = lambda run, name: None
    # what a figure record must rest on, as the text declares it (never the record's say): its runs'
    # recipes and the recipe each metric reference's place requires; (field, problem) per refusal,
    # the record as the file holds it (its references not yet read)
    rests: Callable[[FigureRecord], list[tuple[str, str]]] = lambda record: []


@dataclass(frozen=True, eq=False)
class Chapter:
    """One text and its tables.  `load_text(explain)` returns the text, found and checked against
    its checksum; it raises one of `text_missing` where the text is absent (what needs it skips,
    saying why) and another error where it is altered (naming, through `explain`, each anchor the
    change breaks)."""
    name: str                                          # a short name, in messages and reports
    root: Path                                         # the checkout: results/ and report/ under it
    load_text: Callable[[Sequence[Explainer]], str]
    sha256: str                                        # the checksum the text is read against
    figures: Mapping[str, Figure]                      # figure ID -> the figure a claim asserts
    claims: Mapping[str, Any]                          # claim ID -> Claim (or the text's own type)
    sections: Mapping[str, str]                        # section -> its title, in the text's order
    text_missing: tuple[type[BaseException], ...] = (FileNotFoundError,)
    reads: Mapping[str, Figure] = field(default_factory=dict)      # numbers read, not asserted (with why)
    declared: Sequence[Declared] = ()                  # every other number (digits, words), with its reason
    declared_patterns: Sequence[tuple[str, str, str]] = ()   # (regex, reason, why): a reason for every match
    sentences: Sequence[Sentence] = ()                 # each sentence's claim IDs, or why it asserts none
    # a falsification review's verdict on how strongly the tests measure a sentence, by its anchor:
    # "weakly tested" (they check something easier than it says) or "untested" (it asserts something
    # its declaration denies); a sentence absent here is tested as strongly as it says
    strength: Mapping[str, str] = field(default_factory=dict)
    quotes: Sequence[AnchorList] = ()                  # the text's other lists of quotes (textcheck/anchors.py)
    rule_inputs: Callable[[str], Any] | None = None    # record key -> textcheck.decide.Spec
    timed: Mapping[str, Any] = field(default_factory=dict)        # name -> textcheck.decide.TimedFigure
    measurements: Mapping[str, tuple[int, str]] = field(default_factory=dict)   # name -> (version, what)
    trained_measurements: frozenset[str] = frozenset()  # taken from a trained model: a record names its runs
    readings: Mapping[str, Any] = field(default_factory=dict)     # name -> textcheck.readings.DeclaredReading
    # claim ID -> the seeds its tests run on where above their default (the seeds its groups have
    # on record, never above a group's declared count):
    # its tests run on at least that many (ClaimFixture.seeds); absent, on the test's own default
    seed_steps: Mapping[str, int] = field(default_factory=dict)
    # claim ID -> the figure record keys its committed tests decide (trained and slow tiers): a claim
    # with one of them missing from its committed evidence is not measured, never decided on fewer
    claim_records: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    run_records: RunRecords = field(default_factory=RunRecords)
    instruments: Mapping[str, str] = field(default_factory=dict)  # measurement -> "clock" | "allocator"
    remeasure: Mapping[str, str] = field(default_factory=dict)    # measurement -> the command that measures it
    # a file of results/ no figure record names (a cost table) -> the text's checked reader of it
    # (EvidenceError naming the file): what the report reads it with, the re-derivation and a save
    # read it with too, so neither passes what the report refuses (issue 59)
    evidence_readers: Mapping[str, Callable[[Path], Any]] = field(default_factory=dict)
    # The report's parts that are a text's own (its errata, tables, since-when, and its chapter view's
    # places and headings) are not here: they come in the report's Parts (textcheck/report/assembly/report.py).
    where: Mapping[str, str] = field(default_factory=dict)   # "figures", "claims", ...: the file that holds each table
    tests: str = "claims"                              # the folder of the claim tests, from the root
    device: str = ""        # the device the text measured on, as its pages name it; "" where it names none

    def figures_of(self, claim: str) -> dict[str, Figure]:
        """The figures of the table that a claim asserts, by figure ID."""
        return {fid: f for fid, f in self.figures.items() if f.claim == claim}

    def named(self, table: str) -> str:
        """Where a table of this text lives, for a message ("claims/chapter_figures.py")."""
        return self.where.get(table, f"{self.name}'s {table}")

    def anchor_lists(self) -> tuple[AnchorList, ...]:
        """The text's lists of quotes (textcheck/anchors.py): its figures and reads (by figure ID),
        its declared numbers and words and its sentences (by position, "#12"), and its other lists
        (`quotes`)."""
        return (AnchorList.of("figures", self.figures.values(), ident=lambda i, f: f.id),
                AnchorList.of("reads", self.reads.values(), ident=lambda i, f: f.id),
                AnchorList.of("declared", self.declared, ident=lambda i, d: f"#{i} ({d.reason})"),
                AnchorList.of("sentences", self.sentences), *self.quotes)

    def explainers(self) -> tuple[Explainer, ...]:
        """What names each anchor an altered text breaks: the anchor index's stale report of every
        list at once (anchor_lists)."""
        return (lambda text: index_of(text).stale_report(self.anchor_lists()),)

    def text(self) -> str:
        """The text, checked; an altered one raises, naming every anchor it breaks."""
        return self.load_text(self.explainers())

    def text_or_none(self) -> tuple[str | None, str]:
        """(the text, "") or (None, why it is not there); an altered text still raises."""
        try:
            return self.text(), ""
        except self.text_missing as e:
            return None, str(e)
