"""The recurrent summary (history): the arithmetic of the chapter's opening paragraphs.

The token positions and the years are read from the chapter's own text, next to the figure they
give (claims/chapter_figures.py anchors), never typed here.
"""
import re

import pytest
import torch
from torch import nn

from claims.chapter_figures import FIGURES
from claims.chapter_reads import READ
from textcheck import rules

pytestmark = pytest.mark.fast


class CountingCell(nn.Module):
    """h_t = f(h_{t-1}, x_t), with f an nn.RNNCell that counts its applications."""

    def __init__(self, d: int = 4):
        super().__init__()
        self.f = nn.RNNCell(d, d)
        self.calls = 0

    def forward(self, x_t, h):
        self.calls += 1
        return self.f(x_t, h)


def updates_between(source: int, target: int, d: int = 4, seed: int = 0) -> dict:
    """Run the recurrence over tokens 0..target and count the applications of f that lie on the
    path from token `source` to the state at `target`: those after the one that reads x_source,
    up to and including the one that makes h_target.  The gradient of h_target on x_source is
    nonzero (the path exists) and that of h_{source - 1} is zero (nothing flows back in time)."""
    torch.manual_seed(seed)
    cell = CountingCell(d).double()
    x = torch.randn(target + 1, 1, d, dtype=torch.float64, requires_grad=True)
    h = torch.zeros(1, d, dtype=torch.float64)
    states, reads = [], {}
    for t in range(target + 1):
        h = cell(x[t], h)
        reads[t] = cell.calls                       # the call that read x_t and made h_t
        states.append(h)
    grad_target = torch.autograd.grad(states[target].sum(), x, retain_graph=True)[0][source]
    grad_before = torch.autograd.grad(states[source - 1].sum(), x, allow_unused=True)[0][source]
    return {"updates": reads[target] - reads[source], "calls": cell.calls,
            "|d h_target / d x_source|": grad_target.abs().max().item(),
            "|d h_before / d x_source|": grad_before.abs().max().item()}


@pytest.mark.claim("recurrence.sequential_updates")
@pytest.mark.figure("recurrence.updates")
def test_updates_from_one_token_to_a_later_one_in_a_recurrence(claim):
    # "information from token 5 reaches token 500 only by surviving 495 sequential updates": the
    # two positions are read from that sentence, the updates counted on a running recurrence.
    source, target = READ["recurrence.from_token"].value, READ["recurrence.to_token"].value
    seen = updates_between(source, target)
    f = FIGURES["recurrence.updates"]
    decision = rules.within(seen["updates"], f.value, f.rounding)      # a count: exact (rounding 0.5)
    claim.record(stated=f.value, measured=seen["updates"], tolerance=f"the printed rounding, {f.rounding}",
                 decision=decision.measured, source=source, target=target, difference=target - source,
                 **{k: v for k, v in seen.items() if k != "updates"})
    assert seen["|d h_target / d x_source|"] > 0 and seen["|d h_before / d x_source|"] == 0
    assert seen["updates"] == target - source                          # one application per step
    claim.decide(decision.holds, f"{decision.why}: the recurrence applies f {seen['updates']} times "
                                 f"between token {source} and token {target}")


@pytest.mark.claim("recurrence.three_years_before")
@pytest.mark.figure("recurrence.years")
def test_years_from_bahdanau_attention_to_the_transformer(claim):
    # "fixed it in 2014, three years before the transformer", and "From 1997 to about 2017 the
    # summary was a recurrent state": the transformer's year is the end of that era (READ).
    f = FIGURES["recurrence.years"]
    fixed = int(re.search(r"in (\d{4}),", f.anchor).group(1))
    transformer = READ["recurrence.transformer_year"].value
    years = transformer - fixed
    decision = rules.within(years, f.value, f.rounding)
    claim.record(stated=f.value, measured=years, tolerance=f"the printed rounding, {f.rounding}",
                 decision=decision.measured, attention_year=fixed, transformer_year=transformer)
    claim.decide(decision.holds, f"{transformer} - {fixed} = {years} years: {decision.why}")


# "Backpropagating through T steps multiplies T Jacobians, so the gradient vanishes or explodes":
# a tanh recurrence (nn.RNNCell, 128 wide, PyTorch's initialisation, float64) against the causal
# average over the same tokens.  The recurrence's gradient of its last state on the first token
# is a product of one Jacobian per step, so it changes geometrically with T; the average's is
# 1/T.  Decided by bounds fixed before measuring (docs/choices.md): from T = 5 to 500 the
# recurrence's gradient moves by more than a factor of 10^6 either way, the average's by less
# than its own 1/T (a factor of 100) times 10.
GEOMETRIC, STEPS = 1e6, (5, 500)


