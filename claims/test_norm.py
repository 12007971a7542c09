"""Pre-norm vs post-norm at initialisation: the gradient norm of each of twelve blocks.

Setting (the chapter's: twelve blocks, width 128, context 128, batch 64, BPE 1024): one
backward pass of the cross-entropy on one batch of real training windows, before any step;
a block's gradient norm is the L2 norm of all its parameters' gradients together.  PyTorch's
default initialisation (the chapter does not give one).  Four seeds, each with its own batch.
"""
import statistics

import pytest
import torch

from data import get_batch, split
from model import LanguageModel, ModelConfig

pytestmark = pytest.mark.fast
SEEDS = range(4)
CHAPTER = {"pre": (0.0498, 0.0657, 1.32), "post": (0.0977, 0.1613, 1.65)}


def block_grad_norms(norm: str, seed: int, train) -> list[float]:
    torch.manual_seed(seed)
    m = LanguageModel(ModelConfig(n_blocks=12, norm=norm))
    x, y = get_batch(train, 64, 128, torch.Generator().manual_seed(1000 + seed))
    m(x, y)[1].backward()
    return [torch.sqrt(sum((p.grad ** 2).sum() for p in b.parameters())).item() for b in m.blocks]


@pytest.fixture(scope="module")
def profiles(corpus_tokens):
    train, _ = split(corpus_tokens)
    cache = {}

    def get(norm):
        if norm not in cache:
            cache[norm] = [block_grad_norms(norm, s, train) for s in SEEDS]
        return cache[norm]
    return get


def _check(norm, profiles, claim_record):
    runs = profiles(norm)
    ratios = [g[-1] / g[0] for g in runs]
    mean, sd = statistics.mean(ratios), statistics.stdev(ratios)
    first, last, stated = CHAPTER[norm]
    # Trained-style tolerance: the chapter reports one initialisation, so its ratio should lie
    # within two seed-to-seed standard deviations of our mean (plus its rounding, 0.005).
    tol = 2 * sd + 0.005
    claim_record(stated={"first": first, "last": last, "ratio": stated},
                 measured={"ratio mean": mean, "ratio sd": sd, "ratios": ratios,
                           "first": statistics.mean(g[0] for g in runs),
                           "last": statistics.mean(g[-1] for g in runs)},
                 tolerance=f"2 sd over {len(ratios)} seeds + 0.005 = {tol:.3f}", seeds=len(ratios))
    assert abs(mean - stated) <= tol


@pytest.mark.claim("norm.grad_profile")
@pytest.mark.parametrize("norm", [
    pytest.param("pre", id="prenorm_1.32x", marks=pytest.mark.xfail(strict=True, reason=(
        "refuted: with PyTorch's default init, pre-norm's last/first gradient ratio is 0.92 +- 0.08 "
        "over 4 seeds (0.985, 0.919, 0.807, 0.984), not 1.32; block norms ~0.21->0.19, not 0.05-0.066"))),
    pytest.param("post", id="postnorm_1.65x", marks=pytest.mark.xfail(strict=True, reason=(
        "refuted: with PyTorch's default init, post-norm's last/first gradient ratio is 1.02 +- 0.11 "
        "over 4 seeds (1.092, 1.058, 0.850, 1.078), not 1.65; block norms ~0.38, not 0.10-0.16"))),
])
def test_gradient_grows_from_first_to_last_block_as_the_chapter_says(norm, profiles, claim_record):
    _check(norm, profiles, claim_record)


@pytest.mark.claim("norm.postnorm_grad_badly_scaled")
def test_postnorm_gradient_is_worse_scaled_with_depth_than_prenorm(profiles, claim_record):
    # Paired by seed (same seed, same batch): post-norm's last/first ratio minus pre-norm's.
    diffs = [post[-1] / post[0] - pre[-1] / pre[0] for post, pre in zip(profiles("post"), profiles("pre"))]
    mean, se = statistics.mean(diffs), statistics.stdev(diffs) / len(diffs) ** 0.5
    # "its last/first ratio is the larger": the paired difference above 0 by two standard errors.
    claim_record(stated="post-norm's last/first ratio is the larger",
                 measured={"difference mean": mean, "difference SE": se, "per seed": diffs},
                 tolerance=f"mean > 2 SE ({2 * se:.3f}) over {len(diffs)} seeds", seeds=len(diffs))
    assert mean > 2 * se
