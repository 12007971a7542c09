"""`python -m examples.running_mean.report --report-dir DIR`: the text's report, rendered by the
engine (claimcheck/report/): its committed verdicts (results/) merged with the run in DIR where
there is one (its claims.json, from `pytest -c examples/running_mean/pytest.ini examples/running_mean
--report-dir DIR`), written as merged.json, claims.md, index.html, the badges and the chapter view
(chapter.html, chapter.md: the text with every asserted figure marked by its verdict).

The text's own parts of the report (`PARTS`) are few: its errata (one per refuted claim, its quote
and cause from tables.py ERRATA, the suggested sentence that quote with our measurement in place
of the printed figure), no tables or plots of its own; since when each verdict stands and what each
mark shows are the engine's, from this text's root; its cut is the engine's, with its headings
(tables.py HEADINGS).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from claimcheck.files import checkout_of, not_its_own_folder
from claimcheck.formats import like
from claimcheck.report import publish
from claimcheck.report.model import details, since
from claimcheck.report.model.chapter.cut import View, cut
from claimcheck.report.model.report import Parts, assemble, merged_verdicts
from claimcheck.save import load_verdicts
from claimcheck.store import read_json
from examples.running_mean import tables
from examples.running_mean.chapter import CHAPTER

RESULTS = CHAPTER.root / "results"
VIEW = View(headings=tables.HEADINGS)



def _measured(row: dict) -> float | None:
    m = row.get("measured")
    return m.get("mean") if isinstance(m, dict) else m


def errata(merged: dict, *args, **kwargs) -> list[dict]:
    """One entry per refuted claim (the fields the engine's views show: claimcheck/report/views/errata.py)."""
    out = []
    for c in merged.get("claims", []):
        if c["verdict"] != "refuted":
            continue
        quote, cause = tables.ERRATA.get(c["id"], (None, ""))
        suggested = quote or ""
        for f in merged.get("figures", []):
            if f["claim"] == c["id"] and f["verdict"] == "refuted" and quote:
                suggested = suggested.replace(f["printed"], like(_measured(f), f["printed"]))
        refuted = [t for t in c.get("tests", []) if t["outcome"] == "refuted"]
        out.append({"id": c["id"], "statement": c["statement"], "quote": quote,
                    "figures": [{"test": t["nodeid"].split("::")[-1], "reason": t.get("reason", "")} for t in refuted],
                    "cause": cause or "not yet found", "readings": [], "suggested": suggested if quote else "",
                    "diagnosed": bool(quote)})
    return out


PARTS = Parts(facts=lambda *a, **k: None, errata=errata, tables=lambda *a, **k: [],
              since=lambda figures, meta: details.with_details(since.since_rows(figures, meta, CHAPTER.root)),
              cut=lambda *a: cut(CHAPTER, VIEW, *a), title="the running-mean example's report",
              errata_home="examples/running_mean/tables.py ERRATA", project="the running-mean example")


def render(out: Path, results_dir: Path = RESULTS):
    """The report model of the run in `out` (or the committed verdicts alone), and every view of it
    written into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    fresh = read_json(out / "claims.json", "run's claim report") if (out / "claims.json").exists() else None
    merged = merged_verdicts(CHAPTER, fresh, load_verdicts(CHAPTER, results_dir / "verdicts.json"))
    text, why = CHAPTER.text_or_none()
    r = assemble(CHAPTER, PARTS, merged, out, text, why, results_dir, fresh=fresh is not None)
    publish.write(r, out)
    return r


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m examples.running_mean.report", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--report-dir", required=True,
                   help="the run's report directory (its claims.json, where there is one); the report is written there")
    a = p.parse_args(argv)
    out = Path(a.report_dir)
    why = not_its_own_folder(out, checkout_of(CHAPTER.root))
    if why:
        print(f"{p.prog}: --report-dir={a.report_dir}: {why}; nothing was written", file=sys.stderr)
        return 2
    r = render(out.resolve())
    print(f"{a.report_dir}: {r.summary_line}" + ("" if r.fresh else " (committed verdicts only)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
