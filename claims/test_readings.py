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
    evidence.json("readings.json", out)
    assert all(v > 0 for r in out.values() for n in r.values() for v in n["first"])
