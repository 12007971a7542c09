"""The patched chapter decided again (rule version 3, docs/figure-rule.md "Errata are a patch").

Every figure a suggested edit rewrites is decided again with the number the edit prints as the
stated value (its rounding from the printed digits, as the figure table reads the chapter's), on
the same committed measurements: it must hold.  A figure the chapter derives from two printed ones
(a difference, claims/record_rules.py DECLARED) whose operand an edit rewrites is decided again on
the new difference: one that held must still hold.  A refuted claim whose sentence the patch
leaves as it stands is a conflict the errata have not resolved.  `python -m claims.report` writes
the account to `chapter.patch.check.txt`; tests/integration/test_chapter_patch.py holds it to
zero of each.  Imports no torch."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from claims.chapter_figures import FIGURES
from claims.record_rules import DECLARED, decide, spec_for
from claims.report import patch
from textcheck import rules

if TYPE_CHECKING:
    from textcheck.report.assembly.merged import Entry

DIFFERENCE = re.compile(r"^([a-z0-9_.]+) - ([a-z0-9_.]+)$")


def new_printed(entries: Sequence[Entry]) -> dict[str, str]:
    """{figure ID: the number the patch prints for it} over every edit of every erratum."""
    return {n.figure: str(n) for e in entries for x in e.edits for n in x.numbers if n.figure}


def measured_fresh(claims: list[dict]) -> dict[str, dict]:
    """{figure ID: the measured values a fresh run's test decided it on} (a fast figure has no
    committed record: its measurement is this run's, the `decision` its test recorded)."""
    return {rec["figures"][0]: rec["decision"] for c in claims for t in c.get("tests", [])
            for rec in t.get("records", []) if isinstance(rec, dict) and len(rec.get("figures") or []) == 1
            and isinstance(rec.get("decision"), dict) and t.get("source") == "fresh run"}


def decided_again(entries: Sequence[Entry], records, claim_verdicts: dict[str, str],
                  figure_verdicts: dict[str, str], text: str = "", fresh: dict | None = None) -> dict[str, list]:
    """{"suggested": [(figure, chapter's, patch's, verdict, why)], "derived": [(key, before, now, why)],
    "unresolved": [claim IDs], "kept": [figure IDs]}: the committed records decided against the patched
    chapter's numbers; `kept`, the refuted figures (their rows' verdicts) no edit rewrites (an edit
    that qualifies the sentence around a figure's number, `text` the chapter, rewrites it too)."""
    printed = new_printed(entries)
    figures = {fid: replace(FIGURES[fid], printed=p) for fid, p in printed.items()}
    by_key = {r.key: r for r in records}
    out: dict[str, list] = {"suggested": [], "derived": [], "unresolved": []}
    for fid, f in figures.items():
        measured = by_key[fid].measured if fid in by_key else (fresh or {}).get(fid)
        if measured is None:
            out["suggested"].append((fid, FIGURES[fid].printed, f.printed, "not measured", "no record of it"))
            continue
        try:
            d = (rules.within(measured["value"], f.value, f.rounding) if set(measured) == {"value"}    # one count
                 else decide(replace(spec_for(fid), stated=f.value, rounding=f.rounding), measured))
        except rules.RuleInputError as e:
            out["suggested"].append((fid, FIGURES[fid].printed, f.printed, "not decidable", str(e)))
            continue
        out["suggested"].append((fid, FIGURES[fid].printed, f.printed, d.verdict, d.why))
    value = {fid: (figures.get(fid) or FIGURES[fid]).value for fid in FIGURES}
    for key, spec in DECLARED.items():
        m = DIFFERENCE.match(spec.why or "")
        if not m or not {m[1], m[2]} & set(figures) or key not in by_key:
            continue
        d = decide(replace(spec, stated=round(value[m[1]] - value[m[2]], 2)), by_key[key].measured)
        out["derived"].append((key, by_key[key].verdict, d.verdict, d.why))
    edited = {e.id for e in entries if e.edits}
    out["unresolved"] = sorted(c for c, v in claim_verdicts.items() if v == "refuted" and c not in edited)
    spans = [(text.find(x.quote), text.find(x.quote) + len(x.quote)) for e in entries for x in e.edits]
    rewritten = {fid for a, b in spans if a >= 0 for fid in patch.inside(text, a, b)}
    out["kept"] = sorted(fid for fid, v in figure_verdicts.items()
                         if v == "refuted" and fid not in printed and fid not in rewritten)
    return out


def account(result: dict[str, list]) -> str:
    """The check in words, one line a figure."""
    bad = [s for s in result["suggested"] if s[3] != "holds"]
    moved = [d for d in result["derived"] if d[1] == "holds" and d[2] != "holds"]
    lines = [(f"the patched chapter decided again: {len(result['suggested']) - len(bad)} of "
              f"{len(result['suggested'])} suggested figures hold, {len(moved)} holds moved, "
              f"{len(result['unresolved'])} refuted claims left as the chapter has them")]
    lines += [f"  {fid}: {was} -> {now}: {verdict}" + ("" if verdict == "holds" else f" ({why[:200]})")
              for fid, was, now, verdict, why in result["suggested"]]
    lines += [f"  derived {key}: {before} -> {now}" for key, before, now, _ in result["derived"]]
    lines += [f"  unresolved: {c}" for c in result["unresolved"]]
    lines += [f"  a refuted figure the patch leaves as printed (no measured number of it would hold): {k}"
              for k in result.get("kept", [])]
    return "\n".join(lines) + "\n"


def write(out: Path, result: dict[str, list]) -> Path:
    path = Path(out) / "chapter.patch.check.txt"
    path.write_text(account(result))
    return path
