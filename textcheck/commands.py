"""The engine's commands, for any text: `python -m textcheck COMMAND --text MODULE`.

  python -m textcheck report   --text examples.running_mean.chapter --report-dir DIR
  python -m textcheck save     --text examples.running_mean.chapter --report-dir DIR
  python -m textcheck rederive --text examples.running_mean.chapter
  python -m textcheck convert  --text examples.running_mean.chapter [--check]

MODULE is the text's one entry, the module that answers the engine's pytest hook
(`pytest_textcheck_chapter`, textcheck/hooks.py; docs/layout.md) and holds its Chapter as
`CHAPTER`.  A text may give its own parts of the report there (`REPORT`, a `TextReport`); without
them its report is the engine's views of its verdicts, with errata from the text's table of quotes
and causes where it gives one (`TextReport.errata_table`).  A text with commands of its own (this
chapter's `python -m claims.report`, with its README blocks, plots and site) keeps them; the
engine's commands are what a text needs at least.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from safeio.files import SaveError, os_error
from safeio.folders import checkout_of, not_its_own_folder
from textcheck.chapter import Chapter
from textcheck.formats import SeedValues, like, typed
from textcheck.merging import merge
from textcheck.outcomes import ClaimSummary
from textcheck.report.assembly.merged import Listed, Merged, Test, figure_row
from textcheck.report.assembly.report import Parts, Report, assemble, merged_verdicts
from textcheck.store import is_smoke
from textcheck.text_command import PROG, command


@dataclass(frozen=True)
class TextReport:
    """A text's own parts of its report, for the engine's report (its `model` and `write`, which the
    engine's `report` command and a text's own report command both call): its errata, as a table
    {claim ID: (the quote of its text the erratum rewrites, the cause)} or as its own builder
    `errata(merged, results_dir, out, facts=)`; its one reader of the evidence `facts(merged,
    results_dir, out)` and its tables `tables(merged, results_dir, text, missing, facts=)`, where it
    has them; its chapter view's lists (`places`: where our tables and plots go, `Place`s;
    `headings`, `within`: its sections, (key, title, a phrase)); its own views, written with the
    engine's, and its package whose templates/ give its own pages (`templates`); the pages' title,
    where the errata's prose is written, and its project's name."""
    errata_table: dict = field(default_factory=dict)
    headings: tuple = ()
    within: tuple = ()
    places: tuple = ()
    project: str = ""
    title: str = ""
    errata_home: str = "the text's errata table"
    facts: Callable | None = None
    errata: Callable | None = None
    tables: Callable | None = None
    views: tuple = ()
    templates: str = ""

    def model(self, chapter: Chapter, out: Path, body: str | None, why_absent: str = "",
              results_dir: Path | None = None, *, fresh: dict | None = None, committed: Sequence = (),
              merged: dict | None = None, with_readme: bool = False, entries: list[dict] | None = None) -> Report:
        """The report model of one render into `out`, of the text `body` (None: `why_absent`): a
        fresh run (or None) merged with the `committed` claims, or a report already `merged`.
        `with_readme`: also the README's report (the committed verdicts merged with the fresh run's
        fast tests alone, so that it does not depend on which other tiers the run had).
        `entries`: the errata, where already built."""
        given = merged is not None                          # a report already merged: a fresh one, the README's too
        if merged is None:
            merged = merged_verdicts(chapter, fresh, committed)
        shown = None
        if with_readme:
            fast_tests = not given and fresh is not None and not is_smoke(fresh)
            shown = readme_report(chapter, fresh, committed) if fast_tests else merged
        return assemble(chapter, parts_of(chapter, self), merged, out, body, why_absent, results_dir,
                        fresh=given or fresh is not None, readme=shown, entries=entries)

    def write(self, r: Report, out: Path) -> None:
        """Every view of the model into `out`: the engine's, then the text's own."""
        from textcheck.report import publish  # the views (Jinja2) load when a report is written
        publish.write(r, out, views=self.views, templates=self.templates)

    def write_chapter(self, r: Report, out: Path) -> list[Path]:
        """The chapter view alone (chapter.html, chapter.md), with the text's own views."""
        from textcheck.report import publish
        written = publish.write_chapter(r, out, {}, self.templates)
        for view in self.views:
            view(r, out, {})
        return written


def errata_from_table(table: dict):
    """A text's errata from its table {claim ID: (quote, cause)}: one entry per refuted claim, the
    suggested sentence its quote with our measurement in place of each refuted printed figure."""
    def errata(merged: dict, *args, **kwargs) -> list[dict]:
        out = []
        report = typed(Merged, merged)
        figures = [figure_row(f) for f in report.figures or []]
        refuted_claims = [c for c in map(ClaimSummary.of, report.claims or []) if c.verdict == "refuted"]
        for c in refuted_claims:
            quote, cause = table.get(c.id, (None, ""))
            suggested = quote or ""
            for f in figures:
                if f.claim == c.id and f.verdict == "refuted" and quote:
                    m = f.measured
                    suggested = suggested.replace(f.printed, like(SeedValues.of(m).mean if isinstance(m, dict) else m,
                                                                  f.printed))
            refuted = [t for t in c.tests if t.outcome == "refuted"]
            out.append({"id": c.id, "verdict": "refuted", "statement": c.statement, "quote": quote,
                        "figures": [{"test": t.nodeid.split("::")[-1], "reason": t.reason} for t in refuted],
                        "cause": cause or "not yet found", "readings": [], "suggested": suggested if quote else "",
                        "diagnosed": bool(quote)})
        return out
    return errata


