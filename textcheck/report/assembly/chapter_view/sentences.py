"""A text's sentences as the chapter view shows them (the walk and the table: textcheck/sentences.py):
the span of each sentence that asserts claims, with each claim's verdict, for the view's sentence
marks.  Pure: no HTML, no torch.

A sentence mark must nest with everything else the view puts in the prose: a figure's mark or a
formula is never cut, so a sentence that begins or ends inside one is widened to hold it whole
(and two asserting sentences that then overlap become one mark, with the claims of both).  A
quoted refuted sentence is cut at the mark's edges instead (textcheck/report/views/chapter_view/marks.py
renders each piece).  Blocks (listings, printed tables, the title) carry no sentence mark: their
figures are marked cell by cell.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from textcheck.report.assembly.merged import Claim
from textcheck.verdicts import LADDER

# The kinds a claim's mark can show, worst first: a sentence shows the worst of its claims.  A claim
# no test carries (or not in the report at all) is "not encoded"; "device-specific" is a reading of
# a figure measured on the text's own device, not a verdict.
RANK = (*LADDER[:4], "not encoded", "not run", "stale", "device-specific", "holds")   # the verdict ladder's


def claim_kind(claim: Claim | None) -> str:
    """A claim's verdict as its sentence's mark shows it (a key of RANK)."""
    if claim is None:
        return "not encoded"
    if claim.verdict == "not run" and any(t.reading for t in claim.tests):
        return "device-specific"
    return claim.verdict if claim.verdict in RANK else "not run"


@dataclass(frozen=True)
class Asserting:
    """A span of the chapter's prose that asserts claims: one sentence, or overlapping ones merged."""
    start: int
    end: int
    claims: tuple[tuple[str, str], ...]      # (claim ID, its kind), in the sentence table's order

    @property
    def kind(self) -> str:
        """The worst kind of its claims (RANK)."""
        return min((k for _, k in self.claims), key=RANK.index)


def _widened(start: int, end: int, atoms: list[tuple[int, int]]) -> tuple[int, int]:
    """[start, end) widened until it cuts no atom (a figure's mark, a formula)."""
    changed = True
    while changed:
        changed = False
        for a, b in atoms:
            if a < end and b > start and (a < start or b > end):
                start, end, changed = min(start, a), max(end, b), True
    return start, end


def asserting(accounted, claims: Mapping[str, Claim], atoms: list[tuple[int, int]]) -> list[Asserting]:
    """The asserting sentences of `accounted` (textcheck/sentences.py accounted), in order, each with
    its claims' kinds (`claims`: the claims by ID), none cutting an atom."""
    spans: list[list] = []
    for a in accounted:
        if a.kind != "asserts" or a.unit.block:
            continue
        start, end = _widened(a.unit.start, a.unit.end, atoms)
        if spans and start < spans[-1][1]:
            spans[-1][0], spans[-1][1] = min(spans[-1][0], start), max(spans[-1][1], end)
            spans[-1][2] += a.claims
        else:
            spans.append([start, end, list(a.claims)])
    return [Asserting(s, e, tuple((cid, claim_kind(claims.get(cid))) for cid in dict.fromkeys(cs)))
            for s, e, cs in spans]
