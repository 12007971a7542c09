"""What the chapter view shows of each figure on hover or focus (its tooltip, its note in
chapter.md): the chapter's figure, ours as the chapter writes it, the tolerance, the seeds, the
source and since when."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from textcheck.formats import SeedValues, cell, over_seeds
from textcheck.report.assembly.merged import FigureRow


def details(row: FigureRow) -> tuple[tuple[str, str], ...]:
    """What a reader sees on hover or focus: the chapter's figure, ours, the tolerance, the source."""
    src = ", ".join(str(x) for x in (row.source, row.measured_on, str(row.timestamp or "")[:10]) if x and x != "None")
    measured = row.measured
    per_seed = SeedValues.of(measured).per_seed
    if row.printed.endswith("%") and per_seed:
        ours = over_seeds([100 * v for v in per_seed], " %")      # as the chapter writes it
    else:
        ours = cell(measured) or "not measured"
    out = [("figure", f"{row.id} (claim {row.claim})"), ("verdict", row.label), ("the chapter", row.printed),
           ("ours", ours), ("tolerance", cell(row.tolerance) or "-"), ("seeds", str(row.seeds or "-")),
           ("source", src or "-")]
    if row.since:                     # the evidence's date and commit (since.py)
        out.append(("since", row.since))
    if row.reason and row.verdict != "holds":
        out.append(("why", row.reason))
    return tuple((k, v if not v[400:] else v[:397] + "...") for k, v in out)      # at most 400 characters


def with_details(rows: Sequence[FigureRow]) -> list[FigureRow]:
    """Each figure row with its `details`."""
    return [replace(r, details=details(r)) for r in rows]
