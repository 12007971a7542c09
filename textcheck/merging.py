"""A run's report and the merged one, as data: the run's claims summarised from its tests'
outcomes (build_report: its claims.json), merged test by test with the committed verdicts (merge;
committed_only where there is no run: merged.json), and the figure rows either holds, one per
figure of the text.  Pure, as textcheck/verdicts.py, whose arithmetic it applies.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from textcheck.chapter import Chapter
from textcheck.device_readings import device_reading, device_specific, measured_on
from textcheck.formats import typed
from textcheck.outcomes import (  # noqa: F401  outcome_object: its home was here
    ClaimSummary,
    RunReport,
    TestRecord,
    TestResult,
    outcome_object,
    records_of,
)
from textcheck.records import ClaimVerdict, TestOutcome
from textcheck.verdicts import (
    DECIDED,
    base_nodeid,
    evidence_key,
    is_stale,
    most_severe,
    shared_keys,
    summarise,
    summary_of,
)
from textcheck.vocabulary import READING

FIGURE_COUNTS = ("holds", "refuted", "underspecified", "undecided", "fails", "stale", "not run")


def figure_rows(chapter: Chapter, claims: list) -> list[dict]:
    """One row per figure of the chapter (the Chapter's figures), found by figure ID in its
    tests' evidence (`claims`: ClaimSummary, or their objects as a report holds them): its verdict
    (the most severe decided outcome of the tests asserting it), or why it has none (not run,
    stale, or a device-specific reading), and the evidence behind it."""
    by_figure: dict[str, list[TestOutcome]] = {}
    for c in map(ClaimSummary.of, claims):
        for t in c.tests:
            for fid in t.figures or []:
                by_figure.setdefault(fid, []).append(t)
    rows = []
    for fid, f in chapter.figures.items():
        tests = by_figure.get(fid, [])
        readings = [t for t in tests if device_reading(chapter, fid, t) and (
            (t.outcome in DECIDED and not is_stale(chapter, t))
            or (t.outcome == "not run" and str(t.reason).startswith(READING)))]
        decided = [t for t in tests if t.outcome in DECIDED and not is_stale(chapter, t) and t not in readings]
        stale = [t for t in tests if t.outcome in DECIDED and is_stale(chapter, t)]
        if decided:
            verdict = most_severe(t.outcome for t in decided)
            label = verdict
        elif readings:
            verdict, label = "not run", READING
        elif stale:
            verdict, label = "stale", "stale"
        else:
            verdict, label = "not run", "not run" if tests else "not run: no test carries it"
        basis = decided or readings or stale or tests
        t = next((t for t in basis if t.outcome == verdict), basis[0] if basis else None)
        rec = next((r for r in (records_of(t) if t else []) if fid in (r.figures or [fid])), TestRecord({}))
        rows.append({
            "id": fid, "claim": f.claim, "printed": f.printed, "value": f.value, "rounding": f.rounding,
            "device": f.device, "verdict": verdict, "label": label,
            "reason": device_specific(chapter, t) if label == READING else (t.reason if t else ""),
            "tests": [x.nodeid for x in tests], "test": t and t.nodeid, "key": t and t.key,
            # a test of several figures may record each one's measurement by figure ID ("per_figure")
            "stated": rec.stated, "tolerance": rec.tolerance,
            "measured": (rec.per_figure or {}).get(fid, rec.measured),
            "seeds": rec.seeds, "measured_on": (measured_on(t) if t else "") or None, "source": t and t.source,
            "timestamp": t and t.timestamp,
        })
    return rows


def finished(chapter: Chapter, claims: list[ClaimSummary], meta: dict) -> dict:
    """A report: its claims, their summary, and the chapter's figures found in their evidence; the
    one encoder of claims.json and merged.json (what the report model reads)."""
    rows = figure_rows(chapter, claims)
    labels = [(r.verdict, r.label) for r in (typed(RowVerdict, row) for row in rows)]
    figures = {v: sum(verdict == v for verdict, _ in labels) for v in FIGURE_COUNTS}
    figures.update({"device-specific": sum(label == READING for _, label in labels), "total": len(rows)})
    return {"summary": summary_of(claims), "meta": meta, "claims": [c.as_json() for c in claims],
            "figures": rows, "figure_summary": figures}


def build_report(chapter: Chapter, results: dict, encoded: set[str], meta: dict) -> dict:
    """The run's report: every registered claim summarised from the tests that carried it
    (`results`: TestResult, or their objects, by node id).  `meta` holds the run's timestamp,
    source and the torch and python versions."""
    by_claim: dict[str, list[TestOutcome]] = {}
    for r in map(TestResult.of, results.values()):
        # the trained runs it came from (group, recipe, seed, key), where it names some
        base = TestOutcome(r.nodeid, r.outcome, r.reason, r.records, r.tier, r.device, r.figures, r.runs or None,
                           round(r.seconds, 3), *(meta.get(k) for k in ("timestamp", "torch", "python", "source")))
        for cid in r.claims:
            by_claim.setdefault(cid, []).append(replace(base, key=evidence_key(chapter, base, cid)))
    claims = [summarise(chapter, cid, by_claim.get(cid, []), cid in encoded) for cid in chapter.claims]
    return finished(chapter, claims, meta)


@dataclass(frozen=True)
class RowVerdict:
    """A figure row's verdict and its label (a device-specific reading's is not its verdict)."""
    verdict: str
    label: str


def _rebased(chapter: Chapter, t: TestOutcome, cid: str, **also) -> TestOutcome:
    return replace(t, nodeid=base_nodeid(t.nodeid), key=t.key or evidence_key(chapter, t, cid), **also)


def merged_claims(chapter: Chapter, fresh, committed: list[ClaimVerdict]) -> list[ClaimSummary]:
    """Per test, the newest decided evidence wins (a fresh fast run does not hide a committed
    trained result of the same claim); each claim is then summarised again from its tests
    (`fresh`: a RunReport, or its object, read once here)."""
    old = {c.id: c.tests for c in committed}
    out = []
    for c in RunReport.of(fresh).claims:
        # A committed test is matched with the fresh test that measured the same thing at the same
        # tier (its evidence key: a renamed test's fresh evidence replaces its committed evidence),
        # else with the fresh placeholder of the same test that measured nothing (not run).
        tests = [_rebased(chapter, t, c.id) for t in c.tests]
        shared = shared_keys(tests)
        by_key = {(t.key, t.tier): i for i, t in enumerate(tests) if t.key and t.key not in shared}
        by_node = {t.nodeid: i for i, t in enumerate(tests)}
        for t in old.get(c.id, []):
            t = _rebased(chapter, t, c.id, source="committed")
            i = by_key.get((t.key, t.tier), by_node.get(t.nodeid))
            mine = tests[i] if i is not None else None
            if t.outcome in DECIDED and (mine is None or mine.outcome not in DECIDED or t.timestamp > mine.timestamp):
                if i is None:
                    tests.append(t)
                else:
                    tests[i] = t
        out.append(summarise(chapter, c.id, tests, c.verdict != "not encoded"))
    return out


def merge(chapter: Chapter, fresh, committed: list[ClaimVerdict]) -> dict:
    """The merged report (merged.json) of a run's report (its claims.json) and the committed verdicts."""
    run = RunReport.of(fresh)
    return finished(chapter, merged_claims(chapter, run, committed), run.meta)


def committed_only(chapter: Chapter, committed: list[ClaimVerdict]) -> dict:
    """A report with no fresh run: every registered claim from the committed evidence alone."""
    old = {c.id: c.tests for c in committed}
    # without a run nothing was collected: a claim with no committed verdict is "not run" (whether
    # a test carries it is known from a run's collection, tests/integration/test_report.py)
    claims = [summarise(chapter, cid, [replace(t, source="committed") for t in old.get(cid, [])
                                             if t.outcome in DECIDED], True)
              for cid in chapter.claims]
    return finished(chapter, claims, {"source": "committed verdicts only (no fresh run)"})
