"""Each asserting sentence of the chapter against the cheapest experiment that could falsify it, and
whether the tests run that experiment at the strength the sentence states (Chapter.strength).

Made 2026-12-07 by comparing docs/falsifiers-blind.md (falsifiers proposed from the chapter alone,
before any test was read) with what the tests of each sentence's claim IDs measured at commit
c60c3e9 (plus the then uncommitted claims/test_recurrence.py recurrence.matmul_step).  One entry per
sentence the sentence table gives claim IDs, and one per sentence declared as asserting nothing
that the blind review disputed (or issue 56 named) and this review agrees asserts something
checkable; `anchor` is the sentence table's, verbatim.  The entries are data, in
claims/falsification.toml (one [[review]] each), loaded typed.

Statuses: "tested" (a test measures what the sentence says, at the strength it says it); "weakly
tested" (the tests check something easier: a bare layer instead of the trained model, synthetic
rows, one part of the sentence, a weaker baseline); "untested" (nothing checks what it asserts).
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
