"""report/errata.md, a rendering of the report model's errata (one entry per refuted,
underspecified or undecided claim: its figures, the quote, cause, readings and suggested sentence,
built by the text's errata); index.html's section of them is its template's
(claimcheck/report/views/templates/index.html), with these heads."""
from __future__ import annotations

from claimcheck.report.views.escape import md, md_code

# an underspecified claim's entry asks for the choice, never for new numbers
_FIGURES_HEAD = {False: "Refuted figures:", True: "Underspecified figures:"}
_UNDECIDED_HEAD = "Undecided figures (needs more seeds):"
_SUGGESTED_HEAD = {False: "Suggested sentence", True: "The chapter should say"}


def render(entries: list[dict], home: str = "the text's errata") -> str:
    """report/errata.md; `home`: where the errata's prose is written."""
    lines = ["# Errata: every refuted figure, why, and what the sentence could say", "",
             (f"Causes and readings are measured ({md(home)}; numbers filled in from results/ and the run). "
             "A reading that agrees does not change a verdict: the verdict is on the setup the chapter states."), ""]
    for e in entries:
        lines += [f"## {md_code(e['id'])}", "", md(e["statement"]), ""]
        if e["quote"]:
            lines += [f"> {md(e['quote'])}", ""]
        lines += [figures_head(e), ""]
        lines += [f"- {md(x['test'])}: {md(x['reason'])}" for x in e["figures"]] + [""]
        lines += [f"**Cause:** {md(e['cause'])}" + ("" if e["diagnosed"] else " (not yet diagnosed)"), ""]
        if e["readings"]:
            lines += ["**Readings tried:**", ""] + [f"- {md(r)}" for r in e["readings"]] + [""]
        elif e["diagnosed"] and not e.get("needs_seeds"):
            lines += ["**Readings tried:** none needed: the cause is measured on the setup as the chapter states it", ""]
        if e["suggested"]:
            lines += [f"**{suggested_head(e)}:** {md(e['suggested'])}", ""]
    return "\n".join(lines)


def figures_head(e: dict) -> str:
    """The head of an entry's list of figures: refuted, underspecified or undecided."""
    return _UNDECIDED_HEAD if e.get("needs_seeds") else _FIGURES_HEAD[bool(e.get("underspecified"))]


def suggested_head(e: dict) -> str:
    """The head of an entry's suggested sentence (an underspecified claim's asks for the choice)."""
    return _SUGGESTED_HEAD[bool(e.get("underspecified"))]
