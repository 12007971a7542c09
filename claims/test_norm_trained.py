"""Pre-norm vs post-norm trained: twelve blocks, 1000 steps, lr 3e-3, with and without a
200-step linear warmup (recipes: fixtures/recipes.py NORM).  Divergence is seed-sensitive:
every seed is recorded, and the spread-based tolerances need three."""
import math

import pytest

from claims.registry import figures
from claims.trained import Paired, need_spread, refuted, val

pytestmark = [pytest.mark.gpu, pytest.mark.xdist_group("norm")]
SEEDS = 3
CHAPTER = figures("norm")


def runs(trained, seeds, *names):
    """Held-out perplexity per seed of each named run (only the runs the claim compares)."""
    n = seeds(SEEDS)
    return n, {name: val(trained("norm", name, n)) for name in names}


# "post-norm without warmup ends at perplexity ~308, eight times worse" (claims.md): two
# figures. ~308 is the table's 308.05 as the inventory quotes it, to the unit (+-0.5); it is the
# plateau of a model that learnt only token frequencies, and our tokenizer is not the chapter's
# to the token (459,792 tokens, not 459,760). "Eight" is 308.05 / 37.82 = 8.1 said as a whole
# number (+-0.5). Each is widened by two seed-to-seed sd.
DIVERGES = [
    pytest.param("postnorm", 308, 0.5, id="post-norm ends at ~308"),
    pytest.param("postnorm / prenorm", 8, 0.5, id="eight times worse than pre-norm", marks=refuted(
        "post-norm is 5.91 +- 0.11 times worse (5.90, 6.04, 5.81 over 3 seeds), not 8: post-norm does "
        "end at 307.2 (307.6, 306.7, 307.4), but pre-norm ends at 52.0 (52.16, 50.82, 52.92), not 37.82 "
        "- as stated (12 blocks, 1000 steps of batch 64, no dropout) it overfits, train perplexity 9")),
]


@pytest.mark.claim("norm.postnorm_diverges")
@pytest.mark.parametrize("figure,stated,rounding", DIVERGES)
def test_postnorm_without_warmup_ends_eight_times_worse(figure, stated, rounding, trained, seeds, claim_record):
    n, ppl = runs(trained, seeds, "postnorm", "prenorm")
    per_seed = ppl["postnorm"] if figure == "postnorm" else [
        post / pre for post, pre in zip(ppl["postnorm"], ppl["prenorm"])]
    values = Paired(per_seed)
    claim_record(stated={figure: stated, "table": CHAPTER}, measured=dict(values.as_record(), **ppl),
                 figure=figure, tolerance=f"{rounding} + 2 sd = {values.tolerance(rounding):.2f}", seeds=n)
    need_spread(n)
    assert abs(values.mean - stated) <= values.tolerance(rounding)


# The rescue itself, without the chapter's figures: with warmup, post-norm ends where pre-norm
# ends, not on the unigram plateau of post-norm without warmup - nearer pre-norm (with the same
# warmup) than the diverged run, in log perplexity, on every seed.
@pytest.mark.claim("norm.warmup_rescues_postnorm")
def test_warmup_brings_postnorm_to_prenorm_not_to_the_plateau(trained, seeds, claim_record):
    n, ppl = runs(trained, seeds, "postnorm_warmup", "prenorm_warmup", "postnorm")
    per_seed = list(zip(ppl["postnorm_warmup"], ppl["prenorm_warmup"], ppl["postnorm"]))
    claim_record(stated="post-norm with warmup matches pre-norm, post-norm without ends at ~308",
                 measured=ppl, tolerance="ordering on every seed (log perplexity)", seeds=n)
    need_spread(n)
    assert all(abs(math.log(w / pre)) < abs(math.log(w / post)) for w, pre, post in per_seed), per_seed


