"""The average: order-blind and diluting (the two provable reasons it is terrible)."""
import inspect

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from claims.chapter_figures import FIGURES
from model import AverageLM, CausalAverage, LanguageModel, averaging_matrix
from textcheck import rules

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


# ------------------------------------------------------------------ the average model, in fifteen lines

# "Embedding table plus this average plus a linear layer to the vocabulary is a complete language
# model in fifteen lines" (read as docs/choices.md declares it, 2026-12-07): the listing is not
# printed, so the sentence says the model fits in fifteen lines.  The listing is model/average.py
# AverageLM, in the form of the chapter's `class Head`, counted as qkv.head_thirty_lines counts that
# one: from its `class` line through its last line, blank lines included.
LINE_LENGTH = 110        # the project's (pyproject.toml [tool.ruff])


def average_listing() -> list[str]:
    """AverageLM as written, from its `class` line through its last line."""
    return inspect.getsource(AverageLM).rstrip("\n").split("\n")


def _imports_needed(lines: list[str]) -> list[str]:
    """The import lines the listing needs to run on its own (shown beside, never deciding)."""
    text = "\n".join(lines)
    return [line for name, line in (("torch.", "import torch"), ("nn.", "from torch import nn")) if name in text]


@pytest.mark.claim("average.model_fifteen_lines")
@pytest.mark.figure("average.model_lines")
def test_the_average_language_model_fits_in_the_lines_the_chapter_says(claim):
    lines = average_listing()
    nonblank = [line for line in lines if line.strip()]
    # the declared form: a class with a one-line docstring, __init__ and forward, one statement a
    # line, the average written out (not the project's CausalAverage)
    assert lines[0].startswith("class AverageLM(") and lines[1].strip().startswith('"""') \
        and lines[1].strip().endswith('"""') and len(lines[1].strip()) > 6
    assert sum(line.strip().startswith("def ") for line in lines) == 2
    assert not any(";" in line or len(line) > LINE_LENGTH for line in lines)
    assert not any(name in line for line in lines for name in ("CausalAverage", "averaging_matrix"))
    f = FIGURES["average.model_lines"]
    bound = f.value + f.rounding
    decision = rules.bounds([["the listing's lines at most the printed number, its rounding on top", len(lines), "<=",
                              bound]])
    imports = _imports_needed(lines)
    claim.record(stated=f.value, measured={"lines": len(lines), "non-blank": len(nonblank),
                                           "with its imports": len(lines) + len(imports)},
                 tolerance=f"at most {f.printed} ({f.value} + its rounding {f.rounding})", decision=decision.measured,
                 listing=lines, imports=imports)
    claim.decide(decision.holds,
                 f"the average language model is {len(lines)} lines ({len(nonblank)} non-blank; "
                 f"{len(lines) + len(imports)} with its imports), not at most {f.printed}")


@pytest.mark.claim("average.model_fifteen_lines")
def test_the_listed_average_model_is_the_ladders_average_model(claim):
    # "a complete language model": the listing computes the ladder's `average` row (embedding, the
    # causal average replacing each token, the linear layer): with that LanguageModel's weights it
    # gives its logits, at float32 precision, over the whole vocabulary at every position
    from fixtures.recipes import get
    cfg = get("average").model
    torch.manual_seed(0)
    ladder = LanguageModel(cfg).eval()
    listing = AverageLM(cfg.vocab_size, cfg.d_model).eval()
    listing.load_state_dict(ladder.state_dict())          # strict: the same parameters, no more, no fewer
    idx = torch.randint(0, cfg.vocab_size, (4, cfg.context), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        ours, theirs = listing(idx), ladder(idx)
    diff = (ours - theirs).abs().max().item()
    bound = cfg.d_model * torch.finfo(torch.float32).eps * theirs.abs().max().item()
    claim.record(stated="a complete language model", measured={"max |difference| of the logits": diff},
                 tolerance=f"<= d_model * eps32 * max|logits| = {bound:.2e}", shape=list(ours.shape),
                 parameters=sum(p.numel() for p in listing.parameters()))
    assert ours.shape == (4, cfg.context, cfg.vocab_size)
    assert diff <= bound
