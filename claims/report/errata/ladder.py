"""The errata of the chapter's section: Heads, residuals, MLP, LayerNorm (where the parameters sit)."""
from __future__ import annotations

import re

from claims.report.errata.facts import Erratum, Facts
from claims.report.errata.spread import Edit, edit, num

CLAIM = "ladder.mlp_holds_most_parameters"


def _shares(f: Facts) -> dict:
    """The MLPs' share of each model's parameters, as the test recorded it ({} if not run)."""
    return f.measured(CLAIM, CLAIM) or {}


def _cause(f: Facts) -> str:
    shares = _shares(f)
    if not shares:
        return ""
    return ("two thirds of each block is the MLP (that holds), but a whole model also has its embedding tables, "
            "which no block holds: the MLPs are " + ", ".join(f"{v:.1%} of {k}" for k, v in shares.items())
            + "; the sentence is true of the blocks, not of the model")


def _sentence(f: Facts) -> tuple[Edit, ...]:
    """The sentence from the recorded shares: "most" only of the blocks where no whole model's MLPs
    reach half its parameters, with the largest share measured, at the chapter's whole percent."""
    shares = _shares(f)
    if not shares or all(v > 0.5 for v in shares.values()):
        return ()                                   # the chapter's sentence stands: nothing to suggest
    top = max(shares, key=shares.get)
    return (edit("Whatever a model knows, most of the parameters holding it are in the per-position MLP.",
                 "Whatever a model's blocks know, most of the parameters holding them are in the per-position MLP; "
                 "counting the embedding tables, the MLPs hold at most {share} of a whole model (" + top + ").",
                 cites=tuple(re.findall(r"\d+", top)),         # a model's name the chapter prints ("GPT-2")
                 share=num([round(shares[top], 2)], percent=True)),)


ERRATA: dict[str, Erratum] = {
    CLAIM: Erratum(
        quote="Whatever a model knows, most of the parameters holding it are in the per-position MLP.",
        cause=_cause,
        suggested=_sentence),
}
