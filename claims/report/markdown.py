"""report/claims.md: a row per claim, then a row per figure it checks (stated, measured, tolerance,
verdict, source); and how a cell writes a value."""
from __future__ import annotations

from claims import registry
from claims.verdicts import DECIDED, is_smoke, outcome_label, summary_text, verdict_label

NOT_RECORDED = "(not recorded)"


def _fmt(x) -> str:
    if x is None:
        return ""
    if isinstance(x, str) and x.lower() in ("nan", "inf", "-inf"):      # plain() spells non-finite floats
        return {"nan": "not a number", "inf": "infinite", "-inf": "minus infinite"}[x.lower()]
    if isinstance(x, float):
        return f"{x:.4g}"
    if isinstance(x, dict):
        return "; ".join(f"{k}: {_fmt(v)}" for k, v in x.items())
    if isinstance(x, list):
        return ", ".join(_fmt(v) for v in x[:8]) + (" ..." if len(x) > 8 else "")
    return str(x)


def figure_name(t: dict) -> str:
    """What a test checks, in the words its record gives ('figure'), else its test id."""
    rec = t["records"][0] if t.get("records") else {}
    return str(rec.get("figure") or t["nodeid"].split("::", 1)[-1])


def measured_cell(m) -> str:
    """A trained figure as 'mean +- sd (per seed: a, b, c)'; anything else as _fmt does."""
    if isinstance(m, dict) and {"mean", "sd", "per seed"} <= set(m):
        rest = {k: v for k, v in m.items() if k not in ("mean", "sd", "per seed")}
        per = ", ".join(f"{v:.4g}" for v in m["per seed"]) if isinstance(m["per seed"], list) else _fmt(m["per seed"])
        return (f"{_fmt(m['mean'])} ± {_fmt(m['sd'])} (per seed: {per})"
                + (f"; {_fmt(rest)}" if rest else ""))
    return _fmt(m)


def render_markdown(report: dict) -> str:
    s = report["summary"]
    smoke = [("**Smoke scale**: every trained recipe ran a handful of steps; these verdicts check that "
              "the tests run, and say nothing about the chapter."), ""] if is_smoke(report) else []
    lines = ["# Which of the chapter's claims hold", "", *smoke,
             f"**{summary_text(s)}**.", ""]
    by_section: dict[str, list] = {}
    for c in report["claims"]:
        by_section.setdefault(c["section"], []).append(c)
    for section, claims in by_section.items():
        lines += [f"## {registry.SECTIONS.get(section, section)}", "",
                  "| claim | the chapter | measured | tolerance | verdict | source |",
                  "|---|---|---|---|---|---|"]
        for c in claims:
            note = f" — {c['reason']}" if c.get("reason") and c["verdict"] != "holds" else ""
            src = ""
            if c["verdict"] in DECIDED:
                src = (f"{c.get('source')}: {c.get('tier')}, {c.get('device')}, "
                       f"seeds {c.get('seeds')}, {str(c.get('timestamp'))[:10]}")
            cell = lambda v: _fmt(v).replace("|", "\\|").replace("\n", " ")
            lines.append(f"| `{c['id']}` {cell(c['statement'])} | {cell(c['stated'])} | {cell(c['measured'])} "
                         f"| {cell(c['tolerance'])} | **{verdict_label(c)}**{cell(note)} | {cell(src)} |")
            # then one row per figure (per test): the chapter's number, ours, the tolerance, its verdict
            for t in sorted(c.get("tests", []), key=lambda t: t["nodeid"]):
                rec = t["records"][0] if t.get("records") else {}
                outcome = outcome_label(t)
                why = f" — {t['reason']}" if t.get("reason") and outcome != "holds" else ""
                lines.append(f"| &nbsp;&nbsp;↳ {cell(figure_name(t))} | {cell(rec.get('stated', NOT_RECORDED))} "
                             f"| {cell(measured_cell(rec.get('measured', NOT_RECORDED)))} "
                             f"| {cell(rec.get('tolerance', NOT_RECORDED))} | {outcome}{cell(why)} "
                             f"| {cell(str(t.get('source')) + ', ' + str(t.get('timestamp'))[:10])} |")
        lines.append("")
    return "\n".join(lines)
