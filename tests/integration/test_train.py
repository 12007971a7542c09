"""The training loop's held-out curve and attention probe: recorded, and unable to change what
training computes."""
from dataclasses import replace

import torch

from fixtures.recipes import NORM, RECIPES, Recipe, TrainConfig
from fixtures.softmax_stats import softmax_stats
from fixtures.train import evaluate_recipe, held_out_windows, train
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


def test_the_full_split_curve_scores_every_held_out_window_and_changes_nothing_trained():
    every = replace(TINY, held_out_every=10)
    plain, logged = train(TINY, held_out_points=0), train(every)
    a, b = plain.model.state_dict(), logged.model.state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a) and plain.curve == logged.curve
    curve = logged.metrics["held_out_curve"]
    assert [s for s, _ in curve] == [10, 20, 30, 40] and logged.metrics["held_out_windows"] == "all"
    # the last point is the final evaluation's held-out perplexity: the same windows, all of them
    assert abs(curve[-1][1] - evaluate_recipe(TINY, logged.model)["val_ppl"]) < 1e-9 * curve[-1][1]
    assert logged.metrics["best_held_out"] == {"step": min(curve, key=lambda p: p[1])[0],
                                               "val_ppl": min(p for _, p in curve)}


def test_the_curve_setting_keys_only_the_runs_that_carry_it():
    # a recipe without it keeps the key every cached run and record was made under
    assert replace(TINY, held_out_every=0).key(1) == TINY.key(1) != replace(TINY, held_out_every=10).key(1)
    assert all(r.held_out_every == 50 for r in NORM) and RECIPES["prenorm"].to_dict()["held_out_every"] == 50


def test_the_attention_probe_records_the_softmax_along_the_run_and_changes_nothing_trained():
    probed = replace(TINY, attention_probe=True)
    plain, logged = train(TINY), train(probed)
    a, b = plain.model.state_dict(), logged.model.state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a) and plain.curve == logged.curve
    assert plain.metrics["held_out_curve"] == logged.metrics["held_out_curve"] and "attention_curve" not in plain.metrics
    curve = logged.metrics["attention_curve"]
    assert [s for s, _ in curve] == [s for s, _ in logged.metrics["held_out_curve"]]
    x = held_out_windows(TINY.model.vocab_size, TINY.model.context)
    end = softmax_stats(logged.model, x)[0]                  # the last point is the end of training, measured as after it
    assert curve[-1][1] == {k: end[k] for k in ("score_sd", "entropy", "frozen")}
    assert 0 <= min(s["frozen"] for _, s in curve) and max(s["frozen"] for _, s in curve) <= 1


def test_the_attention_probe_keys_only_the_runs_that_carry_it():
    assert replace(TINY, attention_probe=False).key(1) == TINY.key(1) != replace(TINY, attention_probe=True).key(1)
    assert [r.name for r in RECIPES.values() if r.attention_probe] == ["scale1024_undivided"]
