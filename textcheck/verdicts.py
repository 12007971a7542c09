"""The claim contract's arithmetic: from tests' outcomes to claims' verdicts.

Pure: it imports neither pytest nor torch, so the pytest plugin (textcheck/plugin.py), which
gathers the outcomes, and the reporter, which merges and renders them, share one definition of
what a verdict is.  Whatever needs the text's tables (its figures, claims, measurements) takes its
Chapter (textcheck/chapter.py) as the first argument.  Which measurement is a reading beside the
text's figure rather than a verdict on it is textcheck/device_readings.py; a run's report, merged
with the committed verdicts, and its figure rows, textcheck/merging.py.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from textcheck.chapter import Chapter
from textcheck.device_readings import device_specific, measured, only_readings
from textcheck.formats import typed
from textcheck.outcomes import ClaimSummary, Counts, TestRecord, outcome, records_of
from textcheck.records import TestOutcome
from textcheck.versions import stale
from textcheck.vocabulary import (  # noqa: F401  the verdicts' names, re-exported where they were read
    CLAIM_VERDICTS,
    COMMITTED_TIERS,
    DECIDED,
    FIGURE_VERDICTS,
    LADDER,
    SEVERITY,
    SMOKE_SOURCE,
    STALE_HIDES,
    most_severe,
)

UNKNOWN = "unknown claim ID(s) in @pytest.mark.claim (not in {where}):\n"


def is_stale(chapter: Chapter, t) -> bool:
    """Whether a test (a TestOutcome, or its object) is stale: one of its records is (textcheck/versions.py stale)."""
    return any(stale(chapter, rec.rule, rec.measurement) for rec in measured(t).records)


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


def record_key(chapter: Chapter, rec, claim: str) -> str:
    """The key of one record (a TestRecord, or its object): key_of its figures, claim and label,
    "(cuda)" where it measured on CUDA (the same figure measured on the CPU is other evidence, kept
    beside it)."""
    rec = TestRecord.of(rec)
    return (key_of(chapter, list(rec.figures or []), claim, rec.label)
            + (" (cuda)" if str(rec.device or "").startswith("cuda") else ""))


def evidence_key(chapter: Chapter, test: TestOutcome, claim: str) -> str | None:
    """The key a test's evidence is committed and merged under: the keys of its records (what
    it measured), joined; None for a test that recorded nothing (it is never committed)."""
    keys = [record_key(chapter, rec, claim) for rec in records_of(test)]
    return " & ".join(dict.fromkeys(keys)) or None


def ident(t: TestOutcome) -> str:
    """What a committed test is matched by: its key, else (nothing recorded) its node id."""
    return t.key or base_nodeid(t.nodeid)


def shared_keys(tests: list[TestOutcome]) -> frozenset:
    seen = [t.key for t in tests if t.key]
    return frozenset(k for k in seen if seen.count(k) > 1)


def counts(chapter: Chapter, t) -> bool:
    """Whether a test's outcome (a TestOutcome, or its object) decides: decided, under the current
    rule, where its figures can be decided."""
    decided = (t if isinstance(t, TestOutcome) else typed(Outcome, t)).outcome in DECIDED
    return decided and not is_stale(chapter, t) and not only_readings(chapter, t)


def _kind(chapter: Chapter, t: TestOutcome) -> str | None:
    """What a test's outcome is to its claim: it `counts` (decided, current, decidable), a stale
    figure, a device `reading`, or nothing decided (None)."""
    if t.outcome not in DECIDED:
        return None
    return "stale" if is_stale(chapter, t) else "reading" if only_readings(chapter, t) else "counts"


def summarise(chapter: Chapter, cid: str, tests: list, encoded: bool) -> ClaimSummary:
    """One claim's entry from its tests' evidence.  The verdict is the most severe decided outcome
    (fails > refuted > holds); with none decided it is `not run` (a test exists) or `not encoded`.
    Each test a TestOutcome, or its object as a report holds it."""
    c = chapter.claims[cid]
    tests = [outcome(t) for t in tests]
    kinds = [_kind(chapter, t) for t in tests]
    stale, readings, decided = ([t for t, k in zip(tests, kinds) if k == kind] for kind in ("stale", "reading", "counts"))
    if decided:
        verdict = most_severe(t.outcome for t in decided)
        # a stale figure decides nothing: the claim holds (or is undecided, underspecified) only on
        # all of its figures, so with one stale it is stale; refuted or failing stays so, which no
        # further figure can change (issue 59, finding 6)
        if stale and verdict in STALE_HIDES:
            verdict = "stale"
    elif stale:
        verdict = "stale"
    else:
        verdict = "not run" if encoded or tests else "not encoded"
    basis = decided or stale or tests
    reasons = [t.reason for t in basis if t.outcome == verdict and t.reason]
    reasons += [f"{t.nodeid.split('::')[-1]}: {outcome_label(chapter, t)}" for t in stale + readings]
    pending = [t for t, k in zip(tests, kinds) if k != "counts"]
    if decided and pending:
        reasons.append(f"{len(pending)} of {len(tests)} tests not run")
    # the evidence behind the verdict; with none decided, whatever was measured before a skip
    records = [(TestRecord.of(rec), dict(rec, test=t.nodeid)) for t in (decided or tests) for rec in t.records]
    first = records[0][0] if records else TestRecord({})
    newest = max(basis, key=lambda t: t.timestamp, default=None)
    seeds = [rec.seeds for rec, _ in records if isinstance(rec.seeds, int)]
    return ClaimSummary(
        cid, c.section, c.statement, c.kind,
        stated=first.stated if "stated" in first.raw else c.stated_figure,
        measured=first.measured if len(records) <= 1 else [r.measured for r, _ in records],
        tolerance=first.tolerance, verdict=verdict, reason="; ".join(dict.fromkeys(reasons)),
        tier=newest.tier if newest else c.tier, device=newest and newest.device,
        seeds=max(seeds) if seeds else (1 if records else None),
        seconds=round(sum(t.seconds for t in decided), 3),
        torch=newest and newest.torch, python=newest and newest.python,
        timestamp=newest and newest.timestamp, source=newest and newest.source,
        records=[r for _, r in records], tests=tests)


def summarise_claim(chapter: Chapter, cid: str, tests: list, encoded: bool) -> dict:
    """`summarise`, as a report's JSON holds the claim."""
    return summarise(chapter, cid, tests, encoded).as_json()


