"""How a timed figure of the cost claims is decided: the loop, beside the rules of
textcheck/decide.py (fixtures/cost.py only measures).  A figure of TIMED (claims/record_rules.py:
pure, so `python -m claims.rederive` decides a committed one again without timing anything) is
judged on the bootstrap interval of independent timing processes, widened to at least +-2
run-to-run sd of this machine class (`drift`, measured by benchmarks/cost_flakes.py --calibrate).
The rule's version: textcheck/versions.py "timing"."""
from __future__ import annotations

import json

import numpy as np

from claims.record_rules import TIMED
from fixtures import cost, peak_memory
from fixtures.results import RESULTS_DIR
from textcheck import rules


def drift(device: str) -> dict:
    """The committed run-to-run spread of each timed figure on this device class
    ({"figures": {name: {"sd": ..., "per run": [...]}}, "source": ...}; {} if never measured):
    written by `python benchmarks/cost_flakes.py --calibrate`."""
    path = RESULTS_DIR / f"cost_drift_{device.split(':')[0]}.json"
    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not valid JSON ({e}); regenerate it with "
                         "python benchmarks/cost_flakes.py --calibrate") from None


def drift_sd(device: str, timed: rules.TimedFigure) -> float:
    return float(drift(device).get("figures", {}).get(timed.drift_of or timed.name, {}).get("sd", 0.0))


# processes timed first, added while a figure straddles, and at most
REPEATS, REPEAT_STEP, MAX_REPEATS = 5, 5, 15
# The same at the smoke scale (--smoke: CI's run of the slow tier, which checks that every timed
# test reaches its evidence and its verdict, not what the verdict is): three processes, the fewest
# whose bootstrap has a spread to judge, then one more at a time, at most four.  Its verdicts are
# labelled smoke and never saved.
SMOKE_REPEATS, SMOKE_REPEAT_STEP, SMOKE_MAX_REPEATS = 3, 1, 4


class TooNoisy(Exception):
    """The machine was too busy to time on (fixtures/cost.py busy): decide nothing."""


class CostRun:
    """The timings and byte counts of one device's cost claims, measured when first asked, and the
    loop that decides a timed figure: more independent processes while its interval straddles."""

    def __init__(self, device: str, ns, smoke: bool = False):
        self.device, self.ns, self.smoke = device, list(ns), smoke
        # timing processes: (first, added while a figure straddles, at most)
        self.schedule = (SMOKE_REPEATS, SMOKE_REPEAT_STEP, SMOKE_MAX_REPEATS) if smoke else \
            (REPEATS, REPEAT_STEP, MAX_REPEATS)
        self._timings, self._peaks = None, None

    @property
    def timings(self) -> cost.Timings:                  # timed when a timing claim first asks
        if self._timings is None:
            self._timings = cost.Timings(self.ns, self.device).more(self.schedule[0])
        return self._timings

    @property
    def peaks(self) -> dict[int, float]:                # byte counts: measured once, when asked
        if self._peaks is None:
            self._peaks = peak_memory.peak_table(self.ns, self.device)
        return self._peaks

    def rows(self, with_peaks: bool = False) -> list[dict]:
        rows = self.timings.rows()
        peaks = self.peaks if with_peaks else self._peaks   # measured here if asked and not yet
        if peaks is not None:
            for prev, row in zip([None, *rows], rows):
                row["peak_mb"] = peaks[row["n"]]
                if prev is not None:
                    row["peak_ratio"] = row["peak_mb"] / prev["peak_mb"]
        return rows

    def judge(self, name: str, statistic, samples_of) -> dict:
        """Judge one timed figure (claims/timing.py TIMED, judge): repeat while its interval
        straddles and more processes could narrow it, up to MAX_REPEATS (SMOKE_MAX_REPEATS at the
        smoke scale); on a machine with a steady neighbour, decide nothing (fixtures/cost.py busy).
        At the smoke scale a busy machine is no reason to stop: CI's shared cores are never quiet,
        and a smoke run is there to reach the evidence and the verdict (which mean nothing and are
        never saved)."""
        busy = self.timings.busy()
        if busy and not self.smoke:
            raise TooNoisy(f"too noisy to decide: {busy}")
        _, step, most = self.schedule
        timed, drift = TIMED[name], drift_sd(self.device, TIMED[name])
        while True:
            samples = samples_of(self.timings)
            value = statistic([min(s) for s in samples])
            a, b = np.percentile(cost.bootstrap(statistic, samples), [2.5, 97.5])
            verdict, lo, hi = rules.judge(timed, value, a, b, drift)
            floor_lo, floor_hi = rules.floor(value, drift)
            floor_only = floor_lo <= a and b <= floor_hi                    # more processes change nothing
            if verdict != "undecided" or floor_only or self.timings.repeats >= most:
                return {"timed": timed, "verdict": verdict, "value": value, "bootstrap": [a, b],
                        "interval": [lo, hi], "drift": drift, "repeats": self.timings.repeats}
            self.timings.more(step)
