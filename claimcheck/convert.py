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


def main(chapter: Chapter, argv=None, prog: str = "python -m claims.convert") -> int:
    p = argparse.ArgumentParser(prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--results", default=str(Path(chapter.root) / "results"), help="the results folder to convert")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is not converted yet")
    a = p.parse_args(argv)
    results_dir = Path(a.results)
    try:
        with save_lock(results_dir):
            for line in recover(results_dir):
                print(line, file=sys.stderr)
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
