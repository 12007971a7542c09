"""The errata of the chapter's section: Queries, keys and values (the listing it prints)."""
from __future__ import annotations

from claims.report.errata.facts import Erratum, Facts
from claims.report.errata.spread import Edit, edit, num

CLAIM = "qkv.head_thirty_lines"


def _counts(f: Facts) -> dict:
    """The printed listing's counts, as the two listing tests recorded them ({} if not run)."""
    lines, shapes = f.record(CLAIM, "qkv.listing_lines"), f.record(CLAIM, "qkv.listing_shape_lines")
    if not lines or not shapes:
        return {}
    return {"lines": lines.get("measured"), "non-blank": lines.get("non_blank"), "shapes": shapes.get("measured")}


def _cause(f: Facts) -> str:
    n = _counts(f)
    if not n:
        return ""
    return (f"the listing printed right after the sentence (and meant by \"the thirty lines above\") is {n['lines']} "
            f"lines, {n['non-blank']} of them with code; {n['shapes']} of those name a size, a shape or an axis "
            "(d_model, d_head, block, T, .shape, transpose, [:T, :T], dim=), so neither count can reach the printed "
            "ones; the multi-head wrapper, W_o and the block around it are not printed")


def _sentence(f: Facts) -> tuple[Edit, ...]:
    """The listing's counts, which are counts of the printed text, not measurements over seeds."""
    n = _counts(f)
    return (edit("In code it is thirty lines, twenty of which are shapes:", "In code it is {a} lines, {b} of which are "
                 "shapes:", a=num([n["lines"]], "qkv.listing_lines"), b=num([n["shapes"]], "qkv.listing_shape_lines")),
            ) if n else ()


ERRATA: dict[str, Erratum] = {
    CLAIM: Erratum(figure="qkv.listing_lines", cause=_cause,
                   readings=lambda f: ([f"blank lines left out: {_counts(f)['non-blank']} lines"] if _counts(f) else []),
                   suggested=_sentence),
}
