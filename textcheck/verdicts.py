"""The claim contract's arithmetic: from tests' outcomes to claims' verdicts.

Pure: it imports neither pytest nor torch, so the pytest plugin (textcheck/plugin.py), which
gathers the outcomes, and the reporter, which merges and renders them, share one definition of
what a verdict is.  Whatever needs the text's tables (its figures, claims, measurements) takes its
Chapter (textcheck/chapter.py) as the first argument.
"""
from __future__ import annotations

import math
import re
from dataclasses import asdict
from typing import TYPE_CHECKING

from textcheck.versions import stale

if TYPE_CHECKING:
    from textcheck.chapter import Chapter
    from textcheck.records import ClaimVerdict, TestOutcome

# stale: decided under an older version of its rule, or measured under an older version of its
# measurement (textcheck/versions.py); never a plain holds/refuted
# undecided: the measurement cannot tell the chapter's figure from the null it contrasts it with, or
# an ordering is not significant at 5 % (docs/figure-rule.md); underspecified: the primary
# reading refutes the figure and a reading declared before it was measured reproduces it
# (docs/choices.md).  Neither is a holds; a refuted figure outweighs both.
CLAIM_VERDICTS = ("holds", "refuted", "underspecified", "undecided", "fails", "stale", "not run", "not encoded")
DECIDED = ("holds", "refuted", "underspecified", "undecided", "fails")
# The verdict ladder, most severe first: a test's outcome is the most severe of its records', a
# claim's or a figure's the most severe of its decided tests' (a broken test outweighs all, a
# refuted figure outweighs one that cannot be told from its null).  The one ordering of verdicts.
LADDER = ("fails", "refuted", "underspecified", "undecided", "holds", "not run")
SEVERITY = {v: len(LADDER) - 1 - i for i, v in enumerate(LADDER)}
FIGURE_VERDICTS = LADDER[1:5]        # what a figure record can hold: decided, and never "fails" (a bug)


def most_severe(verdicts, default: str = "holds") -> str:
    """The highest rung of the ladder any of `verdicts` reaches (`default` for none)."""
    return max(verdicts, key=SEVERITY.__getitem__, default=default)
SMOKE_SOURCE = "smoke run"    # a --smoke run's source: its verdicts are labelled and never saved
UNKNOWN = "unknown claim ID(s) in @pytest.mark.claim (not in {where}):\n"


def is_stale(chapter: Chapter, t: dict) -> bool:
    """Whether a test is stale: one of its records is (textcheck/versions.py stale)."""
    return any(stale(chapter, rec.get("rule"), rec.get("measurement"))
               for rec in t.get("records") or [] if isinstance(rec, dict))


def plain(x):
    """JSON-able numbers from tensors, arrays and numpy scalars (anything with .tolist())."""
    if hasattr(x, "tolist"):
        x = x.tolist()
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    return x


def base_nodeid(nodeid: str) -> str:
    """The test's id without the "@group" suffix xdist's --dist loadgroup appends, so a run
    under -n N and a serial run name the same test the same way (and merge as one)."""
    return re.sub(r"@[^\]/@]+$", "", nodeid)


def key_of(chapter: Chapter, figures: list[str], claim: str, what: str) -> str:
    """The key of one record's evidence: its figure ID ("figure / claim" where another claim than
    the figure's own decides it too), else the claim and what it is (an ordering, or a figure the
    chapter derives without printing it).  Never a test's name: renaming a test changes no key."""
    if not figures:
        return f"{claim}: {what}" if what else claim
    key = "+".join(figures)
    return key if all(chapter.figures[f].claim == claim for f in figures) else f"{key} / {claim}"


COMMITTED_TIERS = ("gpu", "slow")         # the evidence committed to results/: trained, and minutes of CPU


def record_key(chapter: Chapter, rec: dict, claim: str) -> str:
    """The key of one record: key_of its figures, claim and label, "(cuda)" where it measured on
    CUDA (the same figure measured on the CPU is other evidence, kept beside it)."""
    return (key_of(chapter, list(rec.get("figures") or []), claim, str(rec.get("figure") or rec.get("part") or ""))
            + (" (cuda)" if str(rec.get("device") or "").startswith("cuda") else ""))


def evidence_key(chapter: Chapter, test: dict, claim: str) -> str | None:
    """The key a test's evidence is committed and merged under: the keys of its records (what
    it measured), joined; None for a test that recorded nothing (it is never committed)."""
    keys = [record_key(chapter, rec, claim) for rec in test.get("records") or [] if isinstance(rec, dict)]
    return " & ".join(dict.fromkeys(keys)) or None


def ident(t: TestOutcome) -> str:
    """What a committed test is matched by: its key, else (nothing recorded) its node id."""
    return t.key or base_nodeid(t.nodeid)


def outcome_object(t: TestOutcome) -> dict:
    """The one encoder of a test's outcome as a run's claims.json and the report's merged.json hold
    it (results/ splits it: its record in its figure record, the rest in the index,
    textcheck/verdict_file.py), its fields in their order, its runs as objects, left out only where
    it has none (`None`; an empty list is kept).
    Here, beside the arithmetic, because the merge makes the report's rows of committed tests with
    it (this module is below the records, so it reads a TestOutcome by its fields alone)."""
    out = asdict(t)
    if t.runs is None:
        del out["runs"]
    return out


