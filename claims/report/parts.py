"""This chapter's own parts of the engine's report model (`PARTS`: its evidence reader, errata,
tables and chapter cut), and the model built with them.  Each part is looked up when called, so
that a test may count the calls.  Imports no torch."""
from __future__ import annotations

from pathlib import Path

from claims.chapter import CHAPTER
from claims.report import chapter_cut, errata, evidence, readme, tables
from data.paths import PROJECT_ROOT
from textcheck import merging
from textcheck.report.assembly import details, since
from textcheck.report.assembly.report import Parts, Report, merged_verdicts
from textcheck.report.assembly.report import assemble as assemble_report

RESULTS_DIR = PROJECT_ROOT / "results"

PARTS = Parts(facts=lambda *a, **k: evidence.Facts(*a, **k), errata=lambda *a, **k: errata.build(*a, **k),
              tables=lambda *a, **k: tables.data(*a, **k),
              since=lambda *a: details.with_details(since.since_rows(*a, root=CHAPTER.root)),
              cut=lambda *a: chapter_cut.cut(*a), title="attention-claims report",
              errata_home="claims/report/errata/", project="attention-claims")


def build(out: Path, fresh: dict | None, text: str | None, why_absent: str = "", *, committed: list,
          results_dir: Path = RESULTS_DIR, with_readme: bool = False) -> Report:
    """The model of one render into `out`.  `with_readme`: also the README's report (the committed
    verdicts merged with this run's fast tests alone: claims/report/readme.py readme_report).
    `committed`: the committed claims, as the command read them (the engine's `accepted_evidence`)."""
    merged = merged_verdicts(CHAPTER, fresh, committed)
    shown = None
    if with_readme:
        shown = readme.readme_report(fresh, committed) if fresh is not None and not merging.is_smoke(fresh) else merged
    return assemble(merged, out, text, why_absent, results_dir, fresh=fresh is not None, readme=shown)


def assemble(merged: dict, out: Path, text: str | None, why_absent: str = "", results_dir: Path = RESULTS_DIR,
             fresh: bool = True, readme: dict | None = None, entries: list[dict] | None = None) -> Report:
    """The model from merged verdicts (`entries`: the errata, where already built)."""
    return assemble_report(CHAPTER, PARTS, merged, out, text, why_absent, results_dir, fresh=fresh, readme=readme,
                           entries=entries)
