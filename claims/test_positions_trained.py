"""Position schemes past the trained length: learned, sinusoidal, RoPE and ALiBi, trained on
64-token windows (otherwise the chapter's setup) and evaluated at 64, 128 and 256 tokens with
the held-out protocol of fixtures/train.py.  The learned table has 256 rows: rows past 64 exist
but were never trained.  Orderings are decided by the one rule (docs/figure-rule.md): the paired
difference over seeds beyond 2 standard errors; each seed's condition is recorded beside it."""
from collections.abc import Mapping

import pytest

from claims.chapter_figures import FIGURES
from claims.registry import figures
from claims.seed_steps import DECLARED_SEEDS
from data import load_tokens
from fixtures.recipes import POSITIONS_CONTEXT, POSITIONS_EVAL, SMOKE_EVAL_WINDOWS
from fixtures.train import evaluate
from textcheck import printing

pytestmark = [pytest.mark.gpu, pytest.mark.xdist_group("positions")]
SEEDS = 3
SCHEMES = ("learned", "sinusoidal", "rope", "alibi")


@pytest.fixture(scope="module")
def measured_curves(trained, device, evidence):
    """(scheme, n) -> [per seed 0..n-1: {eval length: held-out perplexity}], each run evaluated
    once per module, only for the schemes a test reads; the plot, at the end, of every run evaluated."""
    ids = load_tokens()
    windows = SMOKE_EVAL_WINDOWS if trained.smoke else None          # all held-out windows; a few at smoke scale
    memo: dict[str, list] = {}

    def get(scheme: str, n: int) -> list:
        runs = trained("positions", f"positions_{scheme}", n)          # seeds 0..n-1, noted on this test
        done = memo.setdefault(scheme, [])
        done += [{T: evaluate(r.model, ids, T, device, windows)["val_ppl"] for T in POSITIONS_EVAL}
                 for r in runs[len(done):]]
        return done[:n]
    yield get
    if memo:
        _plot({s: memo[s] for s in SCHEMES if s in memo}, evidence)


class Curves(Mapping):
    """scheme -> [per seed: {eval length: held-out perplexity}] on the seeds the test's claims
    are measured on (ClaimFixture.seeds: the seeds its group has on record, claims/seed_steps.py); a
    scheme is trained and evaluated only when a test reads it."""

    def __init__(self, get, n: int):
        self._get, self._n = get, n

    def __getitem__(self, scheme):
        if scheme not in SCHEMES:
            raise KeyError(scheme)
        return self._get(scheme, self._n)

    def __iter__(self):
        return iter(SCHEMES)

    def __len__(self):
        return len(SCHEMES)


@pytest.fixture
def curves(measured_curves, seeds, claim):
    return Curves(measured_curves, seeds(claim.seeds(SEEDS)))


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
    evidence.plot("positions.png", fig)


def growth(run, T):
    return run[T] / run[64]


# Each ordering as the conditions it states, seed by seed, on the curves as recorded (JSON: the
# windows are strings): the tests decide by them, and so does `python -m claims.rederive`.
def by_window(curves, schemes=SCHEMES) -> dict:
    """The curves of `schemes` with each window as a string, as results/ keeps them (the values untouched)."""
    return {s: [{str(T): v for T, v in run.items()} for run in curves[s]] for s in schemes}


def cliff_conditions(curves) -> list:
    out = []
    for i, learned in enumerate(curves["learned"]):
        ratio = {s: curves[s][i]["128"] / curves[s][i]["64"] for s in SCHEMES}
        others = [s for s in SCHEMES if s != "learned"]
        out += [[f"seed {i}: learned 128/64 above 1.5", ratio["learned"], ">", 1.5],
                *([f"seed {i}: learned at 64 at most {s}'s", learned["64"], "<=", curves[s][i]["64"]] for s in others),
                *([f"seed {i}: learned 128/64 at least {s}'s", ratio["learned"], ">=", ratio[s]] for s in others)]
    return out


