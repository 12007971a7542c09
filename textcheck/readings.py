"""Readings declared before they are measured: the fourth outcome, `underspecified`.

The chapter leaves some choices open that a verdict depends on (which checkpoint it scored, a
width, an estimator).  docs/choices.md lists each: the primary reading, with its reason from the
chapter's text, and the admissible alternatives, each entered before it is measured.  When the
primary reading refutes a figure and a declared alternative reproduces it, the figure is
`underspecified`: its erratum asks the chapter to state the choice, and suggests no new numbers.

A reading counts only if it was declared before it was measured: `declared` is the time of the
commit that entered it in docs/choices.md (tests/integration/test_underspecified.py checks it against `git log
-S` of its anchor), compared with the date of the measurement the record keeps.  A reading never
turns a refutation into a hold, and one declared after its measurement counts for nothing.

A text declares its readings in its Chapter (`readings`; this project: claims/readings_declared.py).
Pure (standard library only): `python -m claims.rederive` decides with it.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone


@dataclass(frozen=True)
class DeclaredReading:
    name: str                  # as a record names it ("reading": {"name": ...})
    keys: tuple[str, ...]      # the figure records it is a reading of
    choice: str                # the choice the chapter leaves open, as its erratum asks for it
    primary: str               # the primary reading, the one the verdict is on
    declared: str              # ISO time of the commit that entered it in docs/choices.md
    anchor: str                # verbatim in docs/choices.md: `git log -S` finds that commit
    # ISO time of the first measurement of the reading, any seed, where one is on record (a run that
    # stays in results/): a reading declared after it was first measured is "declared after a
    # measurement" and never makes a figure underspecified, whatever its later runs' dates
    first_measured: str | None = None
    cites: tuple[str, ...] = ()      # the keys of the runs that measurement is (kept in results/: never pruned)

    def standing(self, dates) -> str:
        """Whether a reading measured at `dates` (its runs' dates; the newest counts) counts, in words,
        for the errata beside it; "" where it has no runs."""
        dates = [d for d in dates if isinstance(d, str)]
        if not dates:
            return ""
        name, measured = self.name, max(dates)
        if self.first_measured and _when(self.first_measured, "first_measured") <= _when(self.declared, "declared"):
            return (f"the reading '{name}' was declared after a measurement (first measured {self.first_measured[:10]}, "
                    f"declared {self.declared[:10]}): it counts for nothing, and the verdict stays on {self.primary}")
        if _when(measured, "reading.date") <= _when(self.declared, "declared"):
            return (f"the reading '{name}' was measured ({measured[:10]}) before it was declared "
                    f"({self.declared[:10]}): it counts for nothing, and the verdict stays on {self.primary}")
        return f"the reading '{name}' was declared ({self.declared[:10]}) before it was measured"


class ReadingError(ValueError):
    """A record's reading that no declaration knows, or whose date cannot be read; names the field."""

    def __init__(self, field: str, message: str):
        super().__init__(f"field {field!r}: {message}")
        self.field = field


def _when(text, field: str) -> datetime:
    try:
        when = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        raise ReadingError(field, f"{text!r} is not an ISO date and time") from None
    return when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)     # a bare date: UTC


def declared_for(readings: Mapping[str, DeclaredReading], key: str, name) -> DeclaredReading:
    """The declaration of a record's reading among a text's declared `readings` (its Chapter's):
    ReadingError where none declares it for this figure."""
    r = readings.get(name) if isinstance(name, str) else None
    if r is None:
        raise ReadingError("reading.name", f"{name!r} is not a declared reading of this text "
                                           "(a text declares its readings in its Chapter: `readings`)")
    if key not in r.keys:
        raise ReadingError("reading.name", f"{name!r} is declared for {', '.join(r.keys)}, not for {key!r}")
    return r


def with_reading(primary: str, reading: str, declared: DeclaredReading, measured: str) -> tuple[str, str]:
    """(verdict, why) of a figure from its primary verdict and a declared reading's verdict:
    `underspecified` where the primary refutes it and the reading, declared before it was measured,
    reproduces it; otherwise the primary verdict, saying why the reading does not count."""
    when, at = _when(measured, "reading.date"), _when(declared.declared, "declared")
    if primary != "refuted":
        return primary, f"the reading '{declared.name}' is shown beside it; the verdict is the primary reading's"
    if declared.first_measured and _when(declared.first_measured, "first_measured") <= at:
        return primary, (f"the reading '{declared.name}' ({reading} on its own) was declared after a measurement: "
                         f"first measured {declared.first_measured}, declared {declared.declared}; it counts "
                         "for nothing, and the figure stays refuted")
    if when <= at:
        return primary, (f"the reading '{declared.name}' ({reading} on its own) was measured {measured}, before "
                         f"it was declared ({declared.declared}): it counts for nothing, and the figure stays refuted")
    if reading != "holds":
        return primary, f"the declared reading '{declared.name}' does not reproduce it either ({reading})"
    return "underspecified", (f"the primary reading ({declared.primary}) refutes it and the reading "
                              f"'{declared.name}', declared {declared.declared} before it was measured "
                              f"({measured}), reproduces it: the chapter should say {declared.choice}")