def first_token_gradient(T: int, mixer: str, d: int = 128, seed: int = 0) -> float:
    """|d (last output) / d x_0|, the largest entry, through T tokens of a recurrence or the average."""
    torch.manual_seed(seed)
    x = torch.randn(T, 1, d, dtype=torch.float64, requires_grad=True)
    if mixer == "recurrence":
        cell, h = nn.RNNCell(d, d).double(), torch.zeros(1, d, dtype=torch.float64)
        for t in range(T):
            h = cell(x[t], h)
        last = h
    else:
        last = x.mean(0)                            # the causal average at the last position
    return torch.autograd.grad(last.sum(), x)[0][0].abs().max().item()


@pytest.mark.claim("recurrence.gradient_vanishes")
@pytest.mark.parametrize("seed", range(3))
def test_a_recurrences_gradient_vanishes_or_explodes_with_the_steps(seed, claim):
    short, long = STEPS
    g = {m: {T: first_token_gradient(T, m, seed=seed) for T in STEPS} for m in ("recurrence", "average")}
    change = {m: g[m][long] / g[m][short] for m in g}
    decision = rules.bounds([
        ["the recurrence's gradient changes by more than 10^6 from 5 to 500 steps",
         max(change["recurrence"], 1 / max(change["recurrence"], 1e-300)), ">", GEOMETRIC],
        ["the average's changes by less than 10 times 1/T", 1 / change["average"], "<", 10 * long / short]])
    claim.record(stated="vanishes or explodes", measured={m: {f"T={T}": v for T, v in g[m].items()} for m in g},
                 tolerance="a factor of 10^6 from 5 to 500 steps (the average's: 1/T)", decision=decision.measured,
                 seed=seed, label=f"seed {seed}")
    claim.decide(decision.holds, f"from {short} to {long} steps the recurrence's gradient is multiplied by "
                                 f"{change['recurrence']:.3g}, the average's by {change['average']:.3g}: {decision.why}")


# "The architecture that won is not obviously smarter; it is the one whose expensive step is a
# matrix multiply" (docs/choices.md, 2026-12-07): the chapter's one full block (width 128, 4 heads,
# 128 tokens, the explicit attention path so that masking and softmax are counted as their own
# operations), one forward pass.  Matrix products as torch.utils.flop_counter counts them (2 a
# multiply-add); every other operation one per element it writes (views and copies compute nothing).
NOT_ARITHMETIC = {"view", "_unsafe_view", "t", "transpose", "permute", "expand", "reshape", "slice", "select",
                  "split", "split_with_sizes", "unbind", "unsqueeze", "squeeze", "detach", "alias", "as_strided",
                  "clone", "_to_copy", "copy_", "empty_like", "empty", "lift_fresh", "scalar_tensor", "zeros_like",
                  "ones", "zeros", "arange", "full", "tril", "triu"}
MATRIX = {"mm", "bmm", "addmm", "baddbmm"}


def operations_of_a_block() -> tuple[int, dict[str, int]]:
    """(matrix-product operations, {other aten op: elements it wrote}) of one forward pass."""
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils.flop_counter import FlopCounterMode

    from model import Block, MultiHeadAttention

    class Elementwise(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.written: dict[str, int] = {}

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            name = func.overloadpacket.__name__
            if name not in NOT_ARITHMETIC and name not in MATRIX:
                outs = out if isinstance(out, (tuple, list)) else [out]
                self.written[name] = self.written.get(name, 0) + sum(o.numel() for o in outs if torch.is_tensor(o))
            return out

    torch.manual_seed(0)
    block = Block(MultiHeadAttention(128, 4, path="explicit"), 128, mlp=True, norm="pre").eval()
    x = torch.randn(1, 128, 128)
    with torch.no_grad(), FlopCounterMode(display=False) as flops, Elementwise() as rest:
        block(x)
    return flops.get_total_flops(), rest.written


@pytest.mark.claim("recurrence.matmul_step")
def test_a_blocks_arithmetic_is_mostly_matrix_products(claim):
    matrix, rest = operations_of_a_block()
    share = matrix / (matrix + sum(rest.values()))
    decision = rules.bounds([["the matrix products' share of a block's operations above one half", share, ">", 0.5]])
    # at ten operations an element for everything else (LayerNorm, GELU and softmax do several) the
    # share is still shown beside it: the reading's generosity, not a second verdict
    tenfold = matrix / (matrix + 10 * sum(rest.values()))
    claim.record(stated="the expensive step is a matrix multiply", measured={"share": share, "matrix": matrix,
                                                                            "other": rest, "share at ten": tenfold},
                 tolerance="more than half of the block's operations", decision=decision.measured)
    claim.decide(decision.holds, f"matrix products are {share:.1%} of a block's operations ({matrix:,} of "
                                 f"{matrix + sum(rest.values()):,}; the rest: {rest})")
