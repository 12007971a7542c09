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

from claims.readings_declared import DECLARED_READINGS
from claims.report.errata import cost, depth, ladder, norm, positions, qkv, scale, winograd
from claims.report.errata.facts import Erratum, Facts
from claims.report.escape import md, md_code

# one entry per refuted claim, each written beside its section's causes and sentences
ERRATA: dict[str, Erratum] = {**cost.ERRATA, **depth.ERRATA, **ladder.ERRATA, **norm.ERRATA, **positions.ERRATA, **qkv.ERRATA,
                              **scale.ERRATA, **winograd.ERRATA}


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
        refuted = [t for t in c.get("tests", []) if t["outcome"] == "refuted"]
        e = ERRATA.get(c["id"])
        out.append({"id": c["id"], "statement": c["statement"],
                    "figures": [{"test": t["nodeid"].split("::")[-1], "reason": t.get("reason", "")} for t in refuted],
                    "quote": e.quote if e else None, "cause": (e.cause(facts) if e else "") or "not yet found",
                    "readings": e.readings(facts) if e else [], "suggested": e.suggested(facts) if e else "",
                    "diagnosed": bool(e)})
    return out


def _needs_seeds(c: dict) -> dict:
    """An undecided claim's entry: no suggested sentence (no new numbers), a "needs more seeds" note
    with what it cannot tell apart (docs/figure-rule.md, the sequential rule)."""
    tests = [t for t in c.get("tests", []) if t["outcome"] == "undecided"]
    return {"id": c["id"], "statement": c["statement"],
            "figures": [{"test": t["nodeid"].split("::")[-1], "reason": t.get("reason", "")} for t in tests],
            "quote": None, "cause": "needs more seeds: the measurement cannot decide it yet (docs/figure-rule.md)",
            "readings": [], "suggested": "", "diagnosed": True, "needs_seeds": True}


def _underspecified(c: dict) -> dict:
    """An underspecified claim's erratum: the chapter should state the choice it leaves open
    (claims/readings_declared.py), with no new numbers: the declared reading reproduces its figures."""
    tests = [t for t in c.get("tests", []) if t["outcome"] == "underspecified"]
    keys = {t.get("key") for t in tests}
    declared = [r for r in DECLARED_READINGS.values() if keys & set(r.keys)]
    choices = "; ".join(dict.fromkeys(r.choice for r in declared)) or "the choice its figures depend on"
    return {"id": c["id"], "statement": c["statement"],
            "figures": [{"test": t["nodeid"].split("::")[-1], "reason": t.get("reason", "")} for t in tests],
            "quote": None, "cause": f"underspecified: the chapter leaves open {choices}",
            "readings": [f"{r.name} (declared {r.declared[:10]}, docs/choices.md): reproduces the figures; the "
                         f"primary reading, {r.primary}, refutes them" for r in declared],
            "suggested": f"State the choice: {choices}.", "diagnosed": True, "underspecified": True}


# an underspecified claim's entry asks for the choice, never for new numbers
_FIGURES_HEAD = {False: "Refuted figures:", True: "Underspecified figures:"}
_UNDECIDED_HEAD = "Undecided figures (needs more seeds):"
_SUGGESTED_HEAD = {False: "Suggested sentence", True: "The chapter should say"}


def render(entries: list[dict]) -> str:
    lines = ["# Errata: every refuted figure, why, and what the sentence could say", "",
             ("Causes and readings are measured (claims/report/errata/; numbers filled in from results/ and the run). "
             "A reading that agrees does not change a verdict: the verdict is on the setup the chapter states."), ""]
    for e in entries:
        lines += [f"## {md_code(e['id'])}", "", md(e["statement"]), ""]
        if e["quote"]:
            lines += [f"> {md(e['quote'])}", ""]
        lines += [_UNDECIDED_HEAD if e.get("needs_seeds") else _FIGURES_HEAD[bool(e.get("underspecified"))], ""]
        lines += [f"- {md(x['test'])}: {md(x['reason'])}" for x in e["figures"]] + [""]
        lines += [f"**Cause:** {md(e['cause'])}" + ("" if e["diagnosed"] else " (not yet diagnosed)"), ""]
        if e["readings"]:
            lines += ["**Readings tried:**", ""] + [f"- {md(r)}" for r in e["readings"]] + [""]
        elif e["diagnosed"] and not e.get("needs_seeds"):
            lines += ["**Readings tried:** none needed: the cause is measured on the setup as the chapter states it", ""]
        if e["suggested"]:
            lines += [f"**{_SUGGESTED_HEAD[bool(e.get('underspecified'))]}:** {md(e['suggested'])}", ""]
    return "\n".join(lines)


def render_html(entries: list[dict]) -> str:
    """The errata as an index.html section: one entry per refuted claim, id="erratum-<claim>" (the
    chapter view links each refuted sentence to its entry)."""
    import html
    parts = ["<h2 id='errata'>Errata: every refuted figure, why, and what the sentence could say</h2>"]
    for e in entries:
        cid = html.escape(e["id"])
        parts.append(f"<section class='erratum' id='erratum-{cid}'><h3><code>{cid}</code></h3>"
                     f"<p>{html.escape(e['statement'])}</p>")
        if e["quote"]:
            parts.append(f"<blockquote>{html.escape(e['quote'])}</blockquote>")
        head = _UNDECIDED_HEAD if e.get("needs_seeds") else _FIGURES_HEAD[bool(e.get("underspecified"))]
        parts.append(f"<p>{head}</p><ul>" + "".join(
            f"<li>{html.escape(x['test'])}: {html.escape(x['reason'])}</li>" for x in e["figures"]) + "</ul>")
        parts.append(f"<p><b>Cause:</b> {html.escape(e['cause'])}{'' if e['diagnosed'] else ' (not yet diagnosed)'}</p>")
        if e["readings"]:
            parts.append("<p><b>Readings tried:</b></p><ul>" + "".join(f"<li>{html.escape(r)}</li>" for r in e["readings"])
                         + "</ul>")
        if e["suggested"]:
            parts.append(f"<p><b>{_SUGGESTED_HEAD[bool(e.get('underspecified'))]}:</b> {html.escape(e['suggested'])}</p>")
        parts.append("</section>")
    return "\n".join(parts)