def outcome_label(chapter: Chapter, t) -> str:
    """A test's outcome (a TestOutcome, or its object as a report holds it) as a report shows it:
    a stale one says which rule decided it."""
    t = outcome(t)
    if t.outcome in DECIDED and is_stale(chapter, t):
        why = sorted({w for rec in records_of(t) for w in [stale(chapter, rec.rule, rec.measurement)] if w})
        again = ("decide it again under the current rule" if any(w.startswith("decided") for w in why)
                 else "measure it again (the command its text names for it)")
        return f"stale: {t.outcome}, {'; '.join(why)}: {again}"
    if t.outcome in DECIDED and only_readings(chapter, t):
        return device_specific(chapter, t)
    return t.outcome or "not run"


WORDS = {"holds": "hold", "fails": "fail"}


@dataclass(frozen=True)
class Outcome:
    """A test's object as `counts` reads it: its outcome."""
    outcome: str | None


def summary_text(s: dict) -> str:
    """'55 hold, 16 refuted, 2 underspecified, 3 undecided, 0 fail, 0 stale, 0 not run, 0 not encoded (of 71)'."""
    return ", ".join(f"{s.get(v, 0)} {WORDS.get(v, v)}" for v in CLAIM_VERDICTS) + f" (of {Counts.of(s).total})"


def summary_of(claims: list) -> dict:
    """The count of claims (ClaimSummary, or their objects) by verdict."""
    verdicts = [c.verdict if isinstance(c, ClaimSummary) else ClaimSummary.of(c).verdict for c in claims]
    return {**{v: verdicts.count(v) for v in CLAIM_VERDICTS}, "total": len(claims)}


def verdict_label(chapter: Chapter, c) -> str:
    """The verdict (of a ClaimSummary, or its object as a report holds it), and what it does not
    say on its own: a claim of several figures is refuted if one is, so say how many of its
    figures hold (each test, or parametrized case, is one figure or one ordering the chapter
    states); and whether some of them did not run."""
    c = ClaimSummary.of(c)
    tests, verdict = c.tests, c.verdict
    notes = []
    held = sum(t.outcome == "holds" and counts(chapter, t) for t in tests)
    if verdict == "refuted":
        decided = sum(counts(chapter, t) for t in tests)
        notes.append(f"{'in part: ' if held else ''}{held} of {decided} figures hold")
    if verdict in ("undecided", "underspecified"):
        decided = sum(counts(chapter, t) for t in tests)
        n = sum(t.outcome == verdict and counts(chapter, t) for t in tests)
        notes.append(f"{n} of {decided} figures {verdict}, {held} hold: "
                     + ("needs more seeds or a sharper measurement, see each figure's reason"
                        if verdict == "undecided" else "the chapter should say which reading it used"))
    n_stale = sum(t.outcome in DECIDED and is_stale(chapter, t) for t in tests)
    if verdict == "stale":
        notes.append(f"{n_stale} figure(s) decided under an older rule")
    elif n_stale:
        notes.append(f"{n_stale} stale")
    n_readings = sum(t.outcome in DECIDED and not is_stale(chapter, t) and only_readings(chapter, t) for t in tests)
    if n_readings:
        notes.append(f"{n_readings} device-specific reading(s)")
    if verdict in DECIDED and any(t.outcome not in DECIDED for t in tests):
        notes.append("partial: some tests not run")
    if any(t.source == SMOKE_SOURCE for t in tests):
        notes.append("smoke scale")
    return verdict + (f" ({'; '.join(notes)})" if notes else "")
