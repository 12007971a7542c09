"""Rewrite a text's committed evidence in today's format, each measured value stored once.

  python -m claims.convert [--results DIR] [--check]   (this project's command: claims/convert.py)

Reads results/verdicts.json in either format (claimcheck/verdict_file.py: schema 1, whose
claims carried copies of their records and of the figure table, or 2), results/figures.json and
the text's run records, and writes them back through their codecs: verdicts.json as claims of ID,
verdict and tests whose values refer to their figure records by key, a test record's copy of a
chapter table dropped (`table`, or a field named for a figure holding its printed value), and each run record's metrics once (the text's `RunRecords.dump`).
It proves before it writes that nothing a reader sees moved: every claim's and every test's
verdict, every figure record's, and every expanded record field but the dropped copies; a
difference is an error and nothing is written.  Idempotent: a second run writes nothing.  It is
run again after a merge brings evidence in the old format (new seeds committed elsewhere).
Exit 0 (written, or already converted), 1 (--check: not converted yet), 2 (a file it cannot read,
or a conversion that would move a verdict).
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from claimcheck import evidence, verdict_file
from claimcheck.files import SaveError, Transaction, recover
from claimcheck.records import ClaimVerdict
from claimcheck.store import EvidenceError, read_json, save_lock
from claimcheck.verdicts import record_key
from claimcheck.versions import RULE_VERSIONS, is_current, rule_id

if TYPE_CHECKING:
    from claimcheck.chapter import Chapter

COPIES = ("table",)     # fields of a test record that copied a chapter table (the figure table has it)


def _copy_of_table(chapter: Chapter, claim: str, field: str, value) -> bool:
    """A test record's field that copies the figure table: `table`, or a field named for a figure
    of the claim's section ("prenorm_warmup" of norm: norm.prenorm_warmup) holding its value."""
    if field in COPIES:
        return True
    entry = chapter.figures.get(f"{claim.partition('.')[0]}.{field}")
    return entry is not None and isinstance(value, (int, float)) and not isinstance(value, bool) \
        and value == entry.value


def _json(x) -> str:
    return json.dumps(x, sort_keys=True, default=str)


class ConversionError(ValueError):
    """A conversion that would change what a reader sees: names the file, the claim and what moved."""


def _without_copies(chapter: Chapter, claims: list[ClaimVerdict]) -> list[ClaimVerdict]:
    """The claims with no record copying the figure table, each verdict as its tests then give it."""
    def strip(cid, records):
        return [{k: v for k, v in r.items() if not _copy_of_table(chapter, cid, k, v)} if isinstance(r, dict) else r
                for r in records]
    out = []
    for c in claims:
        tests = [replace(t, records=strip(c.id, t.records)) for t in c.tests]
        out.append(ClaimVerdict(c.id, verdict_file.verdict_of(chapter, c.id, tests), tests))
    return out


def verdict_counts(claims: list[ClaimVerdict]) -> dict:
    """{claim: (verdict, {test key: outcome})} of verdicts as read (claimcheck/verdict_file.py load)."""
    return {c.id: (c.verdict, {t.key: t.outcome for t in c.tests}) for c in claims}


def convert(chapter: Chapter, results_dir: Path) -> dict[str, str]:
    """{file name: its converted text} for the files that change (empty when already converted).
    ConversionError where the conversion would move a verdict or change an expanded value."""
    results_dir = Path(results_dir)
    figures_path = results_dir / evidence.NAME
    records = evidence.load(chapter, figures_path) if figures_path.exists() else []
    out = {}
    if records:
        text = evidence.dumps(records, chapter, evidence.run_files_beside(figures_path))   # run metrics referred to
        if figures_path.read_text() != text:
            out[figures_path.name] = text
    verdicts_path = results_dir / verdict_file.NAME
    if verdicts_path.exists():
        before = _without_copies(chapter, verdict_file.load(chapter, verdicts_path, records))
        stored = {c["id"]: c.get("verdict") for c in read_json(verdicts_path, "committed verdicts")["claims"]}
        moved = [f"claim {c.id}: stored {stored[c.id]!r}, its tests give {c.verdict!r}"
                 for c in before if stored.get(c.id) != c.verdict]
        if moved:
            raise ConversionError(f"{verdicts_path}: " + "; ".join(moved))
        text = verdict_file.dumps(chapter, before, records, evidence.run_files_beside(verdicts_path))
        after = [verdict_file.plain(c) for c in verdict_file.expanded(chapter, json.loads(text), verdicts_path, records)]
        if _json(after) != _json([verdict_file.plain(c) for c in before]):
            changed = [c.id for c, d in zip(before, after) if _json(verdict_file.plain(c)) != _json(d)]
            raise ConversionError(f"{verdicts_path}: converted, claims {', '.join(changed)} would read differently")
        if verdicts_path.read_text() != text:
            out[verdicts_path.name] = text
    for group in chapter.run_records.groups:
        path = results_dir / f"{group}.json"
        if path.exists() and chapter.run_records.dump is not None:
            runs = chapter.run_records.load_file(path, group)
            text = chapter.run_records.dump(group, runs)
            if path.read_text() != text:
                out[path.name] = text
    return out


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
    run_file = evidence.run_files_beside(figures_path)
    texts = {figures_path.name: evidence.dumps(now, chapter, run_file),
             verdicts_path.name: verdict_file.dumps(chapter, out_claims, now, run_file)}
    return {name: text for name, text in texts.items() if (results_dir / name).read_text() != text}, moved


def _tolerance(d) -> str:
    return f"today's rule (claimcheck/versions.py): {d.tolerance:.4g}"


def main(chapter: Chapter, argv=None, prog: str = "python -m claims.convert") -> int:
    p = argparse.ArgumentParser(prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--results", default=str(Path(chapter.root) / "results"), help="the results folder to convert")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is not converted yet")
    p.add_argument("--redecide", action="store_true",
                   help="decide every record of an older rule version again under today's rules, and write it")
    a = p.parse_args(argv)
    results_dir = Path(a.results)
    try:
        with save_lock(results_dir):
            for line in recover(results_dir):
                print(line, file=sys.stderr)
            if a.redecide:
                changes, moved = redecide(chapter, results_dir)
                for key, was, is_ in moved:
                    print(f"  MOVED {key}: {was} -> {is_}")
            else:
                changes = convert(chapter, results_dir)
            if a.check or not changes:
                print(f"{results_dir}: " + (f"not converted yet: {', '.join(sorted(changes))}" if changes
                                            else "already in today's format"))
                return 1 if changes else 0
            tx = Transaction(results_dir)
            try:
                for name, text in sorted(changes.items()):
                    tx.stage(name, text)
                tx.commit()
            except BaseException:
                tx.abort()
                raise
    except (ConversionError, EvidenceError, evidence.FigureEvidenceError, SaveError) as e:
        print(e, file=sys.stderr)
        return 2
    print(f"{results_dir}: converted {', '.join(sorted(changes))}")
    return 0
