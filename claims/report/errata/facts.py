"""What every erratum reads: the measurements by name (`Facts`), an entry's parts (`Erratum`),
and how a measurement over seeds is written."""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from claims.formats import over_seeds
from fixtures import results


class Facts:
    """The measurements an erratum may cite, by name."""

    def __init__(self, merged: dict, results_dir: Path, report_dir: Path | None = None):
        self.claims = {c["id"]: c for c in merged.get("claims", [])}
        self.results_dir = results_dir
        self.readings: dict = {}
        for d in (results_dir, report_dir):                   # the fresh run's readings win
            if d is not None and (Path(d) / "readings.json").exists():
                self.readings.update(json.loads((Path(d) / "readings.json").read_text()))

    def runs(self, group: str, recipe: str, key: str = "val_ppl") -> list:
        """One figure of each seed's newest run of a recipe (a record's field, else its metric)."""
        return [r[key] if key in r else r["metrics"].get(key)
                for r in results.by_recipe(group, self.results_dir).get(recipe, [])]

    def record(self, claim: str, test: str) -> dict:
        """The first record of the claim's test whose id contains `test` ({} if none ran)."""
        for t in self.claims.get(claim, {}).get("tests", []):
            if test in t["nodeid"] and t.get("records"):
                return t["records"][0]
        return {}

    def outcome(self, claim: str, test: str) -> str | None:
        """The verdict of the claim's first test whose id contains `test` (None if none ran)."""
        return next((t["outcome"] for t in self.claims.get(claim, {}).get("tests", []) if test in t["nodeid"]), None)

    def measured(self, claim: str, test: str):
        return self.record(claim, test).get("measured")


@dataclass(frozen=True)
class Erratum:
    quote: str                                   # the chapter's sentence, verbatim
    cause: Callable[[Facts], str]                # what we found, with its evidence ("" = not yet found)
    readings: Callable[[Facts], list[str]] = field(default=lambda f: [])
    suggested: Callable[[Facts], str] = field(default=lambda f: "")


def per_seed(f: Facts, claim: str, test: str) -> list[float]:
    m = f.measured(claim, test)
    return m.get("per seed", []) if isinstance(m, dict) else []


def pct(values) -> str:
    return over_seeds([100 * v for v in values], " %") if values else "not measured"
