"""The spans of a text's sentences that assert claims (textcheck/sentences.py), with each claim's
verdict, for the chapter view's sentence marks.  A sentence that begins or ends inside a figure's
mark or a formula is widened to hold it whole (overlapping ones become one mark); blocks carry no
sentence mark.  Pure: no HTML, no torch.
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
    start: int
    end: int
    claims: tuple[tuple[str, str], ...]      # (claim ID, its kind), in the sentence table's order

    @property
    def kind(self) -> str:
        return min((k for _, k in self.claims), key=RANK.index)


def _widened(start: int, end: int, atoms: list[tuple[int, int]]) -> tuple[int, int]:
    changed = True
    while changed:
        changed = False
        for a, b in atoms:
            if a < end and b > start and (a < start or b > end):
                start, end, changed = min(start, a), max(end, b), True
    return start, end


def asserting(accounted, claims: Mapping[str, Claim], atoms: list[tuple[int, int]]) -> list[Asserting]:
    """The asserting sentences of the sentence walk, in order, none cutting an atom."""
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
