"""Dividing by sqrt(d_k), trained: at the ladder's head width of 32 (3000-step setup).
(The wide-head claims, scale.matters_at_256 and scale.runaway, need a head width independent
of the model width: not encoded yet.)"""
import pytest

from claims.trained import gain, need_spread, val

pytestmark = [pytest.mark.gpu, pytest.mark.xdist_group("ladder")]
SEEDS = 3


@pytest.mark.claim("scale.no_effect_at_32")
def test_dropping_the_division_costs_nothing_at_d_k_32(trained, seeds, claim_record):
    # The ladder's one-block model (4 heads of 32) with and without the division, 3000 steps.
    n = seeds(SEEDS)
    divided, undivided = trained("ladder", "layernorm", n), trained("scale", "scale32_undivided", n)
    cost = gain(undivided, divided)          # how much better the divided model is
    claim_record(stated="costs nothing (undivided very slightly ahead)",
                 measured=dict(cost.as_record(), divided=val(divided), undivided=val(undivided)),
                 tolerance=f"divided no better than 0.005 + 2 sd = {cost.tolerance(0.005):.2f}", seeds=n)
    need_spread(n)
    assert cost.mean <= cost.tolerance(0.005)
