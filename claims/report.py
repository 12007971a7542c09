"""Render the claim report.

  python -m claims.report                  # report/claims.json + results/verdicts.json
                                           #   -> report/merged.json, report/claims.md
  python -m claims.report --save-results   # also keep this run's verdicts and evidence in results/

A fresh run only knows the claims whose tests it ran; trained claims are expensive, so their
verdicts are committed (results/verdicts.json) and merged here: for each claim the newest
evidence that reached a verdict wins, and keeps its source (tier, device, date).  Without a
fresh run the committed verdicts are rendered alone, and the report says so.

Imports no torch: rendering needs only the JSON, the registry and matplotlib.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

from claims import registry
from claims.save import load_verdicts, save_run
from claims.verdicts import (
    DECIDED,
    encoded_in_source,
    is_smoke,
    merge,
    outcome_label,
    still_defined,
    summarise_claim,
    summary_of,
    summary_text,
    verdict_label,
)
from data.files import atomic_write
from data.paths import PROJECT_ROOT, CheckoutError, require_checkout
from fixtures.results import EvidenceError, read_json

ROOT = PROJECT_ROOT
RESULTS = ROOT / "results" / "verdicts.json"


def _load(path: Path) -> dict:
    return load_verdicts(path)


def _write(path: Path, obj) -> None:
    atomic_write(path, json.dumps(obj, indent=1, default=str))


def committed_only(committed: dict) -> dict:
    """A report with no fresh run: every registered claim from the committed evidence alone."""
    old = {c["id"]: c for c in committed.get("claims", [])}
    encoded = encoded_in_source()
    claims = [summarise_claim(cid, [dict(t, source="committed") for t in old.get(cid, {}).get("tests", [])
                                    if t["outcome"] in DECIDED and still_defined(t["nodeid"])], cid in encoded)
              for cid in registry.CLAIMS]
    return {"summary": summary_of(claims), "claims": claims,
            "meta": {"source": "committed verdicts only (no fresh run)"}}


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


BADGE_COLORS = [(1.0, "brightgreen"), (0.8, "green"), (0.6, "yellowgreen"), (0.4, "yellow"),
                (0.2, "orange"), (0.0, "red")]


HEX = {"brightgreen": "#4c1", "green": "#97ca00", "yellowgreen": "#a4a61d", "yellow": "#dfb317",
       "orange": "#fe7d37", "red": "#e05d44", "lightgrey": "#9f9f9f"}    # shields.io's palette


def _color(share: float) -> str:
    return next(c for limit, c in BADGE_COLORS if share >= limit)


def badges(report: dict, out: Path) -> list[Path]:
    """An overall badge and one per section: SVG (anybadge, made locally) and a shields.io
    endpoint JSON beside each.  "hold" counts holds among the claims with a verdict."""
    import anybadge
    out.mkdir(parents=True, exist_ok=True)
    groups = {"overall": report["claims"]}
    for c in report["claims"]:
        groups.setdefault(c["section"], []).append(c)
    written = []
    for name, claims in groups.items():
        decided = [c for c in claims if c["verdict"] in DECIDED]
        holds = sum(c["verdict"] == "holds" for c in claims)
        value = f"{holds}/{len(claims)} hold"
        color = _color(holds / len(claims)) if decided else "lightgrey"
        if any(c["verdict"] == "fails" for c in claims):
            color = "red"
        label = "claims" if name == "overall" else f"claims: {name}"
        svg = out / f"{name}.svg"
        anybadge.Badge(label=label, value=value, default_color=HEX[color]).write_badge(str(svg), overwrite=True)
        (out / f"{name}.json").write_text(json.dumps({"schemaVersion": 1, "label": label,
                                                      "message": value, "color": color}))
        written.append(svg)
    return written


def render_html(report: dict, plots: list[Path], badge_dir: Path | None = None, tables_html: str = "") -> str:
    """One static page, the plots inlined, readable from file:// without a server."""
    import base64
    import html
    s = report["summary"]
    rows, section = [], None
    for c in report["claims"]:
        if c["section"] != section:
            section = c["section"]
            rows.append(f"<tr class='section'><th colspan='6'>{html.escape(registry.SECTIONS.get(section, section))}</th></tr>")
        cls = c["verdict"].replace(" ", "-")
        rows.append(f"<tr class='{cls}'><td><code>{html.escape(c['id'])}</code><br>{html.escape(c['statement'])}</td>"
                    f"<td>{html.escape(_fmt(c['stated']))}</td><td>{html.escape(_fmt(c['measured']))}</td>"
                    f"<td>{html.escape(_fmt(c['tolerance']))}</td><td><b>{html.escape(verdict_label(c))}</b> "
                    f"{html.escape(c.get('reason') or '') if c['verdict'] != 'holds' else ''}</td>"
                    f"<td>{html.escape(_source(c))}</td></tr>")
        rows += [_figure_row(c["id"], t) for t in sorted(c.get("tests", []), key=lambda t: t["nodeid"])]
    badge_dir = badge_dir or Path()
    badge_imgs = " ".join(
        f"<img class='badge' alt='{p.stem}' src='data:image/svg+xml;base64,{base64.b64encode(p.read_bytes()).decode()}'>"
        for p in sorted(badge_dir.glob("*.svg"), key=lambda p: (p.stem != "overall", p.stem)))
    figs = "".join(
        f"<figure><img alt='{p.stem}' src='data:image/png;base64,{base64.b64encode(p.read_bytes()).decode()}'>"
        f"<figcaption>{p.name}</figcaption></figure>" for p in plots)
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>attention-claims report</title>
<style>body{{font-family:sans-serif;margin:2em;max-width:1400px}}table{{border-collapse:collapse;width:100%}}
td,th{{border:1px solid #ccc;padding:4px;font-size:13px;vertical-align:top}}tr.holds{{background:#e9f7ea}}
tr.refuted{{background:#fdf1dc}}tr.stale{{background:#eee8f5}}tr.fails{{background:#fbe0e0}}tr.not-run,tr.not-encoded{{color:#777}}
tr.section th{{background:#eef;text-align:left}}tr.figure td{{font-size:12px;color:#333}}
td.figure-name{{padding-left:1.5em}}figure{{display:inline-block;margin:1em}}figure img{{max-width:640px}}img.badge{{margin:2px}}</style></head><body>
<h1>Which of the chapter's claims hold</h1>
{"<p id='smoke'><b>Smoke scale</b>: every trained recipe ran a handful of steps; these verdicts check that the tests run, and say nothing about the chapter.</p>" if is_smoke(report) else ""}
<p id="summary">{summary_text(s)}.</p>
{badge_imgs}
<table id="claims"><tr><th>claim</th><th>the chapter</th><th>measured</th><th>tolerance</th><th>verdict</th><th>source</th></tr>
{''.join(rows)}</table><h2>Plots</h2>{figs or '<p>No plots yet: run the slow or gpu tier.</p>'}
{tables_html}</body></html>"""


NOT_RECORDED = "(not recorded)"


def _figure_row(cid: str, t: dict) -> str:
    """One row per test of a claim, that is per figure it checks: its stated, measured and
    tolerance, its outcome and why."""
    import html
    rec = t["records"][0] if t.get("records") else {}
    name = figure_name(t)
    cells = [html.escape((measured_cell if k == "measured" else _fmt)(rec[k])) if k in rec and rec[k] is not None
             else NOT_RECORDED for k in ("stated", "measured", "tolerance")]
    outcome = outcome_label(t)
    reason = html.escape(t.get("reason") or "") if outcome != "holds" else ""
    src = html.escape(f"{t.get('source')}: {t.get('tier')}, {t.get('device')}, {str(t.get('timestamp'))[:10]}")
    cls = outcome.split(":")[0].replace(" ", "-")
    return (f"<tr class='figure {cls}' data-claim='{html.escape(cid)}'>"
            f"<td class='figure-name'>&#8627; {html.escape(name)}</td><td>{cells[0]}</td><td>{cells[1]}</td>"
            f"<td>{cells[2]}</td><td><b>{html.escape(outcome)}</b> {reason}</td><td>{src}</td></tr>")


def _source(c: dict) -> str:
    if c["verdict"] not in DECIDED:
        return ""
    return (f"{c.get('source')}: {c.get('tier')}, {c.get('device')}, seeds {c.get('seeds')}, "
            f"{str(c.get('timestamp'))[:10]}, torch {c.get('torch')}")


# The generated blocks: (file, start marker, end marker).  The README shows the badges and the
# summary line; docs/claims.md the table of every claim.
README_BLOCKS = {"badges": ("README.md", "<!-- badges:start -->", "<!-- badges:end -->"),
                 "summary": ("README.md", "<!-- claims-summary:start -->", "<!-- claims-summary:end -->"),
                 "table": ("docs/claims.md", "<!-- claims-table:start -->", "<!-- claims-table:end -->")}
BADGES = ROOT / "results" / "badges"          # committed: the README shows them, offline too


def readme_report(fresh: dict, committed: dict) -> dict:
    """The report the README shows: the committed verdicts merged with the fresh run's fast
    tests only, so that it does not depend on which other tiers or extras the run had."""
    fast = {**fresh, "claims": [dict(c, tests=[t for t in c.get("tests", []) if t.get("tier") == "fast"])
                                for c in fresh.get("claims", [])]}
    return merge(fast, committed)


def weakened(report: dict, root: Path) -> list[str]:
    """Claims the committed table (docs/claims.md) shows decided that this report would show not
    run (a run without the fast tier, or without an extra some of its tests need)."""
    shown = {}
    for line in readme_block(root, "table").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].startswith("`"):
            shown[cells[0].strip("`")] = cells[2].split(" (")[0]
    return [c["id"] for c in report["claims"]
            if shown.get(c["id"]) in DECIDED and c["verdict"] in ("not run", "not encoded")]


def readme_table(report: dict) -> str:
    s = report["summary"]
    lines = [f"{summary_text(s)}.", "",
             "| claim | the chapter | verdict | source |", "|---|---|---|---|"]
    for c in report["claims"]:
        evidence = ""
        if c["verdict"] in DECIDED:
            evidence = f"{c.get('tier')}, {c.get('device')}"
            if c.get("tier") in ("gpu", "slow"):
                evidence += f", {c.get('seeds')} seed(s)"
        lines.append(f"| `{c['id']}` | {registry.get(c['id']).figure.replace('|', '/')} | {verdict_label(c)} "
                     f"| {evidence} |")
    return "\n".join(lines)


def readme_badges(report: dict) -> str:
    """The overall badge and one per section, as relative image links to results/badges/."""
    sections = list(dict.fromkeys(c["section"] for c in report["claims"]))
    return " ".join(f"![{'claims' if name == 'overall' else 'claims: ' + name}](results/badges/{name}.svg)"
                    for name in ["overall", *sections])


def generated(report: dict) -> dict[str, str]:
    """The body of each generated block (README_BLOCKS) for this report."""
    return {"badges": readme_badges(report), "summary": f"{summary_text(report['summary'])}.",
            "table": readme_table(report)}


def readme_block(root: Path, which: str = "table") -> str:
    name, start, end = README_BLOCKS[which]
    path = Path(root) / name
    text = path.read_text() if path.exists() else ""
    if start not in text or end not in text:
        return ""
    return text.split(start, 1)[1].split(end, 1)[0].strip()


def rewrite_readme(report: dict, root: Path) -> bool:
    """Rewrite the generated blocks (the README's badges and summary, docs/claims.md's table)."""
    changed = False
    for which, body in generated(report).items():
        name, start, end = README_BLOCKS[which]
        path = Path(root) / name
        text = path.read_text()
        if start not in text or end not in text:
            raise SystemExit(f"{path}: no {start} ... {end} block to rewrite")
        head, rest = text.split(start, 1)
        _, tail = rest.split(end, 1)
        new = f"{head}{start}\n{body}\n{end}{tail}"
        if new != text:
            atomic_write(path, new)
            changed = True
    return changed


def badge_drift(fresh: Path, committed: Path) -> list[str]:
    """Badges that differ between a fresh render and the committed ones (both directions)."""
    names = {p.name for p in fresh.glob("*.svg")} | {p.name for p in fresh.glob("*.json")}
    names |= {p.name for p in committed.glob("*.svg")} | {p.name for p in committed.glob("*.json")}
    return sorted(n for n in names if not (fresh / n).exists() or not (committed / n).exists()
                  or (fresh / n).read_bytes() != (committed / n).read_bytes())


def main(argv=None) -> int:
    try:
        return _main(argv)
    except EvidenceError as e:             # a corrupt committed or run file: named, nothing written to results/
        print(f"python -m claims.report: {e}", file=sys.stderr)
        return 2


def _main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m claims.report", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--save-results", action="store_true",
                   help="keep this run's decided verdicts (results/verdicts.json) and the evidence its "
                        "manifest lists (records, rows, tables, plots) in results/")
    p.add_argument("--replace-weaker", action="store_true",
                   help="with --save-results: let this run's verdict replace a committed one decided on "
                        "more seeds (by default the stronger committed evidence is kept)")
    p.add_argument("--readme", action="store_true",
                   help="rewrite the generated blocks (README.md's badges and summary, docs/claims.md's table) "
                        "from the committed verdicts and this run's fast claims")
    p.add_argument("--check-readme", action="store_true",
                   help="exit 1 if a generated block (README.md, docs/claims.md) or a badge differs from the report")
    p.add_argument("--report-dir", default="report",
                   help="the run's report directory; a relative one is taken from the project root, "
                        "as pytest's --report-dir is")
    a = p.parse_args(argv)
    try:
        require_checkout("python -m claims.report")
    except CheckoutError as e:
        print(e, file=sys.stderr)
        return 2
    from claims.plots import ladder_plot, norm_plot, scale_plot
    from fixtures.evidence import Evidence
    out = ROOT / a.report_dir                          # ROOT / an absolute path is that path
    out.mkdir(parents=True, exist_ok=True)
    evidence = Evidence(out)
    fresh_path = out / "claims.json"
    fresh = read_json(fresh_path, "run's claim report") if fresh_path.exists() else None
    if fresh is None:
        print(f"no fresh run in {out} (no claims.json): rendering the committed verdicts alone; "
              "run `pytest -m fast` for a fresh one", file=sys.stderr)
    # The plots of the committed training results, drawn first so that --save-results keeps them.
    run_evidence = set(evidence.manifest())             # what the run itself wrote, before the plots
    for plot in (ladder_plot, scale_plot, norm_plot):
        path = plot(out)
        if path is not None:
            evidence.add(path.name)
    # a smoke run's verdicts mean nothing about the chapter: rendered alone and labelled, never
    # merged with the committed ones, saved, put in the README or made into badges
    if is_smoke(fresh) and (a.save_results or a.readme or a.check_readme):
        print(f"{fresh_path} is a --smoke run (a handful of steps per recipe): its verdicts are never "
              "saved or put in the README; run the tier at the chapter's scale", file=sys.stderr)
        return 2
    if a.save_results and fresh is None:
        # a run of evidence without verdicts (claims/test_readings.py): keep its evidence alone
        if not run_evidence:
            print("--save-results: no fresh run to save", file=sys.stderr)
            return 2
        print("--save-results: no verdicts in this run; saving its evidence alone", file=sys.stderr)
        for line in evidence.save():
            print(f"saved {line}")
        a.save_results = False
    if a.save_results:
        for line in save_run(fresh, evidence, RESULTS.parent, a.replace_weaker):
            print(line)
    if is_smoke(fresh):
        merged = fresh
    else:
        merged = merge(fresh, _load(RESULTS)) if fresh is not None else committed_only(_load(RESULTS))
    _write(out / "merged.json", merged)
    (out / "claims.md").write_text(render_markdown(merged))
    if is_smoke(fresh):
        shutil.rmtree(out / "badges", ignore_errors=True)
    else:
        badges(merged, out / "badges")
    fresh_plots = sorted(out.glob("*.png"))
    plots = fresh_plots + [p for p in sorted((ROOT / "results").glob("*.png"))
                           if p.name not in {f.name for f in fresh_plots}]
    from claims import errata, tables
    chapter_tables = tables.build(merged, ROOT / "results")
    (out / "tables.md").write_text(tables.render(chapter_tables))
    errata_md = errata.render(errata.build(merged, ROOT / "results", out))
    (out / "errata.md").write_text(errata_md)
    (out / "index.html").write_text(render_html(merged, plots, out / "badges", tables.render_html(
        chapter_tables) + tables.render_html([("Errata", errata_md.split("\n", 1)[1])])))
    # The README's table is a function of the committed verdicts and the fast claims alone, the
    # same whichever tiers the run selected (`-m fast` or `-m "not slow"`)
    table = readme_report(fresh, _load(RESULTS)) if fresh is not None and not is_smoke(fresh) else merged
    if a.readme:
        lost = weakened(table, ROOT)
        if lost:
            print(f"--readme: this run lacks verdicts the committed README table has ({', '.join(lost)}); "
                  "nothing rewritten. Run the fast tier with every extra first: pip install -e '.[test]' && "
                  "pytest -m fast", file=sys.stderr)
            return 2
        rewrite_readme(table, ROOT)
        # the very files just rendered (anybadge numbers its ids per process: a second render differs)
        shutil.rmtree(BADGES, ignore_errors=True)
        shutil.copytree(out / "badges", BADGES)
    if a.check_readme:
        drift = [f"the {which} block of {README_BLOCKS[which][0]}" for which, body in generated(table).items()
                 if readme_block(ROOT, which) != body.strip()]
        drift += [f"results/badges/{n}" for n in badge_drift(out / "badges", BADGES)]
        if drift:
            print(f"the generated blocks differ from the report ({', '.join(drift)}): run "
                  "`python -m claims.report --readme` after a full fast run and commit it", file=sys.stderr)
            return 1
    s = merged["summary"]
    print(("SMOKE SCALE: " if is_smoke(merged) else "") + f"{out / 'claims.md'}: {summary_text(s)}"
          + ("" if fresh is not None else " (committed verdicts only)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
