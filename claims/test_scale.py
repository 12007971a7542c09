"""Dividing by sqrt(d_k): the variance argument, and what an undivided softmax does at init.

Setting for all of these (the chapter's variance argument): q and k entries independent
N(0, 1); a "fresh head" row is one query scored against 64 keys.
"""
import functools
import math

import pytest
import torch

from claims.chapter_figures import FIGURES, VARIANCE_D
from claims.chapter_reads import READ
from model.attention import Head, MultiHeadAttention
from model.mlp import MLP
from textcheck import rules

pytestmark = pytest.mark.fast

# The chapter's table, a row per d: its Var(q.k) and std over 20,000 pairs (claims/chapter_figures.py).
# The samples and widths below are the chapter's setup, each checked against its sentence
# (claims/chapter_setup.py): "twenty thousand random pairs"; "two thousand random rows" of "64
# scores"; the undivided head read "at d_k = 256" (effective tokens) and "At d_k = 1024" (frozen rows).
PAIRS = 20_000
ROWS, ROW_LENGTH = 2_000, 64
EFFECTIVE_AT, FROZEN_AT = 256, 1024


def rows(column: str) -> list:
    return [pytest.param(d, FIGURES[f"scale.var_{d}"].value, FIGURES[f"scale.std_{d}"].value, id=f"d={d}",
                         marks=pytest.mark.figure(f"scale.{column}_{d}")) for d in VARIANCE_D]


