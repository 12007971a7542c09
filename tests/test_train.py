"""The training loop's held-out curve: recorded, and unable to change what training computes."""
import torch

from fixtures.recipes import Recipe, TrainConfig
from fixtures.train import train
from model import ModelConfig

TINY = Recipe("tiny", ModelConfig(d_model=32, context=32, n_heads=2), TrainConfig(steps=40, batch_size=8, lr=3e-3))


def test_the_held_out_curve_leaves_the_weights_bit_identical():
    plain = train(TINY, held_out_points=0)
    logged = train(TINY, held_out_points=20)
    assert "held_out_curve" not in plain.metrics
    a, b = plain.model.state_dict(), logged.model.state_dict()
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    assert plain.curve == logged.curve
    curve = logged.metrics["held_out_curve"]
    assert [s for s, _ in curve] == list(range(2, 41, 2))              # 20 points, the last at the end
    assert curve[0][1] > curve[-1][1]                                   # it learns
    best = logged.metrics["best_held_out"]
    assert best["val_ppl_subset"] == min(p for _, p in curve) and best["step"] in [s for s, _ in curve]
