"""The errata: for each refuted claim, the chapter's sentence, our figures, the cause we found
(with its evidence), the alternative readings tried, and a suggested sentence.

This is the one reviewed file of diagnoses.  Its prose is written here; every number in it is
filled in from the measurements when the report is built (the merged report's figure rows,
results/<group>.json, and the alternative readings the tests record as `readings.json`).  A
reading that makes a figure agree is labelled so and never changes the primary verdict, which
stays on the setup as the chapter states it.  A refuted claim without an entry here is listed
as "not yet diagnosed".  Imports no torch.
"""
from __future__ import annotations

from pathlib import Path

from claims.chapter import CHAPTER
from claims.readings_declared import DECLARED_READINGS
from claims.report.errata import cost, depth, ladder, norm, positions, qkv, scale, winograd, winograd_circuit
from claims.report.errata.facts import Erratum, Facts
from claims.report.errata.spread import Edit
from data.chapter import ChapterError
from textcheck import rules

# one entry per refuted claim, each written beside its section's causes and sentences
ERRATA: dict[str, Erratum] = {**cost.ERRATA, **depth.ERRATA, **ladder.ERRATA, **norm.ERRATA, **positions.ERRATA, **qkv.ERRATA,
                              **scale.ERRATA, **winograd.ERRATA,
                              **winograd_circuit.ERRATA}


def build(merged: dict, results_dir: Path, report_dir: Path | None = None, facts: Facts | None = None) -> list[dict]:
    """One entry per refuted claim: its refuted figures, the quote, cause, readings, suggestion
    (`facts`: the render's one reader of the evidence, else one made here)."""
    facts = facts or Facts(merged, results_dir, report_dir)
    out = []
    for c in merged.get("claims", []):
        if c["verdict"] == "underspecified":
            out.append(_underspecified(c))
            continue
        if c["verdict"] == "undecided":
            out.append(_needs_seeds(c))
            continue
        if c["verdict"] != "refuted":
            continue
        e = ERRATA.get(c["id"])
        said = e.suggested(facts) if e else ()
        edits = [] if isinstance(said, str) else [x for x in said if x.text and x.text != x.quote]
        note = said if isinstance(said, str) else ""
        if not edits and not note and any(t["outcome"] == "underspecified" for t in c.get("tests", [])):
            note = _underspecified(c)["suggested"]       # its numbers reproduce under a declared reading
        out.append(_entry(c, "refuted", quote=e.quote if e else None,
                          cause=(e.cause(facts) if e else "") or "not yet found", readings=e.readings(facts) if e else [],
                          suggested=shown(edits) or note, edits=edits, diagnosed=bool(e)))
    return out


def shown(edits: list[Edit]) -> str:
    """The suggested sentence as the report shows it: each edited sentence of the chapter with its
    edit applied (the edit's text alone where the chapter is not at hand)."""
    if not edits:
        return ""
    try:
        text, _ = CHAPTER.text_or_none()
    except ChapterError:
        text = None
    said = []
    for e in edits:
        at = text.find(e.quote) if text else -1
        if at < 0:
            said.append(e.text)
            continue
        start = max(text.rfind(". ", 0, at) + 2, text.rfind("\n", 0, at) + 1)
        ends = [i + (k == ". ") for k in (". ", "\n") if (i := text.find(k, at + len(e.quote))) >= 0]
        end = at + len(e.quote) if e.quote.endswith(".") else min(ends, default=len(text))
        said.append(text[start:at] + e.text + text[at + len(e.quote):end])
    return " ".join(f"\"{s.strip()}\"" for s in dict.fromkeys(said))


def seeds_step_cause(tests: list[dict]) -> str:
    """What an undecided claim's author can do (rule version 3, docs/figure-rule.md): where a
    figure's single runs vary more than its distance from its null, say so and ask for no more
    seeds; otherwise more runs could settle it (the group's declared seeds, docs/choices.md)."""
    n = max((r.get("seeds") or 0 for t in tests for r in t.get("records", [])), default=0)
    reasons = " ".join(t.get("reason", "") for t in tests)
    on = f" on {n} seeds" if n else ""
    if rules.ONE_RUN in reasons and rules.MORE_RUNS not in reasons:
        return (f"{rules.ONE_RUN}: undecided{on}, and single runs vary more than the figure's distance from the "
                "null it is contrasted with, so more seeds would not settle it (docs/figure-rule.md)")
    return f"{rules.MORE_RUNS}: undecided{on} (docs/figure-rule.md; the seeds per group: docs/choices.md)"


def _entry(c: dict, verdict: str, **rest) -> dict:
    """A claim's erratum: its figures of that outcome, each its test and reason, then `rest`."""
    figures = [{"test": t["nodeid"].split("::")[-1], "reason": t.get("reason", "")}
               for t in c.get("tests", []) if t["outcome"] == verdict]
    return {"id": c["id"], "verdict": verdict, "statement": c["statement"], "figures": figures, **rest}


def _needs_seeds(c: dict) -> dict:
    """An undecided claim's entry: no suggested sentence (no new numbers), a "needs more seeds" note
    with what it cannot tell apart (docs/figure-rule.md, the sequential rule)."""
    tests = [t for t in c.get("tests", []) if t["outcome"] == "undecided"]
    return _entry(c, "undecided", quote=None, cause=seeds_step_cause(tests), readings=[], suggested="", edits=[],
                  diagnosed=True, needs_seeds=True)


def _underspecified(c: dict) -> dict:
    """An underspecified claim's erratum: the chapter should state the choice it leaves open
    (claims/readings_declared.py), with no new numbers: the declared reading reproduces its figures."""
    tests = [t for t in c.get("tests", []) if t["outcome"] == "underspecified"]
    keys = {t.get("key") for t in tests}
    declared = [r for r in DECLARED_READINGS.values() if keys & set(r.keys)]
    choices = "; ".join(dict.fromkeys(r.choice for r in declared)) or "the choice its figures depend on"
    return _entry(c, "underspecified", quote=None, cause=f"underspecified: the chapter leaves open {choices}",
                  readings=[f"{r.name} (declared {r.declared[:10]}, docs/choices.md): reproduces the figures; the "
                            f"primary reading, {r.primary}, refutes them" for r in declared],
                  suggested=f"State the choice: {choices}.", edits=[], diagnosed=True, underspecified=True)