def parts_of(chapter: Chapter, text: TextReport) -> Parts:
    """The report's parts for a text that gives a TextReport."""
    from textcheck.report.assembly import (  # the since-when and the cut: where a report is built
        details,
        since,
    )
    from textcheck.report.assembly.chapter_view.cut import View, cut
    view = View(places=text.places, headings=text.headings, within=text.within)
    project = text.project or chapter.name
    return Parts(facts=text.facts or (lambda *a, **k: None), errata=text.errata or errata_from_table(text.errata_table),
                 tables=text.tables or (lambda *a, **k: []),
                 since=lambda figures, meta: details.with_details(since.since_rows(figures, meta, chapter.root)),
                 cut=lambda *a: cut(chapter, view, *a), title=text.title or f"{project}'s report",
                 errata_home=text.errata_home, project=project)


def readme_report(chapter: Chapter, fresh: dict, committed: list) -> dict:
    """The report a README shows: the committed verdicts merged with the fresh run's fast tests
    only."""
    fast = dict(fresh, claims=[dict(c, tests=[t for t in typed(Listed, c).tests or () if typed(Test, t).tier == "fast"])
                               for c in typed(Merged, fresh).claims])
    return merge(chapter, fast, committed)


def render(chapter: Chapter, text: TextReport, out: Path):
    """The report model of the run in `out` (or the committed verdicts alone), and every view of it
    written into `out`."""
    from textcheck import rederive
    from textcheck.store import reading, run_report
    results = chapter.root / "results"
    fresh = run_report(out / "claims.json") if (out / "claims.json").exists() else None
    with reading(results):                  # as one save left it; never a verdict its re-derivation refuses
        evidence = rederive.accepted(chapter, results, f"{PROG} rederive")
    out.mkdir(parents=True, exist_ok=True)
    body, why = chapter.text_or_none()
    r = text.model(chapter, out, body, why, results, fresh=fresh, committed=evidence.claims)
    text.write(r, out)
    return r


class NoFiles:
    """A text's own evidence files beside its verdicts: none (its tests write no tables or plots)."""

    def save(self, tx=None, held=None) -> list[str]:
        return []


def _text(module: str) -> tuple[Chapter, TextReport]:
    try:
        m = importlib.import_module(module)
    except ImportError as e:
        raise SystemExit(f"{PROG}: --text {module}: cannot be imported ({e})") from None
    except ValueError as e:                          # the text's own tables refuse themselves (a malformed entry)
        print(f"{PROG}: --text {module}: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    chapter = getattr(m, "CHAPTER", None)
    if not isinstance(chapter, Chapter):
        raise SystemExit(f"{PROG}: --text {module}: holds no Chapter named CHAPTER (docs/layout.md: the one entry)")
    return chapter, getattr(m, "REPORT", None) or TextReport()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    for name, what in (("report", "render the text's report into --report-dir"),
                       ("save", "commit a run's decided verdicts and figure records into the text's results/"),
                       ("rederive", "decide every committed figure of the text again from its results/ alone"),
                       ("convert", "decide again the records of an older rule version, from their measured values")):
        # rederive's and convert's own options (--check, --evidence, ...) and their --help are their parsers'
        s = sub.add_parser(name, help=what, description=what, add_help=name in ("report", "save"))
        s.add_argument("--text", required=True, help="the text's module that holds its CHAPTER")
        if name in ("report", "save"):
            s.add_argument("--report-dir", required=True, help="the run's report directory (its claims.json)")
    a, rest = p.parse_known_args(argv)
    chapter, text = _text(a.text)
    if a.command in ("rederive", "convert"):
        return command(chapter, a.command, rest, prog=f"{PROG} {a.command} --text {a.text}")
    if rest:
        p.error(f"unrecognised arguments: {' '.join(rest)}")
    out = Path(a.report_dir)
    if a.command == "report":
        why = not_its_own_folder(out, checkout_of(chapter.root))
        if why:
            print(f"{PROG} report: --report-dir={a.report_dir}: {why}; nothing was written", file=sys.stderr)
            return 2
        try:
            r = render(chapter, text, out.resolve())
        except (ValueError, SaveError) as e:    # bad evidence, a lock that is no lock: named, never a traceback
            print(f"{PROG} report: {e}", file=sys.stderr)
            return 2
        except OSError as e:                    # a report folder it cannot write
            print(f"{PROG} report: {os_error(e)}", file=sys.stderr)
            return 2
        print(f"{a.report_dir}: {r.summary_line}" + ("" if r.fresh else " (committed verdicts only)"))
        return 0
    from textcheck.save import save_run
    from textcheck.store import run_report
    try:
        fresh = run_report(out / "claims.json")
        for line in save_run(chapter, fresh, NoFiles(), chapter.root / "results"):
            print(line)
    except (ValueError, SaveError) as e:        # bad evidence (EvidenceError and its kind), a refused save
        print(f"{PROG} save: {e}", file=sys.stderr)
        return 2
    except OSError as e:                        # a results/ it cannot write
        print(f"{PROG} save: {os_error(e)}", file=sys.stderr)
        return 2
    return 0