def below_no_context_conditions(curves) -> list:
    return [[f"seed {i}: learned at 128 at least the no-context baseline", run["128"], ">=", NO_CONTEXT]
            for i, run in enumerate(curves["learned"])]


def class_conditions(curves, scheme: str, T: int, stated: str) -> list:
    """The class `extrapolation` gives, on every seed, as its thresholds."""
    out = []
    for i, run in enumerate(curves[scheme]):
        if stated == "does not extrapolate":
            out.append([f"seed {i}: {scheme} at {T} at least the no-context baseline", run[str(T)], ">=", NO_CONTEXT])
        else:
            out += [[f"seed {i}: {scheme} at {T} below the no-context baseline", run[str(T)], "<", NO_CONTEXT],
                    [f"seed {i}: {scheme} at {T} worse than at 64", run[str(T)], ">", run["64"]]]
    return out


def rising_conditions(curves, scheme: str) -> list:
    return [c for i, run in enumerate(curves[scheme]) for c in (
        [f"seed {i}: {scheme} at 64 below 128", run["64"], "<", run["128"]],
        [f"seed {i}: {scheme} at 128 below 256", run["128"], "<", run["256"]])]


def falling_conditions(curves, scheme: str) -> list:
    return [c for i, run in enumerate(curves[scheme]) for c in (
        [f"seed {i}: {scheme} at 256 below 128", run["256"], "<", run["128"]],
        [f"seed {i}: {scheme} at 128 below 64", run["128"], "<", run["64"]])]


GRACEFUL = ("rope", "learned", "sinusoidal")      # RoPE degrades by less than the absolute schemes


def graceful_conditions(curves) -> list:
    out = []
    for i, run in enumerate(curves["rope"]):
        ratio = {s: curves[s][i]["256"] / curves[s][i]["64"] for s in GRACEFUL}
        out += [[f"seed {i}: rope worse at 256 than at 64", run["256"], ">", run["64"]],
                [f"seed {i}: rope 256/64 below learned's", ratio["rope"], "<", ratio["learned"]],
                [f"seed {i}: rope 256/64 below sinusoidal's", ratio["rope"], "<", ratio["sinusoidal"]]]
    return out


@pytest.mark.claim("positions.learned_cliff")
def test_learned_positions_win_at_64_and_fall_off_a_cliff(curves, claim):
    claim.ordering(label="learned: best at 64, the steepest cliff", stated="best at 64, cliff beyond",
                   measured=dict(curves), conditions=cliff_conditions(by_window(curves)), measurement="perplexity_at_window",
                   tolerance="orderings on every seed; cliff = perplexity at 128 more than 1.5x that at 64, the steepest "
                             "of the four", seeds=len(curves["learned"]),
                   reason="per seed, perplexity at 64 and the 128/64 ratio: " + "; ".join(
                       f"{s} {', '.join(f'{r[64]:.2f} x{growth(r, 128):.2f}' for r in curves[s])}" for s in SCHEMES))


@pytest.mark.claim("positions.learned_cliff")
def test_learned_positions_fall_below_no_context_at_twice_the_trained_length(curves, claim):
    """The cliff, with the threshold of the extrapolation classes below: at twice the trained
    length the learned table is worse than no context at all."""
    runs = curves["learned"]
    claim.ordering(label="learned at 128: does not extrapolate", stated="falls off a cliff",
                   measured={"at 128": [r[128] for r in runs], "at 64": [r[64] for r in runs]},
                   conditions=below_no_context_conditions(by_window(curves)), measurement="perplexity_at_window",
                   tolerance=f"worse than the no-context baseline ({NO_CONTEXT}) at 128 on every seed", seeds=len(runs),
                   reason=f"learned at 128: {printing.over_seeds([r[128] for r in runs])}, against {NO_CONTEXT} with no context")


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
def test_extrapolation_class_at_the_longer_windows(scheme, T, stated, curves, claim):
    runs = curves[scheme]
    classes = [extrapolation(r, T) for r in runs]
    claim.ordering(label=f"{scheme} at {T}", stated=stated,
                   measured={"class per seed": classes, "perplexity": [r[T] for r in runs], "at 64": [r[64] for r in runs],
                             "ratio": [r[T] / r[64] for r in runs], "threshold ratio": [NO_CONTEXT / r[64] for r in runs]},
                   conditions=class_conditions(by_window(curves, [scheme]), scheme, T, stated), measurement="perplexity_at_window",
                   tolerance=f"the class on every seed; threshold: the no-context baseline, {NO_CONTEXT}",
                   seeds=len(runs), window=T,
                   reason=f"{scheme} at {T} tokens: {printing.over_seeds([r[T] for r in runs])} against {printing.over_seeds([r[64] for r in runs])} "
                          f"at 64 and {NO_CONTEXT} with no context at all: classes per seed {', '.join(classes)}")


