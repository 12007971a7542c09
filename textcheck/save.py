"""Keeping a run's verdicts and evidence in results/ (`python -m claims.report --save-results`).

The merge policy for what is saved: a trained or slow claim this run decided replaces the
committed one unless the committed one rests on more seeds (`stronger_evidence`); a test the run
did not decide keeps its committed entry byte for byte, so a save that changes nothing writes
nothing.  The save is one transaction (safeio/transaction.py): results/verdicts.json and every evidence
file the run's manifest lists are staged, then committed together, under the save lock, so two
saves at once keep both runs' verdicts and a kill leaves results/ as before or as after.
"""
from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

from safeio.transaction import Transaction, recover
from textcheck import evidence as figure_evidence
from textcheck import verdict_file
from textcheck.chapter import Chapter
from textcheck.committed import Evidence
from textcheck.merging import merged_claims
from textcheck.outcomes import ClaimSummary, RunReport, records_of
from textcheck.records import ClaimVerdict, FigureRecord, RecordFieldError, TestOutcome
from textcheck.store import EvidenceError, check_staged, save_lock
from textcheck.verdicts import (
    COMMITTED_TIERS,
    DECIDED,
    FIGURE_VERDICTS,
    base_nodeid,
    evidence_key,
    ident,
    record_key,
    shared_keys,
    summarise,
)
from textcheck.vocabulary import READING


def load_verdicts(chapter: Chapter, path: Path, figures: list[FigureRecord] | None = None, run_file=None
                  ) -> list[ClaimVerdict]:
    """results/verdicts.json's claims, each a ClaimVerdict (textcheck/verdict_file.py), its tests'
    records those of the figure records beside it (`figures`, else read with the run records
    `run_file` gives, by default the files beside it): EvidenceError names the file, the claim and
    test, and the field."""
    path = Path(path)
    beside = path.with_name(figure_evidence.NAME)
    if figures is None and path.exists() and (beside.exists() or beside.is_symlink()):
        try:
            figures = figure_evidence.load(chapter, path.with_name(figure_evidence.NAME), run_file)
        except figure_evidence.FigureEvidenceError as e:
            raise EvidenceError(str(e)) from None
    return verdict_file.load(chapter, path, figures or [])


def stronger_evidence(claims: list, committed: dict, replace_weaker: bool = False):
    """(claim, note) for each trained or slow claim (a ClaimSummary, or its object) this run
    decided: note is None where its verdict may be saved, else why the committed one is kept.  A
    run on fewer seeds than the committed verdict is weaker evidence and does not replace it unless asked."""
    for c in map(ClaimSummary.of, claims):
        # a claim all of whose tests are readings (a clock's, an allocator's, the theory's counts) is
        # "not run" here, yet its readings are kept like any committed evidence
        readings = any(t.outcome in DECIDED and t.reason.startswith(READING) for t in c.tests
                       if t.source != "committed")
        if (c.verdict not in DECIDED and not readings) or c.tier == "fast":
            continue
        prev = ClaimSummary.of(committed[c.id]) if c.id in committed else None
        if prev and not replace_weaker and (c.seeds or 0) < (prev.seeds or 0):
            yield c, (f"kept the committed {c.id}: {prev.verdict} on {prev.seeds} seeds; this run "
                      f"decided {c.verdict} on {c.seeds} (--replace-weaker to save it anyway)")
        else:
            yield c, None


def _tests(run: RunReport, each) -> RunReport:
    """The run with each test `t` of each claim `c` as `each(c, t)` gives it."""
    return replace(run, claims=[replace(c, tests=[each(c, t) for t in c.tests]) for c in run.claims])


