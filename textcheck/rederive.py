"""Decide every committed figure again from the committed evidence alone.

  python -m textcheck rederive --text MODULE   (a text's own command may call main(CHAPTER): textcheck.command)

Reads results/figures.json (one record per decided figure: the values measured, the verdict
given) and the text's figure table (its Chapter's figures, whose rule inputs the Chapter's
`rule_inputs` gives: stated value, rounding, null, the kind of rule), and decides each record
again under today's rule (textcheck/decide.py); a record's own say on its rule inputs is never read.  Imports no torch and no pytest, trains
and loads nothing: a verdict needs no weights to be decided again, only to be measured again.

It prints the counts and exits 1 when any re-decided verdict differs from the committed one, or
when the figure table no longer prints a figure as it was decided, naming the figure, both
verdicts and the record.  It exits 2, naming the file, the record and the field, when a record
cannot be decided: a key the figure table gives no rule inputs for, an unknown, malformed or
newer rule or measurement version, measured values missing or mistyped (a string, a non-finite
number, an empty list, a bool where a number is meant).  A record decided under an older
version of its rule (textcheck/versions.py) or measured under an older version of its
measurement (the Chapter's measurements) is listed as stale, with the command that measures it
again; it is not a difference.  Figures the chapter measured on its CUDA card are decided as readings, as the
report shows them.  Measuring again from a model's weights is a separate, optional step for
whoever has the trained cache (docs/evidence.md).
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from safeio.files import SaveError
from safeio.transaction import Transaction
from textcheck import shown, verdict_file
from textcheck.chapter import Chapter
from textcheck.committed import Evidence
from textcheck.device_readings import only_readings
from textcheck.evidence import (
    NAME,
    FigureEvidenceError,
    RecordError,
    as_test,
    file_of,
    from_test,
    outcome_of,
    printed_now,
    redecide,
    stale,
)
from textcheck.outcomes import RunReport
from textcheck.records import ClaimVerdict, FigureRecord
from textcheck.run_refs import RunIndex, files_beside
from textcheck.store import EvidenceError, read_json, reading, readings
from textcheck.verdicts import COMMITTED_TIERS, FIGURE_VERDICTS


def _measured_again(chapter: Chapter, mid: str) -> str:
    return chapter.remeasure.get(str(mid).partition("/")[0], "the text names no command that measures it again")


@dataclass
class Comparison:
    """The committed figure records decided again (`compare`), and checked against their runs."""
    agree: list = field(default_factory=list)       # keys
    differ: list = field(default_factory=list)      # (key, committed, now, why)
    changed: list = field(default_factory=list)     # (key, printed when decided, printed now)
    stale: list = field(default_factory=list)       # (key, what, the command that measures it again)
    readings: list = field(default_factory=list)    # keys
    errors: list = field(default_factory=list)      # lines naming the file, the record and the field
    runs: list = field(default_factory=list)        # lines: a record against the run records it names


def compare(chapter: Chapter, records: list[FigureRecord], path: Path) -> Comparison:
    """Every record decided again under today's rule and figure table."""
    out = Comparison()
    for i, rec in enumerate(records):
        key = rec.key
        try:
            why_stale = stale(chapter, rec)
            if rec.printed != printed_now(chapter, rec.figures):
                out.changed.append((key, rec.printed, printed_now(chapter, rec.figures)))
            if why_stale:
                out.stale.append((key, why_stale, _measured_again(chapter, rec.measurement)))
                continue
            now = redecide(chapter, rec)
        except RecordError as e:
            out.errors.append(f"{path}: record {i} ({key}): {e}")
            continue
        if now.verdict != rec.verdict:
            out.differ.append((key, rec.verdict, now.verdict, now.why))
        else:
            out.agree.append(key)
        if only_readings(chapter, as_test(rec)):
            out.readings.append(key)
    return out


