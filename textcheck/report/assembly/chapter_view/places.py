"""Where the chapter view puts our tables and plots: after the paragraph holding each place's
verbatim phrase, declared by the text's package.  Pure: no HTML, no torch."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textcheck.anchors import Anchor, AnchorList, index_of


@dataclass(frozen=True)
class Place:
    phrase: str         # verbatim, once in the chapter: the insert follows the paragraph holding it
    kind: str           # "table" (ours, for one the chapter introduces and does not print) or "plot"
    key: str            # the table's key (Table.key; "" where we have none) or the plot's stem


def placed(text: str, blocks, places: Sequence[Place]) -> dict[int, list[Place]]:
    """The inserts after each paragraph, by its start; a phrase not in prose places nothing."""
    out: dict[int, list[Place]] = {}
    index = index_of(text)
    for p in places:
        at = index.locate(Anchor(p.phrase, "places", p.key))
        b = next((b for b in blocks if b.start <= at < b.end and b.kind == "p"), None)
        if b is not None:
            out.setdefault(b.start, []).append(p)
    return out


def anchor_list(places: Sequence[Place]) -> AnchorList:
    return AnchorList("places", tuple(Anchor(p.phrase, "places", p.key) for p in places))


def unplaced(text: str, blocks, places: Sequence[Place]) -> list[str]:
    where = {p.phrase for ps in placed(text, blocks, places).values() for p in ps}
    return [p.phrase for p in places if p.phrase not in where]
