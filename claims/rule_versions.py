"""The rules a figure's verdict is decided under, each with a version.

Every record a test writes names the rule that decided it ("rule": "trained/1"), so a verdict
kept in results/verdicts.json says which version of which rule gave it.  When a rule changes,
its version goes up, and a committed verdict decided under an older version is *stale*: the
report shows it as stale, never as a plain holds or refuted, until it is decided again.

A measurement has a version too (fixtures/measurements.py): a record taken with an older version of
its measurement is stale the same way, until it is measured again.

Pure (no pytest, no torch): the reporter reads it too.  The rules themselves live in
claims/decide.py (as pure functions; claims/rule.py applies them in a test) and claims/timing.py (the timing loop).
"""
from __future__ import annotations

from fixtures.measurements import stale_measurement

# name -> (current version, what it is, and what changed at each version)
RULES: dict[str, tuple[int, str]] = {
    "stated": (1, "the tolerance the test states beside the figure: exact, statistical, an ordering"),
    "trained": (1, "the chapter's rounding + 2 seed-to-seed sd, over at least 3 seeds"),
    "rate": (1, "a printed rate: the chapter's rounding + 2 max(seed sd, binomial SE)"),
    # 1: repeats inside one process (until 2026-12-01), which a flake count showed can flip;
    # 2: the 95 % bootstrap interval over independent timing processes, widened to +-2 run-to-run sd
    "timing": (2, ("the 95 % bootstrap interval over independent timing processes, widened to at least "
                  "+-2 run-to-run sd of the machine class")),
}
DEFAULT = "stated"


def rule_id(name: str = DEFAULT) -> str:
    """'trained/1': the rule's name and its current version."""
    if name not in RULES:
        raise KeyError(f"unknown rule {name!r}; known: {', '.join(RULES)}")
    return f"{name}/{RULES[name][0]}"


def stale_rules(test: dict) -> list[str]:
    """The rules under which a test's records were decided that are no longer current (a record
    that names no rule is from before rules were versioned, and counts as current)."""
    out = []
    for rec in test.get("records") or []:
        rid = rec.get("rule")
        if not isinstance(rid, str):
            continue
        name, _, version = rid.partition("/")
        current = RULES.get(name, (None,))[0]
        if current is None or version != str(current):
            out.append(rid)
    return sorted(set(out))


def stale_measurements(test: dict) -> list[str]:
    """The measurements (fixtures/measurements.py IDs, "softmax_stats/1") a test's records were
    taken with that are no longer current: measured the old way, so stale until measured again
    (a record that names no measurement is from before measurements were versioned: current)."""
    return sorted({rec["measurement"] for rec in test.get("records") or []
                   if isinstance(rec, dict) and isinstance(rec.get("measurement"), str)
                   and stale_measurement(rec["measurement"])})


def is_stale(test: dict) -> bool:
    return bool(stale_rules(test) or stale_measurements(test))
