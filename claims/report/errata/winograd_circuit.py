"""The erratum of the chapter's two-hop circuit, head by head (winograd.two_hop_heads_near_chance):
which of the two hops one head carries, from the measured head ablations."""
from __future__ import annotations

from claims.report.errata.facts import Erratum, Facts, pct
from claims.report.errata.spread import Edit, edit, num

HEADS = "winograd.two_hop_heads_near_chance: two blocks: one head of each block removed at the query"


def _heads(f: Facts) -> tuple[list, list, list]:
    """Intact accuracy, and with block 1's and block 2's most needed head removed at the query, per seed."""
    m = f.measured("winograd.two_hop_heads_near_chance", HEADS) or {}
    return (list(m.get("intact") or []), list(m.get("block 1's most needed head removed") or []),
            list(m.get("block 2's most needed head removed") or []))


def _heads_cause(f: Facts) -> str:
    intact, one, two = _heads(f)
    if not one:
        return ""
    return (f"the first hop is not one head's: with the head of block 1 whose removal costs most taken out at the "
            f"query position, the two-block models keep {pct(one)} of the held-out referents (intact {pct(intact)}), "
            f"at or above chance plus 10 points (60 %) on {sum(a >= 0.6 for a in one)} of {len(one)} models; with "
            f"block 2's, {pct(two)}, which the rule cannot yet tell from near chance (undecided)")


def _heads_sentence(f: Facts) -> tuple[Edit, ...]:
    """The circuit as the ablations show it: two hops across layers, the first not one head's."""
    one = _heads(f)[1]
    if not one:
        return ()
    return (edit("That is a two-hop circuit: one head moves a candidate forward, a head in a later layer reads a token "
                 "that decides whether to keep it",
                 "That is a two-hop circuit: the first layer moves a candidate forward, a later layer reads a token that "
                 "decides whether to keep it; the first hop is not one head's (without the first block's most needed "
                 "head the models still answer {a} of the held-out sentences)", a=num(one, percent=True)),)


ERRATA: dict[str, Erratum] = {
    "winograd.two_hop_heads_near_chance": Erratum(
        quote="That is a two-hop circuit: one head moves a candidate forward, a head in a later layer reads a token "
              "that decides whether to keep it",
        cause=_heads_cause, suggested=_heads_sentence),
}
