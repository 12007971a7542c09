"""ModelConfig rejects options it does not know, naming the ones it does."""
import pytest

from model import LanguageModel, ModelConfig
from fixtures.recipes import LADDER


@pytest.mark.parametrize("field,value,expected", [
    ("mixer", "lstm", "mixer must be one of"),
    ("positions", "xpos", "positions must be one of"),
    ("norm", "mid", "norm must be"),
])
def test_unknown_option_is_a_clear_error(field, value, expected):
    with pytest.raises(ValueError, match=expected):
        ModelConfig(**{field: value})


def test_rope_needs_attention():
    with pytest.raises(ValueError, match="acts on attention scores"):
        ModelConfig(mixer="average", positions="rope")


@pytest.mark.parametrize("recipe", LADDER, ids=[r.name for r in LADDER])
def test_every_ladder_row_builds_and_runs(recipe):
    import torch
    m = LanguageModel(recipe.model)
    logits, loss = m(torch.randint(0, 1024, (2, 16)), torch.randint(0, 1024, (2, 16)))
    assert logits.shape == (2, 16, 1024) and loss.item() > 0


def test_ladder_rows_add_one_piece_each():
    sizes = {r.name: LanguageModel(r.model).n_params() for r in LADDER}
    assert sizes["baseline"] == sizes["average"]                    # the average has no parameters
    assert sizes["average_positions"] - sizes["average"] == 128 * 128
    assert sizes["one_head"] - sizes["average_positions"] == 3 * 128 * 128
