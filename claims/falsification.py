"""Each asserting sentence of the chapter against the cheapest experiment that could falsify it, and
whether the project's tests run that experiment at the strength the sentence states.

Made 2026-12-07 by comparing docs/falsifiers-blind.md (falsifiers proposed from the chapter alone,
before any test was read) with what the tests of each sentence's claim IDs (claims/sentence_table.py,
claims/test_*.py) actually measure.  One entry per sentence the table gives claim IDs, and one per
sentence declared as asserting nothing whose declaration the blind review disputed (or issue 56
named) and this review agrees asserts something checkable.  `anchor` is the sentence table's anchor,
verbatim, so an entry is matched to its sentence by equality.  The entries are data, in
claims/falsification.toml (one [[review]] each), loaded here typed (claims/toml_table.py).

Statuses: "tested" (a test measures what the sentence says, at the strength it says it); "weakly
tested" (the tests check something easier: a bare layer instead of the trained model, synthetic
rows instead of the trained head, one part of the sentence, a weaker baseline); "untested" (the
sentence asserts something checkable and no test checks it).  Read against the tests at commit
c60c3e9 plus the then uncommitted matrix-multiply share test (claims/test_recurrence.py,
recurrence.matmul_step).
"""
from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, StrictStr
from pydantic.dataclasses import dataclass

from claims.toml_table import load


@dataclass(frozen=True, config=ConfigDict(extra="forbid"))
class Review:
    anchor: StrictStr     # verbatim, as the S(...) first argument of claims/sentence_table.py
    status: Literal["tested", "weakly tested", "untested"]
    falsifier: StrictStr  # the cheapest experiment that could show the sentence false
    test: StrictStr       # the test node (file::function) that runs it, or ""
    why: StrictStr        # why this status: what the test checks instead, or what is missing


REVIEWS: list[Review] = load("falsification.toml", "review", Review)
