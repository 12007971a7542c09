"""Positions: attention alone is permutation-equivariant; RoPE makes scores relative; ALiBi
penalises distance with a geometric slope per head."""

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from model import ALiBi, LanguageModel, ModelConfig, MultiHeadAttention, RoPE, alibi_slopes
from textcheck import rules

pytestmark = pytest.mark.fast


@pytest.mark.claim("positions.permutation_equivariant")
@settings(max_examples=30, deadline=None)
@given(T=st.integers(2, 24), seed=st.integers(0, 2**16))
def test_without_positions_permuting_the_prefix_leaves_the_last_output_unchanged(T, seed):
    # With the causal mask, each position sees its own prefix; within it all orderings are
    # alike: permute the first T-1 tokens and the last position's output does not move.
    torch.manual_seed(seed)
    att = MultiHeadAttention(16, 2).double().eval()
    x = torch.randn(1, T, 16, dtype=torch.float64)
    perm = torch.cat([torch.randperm(T - 1), torch.tensor([T - 1])])
    with torch.no_grad():
        y, y_perm = att(x), att(x[:, perm])
    # float64: the same terms summed in another order differ by ~T * 1e-16; 1e-12 is that bound
    # with room, and ~1e4 times below what a position-dependent computation would change.
    assert (y[0, -1] - y_perm[0, -1]).abs().max().item() <= 1e-12


@pytest.mark.claim("positions.permutation_equivariant")
@settings(max_examples=30, deadline=None)
@given(T=st.integers(2, 24), seed=st.integers(0, 2**16))
def test_unmasked_attention_permutes_its_output_with_its_input(T, seed):
    torch.manual_seed(seed)
    att = MultiHeadAttention(16, 2, causal=False).double().eval()   # no mask, no positions
    x = torch.randn(1, T, 16, dtype=torch.float64)
    perm = torch.randperm(T)

    def unmasked(x):
        return att(x, path="explicit")
    with torch.no_grad():       # float64 reassociation bound, as above
        assert (unmasked(x)[:, perm] - unmasked(x[:, perm])).abs().max().item() <= 1e-12


@pytest.mark.claim("positions.rope_relative")
@settings(max_examples=50, deadline=None)
@given(t=st.integers(0, 2000), i=st.integers(0, 2000), shift=st.integers(-2000, 2000),
       seed=st.integers(0, 2**16))
def test_rope_score_depends_only_on_t_minus_i(t, i, shift, seed):
    if min(t + shift, i + shift) < 0:
        shift = -min(t, i)
    g = torch.Generator().manual_seed(seed)
    rope = RoPE(32).double()
    q, k = torch.randn(32, generator=g, dtype=torch.float64), torch.randn(32, generator=g, dtype=torch.float64)
    at = lambda x, p: rope.rotate_one(x[None], torch.tensor([p]))[0]
    s = at(q, t) @ at(k, i)
    s_shifted = at(q, t + shift) @ at(k, i + shift)
    # The angles are computed in float32 (as in the model): an angle of size p carries an error
    # of ~p * eps32, which moves the score by up to |q||k| times that.
    tol = 4 * (max(t, i) + abs(shift) + 1) * torch.finfo(torch.float32).eps * q.norm() * k.norm()
    assert abs(s - s_shifted) <= tol


@pytest.mark.claim("positions.alibi_slopes")
@pytest.mark.parametrize("n_heads", [1, 2, 4, 8, 16])
def test_alibi_penalty_is_linear_in_distance_with_a_geometric_slope_per_head(n_heads, claim):
    T = 32
    bias = ALiBi(n_heads).score_bias(T, dtype=torch.float64)       # (h, T, T)
    slopes = alibi_slopes(n_heads)
    t = torch.arange(T, dtype=torch.float64)
    distance = (t[:, None] - t[None, :]).clamp(min=0)
    for h in range(n_heads):
        torch.testing.assert_close(bias[h], -slopes[h] * distance, rtol=1e-6, atol=1e-9)
    if n_heads > 1:
        ratios = slopes[1:] / slopes[:-1]
        torch.testing.assert_close(ratios, torch.full_like(ratios, 2.0 ** (-8 / n_heads)))
        assert len(set(slopes.tolist())) == n_heads                 # a different slope per head
    claim.record(stated="geometric, one per head", measured=slopes.tolist(), tolerance="exact",
                 n_heads=n_heads)


