"""Queries, keys and values, trained: what the learned maps buy.  "Score position i for position t
as x_t . x_i and the mechanism works -- badly": one head of raw dot products mixing the tokens
themselves (fixtures/recipes.py QKV), everything else as the ladder's `one_head`, placed between
the average with the same positions and the learned head (declared before it was trained:
docs/choices.md)."""
import pytest

from claimcheck.formats import over_seeds
from claims.trained import val

SEEDS = 3


@pytest.mark.gpu
@pytest.mark.xdist_group("ladder")
@pytest.mark.claim("qkv.raw_dot_product_works_badly")
def test_raw_dot_products_work_badly(trained, seeds, claim):
    n = seeds(claim.seeds(SEEDS))
    average, learned = (val(trained("ladder", name, n, weights=False)) for name in ("average_positions", "one_head"))
    raw = val(trained("qkv", "raw_dot_product", n, weights=False))
    claim.ordering(label="raw dot products: between the average and a learned head",
                   stated="works, badly", measured={"average": average, "raw": raw, "learned": learned},
                   measurement="perplexity",
                   conditions=[c for i, (a, r, h) in enumerate(zip(average, raw, learned)) for c in (
                       [f"seed {i}: the raw head's held-out perplexity below the average's", r, "<", a],
                       [f"seed {i}: the raw head's held-out perplexity above the learned head's", r, ">", h])],
                   tolerance="each comparison a paired t test over seeds, significant at 5 % two-sided", seeds=len(raw),
                   reason=f"held-out perplexity: the average with positions {over_seeds(average)}, raw dot products "
                          f"{over_seeds(raw)}, the learned head {over_seeds(learned)}")


@pytest.mark.gpu
@pytest.mark.xdist_group("ladder")
@pytest.mark.claim("qkv.raw_dot_product_works_badly")
def test_raw_dot_products_work_against_the_no_context_baseline(trained, seeds, claim):
    # "works" read against the no-context baseline too (docs/choices.md, 2026-12-07): the raw head's
    # held-out perplexity below the baseline's, paired by seed
    n = seeds(claim.seeds(SEEDS))
    baseline = val(trained("ladder", "baseline", n, weights=False))
    raw = val(trained("qkv", "raw_dot_product", n, weights=False))
    claim.ordering(label="raw dot products: below the no-context baseline", stated="works",
                   measured={"baseline": baseline, "raw": raw}, measurement="perplexity",
                   conditions=[[f"seed {i}: the raw head's held-out perplexity below the baseline's", r, "<", b]
                               for i, (b, r) in enumerate(zip(baseline, raw))],
                   tolerance="a paired t test over seeds, significant at 5 % two-sided", seeds=len(raw),
                   reason=f"held-out perplexity: no context {over_seeds(baseline)}, raw dot products {over_seeds(raw)}")