@pytest.mark.claim("positions.sinusoid_no_extrapolation")
def test_sinusoids_get_worse_past_64(curves, claim):
    claim.ordering(label="sinusoidal: 64 < 128 < 256", stated="worse past 64",
                   measured=curves["sinusoidal"], conditions=rising_conditions(by_window(curves, ["sinusoidal"]), "sinusoidal"),
                   measurement="perplexity_at_window", tolerance="ordering on every seed", seeds=len(curves["sinusoidal"]),
                   reason=f"sinusoidal perplexity at 64, 128, 256: {curves['sinusoidal']}")


@pytest.mark.claim("positions.rope_degrades")
def test_rope_degrades_less_than_the_absolute_schemes(curves, claim):
    claim.ordering(label="rope: worse at 256, by less than learned and sinusoidal",
                   stated="degrades, gracefully", measured=curves["rope"], conditions=graceful_conditions(by_window(curves, GRACEFUL)),
                   measurement="perplexity_at_window", seeds=len(curves["learned"]),
                   tolerance="worse at 256 than 64, but less than learned and sinusoidal, every seed",
                   reason="256/64 ratios per seed: " + "; ".join(
                       f"{s} {', '.join(f'{growth(r, 256):.2f}' for r in curves[s])}" for s in GRACEFUL))


# "Its perplexity improves as the window grows past the training length, from ... to ..."
# (positions.alibi_64, positions.alibi_256): three figures, the two levels and the drop
# between them, at the chapter's rounding
# (0.005) + 2 sd over seeds, and the ordering it states.
STATED = figures("positions")          # alibi_64, alibi_256 (claims/registry.py)
DROP = round(STATED["alibi_64"] - STATED["alibi_256"], 2)
# Each: (value, stated, rounding, the figure as its record names it); the test id names what is
# measured, never the number (tests/integration/test_test_ids.py).
ALIBI = [
    pytest.param(lambda r: r[64], STATED["alibi_64"], FIGURES["positions.alibi_64"].rounding, "alibi at 64",
                 id="alibi at 64", marks=pytest.mark.figure("positions.alibi_64")),
    pytest.param(lambda r: r[256], STATED["alibi_256"], FIGURES["positions.alibi_256"].rounding, "alibi at 256",
                 id="alibi at 256", marks=pytest.mark.figure("positions.alibi_256")),
    # the drop between the two printed levels, at their rounding (it is not printed itself)
    pytest.param(lambda r: r[64] - r[256], DROP, FIGURES["positions.alibi_64"].rounding,
                 "alibi gain from 64 to 256", id="alibi gain from 64 to 256"),
]


@pytest.mark.claim("positions.alibi_improves")
@pytest.mark.parametrize("value,stated,rounding,label", ALIBI)
def test_alibi_figures(value, stated, rounding, label, curves, claim):
    claim.trained_figure(label=label, stated=stated,
                         values=[value(r) for r in curves["alibi"]], rounding=rounding, measurement="perplexity_at_window",
                         per_window={T: [r[T] for r in curves["alibi"]] for T in POSITIONS_EVAL})


