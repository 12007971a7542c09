"""Attach a declared reading's committed runs to the figure record they are a reading of.

  python benchmarks/attach_declared_reading.py NAME KEY GROUP RECIPE [--metric val_ppl]

Reads results/GROUP.json (the runs of RECIPE, one value per seed, the latest run's date as the
reading's measurement date) and writes them into results/figures.json as the record KEY's
"reading" (textcheck/evidence.py), for `python -m claims.rederive` to decide with the
declaration (claims/readings_declared.py).  Measures nothing; decides nothing itself.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from claims.chapter import CHAPTER
from fixtures import results
from textcheck import evidence as figure_evidence
from textcheck.readings import declared_for
from textcheck.records import Reading, RunRef
from textcheck.run_refs import files_beside


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("name")
    p.add_argument("key")
    p.add_argument("group")
    p.add_argument("recipe")
    p.add_argument("--metric", default="val_ppl")
    a = p.parse_args(argv)
    declared_for(CHAPTER.readings, a.key, a.name)
    runs = sorted((r for r in results.load(a.group) if r.recipe == a.recipe), key=lambda r: r.seed)
    if not runs:
        print(f"results/{a.group}.json: no runs of {a.recipe}", file=sys.stderr)
        return 2
    path = ROOT / "results" / "figures.json"
    records = figure_evidence.load(CHAPTER, path)
    (rec,) = [r for r in records if r.key == a.key]
    reading = Reading(name=a.name, measured={"values": [r.metrics[a.metric] for r in runs]}, date=max(r.date for r in runs),
                      runs=[RunRef(group=a.group, recipe=r.recipe, seed=r.seed, key=r.key) for r in runs])
    attached = replace(rec, reading=reading)
    attached = replace(attached, verdict=figure_evidence.redecide(CHAPTER, attached).verdict)
    records = [attached if r is rec else r for r in records]
    path.write_text(figure_evidence.dumps(CHAPTER, records, files_beside(path)))
    print(f"{a.key}: {attached.verdict}: {figure_evidence.redecide(CHAPTER, attached).why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
