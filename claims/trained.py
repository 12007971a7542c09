"""Helpers for trained claims: paired differences over seeds and the tolerance they earn.

A trained figure is compared at the chapter's own rounding (half a unit of its last digit:
"~14 points" -> 0.5, "1.8 points" -> 0.05) widened by two seed-to-seed standard deviations of
our paired difference (0 with one seed, which is why claims of differences under 5 points
need at least three seeds).
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass

import pytest

MIN_SEEDS_SMALL = 3


@dataclass
class Paired:
    values: list[float]

    @property
    def mean(self) -> float:
        return statistics.mean(self.values)

    @property
    def sd(self) -> float:
        return statistics.stdev(self.values) if len(self.values) > 1 else 0.0

    def tolerance(self, rounding: float) -> float:
        return rounding + 2 * self.sd

    def as_record(self) -> dict:
        return {"mean": self.mean, "sd": self.sd, "per seed": self.values}


def val(results) -> list[float]:
    return [r.metrics["val_ppl"] for r in results]


def gain(worse, better) -> Paired:
    """Perplexity points `better` gains over `worse`, paired by seed."""
    return Paired([w - b for w, b in zip(val(worse), val(better))])


def need_spread(n: int) -> None:
    """A tolerance built from the seed-to-seed spread needs the spread: skip (after the
    measurement is recorded, so the report still shows it) with fewer than three seeds."""
    if n < MIN_SEEDS_SMALL:
        pytest.skip(f"the tolerance is the seed-to-seed spread: needs >= {MIN_SEEDS_SMALL} seeds, "
                    f"ran {n} (measured values are recorded)")


def refuted(reason: str):
    """The mark of a figure our measurement contradicts: a strict xfail (it must keep failing;
    if it ever passes the suite says so) whose reason gives the measured figures."""
    return pytest.mark.xfail(strict=True, reason=f"refuted: {reason}")