@pytest.mark.claim("positions.alibi_improves")
def test_alibi_improves_as_the_window_grows(curves, claim):
    claim.ordering(label="alibi: 64 > 128 > 256", stated={64: STATED["alibi_64"], 256: STATED["alibi_256"]},
                   measured=curves["alibi"], conditions=falling_conditions(by_window(curves, ["alibi"]), "alibi"),
                   measurement="perplexity_at_window", tolerance="ordering on every seed", seeds=len(curves["alibi"]),
                   reason=f"alibi perplexity at 64, 128, 256: {curves['alibi']}")


# "Delete the position embeddings and the model still trains": the positions recipe's block with
# no position signal (fixtures/recipes.py positions_none), trained and evaluated like the four
# schemes.  "Still trains" read as: it learns to use its context, so its held-out perplexity at
# the trained length ends below the no-context baseline, on every seed.
def as_recorded(measured: float, metrics: dict, windows) -> float:
    """A perplexity at the run's own window on its whole held-out split: the run's val_ppl where it
    reproduces it (the one value, fixtures/results.py REPRODUCED_RTOL), else the measurement."""
    from fixtures.results import REPRODUCED_RTOL
    recorded = metrics.get("val_ppl")
    same = windows is None and metrics.get("eval_context") == POSITIONS_CONTEXT and isinstance(recorded, float)
    return recorded if same and abs(measured - recorded) <= REPRODUCED_RTOL * abs(recorded) else measured


@pytest.mark.claim("positions.no_positions_still_trains")
def test_without_positions_the_model_still_trains(trained, seeds, device, claim):
    n = seeds(DECLARED_SEEDS["positions"])   # every seed on record (issue 59, finding 11): 10 since 2026-12-07
    windows = SMOKE_EVAL_WINDOWS if trained.smoke else None
    ids = load_tokens()
    # at 64 the run was evaluated at the end of its training: the same evaluation of the same weights
    # is that run's val_ppl, stored once (fixtures/results.py as_recorded: float summation order apart)
    ppl = [as_recorded(evaluate(r.model, ids, POSITIONS_CONTEXT, device, windows)["val_ppl"], r.metrics, windows)
           for r in trained("positions", "positions_none", n)]
    claim.ordering(label="no positions: below the no-context baseline at 64",
                   stated=f"still trains (below the no-context baseline, {NO_CONTEXT})", measured={"64": ppl},
                   conditions=[[f"seed {i}: no positions at 64 below the no-context baseline", v, "<", NO_CONTEXT]
                               for i, v in enumerate(ppl)],
                   measurement="perplexity_at_window", seeds=len(ppl),
                   tolerance=f"below the no-context baseline ({NO_CONTEXT}) on every seed",
                   reason=f"no positions at 64: {printing.over_seeds(ppl)}, against {NO_CONTEXT} with no context")


# "position 100 was never in a batch and its embedding is still the random vector it started
# as": the learned table has 256 rows and trains on 64-token windows, so rows 64..255 get no
# gradient.  Read as: each is its starting vector up to one common factor (same direction, nothing
# learned), on every seed.  AdamW's weight decay (0.01, which the chapter does not mention) is
# that factor, (1 - lr * 0.01) per step: recorded beside, as the one way the row did change.
@pytest.mark.claim("positions.untrained_rows_random")
def test_rows_past_the_trained_length_are_still_the_vectors_they_started_as(trained, seeds, claim):
    from fixtures.position_rows import initial_table, untrained_rows
    from fixtures.recipes import POSITIONS
    n = seeds(DECLARED_SEEDS["positions"])   # every seed on record (issue 59, finding 11): 10 since 2026-12-07
    recipe = next(r for r in POSITIONS if r.name == "positions_learned")
    recipe = recipe.smoke() if trained.smoke else recipe
    tc = recipe.train
    rows = [untrained_rows(r.model.pos_emb.table.weight.cpu(), initial_table(recipe.model, seed), POSITIONS_CONTEXT)
            for seed, r in enumerate(trained("positions", "positions_learned", n))]
    decay = (1 - tc.lr * tc.weight_decay) ** tc.steps
    # The lines: float32 rounding over the run's multiplications by (1 - lr * wd) moves a row by
    # at most about steps * eps32 relative, so "nothing but one factor" is 1e-4 relative, and a
    # cosine within 1e-4 of 1; a row that learned moves by far more (the trained rows are recorded
    # beside, for contrast).
    conditions = [c for i, m in enumerate(rows) for c in (
        [f"seed {i}: every untrained row in its starting direction (cosine above 1 - 1e-4)",
         m["untrained"]["min cosine"], ">", 1 - 1e-4],
        [f"seed {i}: every untrained row its start times one factor (off by under 1e-4)",
         m["untrained"]["max off the scaled start"], "<", 1e-4])]
    claim.ordering(label="untrained position rows: still their starting vectors",
                   stated="still the random vector it started as", measured=rows, conditions=conditions,
                   measurement="position_rows", seeds=len(rows),
                   tolerance="same direction and no change but one common factor (1e-4: float32 rounding over the "
                             "run), on every seed",
                   weight_decay_factor=decay,
                   reason="untrained rows per seed: " + "; ".join(
                       f"min cosine {m['untrained']['min cosine']:.6f}, off {m['untrained']['max off the scaled start']:.2e}"
                       for m in rows))


