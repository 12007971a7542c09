"""The report model: everything the report states, computed once per render from a text's Chapter,
the committed evidence (results/) and this run's records.  Every page, the badges and the README
blocks are renderings of it (textcheck/report/views/); none computes a count, a row or a verdict of
its own.  What is a text's own comes in its `Parts`, each called once.  Imports no view, no torch.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textcheck import accounting, merging, sentences, store, verdicts
from textcheck.decide import ONE_RUN
from textcheck.report.assembly.badges import Badge, badge_data
from textcheck.report.assembly.claim_rows import FigureLine, Section, claim_table, figure_lines
from textcheck.report.assembly.merged import (
    Accounting,
    Claim,
    Entry,
    FigureRow,
    Merged,
    SentenceCounts,
    Todo,
    claim_of,
    entry,
    figure_row,
    typed,
)
from textcheck.report.assembly.tables_plots import Plot, Table


@dataclass(frozen=True)
class Parts:
    """A text's own parts of its report: `facts(merged, results_dir, out)` its one reader of the
    evidence; `errata(merged, results_dir, out, facts=)` its errata entries (dicts); `tables(merged,
    results_dir, text, missing, facts=)` its tables; `since(figures, meta)` the figure rows with
    their since and details (since.py, details.py); `cut(text, figures, errata, sentences, claims
    by ID)` the text cut for its view (chapter_view/cut.py); `errata_home` where the errata's prose
    is written; `project` the project's name, in the chapter view's title."""
    facts: Callable[..., Any]
    errata: Callable[..., list[dict]]
    tables: Callable[..., list[Table]]
    since: Callable[..., Any] = lambda figures, meta: figures
    cut: Callable[..., Any] = lambda *args: None
    title: str = "claim report"
    errata_home: str = "the text's errata"
    project: str = "textcheck"


@dataclass(frozen=True)
class Readme:
    """The report a README's blocks show (the committed verdicts merged with a run's fast tests
    alone: textcheck/commands.py readme_report), typed: its summary line and its claims, each with
    its verdict's label and its tests' readings (merged.py Claim)."""
    summary_line: str
    claims: tuple[Claim, ...]

    @classmethod
    def of(cls, chapter, report: dict) -> Readme:
        m = typed(Merged, report)
        return cls(verdicts.summary_text(m.summary), tuple(claim_of(chapter, c) for c in m.claims))


@dataclass(frozen=True)
class Report:
    merged: dict                  # the merged verdicts, as merged.json holds them (the accountings too)
    fresh: bool                   # a fresh run is in it (else the committed verdicts alone)
    summary: dict                 # the claims per verdict (textcheck/verdicts.py), a count by verdict name
    figure_summary: dict          # the figures per verdict, likewise
    claims: tuple[Claim, ...]     # the merged report's claims, typed
    figures: tuple[FigureRow, ...]    # the figure rows, each with its since and details where the view is built
    sections: list[Section]       # the claim table (textcheck/report/assembly/claim_rows.py)
    accounting: Accounting        # the text's numbers (textcheck/accounting.py), or why not
    sentences: SentenceCounts     # its sentences (textcheck/sentences.py counts_of), or why not
    errata: tuple[Entry, ...]     # one entry per claim not holding (refuted, undecided or underspecified)
    tables: list[Table]           # the text's tables, regenerated
    plots: list[Plot]             # this run's plots, then results/'s for the names it lacks; each encoded once
    badges: list[Badge]           # none for a smoke run
    cut: Any                      # the text cut for its view; None without the text
    chapter_missing: str          # why there is no chapter view ("" when there is one)
    readme: Readme | None = None  # the report the README's blocks show, where asked for
    title: str = "claim report"   # the pages' title (the text's Parts)
    errata_home: str = ""         # where the errata's prose is written (the text's Parts)
    project: str = "textcheck"   # the project's name, in the chapter view's title (the text's Parts)
    device: str = ""              # the device the text measured on, as its pages name it (its Chapter)

    @property
    def smoke(self) -> bool:
        return store.is_smoke(self.merged)

    @property
    def summary_line(self) -> str:
        """The counts of the claims by verdict, in words (textcheck/verdicts.py summary_text)."""
        return verdicts.summary_text(self.summary)

    @property
    def figure_lines(self) -> list[FigureLine]:
        return figure_lines(self.figures)

    @property
    def figure_count(self) -> int:
        return len(self.figures)

    @property
    def todo(self) -> Todo:
        """What the text's author has to do (rule version 3), first on the chapter view: the edits
        of the patch (report/chapter.patch), the choices to state (underspecified claims), and the
        undecided figures that more runs could settle apart from those one run cannot show."""
        undecided = [f for f in self.figures if f.verdict == "undecided"]
        one_run = sum(1 for f in undecided if ONE_RUN in (f.reason or ""))
        return Todo(sum(len(e.edits) for e in self.errata), sum(1 for e in self.errata if e.underspecified),
                    len(undecided) - one_run, one_run)

    @property
    def plots_by_stem(self) -> dict[str, Plot]:
        return {p.stem: p for p in self.plots}


def merged_verdicts(chapter, fresh: dict | None, committed: dict) -> dict:
    """A fresh run merged with the committed verdicts, or the committed alone; a smoke run alone
    (its verdicts mean nothing about the text: never merged)."""
    if store.is_smoke(fresh):
        merging.RunReport.of(fresh)         # checked, as a merged one is (read once: textcheck/store.py ClaimsFile)
        return fresh
    return merging.merge(chapter, fresh, committed) if fresh is not None else merging.committed_only(chapter, committed)


def _sentences(chapter, text: str | None, missing: str) -> tuple[dict, list]:
    """The sentence walk (textcheck/sentences.py) once: its counts, and what it found."""
    if text is None:
        return {"not built": missing}, []
    try:
        found = sentences.accounted(text, chapter.sentences)
    except ValueError as e:            # the sentence table's anchor that is not in this text, named
        return {"not built": f"the sentence table does not match the text: {e}"}, []
    return sentences.counts_of(found, chapter.strength), found


def assemble(chapter, parts: Parts, merged: dict, out: Path, text: str | None, why_absent: str = "",
             results_dir: Path | None = None, fresh: bool = True, readme: dict | None = None,
             entries: list[dict] | None = None) -> Report:
    """The model from merged verdicts (`chapter`: the Chapter; `parts`: its own parts of the
    report; `entries`: the errata, where already built)."""
    results_dir = results_dir if results_dir is not None else chapter.root / "results"
    missing = "" if text is not None else why_absent or "no chapter text"     # why there is no chapter view
    numbers = accounting.accounting(text, chapter) if text is not None else {"not built": missing}
    said, found = _sentences(chapter, text, missing)
    same = readme is merged                                # the README shows the merged report itself
    merged = dict(merged, accounting=numbers, sentences=said)
    facts = parts.facts(merged, results_dir, out)          # the one reader of the evidence: errata and tables
    errata = tuple(map(entry, parts.errata(merged, results_dir, out, facts=facts) if entries is None else entries))
    built = parts.tables(merged, results_dir, text, missing, facts=facts)
    m = typed(Merged, merged)
    claims = tuple(claim_of(chapter, c) for c in m.claims)
    sections = claim_table(chapter, claims)
    figures = tuple(map(figure_row, m.figures or ()))
    cut = None
    if text is not None:
        figures = tuple(parts.since(figures, m.meta or {}))
        cut = parts.cut(text, figures, errata, found, {c.id: c for c in claims})
    return Report(merged, fresh, m.summary, m.figure_summary or {}, claims, figures, sections, typed(Accounting, numbers), typed(SentenceCounts, said),
                  errata, built, [Plot.read(p) for p in plot_files(out, results_dir)],
                  [] if store.is_smoke(merged) else badge_data(sections), cut, missing, _readme(chapter, readme, same, m.summary, claims),
                  parts.title,
                  parts.errata_home, parts.project, chapter.device)


def _readme(chapter, readme: dict | None, same: bool, summary: dict, claims: tuple[Claim, ...]) -> Readme | None:
    """The README's report typed: the model's own summary and claims where it is the merged report
    itself (`same`), else its own."""
    if readme is None:
        return None
    return Readme(verdicts.summary_text(summary), claims) if same else Readme.of(chapter, readme)


def plot_files(out: Path, results_dir: Path) -> list[Path]:
    """The plots: this run's report directory's own, then results/'s for the names it lacks."""
    own = sorted(out.glob("*.png"))
    return own + [p for p in sorted(results_dir.glob("*.png")) if p.name not in {f.name for f in own}]