# The ALiBi paper's rule for a head count that is not a power of two, written out by hand: the
# slopes of the nearest lower power of two P, then every other slope of 2P (Press et al., 2022,
# and their reference implementation's get_slopes).
PAPER_SLOPES = {
    6: [2**-2, 2**-4, 2**-6, 2**-8] + [2**-1, 2**-3],
    12: [2**-1, 2**-2, 2**-3, 2**-4, 2**-5, 2**-6, 2**-7, 2**-8] + [2**-0.5, 2**-1.5, 2**-2.5, 2**-3.5],
}


@pytest.mark.claim("positions.alibi_slopes")
@pytest.mark.parametrize("n_heads", sorted(PAPER_SLOPES))
def test_alibi_slopes_follow_the_papers_rule_for_head_counts_not_a_power_of_two(n_heads, claim):
    slopes = alibi_slopes(n_heads)
    claim.record(stated=PAPER_SLOPES[n_heads], measured=slopes.tolist(), tolerance="exact (float64)",
                 n_heads=n_heads)
    torch.testing.assert_close(slopes, torch.tensor(PAPER_SLOPES[n_heads], dtype=torch.float64),
                               rtol=2 * torch.finfo(torch.float64).eps, atol=0)
    assert len(set(slopes.tolist())) == n_heads                     # still a different slope per head


# "within a prefix all orderings are alike", said of the model: a stack of blocks without
# positions, at the chapter's width (128), context (128) and vocabulary (1024), random init, float64.
# Tokens 0..t-1 permuted, token t kept: the logits at t compared.  One block: its position t
# averages the same set of (token, value) pairs, so the output cannot move.  A stack: block 2 at t
# reads block 1's outputs at 0..t-1, each a function of its own (now different) prefix.
PERMUTATIONS = 8


def _prefix_orderings(n_blocks: int) -> dict:
    torch.manual_seed(0)
    m = LanguageModel(ModelConfig(positions="none", n_blocks=n_blocks)).double().eval()
    g = torch.Generator().manual_seed(1)
    idx = torch.randint(0, 1024, (1, 128), generator=g)
    t = 127
    with torch.no_grad():
        base = m(idx)[0, t]
        diffs = []
        for _ in range(PERMUTATIONS):
            perm = torch.cat([torch.randperm(t, generator=g), torch.tensor([t])])
            diffs.append((m(idx[:, perm])[0, t] - base).abs().max().item())
    return {"max |logit difference| at t": max(diffs), "per permutation": diffs,
            "logit scale (max |logit|)": base.abs().max().item(), "n_blocks": n_blocks}


# float64 noise: the same terms summed in another order, through at most two blocks and the
# vocabulary projection: ~1e-15 relative; 1e-12 absolute on logits of size ~1 leaves room, and is
# far below what a position-dependent computation moves.
PREFIX_NOISE = 1e-12


@pytest.mark.claim("positions.prefix_orderings_stack")
def test_without_positions_every_prefix_ordering_gives_the_same_output_in_a_stack(claim):
    # The primary reading: the model as a stack, at the depth the chapter trains in its depth
    # section (two blocks).
    seen, one = _prefix_orderings(2), _prefix_orderings(1)
    decision = rules.bounds([["two blocks: max |logit difference| at t over prefix orderings",
                              seen["max |logit difference| at t"], "<=", PREFIX_NOISE]])
    claim.record(stated="every ordering of the prefix alike", measured=seen, tolerance=f"<= {PREFIX_NOISE} (float64 noise)",
                 label="two blocks, no positions", decision=decision.measured,
                 one_block=one)     # the one-layer reading, beside the verdict (never one itself)
    claim.decide(decision.holds,
                 f"in a stack of two blocks without positions, permuting tokens 0..t-1 moves the logits at t by up to "
                 f"{seen['max |logit difference| at t']:.3g} (over {PERMUTATIONS} orderings; logits up to "
                 f"{seen['logit scale (max |logit|)']:.2f}), against {one['max |logit difference| at t']:.2g} with one "
                 "block (the one-layer reading): block 2 at t reads block 1's outputs at earlier positions, each a "
                 "function of its own prefix")