def shared_keys(tests: list[dict]) -> frozenset:
    seen = [t.get("key") for t in tests if t.get("key")]
    return frozenset(k for k in seen if seen.count(k) > 1)


def on_cuda(t: dict) -> bool:
    return measured_on(t).startswith("cuda")


def read_off_instrument(chapter: Chapter, t: dict) -> bool:
    """Whether every record of a test (or one record itself; a figure record as textcheck/evidence.py
    as_test gives it) was read off a clock or an allocator: its measurement is one (the Chapter's
    `instruments`), or it was decided by the timing rule (records from before measurements were named)."""
    recs = t.get("records") if isinstance(t.get("records"), list) else [t]
    recs = [r for r in recs if isinstance(r, dict)]
    return bool(recs) and all(chapter.instruments.get(str(r.get("measurement")).partition("/")[0])
                              or str(r.get("rule") or "").startswith("timing/") for r in recs)


THEORY_RULES = ("counts/",)     # counts and arithmetic identities: shown as the theory, never a verdict


def theory(t: dict) -> bool:
    """Whether every record of a test (or one record itself) was decided by counting, not measured:
    a count of operations or bytes is the theory shown beside a measured figure, and never
    decides it, on any device (rule version 3)."""
    recs = t.get("records") if isinstance(t.get("records"), list) else [t]
    recs = [r for r in recs if isinstance(r, dict)]
    return bool(recs) and all(str(r.get("rule") or "").startswith(THEORY_RULES) for r in recs)


def device_reading(chapter: Chapter, figure: str | None, t: dict) -> bool:
    """Whether a test's (a figure record's, as_test) measurement of `figure` (a figure ID; None for a
    record of no printed figure) is a reading shown beside the chapter's figure, never a verdict
    on it: measured elsewhere than on the chapter's kind of device (CUDA), of a figure the chapter
    measured on its own device (device="cuda"), or read off a clock or an allocator whatever
    it is about (docs/cost.md: one rule, no exception).  The one answer: the tests' skips
    (textcheck/rule.py), the claims', the figures' rows and the re-derivation ask it."""
    if theory(t):
        return True
    if on_cuda(t):
        return False
    f = chapter.figures.get(figure) if figure is not None else None
    return (f is not None and f.device == "cuda") or read_off_instrument(chapter, t)


def only_readings(chapter: Chapter, t: dict) -> bool:
    """Whether every figure a test (or a figure record, as textcheck/evidence.py as_test gives it)
    measures is a device reading (device_reading)."""
    figures = list(t.get("figures") or []) or [None]
    return all(device_reading(chapter, f, t) for f in figures)


def measured_on(t: dict) -> str:
    """The device a test measured on: its record's `device` where it names one (a cost test's
    cpu case runs on the CPU whatever the run's device), else the run's."""
    rec = (t.get("records") or [{}])[0]
    return str(rec.get("device") or t.get("device") or "")


def counts(chapter: Chapter, t: dict) -> bool:
    """Whether a test's outcome decides: decided, under the current rule, where its figures can be decided."""
    return t["outcome"] in DECIDED and not is_stale(chapter, t) and not only_readings(chapter, t)


DEVICE_SPECIFIC = ("not run: device-specific: measured on {device}; the chapter's figure is its {theirs}'s, "
                   "so ours is a reading beside it, not a verdict")


def device_specific(chapter: Chapter, t: dict) -> str:
    """Why a reading off the text's kind of device decides nothing, naming both devices (the text's
    as its Chapter names it)."""
    return DEVICE_SPECIFIC.format(device=measured_on(t), theirs=chapter.device or "own device")


def summarise_claim(chapter: Chapter, cid: str, tests: list[dict], encoded: bool) -> dict:
    """One claim's entry from its tests' evidence (each test: nodeid, outcome, reason,
    records, tier, device, timestamp, seconds, torch, python).  The verdict is the most severe
    decided outcome (fails > refuted > holds); with none decided it is `not run` (a test
    exists) or `not encoded`."""
    c = chapter.claims[cid]
    stale = [t for t in tests if t["outcome"] in DECIDED and is_stale(chapter, t)]
    readings = [t for t in tests if t["outcome"] in DECIDED and not is_stale(chapter, t) and only_readings(chapter, t)]
    decided = [t for t in tests if counts(chapter, t)]
    if decided:
        verdict = most_severe(t["outcome"] for t in decided)
    elif stale:
        verdict = "stale"
    else:
        verdict = "not run" if encoded or tests else "not encoded"
    basis = decided or stale or tests
    reasons = [t["reason"] for t in basis if t["outcome"] == verdict and t["reason"]]
    reasons += [f"{t['nodeid'].split('::')[-1]}: {outcome_label(chapter, t)}" for t in stale + readings]
    pending = [t for t in tests if not counts(chapter, t)]
    if decided and pending:
        reasons.append(f"{len(pending)} of {len(tests)} tests not run")
    # the evidence behind the verdict; with none decided, whatever was measured before a skip
    records = [dict(rec, test=t["nodeid"]) for t in (decided or tests) for rec in t["records"]]
    first = records[0] if records else {}
    newest = max(basis, key=lambda t: t["timestamp"], default={})
    seeds = [rec["seeds"] for rec in records if isinstance(rec.get("seeds"), int)]
    return {
        "id": cid, "section": c.section, "statement": c.statement, "kind": c.kind,
        "stated": first.get("stated", c.stated_figure),
        "measured": first.get("measured") if len(records) <= 1 else [r.get("measured") for r in records],
        "tolerance": first.get("tolerance"),
        "verdict": verdict, "reason": "; ".join(dict.fromkeys(reasons)),
        "tier": newest.get("tier", c.tier), "device": newest.get("device"),
        "seeds": max(seeds) if seeds else (1 if records else None),
        "seconds": round(sum(t["seconds"] for t in decided), 3),
        "torch": newest.get("torch"), "python": newest.get("python"),
        "timestamp": newest.get("timestamp"), "source": newest.get("source"),
        "records": records, "tests": tests,
    }


