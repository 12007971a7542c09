"""One reader of the run's evidence for the report's tables and errata alike (`Facts`): a chapter
figure's measurement by its figure ID (the merged report's figure rows, claims/verdicts.py
figure_rows), a test's record by its exact name, the runs of results/<group>.json by recipe, and
the alternative readings the tests record (readings.json).  Never a substring of a test id."""
from __future__ import annotations

import json
from pathlib import Path

from claims import verdicts
from claims.chapter_figures import FIGURES
from fixtures import results


class Facts:
    """The measurements an erratum may cite: a chapter figure's by its figure ID (the merged
    report's figure rows, claims/verdicts.py figure_rows), a test's by its exact name, and the
    runs, readings and rows of results/."""

    def __init__(self, merged: dict, results_dir: Path, report_dir: Path | None = None):
        self.claims = {c["id"]: c for c in merged.get("claims", [])}
        self.figures = {r["id"]: r for r in merged.get("figures") or verdicts.figure_rows(merged.get("claims", []))}
        self.results_dir = results_dir
        self._groups: dict[str, dict] = {}
        self.readings: dict = {}
        for d in (results_dir, report_dir):                   # the fresh run's readings win
            if d is not None and (Path(d) / "readings.json").exists():
                self.readings.update(json.loads((Path(d) / "readings.json").read_text()))

    def runs(self, group: str, recipe: str, key: str = "val_ppl") -> list:
        """One figure of each seed's newest run of a recipe (a record's field, else its metric)."""
        if group not in self._groups:                          # each group's file read once
            self._groups[group] = results.by_recipe(group, self.results_dir)
        return [r[key] if key in r else r["metrics"].get(key) for r in self._groups[group].get(recipe, [])]

    def figure(self, fid: str) -> dict:
        """The evidence of one of the chapter's figures, by its figure ID ({} if no test carries it)."""
        if fid not in FIGURES:
            raise KeyError(f"unknown figure ID {fid!r} (claims/chapter_figures.py)")
        return self.figures.get(fid, {})

    def _test(self, claim: str, name: str) -> dict:
        """The claim's test named exactly `name` ("test_fn" or "test_fn[case]", device case included)."""
        tests = self.claims.get(claim, {}).get("tests", [])
        return next((t for t in tests if t["nodeid"].split("::", 1)[-1] == name), {})

    def record(self, claim: str, name: str) -> dict:
        """The first record of the claim's test named `name` ({} if it did not run)."""
        return (self._test(claim, name).get("records") or [{}])[0]

    def outcome(self, claim: str, name: str) -> str | None:
        return self._test(claim, name).get("outcome")

    def measured(self, claim: str, name: str):
        return self.record(claim, name).get("measured")
