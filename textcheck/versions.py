"""The rules a figure's verdict is decided under, each with a version.

Every record a test writes names the rule that decided it ("rule": "trained/1"), so a verdict
kept in results/verdicts.json says which version of which rule gave it.  When a rule changes,
its version goes up, and a committed verdict decided under an older version is *stale*: the
report shows it as stale, never as a plain holds or refuted, until it is decided again.

A measurement has a version too (the Chapter's `measurements`; this project's fixtures/measurements.py): a record taken with an older version of
its measurement is stale the same way, until it is measured again.

Pure (no pytest, no torch): the reporter reads it too.  The rules themselves live in
textcheck/decide.py (as pure functions; textcheck/rule.py applies them in a test).
"""
from __future__ import annotations

from collections.abc import Mapping

from textcheck.chapter import Chapter

# name -> (current version, what it is, and what changed at each version)
RULE_VERSIONS: dict[str, tuple[int, str]] = {
    # 1: also orderings seed by seed and exact shares; 2: a bound beside a single measurement only
    #    (orderings are "ordering", universal sentences levels)
    "stated": (2, "the tolerance the test states beside a single measurement: exact, a bound"),
    # 1: rounding + 2 sd; 2: and the band must exclude the declared null, else undecided;
    # 3 (2026-12-07): the 95 % prediction interval for one new run, mean +- t(n-1) sd sqrt(1 + 1/n)
    #    (scipy.stats), + rounding; undecided where it holds the null, of two kinds (decide.undecided_kind)
    "trained": (3, ("the 95 % prediction interval for one new run, mean +- t(n-1) sd sqrt(1 + 1/n), widened by "
                    "the chapter's rounding, over at least 3 seeds; undecided where that interval holds the "
                    "null the figure table declares")),
    # 1: 0.05 points + 2 max(sd, SE); 2: the chapter's printed rounding, and the null as for trained;
    # 3 (2026-12-07): the prediction interval as for trained, of spread max(seed sd, one run's binomial sd)
    "rate": (3, ("a printed rate: the prediction interval as for trained, of spread max(seed sd, one run's "
                 "binomial sd); the null as for trained")),
    # 1: successive ratios of a count (operations, bytes) over doubling lengths rise, stay at most the
    #    limit, the last within the printed limit's rounding (docs/choices.md, 2026-12-03)
    "counts": (1, "a count per doubling: ratios rising toward the limit, the last within its printed rounding"),
    # 1: the paired mean difference over seeds beyond 2 standard errors, else undecided;
    # 2 (2026-12-07): Student's paired t test at n-1 degrees of freedom (scipy.stats), 5 % two-sided
    "ordering": (2, "an ordering or sign: Student's paired t test over seeds, significant at 5 % two-sided"),
    # 1: repeats inside one process (until 2026-12-01), which a flake count showed can flip;
    # 2: the 95 % bootstrap interval over independent timing processes, widened to +-2 run-to-run sd;
    # 3 (2026-12-07): widened to +-1.96 run-to-run sd (the normal quantile from scipy.stats)
    "timing": (3, ("the 95 % bootstrap interval over independent timing processes, widened to at least "
                  "+-1.96 run-to-run sd of the machine class")),
}
DEFAULT = "stated"


def rule_id(name: str = DEFAULT) -> str:
    """'trained/1': the rule's name and its current version."""
    if name not in RULE_VERSIONS:
        raise KeyError(f"unknown rule {name!r}; known: {', '.join(RULE_VERSIONS)}")
    return f"{name}/{RULE_VERSIONS[name][0]}"


class VersionError(ValueError):
    """A rule or measurement ID that no version of this code knows: unknown, malformed or newer."""


def version_of(rid, table: dict[str, tuple[int, str]], what: str) -> tuple[str, int]:
    """(name, version) of a "name/version" ID whose version this code knows (1 up to the current
    one); VersionError for an unknown name, a malformed ID, version 0 or a newer version, which no
    rule code here can decide."""
    name, sep, version = str(rid).partition("/")
    if not isinstance(rid, str) or not sep or name not in table:
        raise VersionError(f"{rid!r} is not a known {what} (known: {', '.join(table)})")
    if not version.isdigit() or not 1 <= int(version) <= table[name][0]:
        raise VersionError(f"{rid!r}: {what} {name!r} has versions 1 to {table[name][0]}, not {version!r}")
    return name, int(version)


def current_id(table: Mapping[str, tuple[int, str]], name: str, what: str = "measurement") -> str:
    """'softmax_stats/1': a name of a versioned table (a text's measurements) and its current version."""
    if name not in table:
        raise KeyError(f"unknown {what} {name!r}; known: {', '.join(table)}")
    return f"{name}/{table[name][0]}"


def is_current(table: Mapping[str, tuple[int, str]], mid) -> bool:
    """Whether an ID ("name/version") is the current version of its entry of `table` (an older or
    newer version, an unknown name or a malformed ID is not)."""
    name, sep, version = str(mid).partition("/")
    return bool(sep) and name in table and version == str(table[name][0])


def stale(chapter: Chapter, rid, mid, key: str | None = None) -> str | None:
    """Why a record decided under the rule `rid` and measured under `mid` (a figure record's
    `rule` and `measurement`, or one record of a test's) is stale, or None: the one answer, which
    the claims', the figures' rows and the re-derivation ask.  Decided under a version of its
    rule that is not the current one (given the key it is kept under: or under another rule than
    the figure table decides that key by now), or measured under a version of its measurement
    that is not the Chapter's current one.  A record naming no rule or no measurement is from
    before they were versioned, and current."""
    if key is not None:
        rule = chapter.rule_inputs(key).rule
        if not isinstance(rid, str) or rid.partition("/")[0] != rule or not is_current(RULE_VERSIONS, rid):
            return f"decided under {rid}; the figure table decides it now under {rule_id(rule)}"
    elif isinstance(rid, str) and not is_current(RULE_VERSIONS, rid):
        return f"decided under {rid}"
    if isinstance(mid, str) and not is_current(chapter.measurements, mid):
        return f"measured under {mid}"
    return None
