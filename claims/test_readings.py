"""Alternative readings of refuted figures, for the errata (claims/errata.py): measured and
recorded as evidence (`readings.json`), never as verdicts.  Slow tier: they are not claims.

  pytest claims/test_readings.py -m slow --report-dir=report-readings
  python -m claims.report --report-dir=report-readings --save-results
"""
import pytest

from claims.errata import GRAD_READINGS
from data import split
from fixtures.grad_profile import block_grad_norms

pytestmark = pytest.mark.slow
SEEDS = range(4)                    # as claims/test_norm.py

READINGS = GRAD_READINGS            # label -> (initialisation, measure), with the errata that cite them


def test_grad_profile_readings(corpus_tokens, evidence):
    """The gradient profile under the alternative readings the errata cite: recorded as evidence
    (`readings.json`), never as a verdict; the primary verdict stays on PyTorch's default init."""
    train, _ = split(corpus_tokens)
    out = {}
    for label, (init, measure) in READINGS.items():
        per = {}
        for norm in ("pre", "post"):
            runs = [block_grad_norms(norm, s, train, init, measure) for s in SEEDS]
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
    What the errata cite as the cause of the uniform average's Winograd figures."""
    from fixtures.recipes import RECIPES
    from fixtures.train import winograd_task
    from fixtures.winograd import answers
    task = winograd_task(RECIPES[f"winograd_{kind}"])
    models = [r.model.eval() for r in trained("winograd", f"winograd_{kind}", WINOGRAD_SEEDS)]
    out = {}
    for part, sentences in (("train", task.train), ("held out", task.test)):
        per_seed = [answers(m, task, sentences) for m in models]
        out[part] = {k: [a[k] for a in per_seed] for k in per_seed[0]}
    evidence.json("readings.json", {f"winograd: answers of {kind}": out}, merge=True)
    total = [sum(out["held out"][k][i] for k in ("referent", "other noun", "absent noun", "not a noun"))
             for i in range(len(models))]
    assert all(abs(t - 1) < 1e-6 for t in total)
