"""Rewrite a text's committed evidence in today's format, each value stored once.

  python -m claims.convert [--results DIR] [--check] [--redecide]   (this project's command: claims/convert.py)

Reads results/verdicts.json, results/figures.json and the text's run records and writes them back
through their codecs (claimcheck/verdict_file.py texts, the text's `RunRecords.dump`), proving
before it writes that nothing a reader sees moved: every claim's and test's verdict, every figure
record, every test's record field by field; a difference is an error and nothing is written.
Idempotent: a second run writes nothing.  `--redecide` decides every record of an older rule
version again under today's rules.  Exit 0 (written, or already in today's format), 1 (--check:
not yet), 2 (a file it cannot read, or a rewrite that would move something).  The last
conversion of an older format (schema 2, the $-reference codec, 2026-12-07) is in the history
(claimcheck/schema2.py, deleted after it).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import asdict, replace
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


class ConversionError(ValueError):
    """A conversion that would change what a reader sees: names the file, the claim and what moved."""


def _json(x) -> str:
    return json.dumps(x, sort_keys=True, default=str)


def verdict_counts(claims: list[ClaimVerdict]) -> dict:
    """{claim: (verdict, {test key: outcome})} of verdicts as read."""
    return {c.id: (c.verdict, {t.key: t.outcome for t in c.tests}) for c in claims}


def _moved(before: list[ClaimVerdict], after: list[ClaimVerdict], figures_before, figures_after) -> list[str]:
    """What a reader would see differently after the conversion (a test's runs, which it now takes
    from its figure record, aside where it named none)."""
    out = [f"claim {c.id}: {c.verdict} -> {d.verdict}" for c, d in zip(before, after) if c.verdict != d.verdict]
    if [c.id for c in before] != [c.id for c in after]:
        out.append("the claims differ")
    for c, d in zip(before, after):
        for t, u in zip(c.tests, d.tests):
            was, now = asdict(t), asdict(u)
            if t.runs is None:
                was.pop("runs"), now.pop("runs")
            # a record's fields in claim.record's order (shown.py): each field's value, its order within, alike
            was["records"], now["records"] = ([sorted((k, json.dumps(v)) for k, v in r.items()) for r in x["records"]]
                                              for x in (was, now))
            diff = [k for k in was if _json(was[k]) != _json(now[k])]
            out += [f"claim {c.id}: test {t.key}: {k}" for k in diff]
        if len(c.tests) != len(d.tests):
            out.append(f"claim {c.id}: its tests differ")
    plain = [dict(asdict(r), shown=None) for r in figures_before]
    out += [f"figure record {r['key']}" for r, s in zip(plain, [dict(asdict(r), shown=None) for r in figures_after])
            if _json(r) != _json(s)]
    return out


def _read_back(chapter: Chapter, results_dir: Path, texts: dict[str, str]):
    """The claims and figure records as today's readers read `texts` beside `results_dir`'s run records."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in texts.items():
            (Path(tmp) / name).write_text(text)
        run_file = lambda group: results_dir / f"{group}.json"
        figures = evidence.load(chapter, Path(tmp) / evidence.NAME, run_file)
        return verdict_file.load(chapter, Path(tmp) / verdict_file.NAME, figures), figures


def convert(chapter: Chapter, results_dir: Path) -> dict[str, str]:
    """{file name: its text in today's format} for the files that change (empty when already in it).
    ConversionError where the rewrite would move a verdict or change what a reader reads."""
    results_dir = Path(results_dir)
    figures_path, verdicts_path = results_dir / evidence.NAME, results_dir / verdict_file.NAME
    out = {}
    if verdicts_path.exists():
        figures = evidence.load(chapter, figures_path)
        claims = verdict_file.load(chapter, verdicts_path, figures)
        stored = {c["id"]: c["verdict"] for c in read_json(verdicts_path, "committed verdicts")["claims"]}
        moved = [f"claim {c.id}: stored {stored[c.id]!r}, its tests give {c.verdict!r}" for c in claims
                 if stored[c.id] != c.verdict]
        if moved:
            raise ConversionError(f"{verdicts_path}: " + "; ".join(moved))
    else:
        figures, claims = (evidence.load(chapter, figures_path) if figures_path.exists() else []), []
    if figures or claims:
        texts = verdict_file.texts(chapter, claims, figures, lambda group: results_dir / f"{group}.json")
        if not claims:
            texts = {evidence.NAME: texts[evidence.NAME]}
        after, figures_after = _read_back(chapter, results_dir, texts) if claims else ([], figures)
        moved = _moved(claims, after, figures, figures_after)
        if moved:
            raise ConversionError(f"{verdicts_path}: converted, a reader would see differently: " + "; ".join(moved[:20]))
        out.update({name: text for name, text in texts.items() if (results_dir / name).read_text() != text})
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
    texts = verdict_file.texts(chapter, out_claims, now, lambda group: results_dir / f"{group}.json")
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
