"""One-off: results/figures.json from schema 1 (records carried their rule inputs, "decision") to
schema 2 (measured values only), each record decided again under the current rules, and
results/verdicts.json brought into line (its tests' rule IDs, outcomes and reasons, its claims
summarised again).  Reads committed evidence only; trains and measures nothing.

  python benchmarks/migrate_figures_schema2.py [--check]

A schema-1 "checks" record becomes an ordering (its per-seed conditions paired by seed) or a
bound (a single measurement); scale.no_effect_at_32's ordering recorded only the mean gain, so its
per-seed gains are read from the scale.worth_32 record of the same runs.  A record whose values
the new rule cannot decide from (the Winograd routing sentences, recorded as a share of rows, not
the per-seed level the rule now reads) keeps its old rule ID and no measured values: stale, with
the command that measures it again.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from claims import figure_evidence
from claims.figure_evidence import outcome_of
from claims.record_rules import decide, spec_for
from claims.rule_versions import rule_id
from claims.verdicts import COMMITTED_TIERS, record_key, summarise_claim


def _comparisons(conditions) -> dict:
    out: dict = {}
    for label, a, _op, b in conditions:
        m = re.fullmatch(r"seed \d+: (.*)", label, re.DOTALL)
        pair = out.setdefault(m.group(1) if m else label, {"a": [], "b": []})
        pair["a"].append(a)
        pair["b"].append(b)
    return out


def measured_of(rec: dict, by_key: dict) -> dict | None:
    """The measured values of a schema-1 record, in the shape its spec's kind holds; None where
    they cannot be had from it."""
    dec, spec = rec["decision"], spec_for(rec["key"])
    if dec is None:
        return None
    kind = dec["kind"]
    if spec.kind == "trained" and kind == "trained":
        return {"values": dec["values"]}
    if spec.kind == "rate" and kind == "rate":
        return {"values": dec["values"], "n_items": dec["n_items"]}
    if spec.kind == "within" and kind == "within":
        return {"value": dec["value"]}
    if spec.kind == "timed" and kind == "timed":
        return {"value": dec["value"], "interval": dec["interval"]}
    if spec.kind == "bounds" and kind == "checks":
        return {"conditions": {label: [a, b] for label, a, _op, b in dec["conditions"]}}
    if spec.kind == "ordering" and kind == "checks":
        if rec["key"] == "scale.no_effect_at_32: undivided ahead at d_k = 32":
            worth = by_key["scale.worth_32"]
            assert worth["runs"] == rec["runs"], "the gains must be of the same runs"
            gains = worth["decision"]["values"]
            assert abs(sum(gains) / len(gains) - dec["conditions"][0][1]) < 1e-12, "the same mean gain"
            return {"comparisons": {"the divided model's gain below 0": {"a": gains, "b": [0] * len(gains)}}}
        return {"comparisons": _comparisons(dec["conditions"])}
    return None


def migrate(records: list[dict]) -> tuple[list[dict], dict]:
    by_key = {r["key"]: r for r in records}
    out, moved = [], {}
    for rec in records:
        new = {k: v for k, v in rec.items() if k != "decision"}
        measured = measured_of(rec, by_key)
        spec = spec_for(rec["key"])
        if measured is None:
            new["measured"] = None                       # stale: its old rule ID stays
        else:
            new["measured"] = measured
            new["rule"] = rule_id(spec.rule)
            decision = decide(spec, measured)
            new["verdict"] = decision.verdict
            if decision.verdict != rec["verdict"]:
                moved[rec["key"]] = (rec["verdict"], decision.verdict, decision.why)
        out.append(new)
    return out, moved


def align_verdicts(verdicts: dict, records: list[dict]) -> dict:
    """verdicts.json's committed tests: the rule ID and outcome of their figure records; a moved
    outcome's reason generated from the decision; every claim summarised again."""
    by_key = {r["key"]: r for r in records}
    claims = []
    for c in verdicts["claims"]:
        tests = []
        for t in c["tests"]:
            t = json.loads(json.dumps(t))
            if t.get("tier") in COMMITTED_TIERS and t["outcome"] in ("holds", "refuted"):
                recs = [(rec, by_key.get(record_key(rec, c["id"]))) for rec in t["records"]]
                if all(f is not None for _, f in recs):
                    for rec, f in recs:
                        rec["rule"] = f["rule"]
                    current = [f for _, f in recs if f["measured"] is not None]
                    if len(current) == len(recs):
                        outcome = outcome_of([f["verdict"] for _, f in recs])
                        if outcome != t["outcome"]:
                            whys = [f"{f['key']}: {decide(spec_for(f['key']), f['measured']).why}"
                                    for _, f in recs if f["verdict"] == outcome]
                            t["reason"] = f"{outcome}: " + "; ".join(whys)
                            t["outcome"] = outcome
            tests.append(t)
        s = summarise_claim(c["id"], tests, encoded=True)
        claims.append({k: s.get(k, c.get(k)) for k in c})
    return {**verdicts, "claims": claims}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true", help="print what moves, write nothing")
    a = p.parse_args(argv)
    fig_path, ver_path = ROOT / "results" / "figures.json", ROOT / "results" / "verdicts.json"
    old = json.loads(fig_path.read_text(encoding="utf-8"))
    if old.get("schema") != 1:
        print(f"{fig_path}: schema {old.get('schema')}, not 1: nothing to migrate")
        return 0
    records, moved = migrate(old["records"])
    for key, (was, now, why) in sorted(moved.items()):
        print(f"{key}: {was} -> {now} ({why[:240]})")
    stale = [r["key"] for r in records if r["measured"] is None]
    print(f"{len(records)} records, {len(moved)} moved, {len(stale)} stale: {', '.join(stale)}")
    if a.check:
        return 0
    verdicts = align_verdicts(json.loads(ver_path.read_text(encoding="utf-8")), records)
    fig_path.write_text(figure_evidence.dumps(records), encoding="utf-8")
    ver_path.write_text(json.dumps(verdicts, indent=1, default=str), encoding="utf-8")     # as claims/save.py writes it
    return 0


if __name__ == "__main__":
    sys.exit(main())
