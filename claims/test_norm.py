"""Pre-norm vs post-norm at initialisation: the gradient norm of each of twelve blocks.

Setting (the chapter's: twelve blocks, width 128, context 128, batch 64, BPE 1024): one
backward pass of the cross-entropy on one batch of real training windows, before any step;
a block's gradient norm is the L2 norm of all its parameters' gradients together.  PyTorch's
default initialisation (the chapter does not give one).  Four seeds, each with its own batch.
"""
import statistics

import pytest
import torch

from claims.chapter_figures import FIGURES
from data import split
from fixtures import grad_profile
from fixtures.results import RESULTS_DIR
from model import LanguageModel, ModelConfig

pytestmark = pytest.mark.fast


@pytest.fixture(scope="module")
def profiles(corpus_tokens, run_cache):
    """profiles(norm) -> each seed's block norms: the committed evidence (results/grad_profile.json)
    where this measurement measured it on these tokens, else the cache, else measured now
    (fixtures/grad_profile.py); measured once per run (fixtures/run_cache.py): under xdist the
    workers that need a profile split its seeds, and each reads the others'."""
    train, _ = split(corpus_tokens)
    stored = grad_profile.committed(train, RESULTS_DIR)

    def get(norm):
        if stored is not None:
            return stored[norm]
        return run_cache.get_all("grad_profile", [{"norm": norm, "seed": s, "train": grad_profile.tokens_id(train)}
                                                  for s in grad_profile.SEEDS],
                                 lambda i: grad_profile.measured(i["norm"], i["seed"], train))
    return get


# The chapter prints three figures per scheme: the first block's gradient norm, the last's and
# their ratio.  Each is a figure (one case each), with the trained-style tolerance: the chapter
# reports one initialisation, so its figure should lie within its rounding (half a unit of the
# last printed digit) + two seed-to-seed sd of our mean over the four seeds.
CASES = [pytest.param(norm, i, what, FIGURES[fid].value, FIGURES[fid].rounding, id=f"{norm}norm {what}",
                      marks=pytest.mark.figure(fid))
         for norm in ("pre", "post")
         for i, (what, fid) in enumerate([(w, f"norm.grad_{norm}_{k}") for w, k in
                                          (("first block", "first"), ("last block", "last"), ("last/first", "ratio"))])]


@pytest.mark.claim("norm.grad_profile")
@pytest.mark.parametrize("norm,i,what,stated,rounding", CASES)
def test_gradient_profile_figures(norm, i, what, stated, rounding, profiles, claim):
    runs = profiles(norm)
    values = [(g[0], g[-1], g[-1] / g[0])[i] for g in runs]
    claim.trained_figure(measurement="grad_profile", label=f"{norm}-norm {what} gradient norm at init", stated=stated,
                         values=values, rounding=rounding, profile_mean=[statistics.mean(b) for b in zip(*runs)],
                         note=f"PyTorch's default initialisation; block norms from {statistics.mean(g[0] for g in runs):.3f} "
                              f"(first) to {statistics.mean(g[-1] for g in runs):.3f} (last)")


@pytest.mark.claim("norm.postnorm_grad_badly_scaled")
def test_postnorm_gradient_is_worse_scaled_with_depth_than_prenorm(profiles, claim):
    # Paired by seed (same seed, same batch): post-norm's last/first ratio minus pre-norm's.
    diffs = [post[-1] / post[0] - pre[-1] / pre[0] for post, pre in zip(profiles("post"), profiles("pre"))]
    mean, se = statistics.mean(diffs), statistics.stdev(diffs) / len(diffs) ** 0.5
    # "its last/first ratio is the larger": the paired difference above 0 by two standard errors.
    claim.record(stated="post-norm's last/first ratio is the larger",
                 measured={"difference mean": mean, "difference SE": se, "per seed": diffs},
                 tolerance=f"mean > 2 SE ({2 * se:.3f}) over {len(diffs)} seeds", seeds=len(diffs))
    assert mean > 2 * se



def _block_with_silent_sublayers(norm: str):
    """The chapter's block (ModelConfig, width 128) in pre- or post-norm, with the last Linear of
    attention (W_o) and of the MLP zeroed, weights and biases: each sub-layer then adds nothing."""
    torch.manual_seed(0)
    block = LanguageModel(ModelConfig(norm=norm)).blocks[0].eval()
    with torch.no_grad():
        for last in (block.attn.out, block.ff.down):
            last.weight.zero_()
            last.bias.zero_()
    return block


@pytest.mark.claim("norm.residual_path_identity")
def test_with_silent_sublayers_prenorm_is_the_identity_and_postnorm_normalises(claim):
    # Inputs far from normalised (mean 2, sd 3 per feature), so that LayerNorm(x) is not x.
    x = 3 * torch.randn(2, 128, 128, generator=torch.Generator().manual_seed(0)) + 2
    pre, post = _block_with_silent_sublayers("pre"), _block_with_silent_sublayers("post")
    with torch.no_grad():
        y_pre, y_post = pre(x), post(x)
        normalised = post.ln2(post.ln1(x))            # the residual path's two LayerNorms
    measured = {"pre-norm: max |block(x) - x|": (y_pre - x).abs().max().item(),
                "post-norm: max |block(x) - LayerNorm(LayerNorm(x))|": (y_post - normalised).abs().max().item(),
                "post-norm: max |block(x) - x|": (y_post - x).abs().max().item()}
    claim.record(stated="pre-norm: the residual path is the identity; post-norm: a LayerNorm on it",
                 measured=measured, tolerance="exact (bit for bit); post-norm away from x by more than 1")
    assert measured["pre-norm: max |block(x) - x|"] == 0.0
    assert measured["post-norm: max |block(x) - LayerNorm(LayerNorm(x))|"] == 0.0
    assert measured["post-norm: max |block(x) - x|"] > 1
