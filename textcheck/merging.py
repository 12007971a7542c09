"""A run's report and the merged one, as data: the run's claims summarised from its tests'
outcomes (build_report: its claims.json), merged test by test with the committed verdicts (merge;
committed_only where there is no run: merged.json), and the figure rows either holds, one per
figure of the text.  Pure, as textcheck/verdicts.py, whose arithmetic it applies.
"""
from __future__ import annotations

from dataclasses import asdict

from textcheck.chapter import Chapter
from textcheck.device_readings import device_reading, device_specific, measured_on
from textcheck.records import ClaimVerdict, TestOutcome
from textcheck.verdicts import (
    DECIDED,
    base_nodeid,
    evidence_key,
    is_stale,
    most_severe,
    shared_keys,
    summarise_claim,
    summary_of,
)


def outcome_object(t: TestOutcome) -> dict:
    """The one encoder of a test's outcome as a run's claims.json and the report's merged.json hold
    it (results/ splits it: its record in its figure record, the rest in the index,
    textcheck/verdict_file.py), its fields in their order, its runs as objects, left out only where
    it has none (`None`; an empty list is kept).
    Here, beside the merge, which makes the report's rows of committed tests with it (this module
    imports no record type, so it reads a TestOutcome by its fields alone)."""
    out = asdict(t)
    if t.runs is None:
        del out["runs"]
    return out


def figure_rows(chapter: Chapter, claims: list[dict]) -> list[dict]:
    """One row per figure of the chapter (the Chapter's figures), found by figure ID in its
    tests' evidence: its verdict (the most severe decided outcome of the tests asserting it), or
    why it has none (not run, stale, or a device-specific reading), and the evidence behind it."""
    by_figure: dict[str, list[dict]] = {}
    for c in claims:
        for t in c.get("tests", []):
            for fid in t.get("figures") or []:
                by_figure.setdefault(fid, []).append(t)
    rows = []
    for fid, f in chapter.figures.items():
        tests = by_figure.get(fid, [])
        readings = [t for t in tests if device_reading(chapter, fid, t) and (
            (t["outcome"] in DECIDED and not is_stale(chapter, t))
            or (t["outcome"] == "not run" and str(t.get("reason", "")).startswith("not run: device-specific")))]
        decided = [t for t in tests if t["outcome"] in DECIDED and not is_stale(chapter, t) and t not in readings]
        stale = [t for t in tests if t["outcome"] in DECIDED and is_stale(chapter, t)]
        if decided:
            verdict = most_severe(t["outcome"] for t in decided)
            label = verdict
        elif readings:
            verdict, label = "not run", "not run: device-specific"
        elif stale:
            verdict, label = "stale", "stale"
        else:
            verdict, label = "not run", "not run" if tests else "not run: no test carries it"
        basis = decided or readings or stale or tests
        t = next((t for t in basis if t["outcome"] == verdict), basis[0] if basis else {})
        rec = next((r for r in t.get("records", []) if fid in (r.get("figures") or [fid])), {})
        rows.append({
            "id": fid, "claim": f.claim, "printed": f.printed, "value": f.value, "rounding": f.rounding,
            "device": f.device, "verdict": verdict, "label": label,
            "reason": (device_specific(chapter, t) if label == "not run: device-specific"
                       else t.get("reason", "")),
            "tests": [x["nodeid"] for x in tests], "test": t.get("nodeid"), "key": t.get("key"),
            # a test of several figures may record each one's measurement by figure ID ("per_figure")
            "stated": rec.get("stated"), "tolerance": rec.get("tolerance"),
            "measured": (rec.get("per_figure") or {}).get(fid, rec.get("measured")),
            "seeds": rec.get("seeds"), "measured_on": measured_on(t) or None, "source": t.get("source"),
            "timestamp": t.get("timestamp"),
        })
    return rows


def figure_summary(rows: list[dict]) -> dict:
    out = {v: sum(r["verdict"] == v for r in rows)
           for v in ("holds", "refuted", "underspecified", "undecided", "fails", "stale", "not run")}
    out["device-specific"] = sum(r["label"] == "not run: device-specific" for r in rows)
    out["total"] = len(rows)
    return out


