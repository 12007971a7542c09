"""The report model: everything the report states, computed once per render from the figure table
(claims/chapter_figures.py), the committed evidence (results/) and this run's records (its
claims.json, readings and plots).  claims.md, index.html, chapter.html, chapter.md, tables.md,
errata.md, the badges and the README blocks are renderings of it (claims/report/render.py);
none of them computes a count, a row or a verdict of its own, nor reads another one's output.

It holds, as data: the merged verdicts (merged.json: the claims, their summary, the figure rows
and their summary), the figure rows with since when each verdict stands, the claim table, the
accounting of the chapter's numbers and of its sentences, the errata, the regenerated tables,
the plots (each read and encoded once), the badges, the chapter cut for its view, and (when
asked) the report the README's blocks show.  Each results/<group>.json is parsed once, by the
render's one `Facts` (claims/report/evidence.py), for the errata and the tables alike.  Imports
no torch.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from claimcheck import accounting, save, sentences, verdicts
from claims.chapter import CHAPTER
from claims.report import chapter_cut, chapter_since, claim_rows, errata, readme, tables
from claims.report.badges import Badge, badge_data
from claims.report.chapter_cut import Cut
from claims.report.claim_rows import Section
from claims.report.evidence import Facts
from claims.report.page_parts import Plot
from claims.report.table_data import Table
from data.paths import PROJECT_ROOT

RESULTS_DIR = PROJECT_ROOT / "results"


@dataclass(frozen=True)
class Report:
    merged: dict                  # the merged verdicts, as merged.json holds them (the accountings too)
    fresh: bool                   # a fresh run is in it (else the committed verdicts alone)
    figures: list[dict]           # the figure rows, each with "since" where the chapter view is built
    sections: list[Section]       # the claim table (claims/report/claim_rows.py)
    accounting: dict              # the chapter's numbers (claimcheck/accounting.py), or {"not built": why}
    sentences: dict               # its sentences (claimcheck/sentences.py counts_of), or {"not built": why}
    errata: list[dict]            # one entry per refuted claim (claims/report/errata)
    tables: list[Table]           # the chapter's tables, regenerated (claims/report/tables.py data)
    plots: list[Plot]             # this run's plots, then results/'s for the names it lacks; each encoded once
    badges: list[Badge]           # none for a smoke run
    chapter: Cut | None           # the chapter cut for its view; None without the text
    chapter_missing: str          # why there is no chapter view ("" when there is one)
    readme: dict | None = None    # the report the README's blocks show, where asked for

    @property
    def smoke(self) -> bool:
        return verdicts.is_smoke(self.merged)

    @property
    def summary(self) -> dict:
        return self.merged["summary"]

    @property
    def figure_summary(self) -> dict:
        return self.merged.get("figure_summary") or {}

    @property
    def claims(self) -> list[dict]:
        return self.merged["claims"]

    @property
    def plots_by_stem(self) -> dict[str, Plot]:
        return {p.stem: p for p in self.plots}


def merged_verdicts(fresh: dict | None, committed: dict) -> dict:
    """A fresh run merged with the committed verdicts, or the committed alone; a smoke run alone
    (its verdicts mean nothing about the chapter: never merged)."""
    if verdicts.is_smoke(fresh):
        return fresh
    return verdicts.merge(CHAPTER, fresh, committed) if fresh is not None else verdicts.committed_only(CHAPTER, committed)


def build(out: Path, fresh: dict | None, text: str | None, why_absent: str = "", results_dir: Path = RESULTS_DIR,
          with_readme: bool = False) -> Report:
    """The model of one render into `out`.  `with_readme`: also the README's report (the committed
    verdicts merged with this run's fast tests alone: claims/report/readme.py readme_report)."""
    committed = save.load_verdicts(CHAPTER, results_dir / "verdicts.json")       # the committed verdicts, read once
    merged = merged_verdicts(fresh, committed)
    shown = None
    if with_readme:
        shown = readme.readme_report(fresh, committed) if fresh is not None and not verdicts.is_smoke(fresh) else merged
    return assemble(merged, out, text, why_absent, results_dir, fresh=fresh is not None, readme=shown)


def _sentences(text: str | None, missing: str) -> tuple[dict, list]:
    """The sentence walk (claimcheck/sentences.py) once: its counts, and what it found."""
    if text is None:
        return {"not built": missing}, []
    try:
        found = sentences.accounted(text, CHAPTER.sentences)
    except ValueError as e:            # the sentence table's anchor that is not in this text, named
        return {"not built": f"the sentence table does not match the text: {e}"}, []
    return sentences.counts_of(found), found


def assemble(merged: dict, out: Path, text: str | None, why_absent: str = "", results_dir: Path = RESULTS_DIR,
             fresh: bool = True, readme: dict | None = None, entries: list[dict] | None = None) -> Report:
    """The model from merged verdicts (`entries`: the errata, where already built)."""
    missing = "" if text is not None else why_absent or "no chapter text"     # why there is no chapter view
    numbers = accounting.accounting(text, CHAPTER) if text is not None else {"not built": missing}
    said, found = _sentences(text, missing)
    merged = dict(merged, accounting=numbers, sentences=said)
    facts = Facts(merged, results_dir, out)                # the one reader of the evidence: errata and tables
    entries = errata.build(merged, results_dir, out, facts=facts) if entries is None else entries
    built = tables.data(merged, results_dir, text, missing, facts=facts)
    sections = claim_rows.claim_table(merged["claims"])
    figures = merged.get("figures", [])
    cut = None
    if text is not None:
        figures = chapter_since.since_rows(figures, merged.get("meta") or {})
        cut = chapter_cut.cut(text, figures, entries, found, {c["id"]: c for c in merged["claims"]})
    return Report(merged, fresh, figures, sections, numbers, said, entries, built,
                  [Plot.read(p) for p in plot_files(out, results_dir)],
                  [] if verdicts.is_smoke(merged) else badge_data(sections), cut, missing, readme)


def plot_files(out: Path, results_dir: Path) -> list[Path]:
    """The plots: this run's report directory's own, then results/'s for the names it lacks."""
    own = sorted(out.glob("*.png"))
    return own + [p for p in sorted(results_dir.glob("*.png")) if p.name not in {f.name for f in own}]
