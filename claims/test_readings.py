"""Alternative readings of refuted figures, for the errata (claims/report/errata/): measured and
recorded as evidence (`readings.json`), never as verdicts.  Slow tier: they are not claims.

  pytest claims/test_readings.py -m slow --report-dir=report-readings
  python -m claims.report --report-dir=report-readings --save-results
"""
import pytest

from data import split
from fixtures import recipes
from fixtures.grad_profile import block_grad_norms
from fixtures.setup import GRAD_READINGS, HELD_OUT_ANSWERS_IN_RUNS

pytestmark = pytest.mark.slow
SEEDS = range(4)                    # as claims/test_norm.py
READING_SMOKE_SEEDS = range(1)      # --smoke (CI's run of the slow tier): every reading and norm, one seed

READINGS = GRAD_READINGS            # label -> (initialisation, measure), with the errata that cite them


def test_grad_profile_readings(corpus_tokens, evidence, smoke):
    """The gradient profile under the alternative readings the errata cite: recorded as evidence
    (`readings.json`), never as a verdict; the primary verdict stays on PyTorch's default init."""
    train, _ = split(corpus_tokens)
    out = {}
    for label, (init, measure) in READINGS.items():
        per = {}
        for norm in ("pre", "post"):
            runs = [block_grad_norms(norm, s, train, init, measure) for s in (READING_SMOKE_SEEDS if smoke else SEEDS)]
            per[norm] = {"first": [g[0] for g in runs], "last": [g[-1] for g in runs],
                         "ratio": [g[-1] / g[0] for g in runs]}
        out[f"norm.grad_profile: {label}"] = per
    evidence.json("readings.json", out, merge=True)
    assert all(v > 0 for r in out.values() for n in r.values() for v in n["first"])


WINOGRAD_SEEDS = 10                 # as claims/test_winograd.py


@pytest.mark.parametrize("kind", ["cheatable_uniform", "hardened_uniform"])
def test_where_the_uniform_averages_answers_go(kind, trained, evidence):
    """The uniform average's answers on the training and the held-out sentences: the referent,
    the other noun, a noun absent from the sentence, or no noun (fixtures/winograd.py answers).
    What the errata cite as the cause of the uniform average's Winograd figures.  On the held-out
    sentences the referent and the other noun are each run's own accuracy and wrong noun: they are
    checked against the run records and stay there alone (the errata read them from the runs)."""
    from fixtures.recipes import RECIPES
    from fixtures.train import winograd_task
    from fixtures.winograd import answers
    task = winograd_task(RECIPES[f"winograd_{kind}"])
    runs = trained("winograd", f"winograd_{kind}", WINOGRAD_SEEDS)
    models = [r.model.eval() for r in runs]
    out = {}
    for part, sentences in (("train", task.train), ("held out", task.test)):
        per_seed = [answers(m, task, sentences) for m in models]
        out[part] = {k: [a[k] for a in per_seed] for k in per_seed[0]}
    total = [sum(out["held out"][k][i] for k in ("referent", "other noun", "absent noun", "not a noun"))
             for i in range(len(models))]
    assert all(abs(t - 1) < 1e-6 for t in total)
    for what, metric in HELD_OUT_ANSWERS_IN_RUNS.items():
        assert out["held out"].pop(what) == [r.metrics[metric] for r in runs], \
            f"the held-out {what} rate differs from the runs' {metric} (the same count, fixtures/winograd.py)"
    evidence.json("readings.json", {f"winograd: answers of {kind}": out}, merge=True)


@pytest.mark.parametrize("label", list(recipes.WINOGRAD_READINGS))
def test_winograd_figures_under_another_choice(label, trained, evidence):
    """The Winograd accuracies with one choice the chapter leaves open made the other way
    (fixtures/recipes.py WINOGRAD_READINGS: the width, the split, the held-out fraction), three
    seeds each, for the three models whose figures are refuted.  The accuracies per seed are the
    runs' own metrics and stay in their run records (the errata read them there, from the same
    runs: fixtures/setup.py winograd_reading_runs); readings.json keeps what the runs do not say."""
    from fixtures.setup import READING_SEEDS, winograd_reading_runs
    from fixtures.train import winograd_task
    out, rates = {"what": recipes.WINOGRAD_READINGS[label][0]}, []
    for task, kind in recipes.WINOGRAD_READ:
        recipe = recipes.get(recipes.winograd_reading_name(f"{task}_{kind}", label))
        runs = [r for group, name, seeds in winograd_reading_runs(f"{task}_{kind}", label)
                for r in trained(group, name, len(seeds), first_seed=seeds.start, weights=False)]
        assert len(runs) == READING_SEEDS
        rates += [r.metrics[k] for r in runs for k in ("accuracy", "wrong_noun")]
        out[f"{task}_{kind}"] = {"held_out": len(winograd_task(recipe).test)}      # items per seed
    evidence.json("readings.json", {f"winograd: {label}": out}, merge=True)
    assert all(0 <= v <= 1 for v in rates)


RUNAWAY_SEEDS = 3


@pytest.mark.gpu
def test_the_runaway_in_a_model_wide_throughout(trained, evidence):
    """scale.runaway's statistics in a model 1024 wide throughout (one head of 1024), the chapter's
    shorter run: the seeds already trained (it is ~45 CPU-minutes a run here; seconds on a GPU)."""
    from fixtures.attention_stats import held_out_windows, softmax_stats, softmax_stats_at_init
    x, out = held_out_windows(1024, 128), {}
    for variant in ("undivided", "divided"):
        recipe = recipes.get(f"runaway_wide_{variant}")
        # the seeds already trained (at the smoke scale, all of them: seconds)
        n = RUNAWAY_SEEDS if trained.smoke else next(
            (s for s in range(RUNAWAY_SEEDS) if not trained.cached("errata", recipe.name, s)), RUNAWAY_SEEDS)
        if n == 0 and variant == "undivided":
            pytest.skip(f"not trained: python -m fixtures errata --only {recipe.name} --seeds 1 (~45 CPU-minutes)")
        stats = [softmax_stats(r.model, x)[0] for r in trained("errata", recipe.name, n)] if n else []
        out[variant] = {k: [s[k] for s in stats] for k in ("score_sd", "entropy", "frozen")}
        out[variant]["init_score_sd"] = [softmax_stats_at_init(recipe.model, seed, x)[0]["score_sd"]
                                         for seed in range(n)]
    evidence.json("readings.json", {"scale.runaway: a model 1024 wide throughout": out}, merge=True)
    assert all(v >= 0 for r in out.values() for vs in r.values() for v in vs)
