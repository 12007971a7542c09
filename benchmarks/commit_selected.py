"""Commit the figure records and verdicts of selected tests of one run, leaving every other
committed entry byte for byte as it is.

  python benchmarks/commit_selected.py REPORT_DIR NODEID_SUBSTRING [...]

Why not `python -m claims.report --save-results`: the save (claims/save.py) keeps the figure
records of tests that hold or are refuted only, so since the third outcome it drops every
undecided test's records from results/figures.json (35 of them on 2026-12-03), and a save of one
test would delete them.  Until the save keeps them, this commits one run's selected tests the way
the save would (claims/figure_evidence.py from_test for the records, their claims summarised
again by claims/verdicts.py summarise_claim) and nothing else.  It decides nothing itself.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from claims import figure_evidence
from claims.verdicts import evidence_key, summarise_claim


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("report_dir")
    p.add_argument("select", nargs="+", help="substrings of the node IDs to commit")
    a = p.parse_args(argv)
    fresh = json.loads((Path(a.report_dir) / "claims.json").read_text())
    meta = fresh.get("meta") or {}
    fig_path, ver_path = ROOT / "results" / "figures.json", ROOT / "results" / "verdicts.json"
    records = figure_evidence.load(fig_path)
    verdicts = json.loads(ver_path.read_text())
    by_id = {c["id"]: c for c in verdicts["claims"]}
    done = []
    for c in fresh["claims"]:
        for t in c.get("tests", []):
            if not any(s in t["nodeid"] for s in a.select) or t["outcome"] not in figure_evidence.VERDICTS:
                continue
            new = figure_evidence.from_test(dict(t, claims=[c["id"]]), meta)
            keys = {r["key"] for r in new}
            records = [r for r in records if r["key"] not in keys] + new
            key = evidence_key(t, c["id"])
            entry = dict(t, key=key, source="committed",
                         records=[{k: v for k, v in r.items() if k != "decision"} for r in t["records"]])
            committed = by_id[c["id"]]
            tests = [x for x in committed["tests"] if x.get("key") != key] + [entry]
            by_id[c["id"]] = summarise_claim(c["id"], tests, True)
            done.append(f"{c['id']}: {t['nodeid']} ({t['outcome']}) as {key}")
    if not done:
        print("nothing selected", file=sys.stderr)
        return 2
    records.sort(key=lambda r: r["key"])
    fig_path.write_text(figure_evidence.dumps(records))
    out = {"claims": [by_id[k] for k in sorted(by_id)]}
    out["claims"] = [{**c, "tests": [{**t, "records": [{k: v for k, v in r.items() if k != "decision"}
                                                        for r in t.get("records") or []]} for t in c["tests"]],
                      **({"records": [{k: v for k, v in r.items() if k != "decision"} for r in c["records"]]}
                         if "records" in c else {})} for c in out["claims"]]
    ver_path.write_text(json.dumps(out, indent=1, default=str))
    print("\n".join(done))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
