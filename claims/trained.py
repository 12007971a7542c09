"""Helpers for trained claims: paired differences over seeds and the tolerance they earn.

A trained figure is compared at the chapter's own rounding (half a unit of its last digit:
"~14 points" -> 0.5, "1.8 points" -> 0.05) widened by two seed-to-seed standard deviations of
our paired difference (0 with one seed, which is why claims of differences under 5 points
need at least three seeds).
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass

from claims.figures import need_seeds as need_spread  # noqa: F401  (the trained tests' name for it)


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


def train_ppl(results) -> list[float]:
    return [r.metrics["train_ppl"] for r in results]


def gain(worse, better) -> Paired:
    """Perplexity points `better` gains over `worse`, paired by seed."""
    return Paired([w - b for w, b in zip(val(worse), val(better))])