def outcome_label(chapter: Chapter, t: dict) -> str:
    """A test's outcome as a report shows it: a stale one says which rule decided it."""
    outcome = t.get("outcome") or "not run"
    if outcome in DECIDED and is_stale(chapter, t):
        why = sorted({w for rec in t.get("records") or [] if isinstance(rec, dict)
                      for w in [stale(chapter, rec.get("rule"), rec.get("measurement"))] if w})
        again = ("decide it again under the current rule" if any(w.startswith("decided") for w in why)
                 else "measure it again (the command its text names for it)")
        return f"stale: {outcome}, {'; '.join(why)}: {again}"
    if outcome in DECIDED and only_readings(chapter, t):
        return device_specific(chapter, t)
    return outcome


def summary_text(s: dict) -> str:
    """'55 hold, 16 refuted, 2 underspecified, 3 undecided, 0 fail, 0 stale, 0 not run, 0 not encoded (of 71)'."""
    return (f"{s['holds']} hold, {s['refuted']} refuted, {s.get('underspecified', 0)} underspecified, "
            f"{s.get('undecided', 0)} undecided, {s['fails']} fail, {s.get('stale', 0)} stale, "
            f"{s['not run']} not run, {s['not encoded']} not encoded (of {s['total']})")


def summary_of(claims: list[dict]) -> dict:
    summary = {v: sum(1 for c in claims if c["verdict"] == v) for v in CLAIM_VERDICTS}
    summary["total"] = len(claims)
    return summary


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


def verdict_label(chapter: Chapter, c: dict) -> str:
    """The verdict, and what it does not say on its own: a claim of several figures is refuted
    if one is, so say how many of its figures hold (each test, or parametrized case, is one
    figure or one ordering the chapter states); and whether some of them did not run."""
    tests = c.get("tests", [])
    notes = []
    held = sum(t["outcome"] == "holds" and counts(chapter, t) for t in tests)
    if c["verdict"] == "refuted":
        decided = sum(counts(chapter, t) for t in tests)
        notes.append(f"{'in part: ' if held else ''}{held} of {decided} figures hold")
    if c["verdict"] in ("undecided", "underspecified"):
        decided = sum(counts(chapter, t) for t in tests)
        n = sum(t["outcome"] == c["verdict"] and counts(chapter, t) for t in tests)
        notes.append(f"{n} of {decided} figures {c['verdict']}, {held} hold: "
                     + ("needs more seeds or a sharper measurement, see each figure's reason"
                        if c["verdict"] == "undecided" else "the chapter should say which reading it used"))
    n_stale = sum(t["outcome"] in DECIDED and is_stale(chapter, t) for t in tests)
    if c["verdict"] == "stale":
        notes.append(f"{n_stale} figure(s) decided under an older rule")
    elif n_stale:
        notes.append(f"{n_stale} stale")
    n_readings = sum(t["outcome"] in DECIDED and not is_stale(chapter, t) and only_readings(chapter, t) for t in tests)
    if n_readings:
        notes.append(f"{n_readings} device-specific reading(s)")
    if c["verdict"] in DECIDED and any(t["outcome"] not in DECIDED for t in tests):
        notes.append("partial: some tests not run")
    if any(t.get("source") == SMOKE_SOURCE for t in tests):
        notes.append("smoke scale")
    return c["verdict"] + (f" ({'; '.join(notes)})" if notes else "")


def committed_only(chapter: Chapter, committed: list[ClaimVerdict]) -> dict:
    """A report with no fresh run: every registered claim from the committed evidence alone."""
    old = {c.id: c.tests for c in committed}
    # without a run nothing was collected: a claim with no committed verdict is "not run" (whether
    # a test carries it is known from a run's collection, tests/integration/test_report.py)
    claims = [summarise_claim(chapter, cid, [dict(outcome_object(t), source="committed") for t in old.get(cid, [])
                                    if t.outcome in DECIDED], True)
              for cid in chapter.claims]
    return finished(chapter, claims, {"source": "committed verdicts only (no fresh run)"})
