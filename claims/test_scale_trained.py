"""Dividing by sqrt(d_k), trained: at the ladder's head width of 32 (3000-step setup), and with
one wide head of 256 or 1024 on the chapter's shorter run (recipes and the choices the chapter
leaves open: fixtures/recipes.py, SCALE; how the softmax is measured: fixtures/attention_stats.py)."""
import math

import pytest

from claims.chapter_figures import FIGURES
from claims.chapter_reads import READ
from claims.registry import figures
from claims.seed_steps import DECLARED_SEEDS
from claims.trained import gain, val
from fixtures import recipes
from fixtures.attention_stats import (
    held_out_batch,
    held_out_windows,
    softmax_gradients,
    softmax_stats,
    softmax_stats_at_init,
)
from fixtures.setup import WIDE_HEADS
from textcheck import printing

SEEDS = 3
STATED = figures("scale")      # worth_32, worth_256, worth_1024 (claims/registry.py)


# "At d_k = 32 the division is worth nothing and the run without it is very slightly ahead."
# Two statements.  "Worth nothing" is a figure: the division's worth is 0 points, in the unit
# the same sentence uses for 256 and 1024 ("worth 18 points"): whole points, so +-0.5, widened
# by 2 sd over seeds; two-sided, whichever model is ahead.  "Very slightly ahead" is an
# ordering: the undivided model ahead on the mean over seeds (the sign per seed is recorded).
# The ladder's one-block model (4 heads of 32) with and without the division, 3000 steps.
def _scale32(trained, seeds, claim):
    n = seeds(claim.seeds(SEEDS))           # the seeds on record (claims/seed_steps.py)
    divided = trained("ladder", "layernorm", n, weights=False)
    undivided = trained("scale", "scale32_undivided", n, weights=False)
    return divided, undivided, gain(undivided, divided)     # how much better the divided model is


@pytest.mark.gpu
@pytest.mark.xdist_group("ladder")
@pytest.mark.claim("scale.no_effect_at_32")
@pytest.mark.figure("scale.worth_32")
def test_what_the_division_is_worth_at_d_k_32(trained, seeds, claim):
    divided, undivided, worth = _scale32(trained, seeds, claim)
    claim.trained_figure(measurement="perplexity", label="worth of the division at d_k = 32", stated=STATED["worth_32"],
                         values=worth, rounding=FIGURES["scale.worth_32"].rounding, unit=" points", divided=val(divided),
                         undivided=val(undivided), sign_per_seed=["divided ahead" if w > 0 else "undivided ahead"
                                                                   for w in worth])


@pytest.mark.gpu
@pytest.mark.xdist_group("ladder")
@pytest.mark.claim("scale.no_effect_at_32")
def test_the_undivided_run_is_very_slightly_ahead_at_d_k_32(trained, seeds, claim):
    divided, undivided, worth = _scale32(trained, seeds, claim)
    mean, sd = printing.spread(worth)
    ahead = sum(w < 0 for w in worth)
    claim.ordering(label="undivided ahead at d_k = 32", stated="undivided very slightly ahead",
                   measured={"mean": mean, "sd": sd, "per seed": worth}, measurement="perplexity",
                   conditions=[[f"seed {i}: the divided model's gain below 0", w, "<", 0] for i, w in enumerate(worth)],
                   tolerance="the paired gain over seeds, a t test significant at 5 % two-sided", seeds=len(worth),
                   divided=val(divided), undivided=val(undivided),
                   reason=f"the divided model is ahead by {printing.over_seeds(worth, ' points')} (undivided ahead on "
                          f"{ahead} of {len(worth)} seeds): divided {printing.over_seeds(val(divided))}, "
                          f"undivided {printing.over_seeds(val(undivided))}")


