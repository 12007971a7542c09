"""What the chapter view shows of each figure on hover or focus (its tooltip in chapter.html, its note
in chapter.md), computed by the report model once per render: the chapter's figure, ours (over the
seeds, as the chapter writes it: a percentage as a percentage), the tolerance, the seeds, the
source and since when.  Part of the report model, called by a text's `Parts.since` (this
project's claims/report/parts.py PARTS); the views read it from each figure row ("details")."""
from __future__ import annotations

from textcheck.formats import cell, over_seeds


def details(row: dict) -> list[tuple[str, str]]:
    """What a reader sees on hover or focus: the chapter's figure, ours, the tolerance, the source."""
    src = ", ".join(str(x) for x in (row.get("source"), row.get("measured_on"), str(row.get("timestamp") or "")[:10])
                    if x and x != "None")
    measured = row.get("measured")
    if row["printed"].endswith("%") and isinstance(measured, dict) and measured.get("per seed"):
        ours = over_seeds([100 * v for v in measured["per seed"]], " %")      # as the chapter writes it
    else:
        ours = cell(measured) or "not measured"
    out = [("figure", f"{row['id']} (claim {row['claim']})"), ("verdict", row["label"]),
           ("the chapter", row["printed"]), ("ours", ours),
           ("tolerance", cell(row.get("tolerance")) or "-"), ("seeds", str(row.get("seeds") or "-")),
           ("source", src or "-")]
    if row.get("since"):                     # the evidence's date and commit (since.py)
        out.append(("since", row["since"]))
    if row.get("reason") and row["verdict"] != "holds":
        out.append(("why", row["reason"]))
    return [(k, v if not v[400:] else v[:397] + "...") for k, v in out]      # at most 400 characters


def with_details(rows: list[dict]) -> list[dict]:
    """Each figure row with its "details" (copies: the rows are not changed)."""
    return [dict(r, details=details(r)) for r in rows]
