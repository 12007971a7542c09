"""This chapter's own parts of the engine's report (`REPORT`, a TextReport: its evidence reader,
errata and tables, its chapter view's places and sections, its own page where the chapter view was
not built), and the model built with
them.  Each part is looked up when called, so that a test may count the calls.  Imports no torch."""
from __future__ import annotations

from pathlib import Path

from claims.chapter import CHAPTER
from claims.report import chapter_cut, errata, evidence, tables
from data.paths import PROJECT_ROOT
from textcheck import TextReport

RESULTS_DIR = PROJECT_ROOT / "results"

REPORT = TextReport(facts=lambda *a, **k: evidence.Facts(*a, **k), errata=lambda *a, **k: errata.build(*a, **k),
                    tables=lambda *a, **k: tables.data(*a, **k), places=tuple(chapter_cut.PLACES),
                    headings=tuple(chapter_cut.HEADINGS), within=tuple(chapter_cut.WITHIN),
                    templates="claims.report", title="attention-claims report",
                    errata_home="claims/report/errata/", project="attention-claims")


def build(out: Path, fresh: dict | None, text: str | None, why_absent: str = "", *, committed: list,
          results_dir: Path = RESULTS_DIR, with_readme: bool = False):
    """The model of one render into `out`.  `with_readme`: also the README's report.  `committed`:
    the committed claims, as the command read them (the engine's `accepted_evidence`)."""
    return REPORT.model(CHAPTER, out, text, why_absent, results_dir, fresh=fresh, committed=committed,
                        with_readme=with_readme)


def assemble(merged: dict, out: Path, text: str | None, why_absent: str = "", results_dir: Path = RESULTS_DIR,
             entries: list[dict] | None = None):
    """The model from merged verdicts (`entries`: the errata, where already built)."""
    return REPORT.model(CHAPTER, out, text, why_absent, results_dir, merged=merged, entries=entries)
