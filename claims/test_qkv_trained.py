"""Queries, keys and values, trained: what the learned maps buy.  "Score position i for position t
as x_t . x_i and the mechanism works -- badly": one head of raw dot products mixing the tokens
themselves (fixtures/recipes.py QKV), everything else as the ladder's `one_head`, placed between
the average with the same positions and the learned head (declared before it was trained:
docs/choices.md).  Two more steps of the argument, each on a model built for it and declared before
it was measured (docs/choices.md, 2026-12-07): the same head without W_v ("So learn a third map"),
and the weights as plain parameters, a learned T x T matrix ("They cannot be plain parameters"),
decided on the hardened Winograd task; each on its groups' declared seeds (claims/seed_steps.py)."""
import pytest

from claims.seed_steps import DECLARED_SEEDS
from claims.trained import val
from textcheck import printing

# the raw head against the ladder's: both groups' declared seeds (claims/seed_steps.py: 5 each, all
# trained and on record since 2026-12-07)
SEEDS = min(DECLARED_SEEDS["qkv"], DECLARED_SEEDS["ladder"])


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
                   reason=f"held-out perplexity: the average with positions {printing.over_seeds(average)}, raw dot products "
                          f"{printing.over_seeds(raw)}, the learned head {printing.over_seeds(learned)}")


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
                   reason=f"held-out perplexity: no context {printing.over_seeds(baseline)}, raw dot products {printing.over_seeds(raw)}")


@pytest.mark.gpu
@pytest.mark.xdist_group("ladder")
@pytest.mark.claim("qkv.value_map_helps")
def test_learning_a_third_map_helps(trained, seeds, claim):
    # "So learn a third map" (read as docs/choices.md declares it): the ladder's one head below the
    # same head with the tokens themselves as values (W_q, W_k kept, no W_v), paired by seed
    n = seeds(claim.seeds(DECLARED_SEEDS["qkv"]))
    with_v = val(trained("ladder", "one_head", n, weights=False))
    without_v = val(trained("qkv", "no_value_map", n, weights=False))
    claim.ordering(label="one head: with W_v below without", stated="so learn a third map",
                   measured={"with W_v": with_v, "without W_v": without_v}, measurement="perplexity",
                   conditions=[[f"seed {i}: the learned head's held-out perplexity below the head without W_v's", a, "<", b]
                               for i, (a, b) in enumerate(zip(with_v, without_v))],
                   tolerance="a paired t test over seeds, significant at 5 % two-sided", seeds=len(with_v),
                   reason=f"held-out perplexity: one head {printing.over_seeds(with_v)}, without W_v {printing.over_seeds(without_v)}")


@pytest.mark.gpu
@pytest.mark.xdist_group("ladder")
@pytest.mark.claim("qkv.weights_not_plain_parameters")
def test_the_weights_cannot_be_plain_parameters(trained, seeds, claim):
    # "They cannot be plain parameters" (read as docs/choices.md declares it): decided on the hardened
    # Winograd task, where the adjective decides which noun is the referent: one block's held-out
    # accuracy above the same block's with each head's weights a learned T x T matrix, paired by seed.
    # The same swap on the chapter's corpus is shown beside it and decides nothing.
    m = seeds(claim.seeds(DECLARED_SEEDS["winograd"]))
    block, fixed = ([r.metrics["accuracy"] for r in trained("winograd", f"winograd_hardened_{kind}", m, weights=False)]
                    for kind in ("one_block", "fixed_weights"))
    n = seeds(claim.seeds(DECLARED_SEEDS["qkv"]))
    corpus = {label: val(trained(group, name, n, weights=False)) for label, group, name in (
        ("uniform average", "ladder", "average_positions"), ("fixed weights", "qkv", "fixed_weights"),
        ("one head", "ladder", "one_head"))}
    claim.ordering(label="hardened task: one block above fixed weights", stated="they cannot be plain parameters",
                   measured={"one block": block, "fixed weights": fixed,
                             "corpus, held-out perplexity (shown, not deciding)": corpus},
                   measurement="winograd_accuracy",
                   conditions=[[f"seed {i}: one block's held-out accuracy above the fixed-weights block's", a, ">", b]
                               for i, (a, b) in enumerate(zip(block, fixed))],
                   tolerance="a paired t test over seeds, significant at 5 % two-sided", seeds=len(block),
                   reason=f"hardened task, held-out accuracy: one block {printing.over_seeds([100 * v for v in block], ' %')}, "
                          f"fixed weights {printing.over_seeds([100 * v for v in fixed], ' %')}; on the corpus (shown): "
                          + ", ".join(f"{k} {printing.over_seeds(v)}" for k, v in corpus.items()))
