"""What the chapter's table builders (tables.py) share: the claims' tests and evidence, a table of
the figures the tests recorded (`_figure_table`), and the chapter's own cost table and attention
maps read from its text.  Imports no torch.
"""
from __future__ import annotations

import re

from claims.chapter import CHAPTER
from claims.chapter_figures import FIGURES
from data.paths import PROJECT_ROOT
from textcheck import RunRecord, Source, Table

ROOT = PROJECT_ROOT


def _claims(merged: dict, *cids: str) -> list[dict]:
    return [c for c in merged.get("claims", []) if c["id"] in cids]


def _tests(merged: dict, cid: str) -> list[dict]:
    c = next(iter(_claims(merged, cid)), None)
    return sorted(c.get("tests", []), key=lambda t: t["nodeid"]) if c else []


def _claim_evidence(merged: dict, *cids: str) -> list[dict]:
    """The evidence of claims' verdicts: each one's seeds, date and device, and its file."""
    return [Source("results/verdicts.json" if c.get("source") == "committed" else "this run's claims.json",
                   seeds=c.get("seeds"), date=c.get("timestamp"), device=c.get("device"))
            for c in _claims(merged, *cids) if c.get("timestamp") or c.get("device")]


def _run_evidence(group: str, *runs: list[RunRecord]) -> list[dict]:
    """The evidence of trained runs (results/<group>.json): each one's seed, date and device."""
    return [Source(f"results/{group}.json", seed=r.seed, date=r.date, device=r.device) for rs in runs for r in rs]


def metric_of(runs: list[RunRecord], name: str) -> list:
    """Each run's metric `name` (its held-out perplexity, its train perplexity), None where it has
    none, in the runs' (seed) order: a table's cells over seeds."""
    return [r.metrics.get(name) for r in runs]


FIG_HEADER = ["figure", "the chapter", "ours", "tolerance", "verdict"]


def _figure_table(key: str, title: str, merged: dict, *cids: str, key_field=None) -> Table:
    """One row per recorded figure of the claims: figure, the chapter, ours, tolerance, verdict;
    the chapter's cell is its figure where the test asserts exactly one.  A claim not run here
    lists its figures (claims/chapter_figures.py), the chapter's column alone."""
    rows, figs = [], {}
    for cid in cids:
        if not _tests(merged, cid):
            for fid, f in CHAPTER.figures_of(cid).items():
                figs[(len(rows), 1)] = fid
                rows.append([fid, f.value, "not run here", "", "not run"])
        for t in _tests(merged, cid):
            rec = t["records"][0] if t.get("records") else {}
            name = rec.get("figure") or (f"{key_field} = {rec[key_field]}" if key_field and key_field in rec
                                         else t["nodeid"].split("::")[-1])
            if len(t.get("figures") or []) == 1 and t["figures"][0] in FIGURES:
                figs[(len(rows), 1)] = t["figures"][0]
            rows.append([name, rec.get("stated"), rec.get("measured"), rec.get("tolerance"), t["outcome"] or "not run"])
    return Table(key, title, FIG_HEADER, rows, figs, _claim_evidence(merged, *cids))


def chapter_cost_table(text: str) -> dict[int, dict]:
    """The chapter's cost table, parsed from its text: n -> its columns."""
    rows = {}
    for m in re.finditer(r"^\s+(\d{3,5})\s+([\d.]+)\s+([\d.-]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.-]+)\s*$",
                         text, re.MULTILINE):
        n, ms, ms_x, proj, attn, peak, mb_x = m.groups()
        rows[int(n)] = {"ms": float(ms), "ms x4": ms_x, "projections ms": float(proj), "attn MB": float(attn),
                        "peak MB": float(peak), "MB x4": mb_x}
    return rows


def chapter_maps(text: str) -> str:
    """The chapter's two printed attention maps, verbatim."""
    m = re.search(r"^the animal did not cross the street because it was too tired.*?(?=\n\nBlock 1 is identical)",
                  text, re.MULTILINE | re.DOTALL)
    return m.group(0) if m else "(not found in the chapter's text)"


