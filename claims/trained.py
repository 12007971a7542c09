"""Helpers for trained claims: the runs' figures, per seed.  The rule they are compared under
(the chapter's rounding + 2 seed sd) and the seed check live in textcheck/rule.py."""
from __future__ import annotations


def val(results) -> list[float]:
    return [r.metrics["val_ppl"] for r in results]


def train_ppl(results) -> list[float]:
    return [r.metrics["train_ppl"] for r in results]


def gain(worse, better) -> list[float]:
    """Perplexity points `better` gains over `worse`, paired by seed."""
    return [w - b for w, b in zip(val(worse), val(better))]


# The declared reading "best held-out step" (claims/readings_declared.py, docs/choices.md): each
# seed's lowest point of its own held-out curve, scored on the whole held-out split
# (fixtures/recipes.py NORM_HELD_OUT_EVERY).  Runs whose curve scored only a subset give none.
BEST_STEP = "best held-out step"


def best(rs: list) -> list[float] | None:
    """Each seed's perplexity at its best held-out step on the full split, or None where a run has none."""
    b = [r.metrics.get("best_held_out") or {} for r in rs]
    return [x["val_ppl"] for x in b] if b and all("val_ppl" in x for x in b) else None


def best_step_reading(values, *runs) -> tuple | None:
    """The reading for trained_figure, measured when the newest of its runs was trained."""
    dates = [r.trained_at for rs in runs for r in rs]
    return None if values is None or not all(dates) else (BEST_STEP, values, max(dates))
