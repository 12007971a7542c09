"""Render the claim report.

  python -m claims.report                  # report/claims.json + results/verdicts.json
                                           #   -> report/merged.json, claims.md, index.html,
                                           #      chapter.html and chapter.md (the chapter, checked in place)
  python -m claims.report --save-results   # also keep this run's verdicts and evidence in results/

A fresh run only knows the claims whose tests it ran; trained claims are expensive, so their
verdicts are committed (results/verdicts.json) and merged: for each claim the newest evidence
that reached a verdict wins, and keeps its source (tier, device, date).  Without a fresh run the
committed verdicts are rendered alone, and the report says so.  Imports no torch.
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from claims import rederive
from claims.chapter import CHAPTER
from claims.report import parts, patch, patched
from claims.report.readme import (
    BADGES,
    README_BLOCKS,
    badge_drift,
    generated,
    readme_block,
    rewrite_readme,
    weakened,
)
from data.paths import PROJECT_ROOT, CheckoutError, committed_folder, require_checkout
from fixtures.results import EvidenceError, reading
from safeio.files import SaveError, os_error
from textcheck import evidence_store, saving

ROOT = PROJECT_ROOT
RESULTS = ROOT / "results" / "verdicts.json"


def main(argv=None) -> int:
    try:
        return _main(argv)
    except (EvidenceError, SaveError, patch.PatchError) as e:   # a corrupt or forged file, a failed save, an
        # erratum that cannot be applied to the chapter: named, results/ as before
        print(f"python -m claims.report: {e}", file=sys.stderr)
        return 2
    except OSError as e:                    # a folder it cannot write (read-only), a path that is a file: named
        print(f"python -m claims.report: {os_error(e)}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m claims.report", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--save-results", action="store_true",
                   help="keep this run's decided verdicts (results/verdicts.json) and the evidence its "
                        "manifest lists (records, rows, tables, plots) in results/")
    p.add_argument("--replace-weaker", action="store_true",
                   help="with --save-results: let this run's verdict replace a committed one decided on "
                        "more seeds (by default the stronger committed evidence is kept)")
    p.add_argument("--readme", action="store_true",
                   help="rewrite the generated blocks (README.md's badges and summary, docs/claims.md's table) "
                        "from the committed verdicts and this run's fast claims")
    p.add_argument("--check-readme", action="store_true",
                   help="exit 1 if a generated block (README.md, docs/claims.md) or a badge differs from the report. "
                        "It reads the last run in --report-dir: the fast claims are never committed, so the blocks "
                        "are compared after a full fast run (`pytest -m fast` or `-m \"not slow\"`); after a narrower "
                        "one (`pytest --claim ID`) the claims it did not run differ, and the message names them")
    p.add_argument("--report-dir", default="report",
                   help="the run's report directory; a relative one is taken from the project root, "
                        "as pytest's --report-dir is")
    return p


def _refused(a, out) -> str | None:
    """Why the command stops before it writes anything, or None."""
    try:
        require_checkout("python -m claims.report")
    except CheckoutError as e:
        return str(e)
    why = committed_folder(out, ROOT)
    if why:
        return (f"python -m claims.report: --report-dir={a.report_dir}: {why}; the report is written into a folder of "
                "its own (report/ by default) and nothing was written; --save-results carries a run into results/, "
                "--readme rewrites README.md's and docs/claims.md's generated blocks")
    if a.save_results and not out.is_dir():
        return f"--save-results: no run to save: {out} is not a directory (the --report-dir of a pytest run)"
    return None


def _read_text() -> tuple[str | None, str] | str:
    """The chapter's text (or None) and why it is absent; an unreadable chapter's error message."""
    from data.chapter import ChapterError
    try:
        return CHAPTER.text_or_none()
    except ChapterError as e:
        return f"python -m claims.report: {e}"


def _fresh_run(out) -> tuple[dict | None, object, set]:
    """This run's report (or None), its evidence, and what the run itself wrote; then the plots,
    drawn into `out` from results/ as it stands before a save (so that --save-results keeps them)."""
    from claims.report import plot_data, plots
    from claims.report.evidence import Runs
    from fixtures.evidence import EvidenceWriter
    out.mkdir(parents=True, exist_ok=True)
    evidence = EvidenceWriter(out)
    fresh_path = out / "claims.json"
    fresh = evidence_store.run_report(fresh_path) if fresh_path.exists() else None
    if fresh is None:
        print(f"no fresh run in {out} (no claims.json): rendering the committed verdicts alone; "
              "run `pytest -m fast` for a fresh one", file=sys.stderr)
    run_evidence = set(evidence.manifest())             # what the run itself wrote, before the plots
    with reading(RESULTS.parent):           # the run records as one save left them, as the tables read them
        data = plot_data.plot_data(Runs(RESULTS.parent))
    for path in plots.draw(data, out):
        evidence.add(path.name)
    return fresh, evidence, run_evidence


def _main(argv=None) -> int:
    a = _parser().parse_args(argv)
    out = ROOT / a.report_dir                          # ROOT / an absolute path is that path
    why = _refused(a, out)
    read = _read_text() if not why else None
    if why or isinstance(read, str):
        print(why or read, file=sys.stderr)
        return 2
    fresh, evidence, run_evidence = _fresh_run(out)
    # a smoke run's verdicts mean nothing about the chapter: rendered alone and labelled, never
    # merged with the committed ones, saved, put in the README or made into badges
    if evidence_store.is_smoke(fresh) and (a.save_results or a.readme or a.check_readme):
        print(f"{out / 'claims.json'} is a --smoke run (a handful of steps per recipe): its verdicts are never "
              "saved or put in the README; run the tier at the chapter's scale", file=sys.stderr)
        return 2
    code = _save(a, fresh, evidence, run_evidence)
    if code:
        return code
    with reading(RESULTS.parent):           # results/ as one save left it, never half of the next
        # read once (the refusals, the model and the patched chapter): never a verdict it would refuse
        committed, claims = rederive.accepted(RESULTS.parent)
        report = parts.build(out, fresh, *read, results_dir=RESULTS.parent, with_readme=a.readme or a.check_readme,
                             committed=claims)

    parts.REPORT.write(report, out)
    if read[0] is not None:                 # the errata applied to the chapter: chapter.patch (claims/report/patch.py)
        patch.write(out, read[0], report.errata, patch.figure_verdicts(report.figures))
        patched.write(out, patched.decided_again(report.errata, committed,
                                                 {c.id: c.verdict for c in report.claims},
                                                 patch.figure_verdicts(report.figures), read[0],
                                                 patched.measured_fresh(report.merged["claims"])))
    code = _readme(a, report, out)
    if code:
        return code
    print(("SMOKE SCALE: " if report.smoke else "") + f"{out / 'claims.md'}: {report.summary_line}"
          + ("" if report.fresh else " (committed verdicts only)"))
    return 0


def _save(a, fresh: dict | None, evidence, run_evidence: set) -> int | None:
    """--save-results: this run's verdicts and evidence, or (a run of evidence without verdicts,
    claims/test_readings.py) its evidence alone; an exit code where there is nothing to save."""
    if not a.save_results:
        return None
    if fresh is None:
        if not run_evidence:
            print("--save-results: no fresh run to save", file=sys.stderr)
            return 2
        print("--save-results: no verdicts in this run; saving its evidence alone", file=sys.stderr)
        for line in saving.save_evidence(CHAPTER, evidence, RESULTS.parent):
            print(f"saved {line}")
        return None
    for line in saving.save_run(CHAPTER, fresh, evidence, RESULTS.parent, a.replace_weaker):
        print(line)
    return None


def _readme(a, report, out) -> int | None:
    """--readme and --check-readme: the README's blocks, from the model's README report (the
    committed verdicts and the fast claims alone), and the badges just rendered."""
    if a.readme:
        lost = weakened(report.readme, ROOT)
        if lost:
            print(f"--readme: this run lacks verdicts the committed README table has ({', '.join(lost)}); "
                  "nothing rewritten. Run the fast tier with every extra first: pip install -e '.[test]' && "
                  "pytest -m fast", file=sys.stderr)
            return 2
        rewrite_readme(report.readme, ROOT)
        # the very files just rendered (anybadge numbers its ids per process: a second render differs)
        shutil.rmtree(BADGES, ignore_errors=True)
        shutil.copytree(out / "badges", BADGES)
    if a.check_readme:
        drift = [f"the {which} block of {README_BLOCKS[which][0]}" for which, body in generated(report.readme).items()
                 if readme_block(ROOT, which) != body.strip()]
        drift += [f"results/badges/{n}" for n in badge_drift(out / "badges", BADGES)]
        if drift:
            # the README shows the fast claims of the last run: a narrower run is the likelier cause
            narrow = weakened(report.readme, ROOT)
            why = (f"; this run in {out} did not decide {len(narrow)} claim(s) the committed table shows decided "
                   f"({', '.join(narrow[:5])}{', ...' if len(narrow) > 5 else ''}): a narrower run than the fast "
                   "tier, which --check-readme reads; run `pytest -m fast` first" if narrow else "")
            print(f"the generated blocks differ from the report ({', '.join(drift)}){why}: run "
                  "`python -m claims.report --readme` after a full fast run and commit it", file=sys.stderr)
            return 1
    return None


def chapter_view(out: Path, text: str | None, why_absent: str, merged: dict, entries: list[dict]) -> list[Path]:
    """The chapter view alone, from merged verdicts and their errata (benchmarks/chapter_view.py)."""
    return parts.REPORT.write_chapter(parts.assemble(merged, out, text, why_absent, entries=entries), out)


if __name__ == "__main__":
    sys.exit(main())