def finished(chapter: Chapter, claims: list[dict], meta: dict) -> dict:
    """A report: its claims, their summary, and the chapter's figures found in their evidence."""
    rows = figure_rows(chapter, claims)
    return {"summary": summary_of(claims), "meta": meta, "claims": claims,
            "figures": rows, "figure_summary": figure_summary(rows)}


def build_report(chapter: Chapter, results: dict, encoded: set[str], meta: dict) -> dict:
    """The run's report: every registered claim summarised from the tests that carried it.
    `meta` holds the run's timestamp, source and the torch and python versions."""
    by_claim: dict[str, list[dict]] = {}
    for r in results.values():
        base = {k: r[k] for k in ("nodeid", "outcome", "reason", "records", "tier", "device")}
        base["figures"] = r.get("figures", [])
        if r.get("runs"):
            base["runs"] = r["runs"]            # the trained runs it came from: group, recipe, seed, key
        base.update(seconds=round(r["seconds"], 3), timestamp=meta["timestamp"],
                    torch=meta.get("torch"), python=meta.get("python"), source=meta["source"])
        for cid in r["claims"]:
            by_claim.setdefault(cid, []).append(dict(base, key=evidence_key(chapter, base, cid)))
    claims = [summarise_claim(chapter, cid, by_claim.get(cid, []), cid in encoded) for cid in chapter.claims]
    return finished(chapter, claims, meta)


def is_smoke(report: dict | None) -> bool:
    return bool(report) and report.get("meta", {}).get("scale") == "smoke"


def merge(chapter: Chapter, fresh: dict, committed: list[ClaimVerdict]) -> dict:
    """Per test, the newest decided evidence wins (a fresh fast run does not hide a committed
    trained result of the same claim); each claim is then summarised again from its tests, each
    committed test as the report's row of it (`outcome_object`)."""
    old = {c.id: [outcome_object(t) for t in c.tests] for c in committed}
    out = []
    for c in fresh.get("claims", []):
        # A committed test is matched with the fresh test that measured the same thing at the same
        # tier (its evidence key: a renamed test's fresh evidence replaces its committed evidence),
        # else with the fresh placeholder of the same test that measured nothing (not run).
        tests = [dict(t, nodeid=base_nodeid(t["nodeid"]), key=t.get("key") or evidence_key(chapter, t, c["id"]))
                 for t in c.get("tests", [])]
        shared = shared_keys(tests)
        by_key = {(t["key"], t.get("tier")): i for i, t in enumerate(tests) if t["key"] and t["key"] not in shared}
        by_node = {t["nodeid"]: i for i, t in enumerate(tests)}
        for t in old.get(c["id"], []):
            t = dict(t, nodeid=base_nodeid(t["nodeid"]), key=t.get("key") or evidence_key(chapter, t, c["id"]), source="committed")
            i = by_key.get((t["key"], t.get("tier")), by_node.get(t["nodeid"]))
            mine = tests[i] if i is not None else None
            if t["outcome"] in DECIDED and (mine is None or mine["outcome"] not in DECIDED
                                            or t["timestamp"] > mine["timestamp"]):
                if i is None:
                    tests.append(t)
                else:
                    tests[i] = t
        out.append(summarise_claim(chapter, c["id"], tests, c["verdict"] != "not encoded"))
    return finished(chapter, out, fresh.get("meta", {}))


def committed_only(chapter: Chapter, committed: list[ClaimVerdict]) -> dict:
    """A report with no fresh run: every registered claim from the committed evidence alone."""
    old = {c.id: c.tests for c in committed}
    # without a run nothing was collected: a claim with no committed verdict is "not run" (whether
    # a test carries it is known from a run's collection, tests/integration/test_report.py)
    claims = [summarise_claim(chapter, cid, [dict(outcome_object(t), source="committed") for t in old.get(cid, [])
                                    if t.outcome in DECIDED], True)
              for cid in chapter.claims]
    return finished(chapter, claims, {"source": "committed verdicts only (no fresh run)"})
