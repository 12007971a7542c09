"""The causal mask, trained: what the chapter says it is for.  "If position t could see position
t+1 the answer would be in the input": the ladder's one full block trained again with the mask
removed (fixtures/recipes.py LEAK; the threshold declared before it was trained: docs/choices.md)."""
import pytest

from claims.trained import val
from textcheck import printing

SEEDS = 3
NEARLY_CERTAIN = 2.0      # a held-out perplexity under 2: the next token nearly certain (docs/choices.md)


@pytest.mark.gpu
@pytest.mark.xdist_group("ladder")
@pytest.mark.claim("mask.leak_without_mask")
def test_without_the_mask_the_answer_is_in_the_input(trained, seeds, claim):
    n = seeds(SEEDS)
    masked, unmasked = val(trained("ladder", "layernorm", n, weights=False)), val(
        trained("mask", "layernorm_unmasked", n, weights=False))
    claim.ordering(label="without the mask: held-out perplexity", stated="the answer in the input",
                   measured={"masked": masked, "unmasked": unmasked}, measurement="perplexity",
                   conditions=[c for i, (m, u) in enumerate(zip(masked, unmasked)) for c in (
                       [f"seed {i}: the unmasked model's held-out perplexity below the masked one's", u, "<", m],
                       [f"seed {i}: the unmasked model's held-out perplexity below 2", u, "<", NEARLY_CERTAIN])],
                   tolerance="each comparison a paired t test over seeds, significant at 5 % two-sided", seeds=len(masked),
                   reason=f"held-out perplexity without the mask {printing.over_seeds(unmasked)}, with it {printing.over_seeds(masked)}")