# "at 256 it is worth 18 points of perplexity and at 1024 it is worth 17"
@pytest.mark.gpu
@pytest.mark.xdist_group("scale")
@pytest.mark.claim("scale.matters_at_256")
@pytest.mark.parametrize("d_k,stated", [pytest.param(d_k, STATED[f"worth_{d_k}"], id=f"d_k={d_k}",
                                                     marks=pytest.mark.figure(f"scale.worth_{d_k}"))
                                        for d_k in WIDE_HEADS])
def test_without_the_division_wide_heads_are_worse(d_k, stated, trained, seeds, claim):
    n = seeds(claim.seeds(SEEDS))           # the seeds on record (claims/seed_steps.py)
    divided = trained("scale", f"scale{d_k}_divided", n, weights=False)
    undivided = trained("scale", f"scale{d_k}_undivided", n, weights=False)
    worth = gain(undivided, divided)
    # Whole points in the chapter: +-0.5, widened by two seed-to-seed sd of the paired gap.
    claim.trained_figure(measurement="perplexity", label=f"worth of the division at d_k = {d_k}", stated=stated,
                         values=worth, rounding=FIGURES[f"scale.worth_{d_k}"].rounding, unit=" points", d_k=d_k, divided=val(divided),
                         undivided=val(undivided))


@pytest.fixture(scope="module")
def softmax(trained, seeds):
    """softmax(d_k, variant) -> {"init": [per seed], "trained": [per seed]}: the head's softmax
    statistics at initialisation (the model the training run starts from, rebuilt under the same
    seed) and after training, on held-out text (fixtures/attention_stats.py), over the scale group's
    declared seeds (claims/seed_steps.py): a record names every seed on record (issue 59, finding 11)."""
    n, x, memo = seeds(DECLARED_SEEDS["scale"]), held_out_windows(1024, 128), {}

    def get(d_k: int, variant: str) -> dict:
        if (d_k, variant) not in memo:
            name = f"scale{d_k}_{variant}"
            init = [softmax_stats_at_init(recipes.get(name).model, seed, x)[0] for seed in range(n)]
            memo[(d_k, variant)] = {"init": init, "n": n,
                                    "trained": [softmax_stats(r.model, x)[0] for r in trained("scale", name, n)]}
        else:                       # handed out again: noted on this test too (the evidence's runs)
            trained.note("scale", f"scale{d_k}_{variant}")
        return memo[(d_k, variant)]
    return get


# The chapter's sentence, figure by figure: (variant, when, statistic, stated, rounding, label).
# Measured over the scale group's declared seeds with the recipes of fixtures/recipes.py (SCALE).
def runaway(variant: str, when: str, stat: str, fid: str, name: str, label: str):
    """name: the test id, what it measures (tests/integration/test_test_ids.py: no id types a printed
    number); label: the figure as its record names it, with {} the printed figure."""
    f = FIGURES[fid]
    return pytest.param(variant, when, stat, f.value, f.rounding, label.format(f.printed), id=name,
                        marks=pytest.mark.figure(fid))


RUNAWAY = [
    runaway("undivided", "init", "score_sd", "scale.runaway_init_sd", "undivided score sd at init",
            "undivided score sd at init ~{}"),
    runaway("undivided", "trained", "score_sd", "scale.runaway_sd", "undivided score sd after training",
            "undivided score sd after training ~{}"),
    runaway("undivided", "trained", "entropy", "scale.runaway_entropy", "undivided entropy after training",
            "undivided entropy falls to {}"),
    runaway("undivided", "trained", "frozen", "scale.runaway_frozen", "undivided: share of rows frozen on one token",
            "undivided: {} of rows put > " + READ["scale.frozen_threshold"].printed + " on one token"),
    runaway("divided", "trained", "score_sd", "scale.divided_sd", "divided score sd after training",
            "divided score sd after training {}"),
]