def against_verdicts(chapter: Chapter, records: list[FigureRecord], verdicts: list[ClaimVerdict]) -> list[str]:
    """Where results/figures.json and results/verdicts.json disagree: a committed trained or slow
    test whose records have no figure record, or whose outcome is not what its figure records
    say (holds: every one holds; refuted: one at least), a figure record no committed test
    carries, and a claim whose stored verdict is not what its tests give.  One line per disagreement."""
    by_key = {r.key: r for r in records}
    carried, out = set(), []
    for c in verdicts:
        for t in c.tests:
            if t.outcome not in FIGURE_VERDICTS or t.tier not in COMMITTED_TIERS:
                continue
            keys = str(t.key).split(verdict_file.SEPARATOR)
            carried.update(keys)
            missing = [k for k in keys if k not in by_key]
            if missing:
                out.append(f"{c.id} {t.key}: {t.outcome} in verdicts.json, but no figure record "
                           f"{', '.join(missing) or 'at all'}")
                continue
            says = [by_key[k].verdict for k in keys]
            if outcome_of(says) != t.outcome:
                out.append(f"{c.id} {t.key}: {t.outcome} in verdicts.json, "
                           f"{', '.join(says)} in figures.json")
    out += [f"{k}: a figure record no committed test carries" for k in sorted(set(by_key) - carried)]
    out += [f"claim {c.id}: {c.verdict} in verdicts.json, but its figure record(s) "
            f"{', '.join(map(repr, missing))} are not committed ({chapter.named('rule inputs')} declares them): "
            "not measured, never decided on the figures left" for c in verdicts
            if c.verdict in verdict_file.NOT_MEASURED
            for missing in [verdict_file.missing_records(chapter, c.id, c.tests)] if missing]
    out += [f"claim {c.id}: {c.verdict} in verdicts.json, its tests give {given}" for c in verdicts
            for given in [verdict_file.verdict_of(chapter, c.id, c.tests)] if given != c.verdict]
    return out


def against_committed(chapter: Chapter, fresh: dict, records: list[FigureRecord]) -> dict:
    """A fresh run's figure verdicts (its claims.json, e.g. a GPU run) against the committed
    records, by key: {"agree": [keys], "differ": [(key, committed, fresh, why)], "new": [keys]}."""
    committed = {r.key: r for r in records}
    agree, differ, new = [], [], []
    run = RunReport.of(fresh)
    for c in run.claims:
        for t in c.tests:
            if t.outcome not in FIGURE_VERDICTS:
                continue
            for rec in from_test(chapter, t, c.id, run):
                was = committed.get(rec.key)
                if was is None:
                    new.append(rec.key)
                elif was.verdict == rec.verdict:
                    agree.append(rec.key)
                else:
                    differ.append((rec.key, was.verdict, rec.verdict, t.reason or ""))
    return {"agree": agree, "differ": differ, "new": new}


def render(result: Comparison, seconds: float, path: Path) -> str:
    n = len(result.agree) + len(result.differ)
    lines = [(f"decided again {n} committed figure records from {path} alone, in {seconds:.2f} s: "
              f"{len(result.agree)} agree, {len(result.differ)} differ; 0 need weights")]
    lines += [f"  DIFFERS {key}: committed {was}, decided now {now} ({why[:300]})" for key, was, now, why in result.differ]
    if result.changed:
        lines.append(f"the figure table prints differently now: {len(result.changed)}")
        lines += [f"  CHANGED {key}: decided against {was}, printed now {now}" for key, was, now in result.changed]
    if result.readings:
        lines.append(f"readings beside the chapter's CUDA figures (not verdicts on them): {len(result.readings)}")
    if result.stale:
        lines.append(f"stale (decided or measured under an older version; shown as stale): {len(result.stale)}")
        lines += [f"  {key}: {what}; measure again with: {cmd}" for key, what, cmd in result.stale]
    return "\n".join(lines)


def _read_beside(chapter: Chapter, folder: Path, read: set[str]) -> None:
    """Every other JSON file of the evidence's folder read by the reader a save checks it with
    (textcheck/store.py check_staged: readings.json, the text's run records and its other evidence
    readers, any JSON), so that the re-derivation refuses what the report would refuse (issue 59);
    EvidenceError naming it."""
    # the run records by the reader the run index uses (read once: its memory), which refuses what
    # load_file refuses, reading a curve's numbers by their layout rather than one by one
    read_runs = chapter.run_records.load_file_metrics or chapter.run_records.load_file
    runs = {f"{g}.json": (lambda p, g=g: read_runs(p, g)) for g in chapter.run_records.groups}
    readers = {"readings.json": readings, **runs, **chapter.evidence_readers}
    for path in sorted(Path(folder).glob("*.json")):
        if path.name not in read:
            readers.get(path.name, read_json)(path)