# "it simply cannot tell where anything is" (read as docs/choices.md declares it): a linear classifier
# of the absolute position on the trained no-position model's block output, its held-out accuracy on
# the scale from chance (0) to every position (1) below PROBE_BOUND on every seed by the ordering rule
# (a t test over the positions group's declared seeds).  The positioned model's block output, by the
# same rule above the bound, is the declared control: a probe that cannot read position where the
# model is given it decides nothing.  The embeddings and the first reading (a regression's R^2, which
# failed that control) are shown beside.
@pytest.mark.claim("positions.no_positions_cannot_tell_where")
def test_without_positions_a_linear_probe_cannot_read_where_a_token_is(trained, seeds, claim):
    from claims.record_rules import PROBE_ALTERNATIVES, PROBE_BELOW, PROBE_BOUND
    from fixtures.position_probe import probe
    from textcheck import rules
    n = seeds(claim.seeds(DECLARED_SEEDS["positions"]))
    per_model = {name: [probe(r.model, POSITIONS_CONTEXT) for r in trained("positions", name, n)]
                 for name in ("positions_none", "positions_learned")}

    def kappas(name: str, path: str = "blocks.0") -> list[float]:
        return [p[path]["kappa"] for p in per_model[name]]
    blind, seen = kappas("positions_none"), kappas("positions_learned")
    control = rules.ordering([(f"the classifier on the positioned model above {PROBE_BOUND}", ">", seen,
                               [PROBE_BOUND] * len(seen))])
    if control.verdict != "holds":
        pytest.skip(f"not run: the probe fails its control, block 1 of positions_learned at kappa {printing.over_seeds(seen)} "
                    f"({control.verdict}); no position probe decides this sentence yet (docs/choices.md)")
    shown = {}
    for bound in PROBE_ALTERNATIVES:
        d = rules.ordering([(f"below {bound}", "<", blind, [bound] * len(blind))])
        shown[str(bound)] = {"bound": bound, "verdict": d.verdict, "why": d.why}
    claim.ordering(label="no positions: a linear probe for the position on block 1's output",
                   stated="it simply cannot tell where anything is", measured={"block 1, kappa": blind},
                   conditions=[[f"seed {i}: {PROBE_BELOW}", v, "<", PROBE_BOUND] for i, v in enumerate(blind)],
                   measurement="position_probe", seeds=len(blind),
                   tolerance=f"a t test over seeds against kappa {PROBE_BOUND}, significant at 5 % two-sided; "
                             f"the control: the positioned model's block 1 significantly above it",
                   probes={name: runs for name, runs in per_model.items()}, alternatives=shown,
                   reason=f"held-out kappa of the position classifier (0 chance, 1 every position), no positions: "
                          f"block 1 {printing.over_seeds(blind)}, embeddings {printing.over_seeds(kappas('positions_none', 'tok_emb'))}; "
                          f"learned positions (the control): block 1 {printing.over_seeds(seen)}, embeddings "
                          f"{printing.over_seeds(kappas('positions_learned', 'tok_emb'))}")
