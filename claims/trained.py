"""Helpers for trained claims: the runs' figures, per seed.  The rule they are compared under
(the chapter's rounding + 2 seed sd) and the seed check live in claimcheck/rule.py."""
from __future__ import annotations


def val(results) -> list[float]:
    return [r.metrics["val_ppl"] for r in results]


def train_ppl(results) -> list[float]:
    return [r.metrics["train_ppl"] for r in results]


def gain(worse, better) -> list[float]:
    """Perplexity points `better` gains over `worse`, paired by seed."""
    return [w - b for w, b in zip(val(worse), val(better))]