@pytest.mark.gpu
@pytest.mark.xdist_group("scale")
@pytest.mark.claim("scale.runaway")
@pytest.mark.parametrize("variant,when,stat,stated,rounding,label", RUNAWAY)
def test_the_undivided_head_runs_away(variant, when, stat, stated, rounding, label, softmax, claim):
    runs = softmax(1024, variant)
    # The chapter's rounding (half a unit of its last digit) widened by two seed-to-seed sd.
    claim.trained_figure(label=label,
                         measurement="softmax_stats_at_init" if when == "init" else "softmax_stats", stated=stated,
                         values=[s[stat] for s in runs[when]], rounding=rounding, d_k=1024)


# "Once a head is a hard selector its gradient is nearly zero and nothing pulls it back, so the
# collapse is stable": the undivided 1024-wide run's first attention layer, measured at the
# held-out curve's 20 points (fixtures/train.py attention_probe; read as docs/choices.md declares).
COLLAPSED = 0.9         # more than this share of rows with > 0.99 on one token: collapsed


def after_collapse(curve: list) -> tuple[int | None, float]:
    """(the step of the first point where the share of frozen rows exceeds COLLAPSED, or None; the
    lowest share at any later point, or the highest share of the run where it never collapses, or
    the share at the collapse where it came only at the last point)."""
    shares = [(step, stats["frozen"]) for step, stats in curve]
    first = next((i for i, (_, share) in enumerate(shares) if share > COLLAPSED), None)
    if first is None:
        return None, max(share for _, share in shares)
    later = [share for _, share in shares[first + 1:]] or [shares[first][1]]
    return shares[first][0], min(later)


@pytest.mark.gpu
@pytest.mark.xdist_group("scale")
@pytest.mark.claim("scale.collapse_stable")
def test_the_collapse_is_stable(trained, seeds, claim):
    runs = trained("scale", "scale1024_undivided", seeds(claim.seeds(SEEDS)), weights=False)
    found = [after_collapse(r.metrics["attention_curve"]) for r in runs]
    lows = [low for _, low in found]
    collapsed_at = [step for step, _ in found]
    claim.ordering(label="undivided at 1024: the share of frozen rows after the collapse",
                   stated="the collapse is stable", measured={"lowest_share_after_collapse": lows, "collapsed_at_step": collapsed_at,
                                                               "steps_between_points": _probe_gap(runs[0])},
                   measurement="attention_curve", seeds=len(runs),
                   conditions=[[f"seed {i}: the lowest share of frozen rows after the collapse above {COLLAPSED}", low, ">",
                                COLLAPSED] for i, low in enumerate(lows)],
                   tolerance="a paired t test over seeds, significant at 5 % two-sided",
                   reason="; ".join(f"seed {i}: " + (f"never collapsed (its highest share of frozen rows {low:.3g})"
                                                      if step is None else
                                                      f"collapsed at step {step}, the lowest share after it {low:.3g}")
                                    for i, (step, low) in enumerate(found)))


def _probe_gap(run) -> int:
    steps = [step for step, _ in run.metrics["attention_curve"]]
    return steps[1] - steps[0]


# "Once a head is a hard selector its gradient is nearly zero and nothing pulls it back" and "The divided
# head sits at a score standard deviation of 3.44 after the same training, which is a soft blend that can
# still be changed" (read as docs/choices.md declares it, 2026-12-07): the two trained 1024-wide heads,
# paired by seed over the scale group's declared seeds, each measured on the same held-out batch (the
# softmax statistics' windows, with their next tokens).
WIDE = ("divided", "undivided")


def _wide_heads(trained, seeds) -> dict[str, list]:
    n = seeds(DECLARED_SEEDS["scale"])
    return {v: trained("scale", f"scale1024_{v}", n) for v in WIDE}


def _on_device(run, *tensors):
    device = next(run.model.parameters()).device
    return [t.to(device) for t in tensors]