def _readings_decided(chapter: Chapter, run: RunReport) -> tuple[RunReport, dict]:
    """The run with each committed-tier reading it measured (a test skipped as `not run:
    device-specific` that recorded its decision) taken as the rule's decision on that measurement,
    as every committed reading is stored: `device_reading` shows it as a reading wherever it is
    read, never as a verdict.  So a reading measured again under today's rule replaces a committed
    test of the same key decided under an older one (a stale test gives way to its remeasurement,
    whatever it now decides), instead of the stale test standing because the new one "did not run".
    Also the figure records so decided, by (claim, test), so that the save decides each once."""
    decided = {}

    def each(c: ClaimSummary, t: TestOutcome) -> TestOutcome:
        if (t.outcome == "not run" and t.reason.startswith(READING) and t.tier in COMMITTED_TIERS
                and any(r.decided for r in records_of(t))):
            records = decided[c.id, base_nodeid(t.nodeid)] = _figure_records(chapter, t, c.id, run)
            return replace(t, outcome=figure_evidence.outcome_of([r.verdict for r in records]))
        return t
    return _tests(run, each), decided


def _figure_records(chapter: Chapter, test: TestOutcome, claim: str, run: RunReport) -> list[FigureRecord]:
    """A fresh test's figure records (textcheck/evidence.py from_test); a record it cannot decide
    (a malformed measurement) stops the save with the error that names it."""
    try:
        return figure_evidence.from_test(chapter, test, claim, run)
    except figure_evidence.FigureEvidenceError as e:
        raise EvidenceError(str(e)) from None


def _as_committed(chapter: Chapter, c: ClaimSummary, prev: ClaimVerdict | None) -> ClaimVerdict:
    """The claim to store (`c`: the merged report's row of it): its decided trained and slow tests
    (the fast ones are run again in seconds, never committed), keyed by what they measured; each
    test the run did not decide anew is the committed test, unchanged."""
    old = {ident(t): t for t in prev.tests} if prev is not None else {}
    # a failing test is a bug, never evidence: the committed test of its key stays
    failed = {t.key or evidence_key(chapter, t, c.id) for t in c.tests
              if t.outcome == "fails" and t.tier in COMMITTED_TIERS}
    tests = [t if t.key else replace(t, key=evidence_key(chapter, t, c.id)) for t in c.tests
             if t.outcome in FIGURE_VERDICTS and t.tier in COMMITTED_TIERS]
    tests += [replace(old[k], source="committed") for k in failed if k in old]
    unkeyed = [t.nodeid for t in tests if not t.key]
    if unkeyed:
        raise EvidenceError(f"claim {c.id}: {', '.join(unkeyed)} decided but recorded nothing (claim_record): "
                            "its verdict has no evidence to be kept under; nothing saved")
    fresh = [t for t in tests if t.source != "committed"]
    if shared_keys(fresh):
        raise EvidenceError(f"claim {c.id}: several decided tests record the same thing "
                            f"({', '.join(sorted(shared_keys(fresh)))}): label each (claim_record(label=...)) so "
                            "each is kept apart; nothing saved")
    # the same thing measured again under another test (its gpu case on the CPU, a renamed test):
    # the fresh evidence replaces the committed
    tests = [t for t in tests if t.source != "committed" or t.key not in {f.key for f in fresh}]
    if prev is not None:
        tests = [was if was is not None and (was.timestamp, was.outcome) == (t.timestamp, t.outcome) else t
                 for t, was in ((t, old.get(ident(t))) for t in tests)]
        if tests == prev.tests or (len(tests) == len(prev.tests)
                                   and {ident(t): t for t in tests} == {ident(t): t for t in prev.tests}):
            return prev             # the same tests (merged in another order): the committed claim, unchanged
    return ClaimVerdict(c.id, verdict_file.verdict_of(chapter, c.id, tests), tests)


def _kept_figures(chapter: Chapter, ev: Evidence, saved, run: RunReport, decided: dict
                  ) -> tuple[list[FigureRecord], bool]:
    """The figure records results/figures.json keeps: those of every test this run decided and saves
    (textcheck/evidence.py from_test), each replacing the committed record of its key, and the
    other committed records of the tests kept (`decided`: the records of the readings, decided
    once already), and whether they differ from the committed ones.  Written with verdicts.json, in
    the same transaction (textcheck/verdict_file.py texts)."""
    records = {r.key: r for r in ev.records}
    before = dict(records)
    ran = {(c.id, base_nodeid(t.nodeid)): t for c in run.claims for t in c.tests}
    kept = set()                    # the key of every record of every decided trained or slow test kept
    for c in saved:
        for t in c.tests:
            # every verdict a figure record can hold keeps its records ("fails" is a bug, never evidence):
            # an undecided figure at the seeds' cap is committed as undecided (docs/figure-rule.md)
            if t.outcome not in FIGURE_VERDICTS or t.tier not in COMMITTED_TIERS:
                continue
            kept.update(record_key(chapter, rec, c.id) for rec in t.records)
            mine = ran.get((c.id, base_nodeid(t.nodeid)))
            if mine is not None and mine.timestamp == t.timestamp:     # decided by this run
                found = decided.get((c.id, base_nodeid(t.nodeid)))
                for r in found if found is not None else _figure_records(chapter, mine, c.id, run):
                    records[r.key] = _runs_provenance(r, ev) if _measured_nothing(mine, run) else r
    records = {k: r for k, r in records.items() if k in kept}     # a replaced test's old records go with it
    return list(records.values()), records != before


