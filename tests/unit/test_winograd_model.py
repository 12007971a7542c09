"""The Winograd recipes build the models the chapter describes: the uniform average is
order-free (the premise of winograd.uniform_fails and winograd.category_cheat)."""
import pytest
import torch

from data.winograd import QUERY_POS, hardened, sentence
from model import LanguageModel


@pytest.mark.parametrize("seed", range(3))
def test_uniform_model_knows_which_words_are_there_and_nothing_about_their_order(seed):
    """The premise of the uniform claims, exact on the model as built (any weights): permuting
    the words before the query position leaves its prediction unchanged -- swapping the two
    nouns included.  Up to the float noise of a reordered sum, as the chapter's shuffle test."""
    from fixtures.recipes import winograd_recipe
    torch.manual_seed(seed)
    model = LanguageModel(winograd_recipe("hardened", "uniform").model).eval()
    task = hardened()
    words = sentence("animal", "street", "tired")
    swapped = sentence("street", "animal", "tired")
    idx = task.encode([words, swapped])[:, :-1]
    g = torch.Generator().manual_seed(seed)
    perm = torch.cat([torch.randperm(QUERY_POS, generator=g), torch.arange(QUERY_POS, idx.shape[1])])
    shuffled = idx[:1, perm]
    with torch.no_grad():
        out = model(torch.cat([idx, shuffled]))[:, QUERY_POS]            # (3, V)
    moved = max((out[i] - out[0]).abs().max().item() for i in (1, 2))
    # float32 noise of a reordered sum; the pre-norm model this replaced moved by ~1e-2
    assert moved <= 1e-5
    assert (out.argmax(-1) == out[0].argmax()).all()


def test_a_reading_changes_the_generator_only_where_it_says():
    """The errata's Winograd readings (fixtures/recipes.py READINGS) name task options: the
    held-out fraction and the split's seed ("split=seed": the recipe's own seed)."""
    from data.winograd import task
    from fixtures.recipes import RECIPES
    from fixtures.train import winograd_task
    default = task("cheatable")
    assert len(default.test) == 16 * 8 and len(task("cheatable,held_out=0.125").test) == 8 * 8
    assert task("hardened,split=0").test == task("hardened").test != task("hardened,split=3").test
    r = RECIPES["winograd_hardened_uniform_split_per_seed"]
    assert winograd_task(r.with_seed(0)).test == task("hardened").test
    assert winograd_task(r.with_seed(2)).test == task("hardened,split=2").test
    assert RECIPES["winograd_cheatable_one_block_width64"].model.d_model == 64
    for bad in ("cheatable,held=0.1", "cheatable,held_out=1.5", "cheatable,split=x", "nope"):
        with pytest.raises(KeyError, match="unknown Winograd task"):
            task(bad)
