"""Position schemes past the trained length: learned, sinusoidal, RoPE and ALiBi, trained on
64-token windows (otherwise the chapter's setup) and evaluated at 64, 128 and 256 tokens with
the held-out protocol of fixtures/train.py.  The learned table has 256 rows: rows past 64 exist
but were never trained.  Orderings must hold on every seed."""
import pytest

from claims.trained import need_spread
from data import load_tokens
from fixtures.recipes import POSITIONS_EVAL
from fixtures.train import evaluate

pytestmark = [pytest.mark.gpu, pytest.mark.xdist_group("positions")]
SEEDS = 3
SCHEMES = ("learned", "sinusoidal", "rope", "alibi")


@pytest.fixture(scope="module")
def curves(trained, seeds, device, evidence):
    """scheme -> [per seed: {eval length: held-out perplexity}]"""
    n = seeds(SEEDS)
    ids = load_tokens()
    out = {}
    for scheme in SCHEMES:
        out[scheme] = [{T: evaluate(r.model, ids, T, device)["val_ppl"] for T in POSITIONS_EVAL}
                       for r in trained("positions", f"positions_{scheme}", n)]
    _plot(out, evidence)
    return out


def _plot(curves, evidence):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    for scheme, runs in curves.items():
        for i, run in enumerate(runs):
            ax.plot(list(run), list(run.values()), "o-", color=f"C{SCHEMES.index(scheme)}",
                    label=scheme if i == 0 else None, alpha=0.8)
    ax.axvline(64, color="grey", ls=":")
    ax.set_xscale("log", base=2); ax.set_yscale("log")
    ax.set_xlabel("evaluation window (tokens); trained at 64"); ax.set_ylabel("held-out perplexity")
    ax.legend()
    evidence.figure("positions.png", fig)


def growth(run, T):
    return run[T] / run[64]


@pytest.mark.claim("positions.learned_cliff")
def test_learned_positions_win_at_64_and_fall_off_a_cliff(curves, claim_record):
    claim_record(stated="best at 64, cliff beyond", measured=curves, tolerance="orderings on every seed; "
                 "cliff = perplexity at 128 more than 1.5x that at 64, the steepest of the four",
                 seeds=len(curves["learned"]))
    need_spread(len(curves["learned"]))
    for i, learned in enumerate(curves["learned"]):
        assert learned[64] == min(curves[s][i][64] for s in SCHEMES)
        assert growth(learned, 128) > 1.5
        assert growth(learned, 128) == max(growth(curves[s][i], 128) for s in SCHEMES)


@pytest.mark.claim("positions.sinusoid_no_extrapolation")
def test_sinusoids_do_not_extrapolate(curves, claim_record):
    claim_record(stated="worse past 64", measured=curves["sinusoidal"], tolerance="ordering on every seed", seeds=len(curves["learned"]))
    need_spread(len(curves["learned"]))
    for run in curves["sinusoidal"]:
        assert run[64] < run[128] < run[256]


@pytest.mark.claim("positions.rope_degrades")
def test_rope_degrades_gracefully(curves, claim_record):
    claim_record(stated="degrades, gracefully", measured=curves["rope"],
                 tolerance="worse at 256 than 64, but less than learned and sinusoidal, every seed",
                 seeds=len(curves["learned"]))
    need_spread(len(curves["learned"]))
    for i, run in enumerate(curves["rope"]):
        assert run[256] > run[64]
        assert growth(run, 256) < min(growth(curves["learned"][i], 256), growth(curves["sinusoidal"][i], 256))


@pytest.mark.claim("positions.alibi_improves")
def test_alibi_improves_as_the_window_grows(curves, claim_record):
    claim_record(stated={64: 44.95, 256: 42.49}, measured=curves["alibi"], tolerance="ordering on every seed", seeds=len(curves["learned"]))
    need_spread(len(curves["learned"]))
    for run in curves["alibi"]:
        assert run[256] < run[128] < run[64]
