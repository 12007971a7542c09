"""A run's best held-out checkpoint as the report reads it (the norm erratum and the norm table)."""
from __future__ import annotations

import statistics


def best_ppl(b: dict) -> float:
    """A run's best held-out perplexity: on the full held-out split where its curve scored the
    whole split (fixtures/recipes.py NORM_HELD_OUT_EVERY), else on the curve's 64-window subset."""
    return b["val_ppl"] if "val_ppl" in b else b["val_ppl_subset"]


def split_of(best: list[dict]) -> str:
    """Which held-out windows those perplexities are on, in words."""
    if best and all("val_ppl" in b for b in best):
        return "the full held-out split"
    return "the curve's 64 fixed held-out windows" if all("val_ppl" not in b for b in best) else \
        "the full split for some seeds, the curve's 64 fixed windows for others"


def subset_bias(f, recipe: str) -> str:
    """How far the curve's 64-window subset reads from the full held-out split, on the same (final)
    weights: the bias of the best-checkpoint reading above."""
    pairs = [(c[-1][1], full) for c, full in zip(f.per_run("norm", recipe, "held_out_curve"), f.per_run("norm", recipe))
             if c and isinstance(full, (int, float))]
    if not pairs:
        return ""
    sub, full = statistics.mean(p[0] for p in pairs), statistics.mean(p[1] for p in pairs)
    return (f" (caution: on the final weights the subset reads {sub:.2f} against the full split's {full:.2f}, "
            f"{100 * (sub / full - 1):+.1f} %)")
