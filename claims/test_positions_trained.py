"""Position schemes past the trained length: learned, sinusoidal, RoPE and ALiBi, trained on
64-token windows (otherwise the chapter's setup) and evaluated at 64, 128 and 256 tokens with
the held-out protocol of fixtures/train.py.  The learned table has 256 rows: rows past 64 exist
but were never trained.  Orderings must hold on every seed."""
import pytest

from claims.chapter_figures import FIGURES
from claims.formats import over_seeds
from claims.registry import figures
from claims.rule import decide, need_seeds, trained_figure
from data import load_tokens
from fixtures.recipes import POSITIONS_EVAL, SMOKE_EVAL_WINDOWS
from fixtures.train import evaluate

pytestmark = [pytest.mark.gpu, pytest.mark.xdist_group("positions")]
SEEDS = 3
SCHEMES = ("learned", "sinusoidal", "rope", "alibi")


@pytest.fixture(scope="module")
def curves(trained, seeds, device, evidence):
    """scheme -> [per seed: {eval length: held-out perplexity}]"""
    n = seeds(SEEDS)
    ids = load_tokens()
    windows = SMOKE_EVAL_WINDOWS if trained.smoke else None          # all held-out windows; a few at smoke scale
    out = {}
    for scheme in SCHEMES:
        out[scheme] = [{T: evaluate(r.model, ids, T, device, windows)["val_ppl"] for T in POSITIONS_EVAL}
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
def test_learned_positions_win_at_64_and_fall_off_a_cliff(curves, claim_record, request):
    claim_record(stated="best at 64, cliff beyond", measured=curves, tolerance="orderings on every seed; "
                 "cliff = perplexity at 128 more than 1.5x that at 64, the steepest of the four",
                 seeds=len(curves["learned"]))
    need_seeds(len(curves["learned"]))
    ok = all(learned[64] == min(curves[s][i][64] for s in SCHEMES) and growth(learned, 128) > 1.5
             and growth(learned, 128) == max(growth(curves[s][i], 128) for s in SCHEMES)
             for i, learned in enumerate(curves["learned"]))
    decide(request, ok, "per seed, perplexity at 64 and the 128/64 ratio: " + "; ".join(
        f"{s} {', '.join(f'{r[64]:.2f} x{growth(r, 128):.2f}' for r in curves[s])}" for s in SCHEMES))


@pytest.mark.claim("positions.learned_cliff")
def test_learned_positions_fall_below_no_context_at_128(curves, claim_record, request):
    """The cliff, with the threshold of the extrapolation classes below: at twice the trained
    length the learned table is worse than no context at all."""
    runs = curves["learned"]
    claim_record(stated="falls off a cliff", measured={"at 128": [r[128] for r in runs], "at 64": [r[64] for r in runs]},
                 tolerance=f"worse than the no-context baseline ({NO_CONTEXT}) at 128 on every seed",
                 seeds=len(runs), figure="learned at 128: does not extrapolate")
    need_seeds(len(runs))
    decide(request, all(r[128] >= NO_CONTEXT for r in runs),
           f"learned at 128: {over_seeds([r[128] for r in runs])}, against {NO_CONTEXT} with no context")


# "Does not extrapolate" (sinusoids, like the learned table's cliff) against "degrades" (RoPE,
# the inventory's "but gracefully"), told apart by one stated threshold taken from the chapter's
# own figures: the perplexity of a model that sees no context at all, the ladder's baseline
# (ladder.baseline).  A scheme that at a longer window is worse than ignoring the context has not
# extrapolated: it lost everything the context gave it.  One that is worse than at 64 but still
# better than no context degrades, and keeps what it learned.  As ratios to its own perplexity
# at 64 (what the report shows): the threshold is ladder.baseline / ppl(64), about 1.4 for these models.
NO_CONTEXT = FIGURES["ladder.baseline"].value               # the chapter's no-context baseline


def extrapolation(run, T: int) -> str:
    """The class of one seed's run at window T, by the threshold above."""
    return "does not extrapolate" if run[T] >= NO_CONTEXT else "degrades" if run[T] > run[64] else "improves"


CLASSES = [
    # the chapter: sinusoids "do not extrapolate": past 64 they are worse than no context
    pytest.param("sinusoidal", 128, "does not extrapolate", id="sinusoidal at 128: does not extrapolate",
                 marks=pytest.mark.claim("positions.sinusoid_no_extrapolation")),
    pytest.param("sinusoidal", 256, "does not extrapolate", id="sinusoidal at 256: does not extrapolate",
                 marks=pytest.mark.claim("positions.sinusoid_no_extrapolation")),
    # RoPE "degrades, but" (gracefully): worse than at 64, still better than no context
    pytest.param("rope", 128, "degrades", id="rope at 128: degrades gracefully",
                 marks=pytest.mark.claim("positions.rope_degrades")),
    pytest.param("rope", 256, "degrades", id="rope at 256: degrades gracefully",
                 marks=pytest.mark.claim("positions.rope_degrades")),
]


@pytest.mark.parametrize("scheme,T,stated", CLASSES)
def test_extrapolation_class_at_the_longer_windows(scheme, T, stated, curves, claim_record, request):
    runs = curves[scheme]
    classes = [extrapolation(r, T) for r in runs]
    claim_record(stated=stated, measured={"class per seed": classes, "perplexity": [r[T] for r in runs],
                                          "at 64": [r[64] for r in runs],
                                          "ratio": [r[T] / r[64] for r in runs],
                                          "threshold ratio": [NO_CONTEXT / r[64] for r in runs]},
                 tolerance=f"the class on every seed; threshold: the no-context baseline, {NO_CONTEXT}",
                 seeds=len(runs), figure=f"{scheme} at {T}", window=T)
    need_seeds(len(runs))
    decide(request, all(c == stated for c in classes),
           f"{scheme} at {T} tokens: {over_seeds([r[T] for r in runs])} against {over_seeds([r[64] for r in runs])} "
           f"at 64 and {NO_CONTEXT} with no context at all: classes per seed {', '.join(classes)}")


@pytest.mark.claim("positions.sinusoid_no_extrapolation")
def test_sinusoids_get_worse_past_64(curves, claim_record, request):
    claim_record(stated="worse past 64", measured=curves["sinusoidal"], tolerance="ordering on every seed",
                 seeds=len(curves["learned"]), figure="sinusoidal: 64 < 128 < 256")
    need_seeds(len(curves["learned"]))
    decide(request, all(run[64] < run[128] < run[256] for run in curves["sinusoidal"]),
           f"sinusoidal perplexity at 64, 128, 256: {curves['sinusoidal']}")


@pytest.mark.claim("positions.rope_degrades")
def test_rope_degrades_less_than_the_absolute_schemes(curves, claim_record, request):
    claim_record(stated="degrades, gracefully", measured=curves["rope"],
                 tolerance="worse at 256 than 64, but less than learned and sinusoidal, every seed",
                 seeds=len(curves["learned"]), figure="rope: worse at 256, by less than learned and sinusoidal")
    need_seeds(len(curves["learned"]))
    ok = all(run[256] > run[64] and growth(run, 256) < min(growth(curves["learned"][i], 256),
                                                           growth(curves["sinusoidal"][i], 256))
             for i, run in enumerate(curves["rope"]))
    decide(request, ok, "256/64 ratios per seed: " + "; ".join(
        f"{s} {', '.join(f'{growth(r, 256):.2f}' for r in curves[s])}" for s in ("rope", "learned", "sinusoidal")))


# "Its perplexity improves as the window grows past the training length, from ... to ..."
# (positions.alibi_64, positions.alibi_256): three figures, the two levels and the drop
# between them, at the chapter's rounding
# (0.005) + 2 sd over seeds, and the ordering it states.
CHAPTER = figures("positions")          # alibi_64, alibi_256 (claims/registry.py)
DROP = round(CHAPTER["alibi_64"] - CHAPTER["alibi_256"], 2)
ALIBI = [
    pytest.param(lambda r: r[64], CHAPTER["alibi_64"], FIGURES["positions.alibi_64"].rounding,
                 id=f"alibi at 64: {CHAPTER['alibi_64']}", marks=pytest.mark.figure("positions.alibi_64")),
    pytest.param(lambda r: r[256], CHAPTER["alibi_256"], FIGURES["positions.alibi_256"].rounding,
                 id=f"alibi at 256: {CHAPTER['alibi_256']}", marks=pytest.mark.figure("positions.alibi_256")),
    # the drop between the two printed levels, at their rounding (it is not printed itself)
    pytest.param(lambda r: r[64] - r[256], DROP, FIGURES["positions.alibi_64"].rounding,
                 id=f"alibi improves by {DROP} from 64 to 256"),
]


@pytest.mark.claim("positions.alibi_improves")
@pytest.mark.parametrize("value,stated,rounding", ALIBI)
def test_alibi_figures(value, stated, rounding, curves, claim_record, request):
    trained_figure(request, claim_record, figure=request.node.callspec.id.split(":")[0], stated=stated,
                   values=[value(r) for r in curves["alibi"]], rounding=rounding,
                   per_window={T: [r[T] for r in curves["alibi"]] for T in POSITIONS_EVAL})


@pytest.mark.claim("positions.alibi_improves")
def test_alibi_improves_as_the_window_grows(curves, claim_record, request):
    claim_record(stated={64: CHAPTER["alibi_64"], 256: CHAPTER["alibi_256"]}, measured=curves["alibi"], tolerance="ordering on every seed",
                 seeds=len(curves["learned"]), figure="alibi: 64 > 128 > 256")
    need_seeds(len(curves["learned"]))
    decide(request, all(run[256] < run[128] < run[64] for run in curves["alibi"]),
           f"alibi perplexity at 64, 128, 256: {curves['alibi']}")
