"""The claim table as data, shown by claims.md and index.html alike: by section, a row per claim,
then a row per test (per figure it checks), every cell plain text (textcheck/formats.py cell)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from textcheck.formats import cell
from textcheck.outcomes import Counts
from textcheck.report.assembly.merged import Claim, FigureRow, Test
from textcheck.verdicts import DECIDED

NOT_RECORDED = "(not recorded)"


@dataclass(frozen=True)
class FigureCheck:
    """One test of a claim: the figure it checks, the chapter's, ours, the tolerance, its outcome."""
    name: str
    stated: str
    measured: str
    tolerance: str
    outcome: str          # its label (textcheck/verdicts.py outcome_label)
    why: str              # the reason, where it does not hold
    source: str
    kind: str             # the outcome's first word, a CSS class: holds, refuted, not-run, stale, ...


@dataclass(frozen=True)
class ClaimRow:
    id: str
    statement: str
    stated: str
    measured: str
    tolerance: str
    verdict: str          # holds, refuted, fails, stale, not run, not encoded
    label: str            # the verdict and what it does not say alone (textcheck/verdicts.py verdict_label)
    why: str              # the reason, where it does not hold
    source: str           # where a decided verdict's evidence comes from
    tests: tuple[FigureCheck, ...]


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    claims: tuple[ClaimRow, ...]
    counts: dict[str, int]           # its claims per verdict, counted once (the badges, the placeholder page)

    @property
    def holds(self) -> int:
        return Counts.of(self.counts).holds

    @property
    def size(self) -> int:
        """How many claims the section has (the views count none)."""
        return len(self.claims)


def _figure_check(t: Test) -> FigureCheck:
    rec = t.record
    recorded = [cell(v) if v is not None else NOT_RECORDED
                for v in ((rec.stated, rec.measured, rec.tolerance) if rec else (None,) * 3)]
    return FigureCheck(str((rec and rec.figure) or t.nodeid.split("::", 1)[-1]), *recorded, t.label,
                       (t.reason or "") if t.label != "holds" else "",
                       f"{t.source}: {t.tier}, {t.device}, {str(t.timestamp)[:10]}",
                       t.label.split(":")[0].replace(" ", "-"))


def _claim_row(c: Claim) -> ClaimRow:
    source = ""
    if c.verdict in DECIDED:
        source = f"{c.source}: {c.tier}, {c.device}, seeds {c.seeds}, {str(c.timestamp)[:10]}, torch {c.torch}"
    return ClaimRow(c.id, c.statement, cell(c.stated), cell(c.measured), cell(c.tolerance), c.verdict, c.label,
                    (c.reason or "") if c.verdict != "holds" else "", source,
                    tuple(_figure_check(t) for t in sorted(c.tests, key=lambda t: t.nodeid)))


def claim_table(chapter, claims: Sequence[Claim]) -> list[Section]:
    """The claims by section, in the report's order (`chapter`: the Chapter, its sections' titles)."""
    by_section: dict[str, list[Claim]] = {}
    for c in claims:
        by_section.setdefault(c.section, []).append(c)
    return [Section(key, chapter.sections.get(key, key), tuple(_claim_row(c) for c in cs),
                    dict(Counter(c.verdict for c in cs))) for key, cs in by_section.items()]


@dataclass(frozen=True)
class FigureLine:
    """One row of the figure table (index.html), as text: the figure, its claim, the number as
    printed, ours and the tolerance as cells, its verdict's label and kind, its test's name."""
    id: str
    claim: str
    printed: str
    measured: str
    tolerance: str
    label: str
    kind: str             # the label's first word: holds, refuted, not run, ...
    test: str


def figure_lines(figures: Sequence[FigureRow]) -> list[FigureLine]:
    """The figure rows as the figure table shows them."""
    return [FigureLine(f.id, f.claim, f.printed, cell(f.measured), cell(f.tolerance), f.label,
                       f.label.split(":")[0], (f.test or "").split("::")[-1]) for f in figures]
