"""Where the chapter view puts what it adds to a text, in place: a table of ours wherever the text
introduces a table it does not print, and each plot beside the paragraph it belongs to (rendered
by textcheck/report/views/chapter_view/inserts.py).  The places are the text's own, declared by its
package, each by a verbatim phrase of the paragraph the insert follows.  Pure: no HTML, no torch.
"""
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
    """The inserts after each paragraph (by the paragraph's start); a phrase not in a prose
    paragraph places nothing (`unplaced` names it); one the text does not hold once is the anchor
    index's one error (textcheck/anchors.py)."""
    out: dict[int, list[Place]] = {}
    index = index_of(text)
    for p in places:
        at = index.locate(Anchor(p.phrase, "places", p.key))
        b = next((b for b in blocks if b.start <= at < b.end and b.kind == "p"), None)
        if b is not None:
            out.setdefault(b.start, []).append(p)
    return out


def anchor_list(places: Sequence[Place]) -> AnchorList:
    """The places of the inserts, a list of quotes (textcheck/anchors.py), by key."""
    return AnchorList("places", tuple(Anchor(p.phrase, "places", p.key) for p in places))


def unplaced(text: str, blocks, places: Sequence[Place]) -> list[str]:
    where = {p.phrase for ps in placed(text, blocks, places).values() for p in ps}
    return [p.phrase for p in places if p.phrase not in where]
