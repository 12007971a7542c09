"""The badges as data: an overall one and one per section, each its share of claims that hold and
its colour (drawn by textcheck/report/views/badges.py)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from textcheck.outcomes import Counts
from textcheck.verdicts import DECIDED

BADGE_COLORS = [(1.0, "brightgreen"), (0.8, "green"), (0.6, "yellowgreen"), (0.4, "yellow"),
                (0.2, "orange"), (0.0, "red")]


@dataclass(frozen=True)
class Badge:
    name: str         # "overall" or a section's key: the file's stem
    label: str
    value: str        # "12/20 hold": holds among all the claims
    color: str        # a shields.io colour name (textcheck/report/views/badges.py HEX)


def _color(share: float) -> str:
    return next(c for limit, c in BADGE_COLORS if share >= limit)


def badge(name: str, counts: dict[str, int]) -> Badge:
    """`counts`: claims per verdict.  "hold" counts holds among all the claims; grey with none
    decided, red with one failing."""
    holds, total = Counts.of(counts).holds, sum(counts.values())
    color = _color(holds / total) if any(counts.get(v) for v in DECIDED) else "lightgrey"
    if Counts.of(counts).fails:
        color = "red"
    # undecided and underspecified claims said apart from refuted ones, never counted as holding
    open_ = "".join(f", {counts[v]} {v}" for v in ("underspecified", "undecided") if counts.get(v))
    return Badge(name, "claims" if name == "overall" else f"claims: {name}", f"{holds}/{total} hold{open_}", color)


def badge_data(sections) -> list[Badge]:
    """The overall badge, then one per section (textcheck/report/assembly/claim_rows.py Section, its claims
    per verdict as the model counted them), in order."""
    overall = sum((Counter(s.counts) for s in sections), Counter())
    return [badge("overall", dict(overall))] + [badge(s.key, s.counts) for s in sections]