@pytest.mark.gpu
@pytest.mark.xdist_group("scale")
@pytest.mark.claim("scale.soft_blend_still_changeable")
def test_the_divided_head_blends_more_than_the_collapsed_one(trained, seeds, claim):
    heads = _wide_heads(trained, seeds)
    cfg = recipes.get("scale1024_divided").model
    x = held_out_windows(cfg.vocab_size, cfg.context)
    stats = {v: [softmax_stats(r.model, *_on_device(r, x))[0] for r in runs] for v, runs in heads.items()}
    entropy = {v: [s["entropy"] for s in stats[v]] for v in WIDE}
    n = len(entropy["divided"])
    claim.ordering(label="at 1024 after the same training: the divided head blends more", stated="a soft blend",
                   measured={"entropy (nats)": entropy,
                             "effective tokens": {v: [math.exp(e) for e in entropy[v]] for v in WIDE},
                             "frozen rows": {v: [s["frozen"] for s in stats[v]] for v in WIDE},
                             "score sd": {v: [s["score_sd"] for s in stats[v]] for v in WIDE}},
                   measurement="softmax_stats", seeds=n, d_k=1024,
                   conditions=[[f"seed {i}: the divided head's attention entropy above the undivided head's", d, ">", u]
                               for i, (d, u) in enumerate(zip(entropy["divided"], entropy["undivided"]))],
                   tolerance="a paired t test over seeds, significant at 5 % two-sided",
                   reason=f"attention entropy: divided {printing.over_seeds(entropy['divided'], ' nats')}, undivided "
                          f"{printing.over_seeds(entropy['undivided'], ' nats')}")


@pytest.mark.gpu
@pytest.mark.xdist_group("scale")
@pytest.mark.claim("scale.soft_blend_still_changeable")
def test_the_divided_head_still_has_a_gradient_where_the_collapsed_one_has_none(trained, seeds, claim):
    heads = _wide_heads(trained, seeds)
    cfg = recipes.get("scale1024_divided").model
    x, y = held_out_batch(cfg.vocab_size, cfg.context)
    grads = {v: [softmax_gradients(r.model, *_on_device(r, x, y)) for r in runs] for v, runs in heads.items()}
    at_scores = {v: [g["score_grad"] for g in grads[v]] for v in WIDE}
    at_wqk = {v: [g["wqk_grad"] for g in grads[v]] for v in WIDE}
    n = len(at_scores["divided"])
    # shown beside, never deciding (docs/choices.md): the W_q, W_k gradient relative to those weights'
    # norm, and the gradient with respect to the undivided product q . k
    relative = {v: [g["wqk_grad"] / g["wqk_norm"] for g in grads[v]] for v in WIDE}
    at_qk = {v: [g["score_grad"] / (math.sqrt(g["d_head"]) if g["divided"] else 1.0) for g in grads[v]] for v in WIDE}
    claim.ordering(label="at 1024 after the same training: the divided head still has a gradient",
                   stated="a soft blend that can still be changed; the collapsed head's gradient nearly zero",
                   measured={"gradient at the softmax input": at_scores, "gradient of W_q and W_k": at_wqk,
                             "W_q and W_k's gradient over their norm": relative, "gradient at q . k": at_qk,
                             "held-out loss": {v: [g["loss"] for g in grads[v]] for v in WIDE}},
                   measurement="softmax_gradients", seeds=n, d_k=1024,
                   conditions=[c for i in range(n) for c in (
                       [f"seed {i}: the gradient at the divided head's softmax input above the undivided head's",
                        at_scores["divided"][i], ">", at_scores["undivided"][i]],
                       [f"seed {i}: the gradient of the divided head's W_q and W_k above the undivided head's",
                        at_wqk["divided"][i], ">", at_wqk["undivided"][i]])],
                   tolerance="a paired t test over seeds, significant at 5 % two-sided",
                   reason=f"the gradient at the softmax input: divided {printing.over_seeds(at_scores['divided'])}, undivided "
                          f"{printing.over_seeds(at_scores['undivided'])}; of W_q and W_k: divided {printing.over_seeds(at_wqk['divided'])}, "
                          f"undivided {printing.over_seeds(at_wqk['undivided'])}")