def _runs_provenance(rec: FigureRecord, ev: Evidence) -> FigureRecord:
    """A figure decided for the first time from committed run records, with the provenance of what
    measured it: its runs' own (the newest date; their device, torch and code), never this run's,
    which measured nothing."""
    found = [r for r in map(ev.runs.run, rec.runs) if r is not None]
    if not found:
        return rec                  # runs not in results/: the save's re-derivation refuses it

    def each(field):
        values = sorted({str(v) for v in field if v is not None})
        return ", ".join(values) or None
    return replace(rec, date=max((r.date or "" for r in found), default="") or None,
                   code=each(r.code or (f"training/{r.training_version}" if r.training_version is not None else None)
                             for r in found),
                   device=each(r.device for r in found), torch=each(r.torch for r in found))


def _run_files(tx: Transaction):
    """Each group's run records as the save leaves them (staged, else committed)."""
    return lambda group: tx.current(f"{group}.json")


def _check_and_commit(chapter: Chapter, tx: Transaction, results_dir: Path, readers: dict | None = None) -> None:
    """Every staged file read back by its reader (the text's run records, and `readers`), the whole
    re-derivation run on what is staged, then the commit: a save refuses before it commits."""
    runs = {f"{g}.json": (lambda p, g=g: chapter.run_records.load_file(p, g)) for g in chapter.run_records.groups}
    check_staged(tx, {**runs, **chapter.evidence_readers, **(readers or {})})
    from textcheck import rederive  # the whole re-derivation on the staged files (the conversion's too)
    rederive.check_staged(chapter, tx, results_dir)
    tx.commit()


def save_evidence(chapter: Chapter, evidence, results_dir: Path) -> list[str]:
    """A run's evidence alone (no verdicts: claims/test_readings.py) saved into `results_dir`, in
    one locked transaction as save_run saves it; lines to print."""
    with save_lock(results_dir), ExitStack() as held:
        lines = recover(results_dir)
        tx = Transaction(results_dir)
        try:
            lines += evidence.save(tx, held)
            _check_and_commit(chapter, tx, results_dir)
        except BaseException:
            tx.abort()
            raise
    return lines


def save_staged(chapter: Chapter, results_dir: Path, stage: Callable[[Transaction], list[str] | None]) -> list[str]:
    """Files a command writes into `results_dir` itself (the training command's run records:
    fixtures/__main__.py), saved as every save is: under the save lock, a killed save finished
    first, `stage(tx)` staging them, then the one check-then-commit (`_check_and_commit`: each
    staged file read back, the whole re-derivation on the staged files).  EvidenceError naming the
    file, the record and the field, and `results_dir` as it was, where the re-derivation would
    refuse what it leaves; lines to print."""
    with save_lock(results_dir):
        lines = recover(results_dir)
        tx = Transaction(results_dir)
        try:
            lines += stage(tx) or []
            _check_and_commit(chapter, tx, results_dir)
        except BaseException:
            tx.abort()
            raise
    return lines


def _measured_nothing(test: TestOutcome, run: RunReport) -> bool:
    """A test of a --from-results run whose every run was read from the committed run records
    (textcheck/plugin.py notes them in the meta): it decided again what those runs measured."""
    return bool(run.from_results) and base_nodeid(test.nodeid) in (run.from_records or [])


MEASURED_NOTHING = "not run: measured nothing"