@functools.cache          # the variance and the std tests read the same draws at each d: drawn once
def dot_products(d: int, n: int, seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(n, d, generator=g, dtype=torch.float64)
    k = torch.randn(n, d, generator=g, dtype=torch.float64)
    return (q * k).sum(-1)


def var_se(d: int, n: int) -> float:
    """Standard error of a sample variance of s = q.k: Var(s^2) = E s^4 - d^2 = 2d^2 + 6d
    (E (q_j k_j)^4 = 9), so SE = sqrt((2d^2 + 6d) / n)."""
    return math.sqrt((2 * d * d + 6 * d) / n)


@pytest.mark.claim("scale.variance_is_d")
@pytest.mark.parametrize("d,stated_var,stated_std", rows("var"))
def test_score_variance_is_d(d, stated_var, stated_std, claim):
    var = dot_products(d, PAIRS, seed=d).var().item()
    se = var_se(d, PAIRS)
    # 4 SE (two-sided p ~ 6e-5) for our estimate against d; the chapter's figure is itself an
    # estimate from 20,000 pairs, so it must lie within 4 SE of d too.
    claim.record(stated=stated_var, measured=var, tolerance=f"4 SE = {4 * se:.3f}", d=d, theory=d)
    assert abs(var - d) <= 4 * se
    assert abs(stated_var - d) <= 4 * se


@pytest.mark.claim("scale.std_is_sqrt_d")
@pytest.mark.parametrize("d,stated_var,stated_std", rows("std"))
def test_score_std_is_sqrt_d(d, stated_var, stated_std, claim):
    std = dot_products(d, PAIRS, seed=d).std().item()
    se = var_se(d, PAIRS) / (2 * math.sqrt(d))          # delta method: SE(std) = SE(var) / 2 sd
    claim.record(stated=stated_std, measured=std, tolerance=f"4 SE = {4 * se:.4f}", d=d, theory=math.sqrt(d))
    assert abs(std - math.sqrt(d)) <= 4 * se
    assert abs(stated_std - math.sqrt(d)) <= 4 * se


@pytest.mark.claim("scale.std_is_sqrt_d")
@pytest.mark.parametrize("d", [pytest.param(d, id=f"d={d}", marks=pytest.mark.figure(f"scale.sqrt_{d}")) for d in VARIANCE_D])
def test_the_theory_column_is_the_square_root_of_d(d, claim):
    # the table's sqrt(d) column: arithmetic on its d column (the setup), at the printed rounding
    f = FIGURES[f"scale.sqrt_{d}"]
    decision = rules.within(math.sqrt(d), f.value, f.rounding)
    claim.record(stated=f.value, measured=math.sqrt(d), tolerance=f"the printed rounding, {f.rounding}",
                 decision=decision.measured, d=d)
    claim.decide(decision.holds, f"sqrt({d}) = {math.sqrt(d):.4f}: {decision.why}")


@pytest.mark.claim("scale.variance_is_d")
@pytest.mark.figure("scale.product_variance")
def test_each_product_of_unit_variance_entries_has_the_stated_variance(claim):
    # "each product q_j k_j has variance one": the products of as many independent N(0, 1) pairs
    # as the table uses, their sample variance at the printed rounding
    products = dot_products(1, PAIRS, seed=1)
    f = FIGURES["scale.product_variance"]
    var = products.var().item()
    decision = rules.within(var, f.value, f.rounding)
    claim.record(stated=f.value, measured=var, tolerance=f"the printed rounding, {f.rounding}",
                 decision=decision.measured, pairs=PAIRS, se=var_se(1, PAIRS))
    claim.decide(decision.holds, f"Var(q_j k_j) over {PAIRS} pairs is {var:.3f}: {decision.why}")


@functools.cache          # several tests read the same rows; computed once
def fresh_rows(d: int, rows: int, divide: bool, seed: int = 0, positions: int = ROW_LENGTH) -> torch.Tensor:
    s = fresh_scores(d, rows, seed, positions)
    return torch.softmax(s / math.sqrt(d) if divide else s, dim=-1)


@functools.cache          # the same scores with and without the division: drawn once
def fresh_scores(d: int, rows: int, seed: int, positions: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(rows, 1, d, generator=g)
    k = torch.randn(rows, positions, d, generator=g)
    return (q * k).sum(-1)                                          # (rows, 64)


def effective_tokens(w: torch.Tensor) -> torch.Tensor:
    """exp(entropy): how many positions a row really averages over."""
    return torch.exp(-(w * torch.log(w.clamp_min(1e-45))).sum(-1))


@pytest.mark.claim("scale.effective_tokens")
@pytest.mark.figure("scale.effective_one")
def test_undivided_head_effective_token_count(claim):
    undivided = effective_tokens(fresh_rows(EFFECTIVE_AT, ROWS, divide=False)).mean().item()
    divided = effective_tokens(fresh_rows(EFFECTIVE_AT, ROWS, divide=True)).mean().item()
    # "about one" read at the chapter's precision: the mean rounds to 1, i.e. < 1.5.  The SE of
    # the mean over 2,000 rows is ~0.01, well inside that band.
    f = FIGURES["scale.effective_one"]
    claim.record(stated=f.value, measured=undivided, tolerance=f"rounds to {f.value} (within {f.rounding})",
                 divided=divided, label="undivided, d_k = 256: effective tokens of 64")
    assert abs(undivided - f.value) < f.rounding
    assert divided > 10 * undivided                                 # division is what restores it


FROZEN = READ["scale.frozen_threshold"].value      # the chapter's "more than 0.99 of their weight"


def frozen(w: torch.Tensor) -> torch.Tensor:
    """A row is frozen when the softmax has committed to one entry: more than FROZEN of its
    weight on a single token (the chapter's own threshold in the runaway measurement), where
    the Jacobian diagonal w_i(1 - w_i) is below 1 - FROZEN everywhere."""
    return w.max(-1).values > FROZEN


@pytest.mark.claim("scale.frozen_rows")
@pytest.mark.figure("scale.frozen_seven")
def test_undivided_widest_head_share_of_frozen_rows(claim):
    share = frozen(fresh_rows(FROZEN_AT, ROWS, divide=False)).float().mean().item()
    f = FIGURES["scale.frozen_seven"]                               # "seven rows in ten"
    stated, half = f.value / 10, f.rounding / 10
    se = math.sqrt(stated * (1 - stated) / ROWS)
    # "seven in ten" covers [0.65, 0.75); widened by 3 binomial SE of a 2,000-row sample.
    claim.record(stated=stated, measured=share,
                 tolerance=f"[{stated - half:.2f}, {stated + half:.2f}) +- 3 SE ({3 * se:.3f})")
    assert stated - half - 3 * se <= share < stated + half + 3 * se


@pytest.mark.claim("scale.divided_flat")
@pytest.mark.figure("scale.divided_flat_sum")
@pytest.mark.parametrize("d", VARIANCE_D)
def test_divided_softmax_slope_is_flat(d, claim):
    w = fresh_rows(d, ROWS, divide=True, seed=d)
    q = (w * (1 - w)).sum(-1)
    mean, se = q.mean().item(), q.std().item() / math.sqrt(ROWS)
    u = fresh_rows(d, ROWS, divide=False, seed=d)
    undivided = (u * (1 - u)).sum(-1).mean().item()
    # The chapter prints two decimals: [0.955, 0.965), widened by 3 SE of the 2,000-row mean.
    f = FIGURES["scale.divided_flat_sum"]
    low, high = f.value - f.rounding, f.value + f.rounding
    claim.record(stated=f.value, measured=mean, tolerance=f"[{low:.3f}, {high:.3f}) +- 3 SE ({3 * se:.4f})",
                 d=d, undivided=undivided)
    assert low - 3 * se <= mean < high + 3 * se


@pytest.mark.claim("scale.divided_never_saturates")
@pytest.mark.figure("scale.divided_saturated")
@pytest.mark.parametrize("d", VARIANCE_D)
def test_divided_no_row_is_frozen_on_one_token(d, claim):
    rows = ROWS
    w = fresh_rows(d, rows, divide=True, seed=d)
    count, top = int(frozen(w).sum().item()), w.max().item()
    undivided = frozen(fresh_rows(d, rows, divide=False, seed=d)).float().mean().item()
    # "Nothing saturates" over a 2,000-row sample: the count of frozen rows, at the word's
    # rounding (none).  With none seen, a share above 3/2000 (the rule of three) is excluded.
    f = FIGURES["scale.divided_saturated"]
    decision = rules.within(count, f.value, f.rounding)
    claim.record(stated=f.value, measured={"frozen rows": count, "largest weight": top, "undivided share": undivided},
                 tolerance=f"{f.value} of {rows} rows above {FROZEN} (share < {3 / rows:.4f} at 95 %)", d=d,
                 decision=decision.measured)
    claim.decide(decision.holds, f"{count} of {rows} divided rows at d = {d} put more than {FROZEN} on one token")


# ------------------------------------------------------------------ the softmax is scale-sensitive

def _doubling(layer, claim, what: str, **label) -> None:
    """`layer` (built with seed 0) on 64 rows of N(0, 1) inputs and on the same rows multiplied by the
    chapter's "Doubling" (READ): the output entry whose ratio is farthest from the figure, decided
    at its word's rounding (0: scaling by a power of two is exact in floating point)."""
    torch.manual_seed(0)
    lin = layer()
    x = torch.randn(64, 128)
    factor, f = READ["scale.input_doubling"].value, FIGURES["scale.linear_doubles"]
    with torch.no_grad():
        ratio = lin(factor * x) / lin(x)
    farthest = ratio.flatten()[(ratio - f.value).abs().argmax()].item()
    decision = rules.within(farthest, f.value, f.rounding)
    claim.record(stated=f.value, measured=farthest, tolerance=f"the printed rounding, {f.rounding} (exact)",
                 decision=decision.measured, input_factor=factor, bias=lin.bias is not None, **label)
    claim.decide(decision.holds, f"{what}the output entry farthest from {f.value} x its input's: {decision.why}")


@pytest.mark.claim("scale.softmax_scale_sensitive")
@pytest.mark.figure("scale.linear_doubles")
def test_a_bias_free_linear_layer_scales_its_output_with_its_input(claim):
    # "Doubling a linear layer's input doubles its output": the project's query projection (the
    # chapter's Head at width 128, model/attention.py), which has no bias
    _doubling(lambda: Head(128, 128, block=128).q, claim, "")


# The same sentence tried on the layers of the chapter's block that carry a bias (docs/choices.md,
# 2026-12-07): W_o and the MLP's expansion, as the chapter's GPT-2 accounting gives them biases.
# W(2x) + b is not 2(Wx + b): the sentence holds for bias-free layers only, and the verdict says so.
BIASED = {"W_o": lambda: MultiHeadAttention(128, 4).out, "the MLP's first layer": lambda: MLP(128).up}


@pytest.mark.claim("scale.softmax_scale_sensitive")
@pytest.mark.figure("scale.linear_doubles")
@pytest.mark.parametrize("layer", list(BIASED))
def test_a_linear_layer_with_a_bias_scales_its_output_with_its_input(layer, claim):
    _doubling(BIASED[layer], claim, f"{layer} (with a bias; the sentence holds for bias-free layers only): ",
              label=layer)


def effective_and_top(w: torch.Tensor) -> tuple[float, float]:
    return effective_tokens(w).mean().item(), w.max(-1).values.mean().item()


@pytest.mark.claim("scale.softmax_scale_sensitive")
def test_multiplied_scores_turn_a_soft_blend_into_a_hard_choice(claim):
    # 2,000 rows of 64 unit-variance scores (fixed seed), softmax of s and of 10 s.  Thresholds,
    # fixed before measuring:
    #   soft blend:  more than 10 effective tokens on average: the weight spread over many of the
    #                64 positions (a uniform row would give 64);
    #   hard choice: fewer than 2 effective tokens on average, and more than half of each row's
    #                weight on its top token on average: about one token chosen.
    # The SE of each mean over 2,000 rows is below 0.03 tokens (0.01 in weight), far from the lines.
    s = torch.randn(ROWS, ROW_LENGTH, generator=torch.Generator().manual_seed(0))
    soft_eff, soft_top = effective_and_top(torch.softmax(s, -1))
    hard_eff, hard_top = effective_and_top(torch.softmax(READ["scale.score_factor"].value * s, -1))
    conditions = [["softmax(s): mean effective tokens above 10 (a soft blend)", soft_eff, ">", 10],
                  ["softmax(10 s): mean effective tokens below 2 (a hard choice)", hard_eff, "<", 2],
                  ["softmax(10 s): mean top weight above one half", hard_top, ">", 0.5]]
    decision = rules.bounds(conditions)       # an ordering, recorded like textcheck/rule.py ordering's
    claim.record(stated="soft blend -> hard choice", label="softmax(s) vs softmax(10 s): effective tokens",
                 measured={"softmax(s)": {"effective tokens": soft_eff, "top weight": soft_top},
                           "softmax(10 s)": {"effective tokens": hard_eff, "top weight": hard_top}},
                 tolerance="soft: > 10 effective tokens; hard: < 2 effective tokens and top weight > 0.5",
                 decision=decision.measured)
    claim.decide(decision.holds, decision.why)


@functools.cache
def _jacobian_rows() -> dict:
    """Float64 rows of 64 scores: N(0, 1), N(0, 16) (a divided and an undivided head's spread) and
    a saturated one (one score 30 above the rest: its top weight above 0.999): each row's softmax
    Jacobian against w_i(1 - w_i) and diag(w) - w w^T, and its largest entry."""
    g = torch.Generator().manual_seed(0)
    rows = {"N(0, 1)": torch.randn(64, generator=g, dtype=torch.float64),
            "N(0, 16)": 4 * torch.randn(64, generator=g, dtype=torch.float64)}
    saturated = torch.randn(64, generator=g, dtype=torch.float64)
    saturated[7] += 30
    rows["saturated"] = saturated
    measured = {}
    for name, s in rows.items():
        w = torch.softmax(s, -1)
        J = torch.autograd.functional.jacobian(lambda z: torch.softmax(z, -1), s)
        measured[name] = {"max |diag - w(1 - w)|": (J.diagonal() - w * (1 - w)).abs().max().item(),
                          "max |J - (diag(w) - w w^T)|": (J - (torch.diag(w) - torch.outer(w, w))).abs().max().item(),
                          "top weight": w.max().item(), "max |J|": J.abs().max().item()}
    return measured


@pytest.mark.claim("scale.softmax_jacobian_diagonal")
def test_softmax_jacobian_diagonal_is_w_times_one_minus_w(claim):
    measured = _jacobian_rows()
    claim.record(stated="diagonal w_i(1 - w_i); a committed row has almost no derivative", measured=measured,
                 tolerance="float64 precision (1e-15); saturated: top weight > 0.999 and max |J| < 1e-3")
    for m in measured.values():
        assert m["max |diag - w(1 - w)|"] <= 1e-15 and m["max |J - (diag(w) - w w^T)|"] <= 1e-15
    assert measured["saturated"]["top weight"] > 0.999 and measured["saturated"]["max |J|"] < 1e-3
    assert measured["N(0, 1)"]["max |J|"] > 1e-2                       # an uncommitted row does have one


# "w_i(1-w_i), zero at both ends" and "its gradient is nearly zero".  Zero at both ends is an
# identity: a row with one weight exactly 1 and the rest exactly 0 (the others masked with -inf)
# has a Jacobian diagonal of exactly zero (checked exactly, not only at the word's rounding).
# "Nearly zero" is read against an uncommitted row: the saturated row's largest Jacobian entry
# is under a hundredth of an N(0, 1) row's (the gradient a head still gets when it is not frozen).
@pytest.mark.claim("scale.softmax_jacobian_diagonal")
@pytest.mark.figure("scale.jacobian_ends")
def test_the_jacobian_diagonal_vanishes_at_both_ends(claim):
    s = torch.tensor([3.0, float("-inf"), float("-inf"), float("-inf")], dtype=torch.float64)
    J = torch.autograd.functional.jacobian(lambda z: torch.softmax(z, -1), s)
    value = J.diagonal().abs().max().item()
    f = FIGURES["scale.jacobian_ends"]
    decision = rules.within(value, f.value, 0.0)
    claim.record(stated=f.value, measured=value, tolerance="exact (an identity)", decision=decision.measured,
                 weights=torch.softmax(s, -1).tolist())
    claim.decide(decision.holds, f"the Jacobian's diagonal at weights 1 and 0 is {value:.3g}, not exactly zero")


@pytest.mark.claim("scale.softmax_jacobian_diagonal")
@pytest.mark.figure("scale.selector_gradient")
def test_a_hard_selector_has_almost_no_gradient(claim):
    rows = _jacobian_rows()
    committed, soft = rows["saturated"]["max |J|"], rows["N(0, 1)"]["max |J|"]
    conditions = [["saturated row: top weight above the frozen line", rows["saturated"]["top weight"], ">", FROZEN],
                  ["saturated row's max |J| / an N(0, 1) row's", committed / soft, "<", 0.01]]
    decision = rules.bounds(conditions)
    claim.record(stated=FIGURES["scale.selector_gradient"].value, measured={"saturated": committed, "N(0, 1)": soft},
                 tolerance="under a hundredth of an uncommitted row's largest entry", decision=decision.measured)
    claim.decide(decision.holds, decision.why)