def _read(chapter: Chapter, figures_at: Path, verdicts_at: Path | None = None) -> Evidence:
    """The evidence, and every other file beside it read (`_read_beside`); the caller holds the read lock."""
    ev = Evidence.read(chapter, figures_at, verdicts_at, required=verdicts_at is not None, need_figures=True)
    _read_beside(chapter, ev.figures_at.parent, {ev.figures_at.name, ev.verdicts_at.name})
    return ev


def committed(chapter: Chapter, results_dir: Path) -> Evidence:
    """The committed evidence of `results_dir`, read once for a command (the report's refusals, its
    model and its patched chapter): its figure records, its claims (none where there is no file)
    and its runs; EvidenceError or FigureEvidenceError naming the file otherwise.  It unpacks as
    (records, claims).  The caller holds the read lock."""
    figures_at = Path(results_dir) / NAME
    if not figures_at.exists() and not figures_at.is_symlink():
        return Evidence.read(chapter, figures_at, dangling=False)    # a test naming a record is an error here
    return _read(chapter, figures_at)


def refusals(chapter: Chapter, results_dir: Path, read=None, run_file=None) -> list[str]:
    """What `python -m claims.rederive` would refuse in `results_dir`, one line each (empty when it
    would exit 0): a record it cannot read or decide, a verdict that differs when decided again, a
    printed figure changed since, a disagreement with verdicts.json or with the run records.  The
    report calls it before it renders (with what it read, `committed`: an Evidence, or its
    (records, claims)), so it never shows a verdict the re-derivation refuses.  A results folder
    without figure records (a scratch checkout) has nothing to refuse.  The caller holds the read
    lock (textcheck/store.py reading).  A save calls it on the files it staged (`read`: what it
    would leave; `run_file`: its staged run records), before it commits (textcheck/save.py): so it
    refuses before anything it would refuse after."""
    evidence = Path(results_dir) / NAME
    if read is None and not evidence.exists() and not evidence.is_symlink():
        return []
    verdicts_path = evidence.with_name(verdict_file.NAME)
    try:
        read = read if read is not None else committed(chapter, results_dir)
    except (FigureEvidenceError, EvidenceError, SaveError) as e:
        return [str(e)]
    records, verdicts = read
    runs = read.runs if isinstance(read, Evidence) else RunIndex(chapter, run_file or files_beside(evidence))
    result = compare(chapter, records, evidence)
    out = list(result.errors)
    out += [f"{evidence}: {key}: {was} when committed, {now} decided again ({why})" for key, was, now, why in result.differ]
    out += [f"{evidence}: {key}: printed {was} when decided, {now} in the figure table now"
            for key, was, now in result.changed]
    out += [f"{verdicts_path}: {line}" for line in against_verdicts(chapter, records, verdicts)]
    out += [line for rec in records for line in chapter.run_records.check(rec, runs)]
    out += [f"{evidence}: {line}" for rec in records for line in shown.disagreements(rec)]
    return out


def accepted(chapter: Chapter, results_dir: Path, command: str = "the re-derivation") -> Evidence:
    """The committed evidence of `results_dir` (`committed`) where the re-derivation accepts it all,
    else EvidenceError listing what it refuses: every report (this chapter's, the engine's for any
    text) reads what it renders through this one check, so it never shows a verdict its own
    re-derivation refuses.  The caller holds the read lock."""
    try:
        read = committed(chapter, results_dir)
        refused = refusals(chapter, results_dir, read)
    except (EvidenceError, FigureEvidenceError, SaveError) as e:
        read, refused = None, [str(e)]
    if refused:
        raise EvidenceError(f"the committed evidence is refused by {command} (run it for the whole account):\n  "
                            + "\n  ".join(refused[:20]))
    return read


