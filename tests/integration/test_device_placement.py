"""CUDA placement, checked without CUDA: a tensor left on the CPU while the model is elsewhere.

CI has no GPU, so `pytest -m gpu -n auto` would meet such a bug first on someone's CUDA box,
hours in.  The meta device stands in for it: a model on "meta" has shapes and no data, and
PyTorch refuses to mix a meta tensor with a CPU one ("not on the expected device"), as it
refuses to mix CUDA and CPU.  So one training step and one evaluation of every recipe run on
"meta" until the first value is read back (`.item()`, which meta tensors cannot give); any
other error there is a misplaced tensor.
"""
import pytest
import torch

from fixtures.recipes import RECIPES_BY_GROUP
from fixtures.train import evaluate_recipe, train
from model import LanguageModel, positions

READ_BACK = "cannot be called on meta tensors"
# one recipe per architecture family is enough, but all of them are cheap on the meta device
RECIPES = [r for rs in RECIPES_BY_GROUP.values() for r in rs]


@pytest.mark.parametrize("recipe", RECIPES, ids=[r.name for r in RECIPES])
def test_a_training_step_keeps_every_tensor_on_the_models_device(recipe):
    # the loop reads the first loss back at step 0: everything before it ran on "meta"
    with pytest.raises(RuntimeError, match=READ_BACK):
        train(recipe, device="meta")


@pytest.mark.parametrize("recipe", RECIPES, ids=[r.name for r in RECIPES])
def test_an_evaluation_keeps_every_tensor_on_the_models_device(recipe):
    model = LanguageModel(recipe.model).to("meta")
    with pytest.raises(RuntimeError, match=READ_BACK):
        evaluate_recipe(recipe, model, "meta")


def test_the_check_catches_a_tensor_left_on_the_cpu(monkeypatch):
    """A planted bug: RoPE's positions made with torch.arange(T), on the CPU whatever the device."""
    def rotate(self, q, k):
        p = torch.arange(q.shape[-2])                               # the bug: no device=q.device
        return self.rotate_one(q, p), self.rotate_one(k, p)
    monkeypatch.setattr(positions.RoPE, "rotate", rotate)
    rope = next(r for r in RECIPES if r.model.positions == "rope")
    with pytest.raises(RuntimeError, match="expected device"):
        train(rope, device="meta")
