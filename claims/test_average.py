"""The average: order-blind and diluting (the two provable reasons it is terrible)."""
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from claims.chapter_figures import FIGURES
from model import CausalAverage, averaging_matrix

pytestmark = pytest.mark.fast
EPS32 = torch.finfo(torch.float32).eps


def reorder_bound(x: torch.Tensor) -> float:
    """Forward-error bound for a mean of T fp32 numbers summed in two different orders:
    each sum is within (T-1)*eps*sum|x_i| of the exact one, so the two means differ by at
    most 2*(T-1)*eps*mean|x| (per feature; we take the worst feature)."""
    T = x.shape[0]
    return 2 * max(T - 1, 1) * EPS32 * x.abs().mean(0).max().item()


@pytest.mark.claim("average.permutation_invariant")
@settings(max_examples=60, deadline=None)
@given(T=st.integers(1, 256), C=st.integers(1, 64), seed=st.integers(0, 2**31 - 1))
def test_average_ignores_order(T, C, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(T, C, generator=g)
    y = x[torch.randperm(T, generator=g)]
    A = averaging_matrix(T)
    diff = (A[-1] @ x - A[-1] @ y).abs().max().item()
    assert diff <= reorder_bound(x)


@pytest.mark.claim("average.permutation_invariant")
@pytest.mark.figure("average.shuffle_diff")
def test_shuffled_window_gives_the_chapters_float_noise(claim):
    # The chapter's experiment at its scale (width 128, context 128): float noise of ~3e-8.
    g = torch.Generator().manual_seed(0)
    x = torch.randn(128, 128, generator=g)
    y = x[torch.randperm(128, generator=g)]
    A = averaging_matrix(128)
    diff = (A[-1] @ x - A[-1] @ y).abs().max().item()
    stated = FIGURES["average.shuffle_diff"].value
    claim.record(stated=stated, measured=diff, tolerance=f"<= summation bound {reorder_bound(x):.2e}")
    # the chapter's figure is float noise, and so is ours: both under the same bound
    assert diff <= reorder_bound(x) and stated <= reorder_bound(x)


@pytest.mark.claim("average.dilution")
@settings(max_examples=50, deadline=None)
@given(t=st.integers(0, 511))
def test_current_token_is_one_over_t_plus_one_of_the_summary(t):
    # Perturb only the token at position t; its share of position t's summary is the slope.
    T, C = t + 1, 4
    x = torch.zeros(1, T, C, dtype=torch.float64)
    x[0, t] = 1.0
    share = CausalAverage()(x)[0, t, 0].item()
    assert share == pytest.approx(1 / (t + 1), rel=1e-12)


@pytest.mark.claim("average.dilution")
@pytest.mark.figure("average.one_hundredth")
def test_token_share_at_the_position_the_chapter_reads(claim):
    w = averaging_matrix(128, dtype=torch.float64)[99, 99].item()   # the 100th position
    stated = FIGURES["average.one_hundredth"].value
    claim.record(stated=stated, measured=w, tolerance="float64 rounding")
    assert w == pytest.approx(stated, rel=1e-12)


@pytest.mark.claim("average.positions_still_invariant")
@settings(max_examples=30, deadline=None)
@given(T=st.integers(2, 128), seed=st.integers(0, 2**31 - 1))
def test_positions_added_before_averaging_leave_it_order_blind(T, seed):
    # Positions stay in place (p_i is added at slot i); the tokens are shuffled.  The average's
    # last row is then a sum of the same x's plus the same p's, in another order.
    g = torch.Generator().manual_seed(seed)
    x, p = torch.randn(T, 16, generator=g), torch.randn(T, 16, generator=g)
    perm = torch.randperm(T, generator=g)
    A = averaging_matrix(T)
    diff = (A[-1] @ (x[perm] + p) - A[-1] @ (x + p)).abs().max().item()
    assert diff <= reorder_bound(x + p)


@pytest.mark.claim("average.positions_still_invariant")
def test_shuffled_tokens_with_positions_in_place_at_the_chapters_scale(claim):
    # Width 128, context 128, learned-style positions (N(0, 1), as nn.Embedding starts them).  As a
    # contrast that shows the test can fail: a nonlinearity applied per position before the
    # average (tanh of token + position) ties each token to its slot, and the average then moves.
    g = torch.Generator().manual_seed(0)
    x, p = torch.randn(128, 128, generator=g), torch.randn(128, 128, generator=g)
    perm = torch.randperm(128, generator=g)
    last = averaging_matrix(128)[-1]
    diff = (last @ (x[perm] + p) - last @ (x + p)).abs().max().item()
    nonlinear = (last @ torch.tanh(x[perm] + p) - last @ torch.tanh(x + p)).abs().max().item()
    bound = reorder_bound(x + p)
    claim.record(stated="unchanged: the sum forgets which position each token sat at",
                 measured={"max |diff|, positions added": diff, "max |diff|, tanh per position": nonlinear},
                 tolerance=f"<= summation bound {bound:.2e}; the contrast above 1000 x that bound")
    assert diff <= bound
    assert nonlinear > 1000 * bound


@pytest.mark.fast
@pytest.mark.claim("average.summary_properties")
@settings(max_examples=20, deadline=None)
@given(T=st.integers(1, 300))
def test_the_average_takes_any_number_of_inputs_to_a_fixed_size_output_without_parameters(T):
    # "Any number of inputs, fixed output size, differentiable, free": the project's average at
    # the chapter's width, on T inputs: no parameters; the summary (the last position) has the
    # width of one input whatever T is; a gradient reaches every input.
    avg = CausalAverage()
    x = torch.randn(1, T, 128, dtype=torch.float64, requires_grad=True)
    summary = avg(x)[0, -1]
    summary.sum().backward()
    assert sum(p.numel() for p in avg.parameters()) == 0
    assert summary.shape == (128,)
    assert torch.all(x.grad[0].abs().sum(-1) > 0)