def main(chapter: Chapter, argv=None, prog: str = "python -m textcheck rederive") -> int:
    """The command, for the text `chapter` (its package's thin command module calls it)."""
    p = argparse.ArgumentParser(prog=prog, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--evidence", default=str(file_of(chapter)), help="the committed figure evidence (results/figures.json)")
    p.add_argument("--verdicts", default=None,
                   help="the committed verdicts it must agree with (default: verdicts.json beside --evidence)")
    a = p.parse_args(argv)
    started = time.perf_counter()
    try:
        with reading(Path(a.evidence).parent):     # both files as one save left them
            ev = _read(chapter, Path(a.evidence), Path(a.verdicts) if a.verdicts else None)
    except (FigureEvidenceError, EvidenceError, SaveError) as e:
        print(e, file=sys.stderr)
        return 2
    records, verdicts, verdicts_path = ev.records, ev.claims if ev.verdicts_read else None, ev.verdicts_at
    if not records:
        print(f"{a.evidence}: no figure records: nothing to decide again", file=sys.stderr)
        return 1
    result = compare(chapter, records, Path(a.evidence))
    result.runs = [line for rec in records for line in chapter.run_records.check(rec, ev.runs)]
    if result.errors:
        print(f"{len(result.errors)} record(s) cannot be decided (no rule code or figure table entry decides "
              "them as they stand):", file=sys.stderr)
        print("\n".join(f"  {line}" for line in result.errors), file=sys.stderr)
        return 2
    disagree = against_verdicts(chapter, records, verdicts) if verdicts is not None else []
    print(render(result, time.perf_counter() - started, Path(a.evidence)))
    if verdicts is None:
        print(f"{verdicts_path}: not found; the figure records were not compared with the committed verdicts")
    else:
        print(f"{verdicts_path}: {'agrees' if not disagree else f'{len(disagree)} disagreement(s)'} with the figure records")
        print("\n".join(f"  DISAGREES {line}" for line in disagree) if disagree else "", end="\n" if disagree else "")
    if result.runs:
        print(f"the figure records disagree with the run records they name: {len(result.runs)}")
        print("\n".join(f"  RUNS {line}" for line in result.runs))
    else:
        print("every trained figure record names runs that are in results/, with its values where they are run metrics")
    displays = [line for rec in records for line in shown.disagreements(rec)]
    if displays:
        print(f"tests' displays that are not their figure records: {len(displays)}")
        print("\n".join(f"  SHOWN {line}" for line in displays))
    return 1 if result.differ or result.changed or disagree or result.runs or displays else 0


def check_staged(chapter: Chapter, tx: Transaction, results_dir: Path) -> None:
    """Before a save commits: the whole re-derivation (textcheck/rederive.py refusals: every
    figure record decided again, against verdicts.json and, through the text's run check, against
    the run records it names) run on the files as the save would leave them (the staged copies,
    else the committed ones).  A save refuses before it commits anything the re-derivation would
    refuse after: EvidenceError naming the file, the record and the field; nothing saved.  The
    save (textcheck/save.py) and the conversion (textcheck/convert.py) both commit through it."""
    staged = {final.name for _, final in tx.staged}
    if not staged:
        return                       # nothing written: results/ stays as it is, refused or not
    figures_at, verdicts_at = tx.current(NAME), tx.current(verdict_file.NAME)

    def run_file(group: str) -> Path:        # each group's run records as the save leaves them
        return tx.current(f"{group}.json")
    try:
        ev = Evidence.read(chapter, figures_at, verdicts_at, run_file)
    except (FigureEvidenceError, EvidenceError) as e:
        refused = [str(e)]
    else:
        refused = refusals(chapter, Path(results_dir), ev)
    if refused:
        names = {str(p): str(Path(results_dir) / p.name) for p in (figures_at, verdicts_at)}
        for tmp, final in tx.staged:
            names[str(tmp)] = str(final)
        lines = []
        for line in refused[:20]:
            for tmp, final in names.items():
                line = line.replace(tmp, final)
            lines.append(line)
        raise EvidenceError(f"{Path(results_dir) / NAME}: this save would commit what the "
                            "re-derivation refuses (nothing saved; results/ is as before):\n  " + "\n  ".join(lines))
