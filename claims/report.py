"""Render the claim report.

  python -m claims.report                  # report/claims.json + results/verdicts.json
                                           #   -> report/merged.json, report/claims.md
  python -m claims.report --save-results   # also keep this run's verdicts in results/verdicts.json

A fresh run only knows the claims whose tests it ran; trained claims are expensive, so their
verdicts are committed (results/verdicts.json) and merged here: for each claim the newest
evidence that reached a verdict wins, and keeps its source (tier, device, date).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from claims import registry
from claims.plugin import DECIDED, VERDICTS, summarise_claim, summary_of

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results" / "verdicts.json"
def _load(path: Path) -> dict:
    return json.loads(path.read_text()) if path.exists() else {"claims": []}


def _write(path: Path, obj) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(obj, indent=1, default=str))
    os.replace(tmp, path)


def merge(fresh: dict, committed: dict) -> dict:
    """Per test, the newest decided evidence wins (a fresh fast run does not hide a committed
    trained result of the same claim); each claim is then summarised again from its tests."""
    old = {c["id"]: c for c in committed.get("claims", [])}
    out = []
    for c in fresh.get("claims", []):
        tests = {t["nodeid"]: t for t in c.get("tests", [])}
        for t in old.get(c["id"], {}).get("tests", []):
            mine = tests.get(t["nodeid"])
            if t["outcome"] in DECIDED and (mine is None or mine["outcome"] not in DECIDED
                                            or t["timestamp"] > mine["timestamp"]):
                tests[t["nodeid"]] = dict(t, source="committed")
        out.append(summarise_claim(c["id"], list(tests.values()), c["verdict"] != "not encoded"))
    return {"summary": summary_of(out), "meta": fresh.get("meta", {}), "claims": out}


def _fmt(x) -> str:
    if x is None:
        return ""
    if isinstance(x, float):
        return f"{x:.4g}"
    if isinstance(x, dict):
        return "; ".join(f"{k}: {_fmt(v)}" for k, v in x.items())
    if isinstance(x, list):
        return ", ".join(_fmt(v) for v in x[:8]) + (" ..." if len(x) > 8 else "")
    return str(x)


def render_markdown(report: dict) -> str:
    s = report["summary"]
    lines = ["# Which of the chapter's claims hold", "",
             f"**{s['holds']} hold, {s['refuted']} refuted, {s['fails']} fail, {s['not run']} not run, "
             f"{s['not encoded']} not encoded** (of {s['total']}).", ""]
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
                         f"| {cell(c['tolerance'])} | **{c['verdict']}**{cell(note)} | {cell(src)} |")
        lines.append("")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m claims.report", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--report-dir", default=str(ROOT / "report"))
    p.add_argument("--save-results", action="store_true",
                   help="keep this run's decided verdicts in results/verdicts.json")
    a = p.parse_args(argv)
    out = Path(a.report_dir)
    fresh_path = out / "claims.json"
    if not fresh_path.exists():
        print(f"no {fresh_path}: run `pytest -m fast` first", file=sys.stderr)
        return 2
    fresh = json.loads(fresh_path.read_text())
    if a.save_results:
        kept = {c["id"]: c for c in _load(RESULTS)["claims"]}
        kept.update({c["id"]: c for c in merge(fresh, _load(RESULTS))["claims"]
                     if c["verdict"] in DECIDED and c["tier"] != "fast"})
        RESULTS.parent.mkdir(exist_ok=True)
        _write(RESULTS, {"claims": sorted(kept.values(), key=lambda c: c["id"])})
    merged = merge(fresh, _load(RESULTS))
    _write(out / "merged.json", merged)
    (out / "claims.md").write_text(render_markdown(merged))
    s = merged["summary"]
    print(f"{out / 'claims.md'}: {s['holds']} hold, {s['refuted']} refuted, {s['fails']} fail, "
          f"{s['not run']} not run, {s['not encoded']} not encoded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
