"""Decide the committed figure records of an older rule version again under today's rules.

  python -m textcheck convert --text MODULE [--results DIR] [--check]

A rule changes (textcheck/versions.py RULE_VERSIONS); the records it decided need no new
measurement, only a new decision: every record decided under an older version of the rule the
figure table now decides it by (and measured under its measurement's current version) is decided
again from its measured values, and written with today's rule ID and verdict; the tests that show
it take the outcome their records now give, with the decision's words as their reason, and each
claim the verdict its tests give (a claim that moves is listed).  Both files are written by their
one writer (textcheck/verdict_file.py texts), in one transaction; run again, it writes nothing.
Exit 0 (written, or nothing to decide again), 1 (--check: something to decide again), 2 (a file it
cannot read).  The last conversion of an older format (schema 2, the $-reference codec, to the
index and the figure records' `shown`, 2026-12-07) is in the history (textcheck/schema2.py).
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from safeio.files import SaveError
from safeio.transaction import Transaction, recover
from textcheck import evidence, rederive, verdict_file
from textcheck.chapter import Chapter
from textcheck.records import ClaimVerdict
from textcheck.store import EvidenceError, save_lock
from textcheck.verdicts import record_key
from textcheck.versions import RULE_VERSIONS, is_current, rule_id


def _outdated_rule(chapter: Chapter, rec) -> bool:
    """A record decided under an older version of the rule the figure table decides it by now, and
    measured under its measurement's current version: deciding it again needs no new measurement."""
    name, _, version = str(rec.rule).partition("/")
    if name != chapter.rule_inputs(rec.key).rule or version == str(RULE_VERSIONS[name][0]):
        return False
    return rec.measurement is None or is_current(chapter.measurements, rec.measurement)


def redecide(chapter: Chapter, results_dir: Path) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """({file name: its text}, [(record key, verdict before, verdict now)]): every figure record
    decided under an older version of its rule, decided again under today's from its measured
    values (a rule change needs no new measurement: design.md, a verdict is a pure function of
    the figure table, the rule and the records), written with today's rule ID and verdict; the
    tests of results/verdicts.json that carry them take the outcome their records now give, with
    the decision's words as their reason, and each claim the verdict its tests give (a claim
    whose tests count differently under today's rules moves too, and is listed)."""
    results_dir = Path(results_dir)
    figures_path = results_dir / evidence.NAME
    records = evidence.load(chapter, figures_path)
    moved, now, decided = [], [], {}
    for rec in records:
        if _outdated_rule(chapter, rec):
            d = evidence.redecide(chapter, rec)
            decided[rec.key] = d
            if d.verdict != rec.verdict:
                moved.append((rec.key, rec.verdict, d.verdict))
            rec = replace(rec, rule=rule_id(chapter.rule_inputs(rec.key).rule), verdict=d.verdict)
        now.append(rec)
    by_key = {r.key: r for r in now}
    verdicts_path = results_dir / verdict_file.NAME
    claims = verdict_file.load(chapter, verdicts_path, records)
    out_claims = []
    for c in claims:
        tests = []
        for t in c.tests:
            keys = [record_key(chapter, r, c.id) for r in t.records]
            if not keys or not any(k in decided for k in keys) or any(k not in by_key for k in keys):
                tests.append(t)
                continue
            recs = [dict(r, rule=by_key[k].rule, **({"tolerance": _tolerance(decided[k])} if k in decided
                                                     and decided[k].tolerance is not None else {}))
                    for r, k in zip(t.records, keys)]
            outcome = evidence.outcome_of([by_key[k].verdict for k in keys])
            reason = "" if outcome == "holds" else f"{outcome}: " + "; ".join(
                decided[k].why if k in decided else f"{k}: {by_key[k].verdict}" for k in keys
                if by_key[k].verdict != "holds")
            tests.append(replace(t, outcome=outcome, reason=reason, records=recs))
        verdict = verdict_file.verdict_of(chapter, c.id, tests)
        if verdict != c.verdict:
            moved.append((f"claim {c.id}", c.verdict, verdict))
        out_claims.append(ClaimVerdict(c.id, verdict, tests))
    texts = verdict_file.texts(chapter, out_claims, now, lambda group: results_dir / f"{group}.json")
    return {name: text for name, text in texts.items() if (results_dir / name).read_text() != text}, moved


def _refused_after(chapter: Chapter, results_dir: Path, changes: dict[str, str]) -> list[str]:
    """What the re-derivation would refuse of `results_dir` once `changes` are written, found in a
    scratch copy of its JSON files (--check writes nothing into results/)."""
    with tempfile.TemporaryDirectory() as tmp:
        for p in Path(results_dir).glob("*.json"):
            if p.is_file() and not p.is_symlink():
                shutil.copyfile(p, Path(tmp) / p.name)
        for name, text in changes.items():
            (Path(tmp) / name).write_text(text)
        return [line.replace(tmp, str(results_dir)) for line in rederive.refusals(chapter, Path(tmp))]


def _tolerance(d) -> str:
    return f"today's rule (textcheck/versions.py): {d.tolerance:.4g}"


def main(chapter: Chapter, argv=None, prog: str = "python -m textcheck convert") -> int:
    p = argparse.ArgumentParser(prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--results", default=str(Path(chapter.root) / "results"), help="the results folder")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 if a record would be decided again")
    a = p.parse_args(argv)
    results_dir = Path(a.results)
    try:
        with save_lock(results_dir):
            for line in recover(results_dir):
                print(line, file=sys.stderr)
            changes, moved = redecide(chapter, results_dir)
            for key, was, is_ in moved:
                print(f"  MOVED {key}: {was} -> {is_}")
            if a.check or not changes:
                # what it would write, re-derived: a record the re-derivation refuses (a value that is no
                # number, a reference of the old store) is named, never counted as one to decide again
                refused = _refused_after(chapter, results_dir, changes)
                if refused:
                    raise EvidenceError(f"{results_dir}: refused by the re-derivation:\n  " + "\n  ".join(refused[:20]))
                print(f"{results_dir}: " + (f"to decide again: {', '.join(sorted(changes))}" if changes
                                            else "every record decided under today's rules"))
                return 1 if changes else 0
            tx = Transaction(results_dir)
            try:
                for name, text in sorted(changes.items()):
                    tx.stage(name, text)
                # what it would write is re-derived first, as a save's is: nothing it refuses is written
                rederive.check_staged(chapter, tx, results_dir)
                tx.commit()
            except BaseException:
                tx.abort()
                raise
    except (EvidenceError, evidence.FigureEvidenceError, SaveError) as e:
        print(e, file=sys.stderr)
        return 2
    print(f"{results_dir}: decided again, wrote {', '.join(sorted(changes))}")
    return 0