# Where a run ends, as the table gives it: each warmup claim states its runs' perplexities
# ("reaches ~37.88", "~37.62 vs ~37.82") besides the difference between them. Compared at the
# table's rounding (0.005) widened by 2 sd over seeds; the inventory's "~" is the chapter's
# table quoted, not a coarser figure (unlike "~308", which it quotes to the unit).
LEVELS = [
    pytest.param("postnorm_warmup", marks=[pytest.mark.claim("norm.warmup_rescues_postnorm"), refuted(
        "post-norm with warmup ends at 42.68 +- 1.24 (43.00, 41.31, 43.73 over 3 seeds), not 37.88 "
        "(tolerance 0.005 + 2 sd = 2.48); train perplexity 12.73, 12.51, 12.53")],
                 id="norm.warmup_rescues_postnorm: post-norm with warmup reaches ~37.88"),
    pytest.param("prenorm_warmup", marks=[pytest.mark.claim("norm.prenorm_needs_no_warmup"), refuted(
        "pre-norm with warmup ends at 48.61 +- 0.95 (48.23, 47.92, 49.69 over 3 seeds), not 37.62 "
        "(tolerance 0.005 + 2 sd = 1.90): it overfits as pre-norm without warmup does, train perplexity "
        "10.13, 9.75, 9.35")],
                 id="norm.prenorm_needs_no_warmup: pre-norm with warmup ~37.62"),
    pytest.param("prenorm", marks=[pytest.mark.claim("norm.prenorm_needs_no_warmup"), refuted(
        "pre-norm without warmup ends at 51.97 +- 1.06 (52.16, 50.82, 52.92 over 3 seeds), not 37.82 "
        "(tolerance 0.005 + 2 sd = 2.13): as stated (12 blocks, 1000 steps of batch 64, no dropout) "
        "it overfits, train perplexity 9")],
                 id="norm.prenorm_needs_no_warmup: pre-norm without warmup ~37.82"),
]


@pytest.mark.parametrize("run", LEVELS)
def test_run_ends_at_the_chapters_perplexity(run, trained, seeds, claim_record):
    n, ppl = runs(trained, seeds, run)
    values = Paired(ppl[run])
    claim_record(stated={run: CHAPTER[run]}, measured=values.as_record(), figure=run,
                 tolerance=f"0.005 + 2 sd = {values.tolerance(0.005):.2f}", seeds=n)
    need_spread(n)
    assert abs(values.mean - CHAPTER[run]) <= values.tolerance(0.005)


# Differences between two of the four runs, in held-out perplexity points: the chapter's figure
# is derived from its table (CHAPTER), compared at its rounding (0.005) plus 2 sd over seeds.
DIFFERENCES = [
    # post-norm with warmup "matches pre-norm": 37.88 vs 37.62
    pytest.param("postnorm_warmup", "prenorm_warmup", marks=[pytest.mark.claim("norm.warmup_rescues_postnorm"), refuted(
        "post-norm with warmup does not match pre-norm with warmup, it beats it by 5.93 +- 0.69 points "
        "(-5.22, -6.61, -5.97 over 3 seeds; stated +0.26, tolerance 0.005 + 2 sd = 1.39): 42.68 against "
        "48.61, because it overfits less (train perplexity 12.6 against 9.7). The rescue itself holds: "
        "post-norm goes from 307.2 without warmup to 42.7 with it")],
                 id="norm.warmup_rescues_postnorm"),
    # pre-norm "needs no warmup": 37.82 vs 37.62
    pytest.param("prenorm", "prenorm_warmup", marks=[pytest.mark.claim("norm.prenorm_needs_no_warmup"), refuted(
        "warmup helps pre-norm by 3.36 +- 0.53 points (3.94, 2.90, 3.23 over 3 seeds), not 0.20 "
        "(tolerance 0.005 + 2 sd = 1.06): without warmup 51.97 (52.16, 50.82, 52.92), with 48.61 "
        "(48.23, 47.92, 49.69); both overfit, train perplexity 9-10")],
                 id="norm.prenorm_needs_no_warmup"),
]


@pytest.mark.parametrize("a,b", DIFFERENCES)
def test_difference_between_runs_is_the_chapters(a, b, trained, seeds, claim_record):
    n, ppl = runs(trained, seeds, a, b)
    diff = Paired([x - y for x, y in zip(ppl[a], ppl[b])])
    stated = round(CHAPTER[a] - CHAPTER[b], 2)
    claim_record(stated={a: CHAPTER[a], b: CHAPTER[b], "difference": stated},
                 measured=dict(diff.as_record(), **ppl), tolerance=f"0.005 + 2 sd = {diff.tolerance(0.005):.2f}", seeds=n)
    need_spread(n)
    assert abs(diff.mean - stated) <= diff.tolerance(0.005)