def _measured_only(run: RunReport, committed: set[str]) -> tuple[RunReport, list[str]]:
    """The run with each test that measured nothing (a --from-results test whose every run was read
    from the committed run records) and that has committed evidence (its nodeid in `committed`) as
    not run: a save writes only what was measured, so the committed evidence of such a test stays
    as it is, dates and all, and a run record edited by hand in results/ is never laundered into
    figure records that agree with it.  A test decided for the first time from committed runs (a
    new claim over runs on record) is saved: its record holds references to those runs and no value
    of its own, and the re-derivation decides it again from them.  Lines to print."""
    lines = []

    def each(c: ClaimSummary, t: TestOutcome) -> TestOutcome:
        if _measured_nothing(t, run) and t.nodeid in committed and (t.outcome != "not run" or t.records):
            lines.append(f"{t.nodeid}: decided from the committed run records (--from-results): it "
                         "measured nothing, so nothing of it is saved; its committed evidence stays")
            return replace(t, outcome="not run", records=[],
                           reason=f"{MEASURED_NOTHING} (--from-results: read from the committed run records)")
        return t
    return _tests(run, each), lines


def _without_decisions(c: ClaimVerdict) -> ClaimVerdict:
    """A claim as verdicts.json keeps it: a decision's inputs live once, in figures.json."""
    def strip(records):
        return [{k: v for k, v in r.items() if k != "decision"} if isinstance(r, dict) else r for r in records]
    return replace(c, tests=[replace(t, records=strip(t.records)) for t in c.tests])


def save_run(chapter: Chapter, fresh: dict, evidence, results_dir: Path, replace_weaker: bool = False) -> list[str]:
    """Save this run's decided verdicts and its evidence (`evidence.save(tx, held)`: the text's own
    evidence writer stages its files in the same transaction) into `results_dir`; lines to print."""
    path = Path(results_dir) / verdict_file.NAME
    with save_lock(results_dir), ExitStack() as held:
        lines = recover(results_dir)
        try:
            ev = Evidence.of(chapter, results_dir, dangling=False)
        except figure_evidence.FigureEvidenceError as e:
            raise EvidenceError(str(e)) from None
        committed = ev.claims
        try:
            run = RunReport.of(fresh)
        except RecordFieldError as e:
            raise EvidenceError(f"{e}; nothing saved") from None
        run, skipped = _measured_only(run, {t.nodeid for c in committed for t in c.tests if t.outcome in DECIDED})
        lines += skipped
        run, decided = _readings_decided(chapter, run)
        kept = {c.id: c for c in committed}
        rows = {c.id: summarise(chapter, c.id, c.tests, True) for c in committed}     # their seeds, as the report's rows
        for c, note in stronger_evidence(merged_claims(chapter, run, committed), rows, replace_weaker):
            if note:
                lines.append(note)
            else:
                kept[c.id] = _as_committed(chapter, c, kept.get(c.id))
        tx = Transaction(results_dir)
        try:
            # the text's evidence first (its run records among it): the figure records refer to those runs
            carried = evidence.save(tx, held)
            records, changed = _kept_figures(chapter, ev, kept.values(), run, decided)
            new = [_without_decisions(c) for c in sorted(kept.values(), key=lambda c: c.id)]
            # both files from the one writer: each test's record stored in its figure record, the index
            # beside; a save that changes nothing writes nothing
            changed = changed or new != sorted(committed, key=lambda c: c.id)
            for name, text in verdict_file.texts(chapter, new, records, _run_files(tx)).items():
                was = Path(results_dir) / name
                if not changed or (was.exists() and was.read_text() == text):
                    lines.append(f"{name}: unchanged")
                else:
                    tx.stage(name, text)
                    lines.append(f"{name}: saved")
            lines += carried
            # every file staged, read back as the report and the re-derivation read it: a file they
            # would refuse stops the save before anything is committed
            figures = lambda p: figure_evidence.load(chapter, p, _run_files(tx))
            _check_and_commit(chapter, tx, results_dir, {
                figure_evidence.NAME: figures,
                path.name: lambda p: load_verdicts(chapter, p, figures(tx.current(figure_evidence.NAME)))})
        except BaseException:
            tx.abort()
            raise
    return lines
