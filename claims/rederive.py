"""Check that the committed verdicts are what today's code and rules decide.

  pytest -m trained --device cpu --from-results --cached-only --report-dir=report/rederived
  python -m claims.rederive --report-dir=report/rederived

The pytest run re-decides every trained figure that the committed run records can decide (their
perplexities and accuracies, results/<group>.json) and skips, naming them, the figures that need
a model's weights that are not in this machine's cache.  This command then compares each
re-decided figure with its committed verdict (results/verdicts.json), prints the counts and
every difference (the figure, the committed verdict and the fresh one), lists the committed
verdicts decided under an older version of their rule (claims/rule_versions.py), and exits 1 when a
re-decided verdict differs or when nothing at all was re-decided.  Imports no torch.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from claims.rule_versions import stale_rules
from claims.verdicts import DECIDED, base_nodeid, still_defined
from data.paths import PROJECT_ROOT, checkout_commit

ROOT = PROJECT_ROOT
COMMITTED = ROOT / "results" / "verdicts.json"
NEEDS_WEIGHTS = "is not in the trained cache"       # fixtures.engine.NotCached's message


def _tests(report: dict) -> dict[str, dict]:
    return {base_nodeid(t["nodeid"]): dict(t, claim=c["id"]) for c in report.get("claims", [])
            for t in c.get("tests", [])}


def compare(fresh: dict, committed: dict) -> dict:
    """{"agree": [...], "differ": [(nodeid, committed, fresh, reason)], "need_weights": [...],
    "not_rederived": [(nodeid, why)], "new": [...], "stale": [(nodeid, outcome, rules)]}."""
    old = {k: t for k, t in _tests(committed).items() if still_defined(k)}
    new = _tests(fresh)
    out = {"agree": [], "differ": [], "need_weights": [], "not_rederived": [], "new": [], "stale": []}
    for key, t in sorted(new.items()):
        was = old.get(key)
        if t["outcome"] in DECIDED:
            if was is None or was["outcome"] not in DECIDED:
                out["new"].append(key)
            elif was["outcome"] == t["outcome"]:
                out["agree"].append(key)
            else:
                out["differ"].append((key, was["outcome"], t["outcome"], t.get("reason") or ""))
        elif was is not None and was["outcome"] in DECIDED:
            reason = t.get("reason") or ""
            (out["need_weights"] if NEEDS_WEIGHTS in reason else out["not_rederived"]).append(
                key if NEEDS_WEIGHTS in reason else (key, reason.splitlines()[0] if reason else "not run"))
    for key, t in sorted(old.items()):
        if t["outcome"] in DECIDED and stale_rules(t):
            out["stale"].append((key, t["outcome"], stale_rules(t)))
    return out


def render(result: dict) -> str:
    n = len(result["agree"]) + len(result["differ"])
    lines = [(f"re-derived {n} committed figure verdicts from the committed evidence: "
             f"{len(result['agree'])} agree, {len(result['differ'])} differ"),
             f"need weights not cached here (not re-derived): {len(result['need_weights'])} figures"]
    for key, was, now, reason in result["differ"]:
        lines.append(f"  DIFFERS {key}: committed {was}, fresh {now}" + (f" ({reason[:300]})" if reason else ""))
    if result["not_rederived"]:
        lines.append(f"committed, but this run decided nothing for them: {len(result['not_rederived'])}")
        lines += [f"  {key}: {why[:200]}" for key, why in result["not_rederived"]]
    if result["new"]:
        lines.append(f"decided now, with no committed verdict: {len(result['new'])}")
        lines += [f"  {key}" for key in result["new"]]
    if result["stale"]:
        lines.append(f"committed verdicts decided under an older rule (shown as stale): {len(result['stale'])}")
        lines += [f"  {key}: {outcome} under {', '.join(rules)}" for key, outcome, rules in result["stale"]]
    return "\n".join(lines)


def why_not_rederivable(fresh: dict, head: str | None) -> str | None:
    """Why a run's report cannot stand for today's re-derivation, or None: it must be a
    --from-results run (decided from the committed records, not from models trained or loaded
    now), at the chapter's scale (never --smoke), made at the commit checked out here."""
    meta = fresh.get("meta") if isinstance(fresh, dict) and isinstance(fresh.get("meta"), dict) else {}
    if meta.get("scale") == "smoke":
        return "a --smoke run (a handful of steps per recipe): its verdicts say nothing about the committed ones"
    if meta.get("from_results") is not True:
        return ("not a --from-results run: its verdicts come from models trained or loaded now, not from the "
                "committed evidence; run the pytest step of --help")
    if head is not None and meta.get("commit") != head:
        return (f"made at commit {meta.get('commit') or 'unknown'}, but this checkout is at {head}: rerun the "
                "pytest step of --help here")
    return None


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m claims.rederive", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--report-dir", required=True, help="the report dir of the --from-results run")
    p.add_argument("--committed", default=str(COMMITTED), help="the committed verdicts (results/verdicts.json)")
    a = p.parse_args(argv)
    fresh_path, committed_path = Path(a.report_dir) / "claims.json", Path(a.committed)
    for path in (fresh_path, committed_path):
        if not path.is_file():
            print(f"{path}: not found (run the --from-results pytest run first: see --help)", file=sys.stderr)
            return 2
    loaded = []
    for path in (fresh_path, committed_path):
        try:
            loaded.append(json.loads(path.read_text()))
        except json.JSONDecodeError as e:
            print(f"{path}: not valid JSON ({e})", file=sys.stderr)
            return 2
    head = checkout_commit()
    refused = why_not_rederivable(loaded[0], head)
    if refused:
        print(f"{fresh_path}: {refused}", file=sys.stderr)
        return 2
    if head is None:
        print(f"{fresh_path}: the commit it was made at could not be checked here (no git repository)",
              file=sys.stderr)
    result = compare(*loaded)
    print(render(result))
    if result["differ"]:
        return 1
    if not result["agree"]:
        print("nothing was re-derived: the --from-results run decided no committed figure", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
