"""Dividing by sqrt(d_k): the variance argument, and what an undivided softmax does at init.

Setting for all of these (the chapter's variance argument): q and k entries independent
N(0, 1); a "fresh head" row is one query scored against 64 keys.
"""
import math

import pytest
import torch

from claims.chapter_figures import FIGURES, VARIANCE_D

pytestmark = pytest.mark.fast

# The chapter's table, a row per d: its Var(q.k) and std over 20,000 pairs (claims/chapter_figures.py).
PAIRS = 20_000


def rows(column: str) -> list:
    return [pytest.param(d, FIGURES[f"scale.var_{d}"].value, FIGURES[f"scale.std_{d}"].value, id=f"d={d}",
                         marks=pytest.mark.figure(f"scale.{column}_{d}")) for d in VARIANCE_D]


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
def test_score_variance_is_d(d, stated_var, stated_std, claim_record):
    var = dot_products(d, PAIRS, seed=d).var().item()
    se = var_se(d, PAIRS)
    # 4 SE (two-sided p ~ 6e-5) for our estimate against d; the chapter's figure is itself an
    # estimate from 20,000 pairs, so it must lie within 4 SE of d too.
    claim_record(stated=stated_var, measured=var, tolerance=f"4 SE = {4 * se:.3f}", d=d, theory=d)
    assert abs(var - d) <= 4 * se
    assert abs(stated_var - d) <= 4 * se


@pytest.mark.claim("scale.std_is_sqrt_d")
@pytest.mark.parametrize("d,stated_var,stated_std", rows("std"))
def test_score_std_is_sqrt_d(d, stated_var, stated_std, claim_record):
    std = dot_products(d, PAIRS, seed=d).std().item()
    se = var_se(d, PAIRS) / (2 * math.sqrt(d))          # delta method: SE(std) = SE(var) / 2 sd
    claim_record(stated=stated_std, measured=std, tolerance=f"4 SE = {4 * se:.4f}", d=d, theory=math.sqrt(d))
    assert abs(std - math.sqrt(d)) <= 4 * se
    assert abs(stated_std - math.sqrt(d)) <= 4 * se


def fresh_rows(d: int, rows: int, divide: bool, seed: int = 0, positions: int = 64) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(rows, 1, d, generator=g)
    k = torch.randn(rows, positions, d, generator=g)
    s = (q * k).sum(-1)                                             # (rows, 64)
    return torch.softmax(s / math.sqrt(d) if divide else s, dim=-1)


def effective_tokens(w: torch.Tensor) -> torch.Tensor:
    """exp(entropy): how many positions a row really averages over."""
    return torch.exp(-(w * torch.log(w.clamp_min(1e-45))).sum(-1))


@pytest.mark.claim("scale.effective_tokens")
@pytest.mark.figure("scale.effective_one")
def test_undivided_head_effective_token_count(claim_record):
    undivided = effective_tokens(fresh_rows(256, 2000, divide=False)).mean().item()
    divided = effective_tokens(fresh_rows(256, 2000, divide=True)).mean().item()
    # "about one" read at the chapter's precision: the mean rounds to 1, i.e. < 1.5.  The SE of
    # the mean over 2,000 rows is ~0.01, well inside that band.
    f = FIGURES["scale.effective_one"]
    claim_record(stated=f.value, measured=undivided, tolerance=f"rounds to {f.value} (within {f.rounding})",
                 divided=divided, figure="undivided, d_k = 256: effective tokens of 64")
    assert abs(undivided - f.value) < f.rounding
    assert divided > 10 * undivided                                 # division is what restores it


def frozen(w: torch.Tensor) -> torch.Tensor:
    """A row is frozen when the softmax has committed to one entry: more than 0.99 of its
    weight on a single token (the chapter's own threshold in the runaway measurement), where
    the Jacobian diagonal w_i(1 - w_i) is below 0.01 everywhere."""
    return w.max(-1).values > 0.99


@pytest.mark.claim("scale.frozen_rows")
@pytest.mark.figure("scale.frozen_seven")
def test_undivided_widest_head_share_of_frozen_rows(claim_record):
    share = frozen(fresh_rows(1024, 2000, divide=False)).float().mean().item()
    f = FIGURES["scale.frozen_seven"]                               # "seven rows in ten"
    stated, half = f.value / 10, f.rounding / 10
    se = math.sqrt(stated * (1 - stated) / 2000)
    # "seven in ten" covers [0.65, 0.75); widened by 3 binomial SE of a 2,000-row sample.
    claim_record(stated=stated, measured=share,
                 tolerance=f"[{stated - half:.2f}, {stated + half:.2f}) +- 3 SE ({3 * se:.3f})")
    assert stated - half - 3 * se <= share < stated + half + 3 * se


@pytest.mark.claim("scale.divided_flat")
@pytest.mark.figure("scale.divided_flat_sum")
@pytest.mark.parametrize("d", VARIANCE_D)
def test_divided_softmax_slope_is_flat(d, claim_record):
    w = fresh_rows(d, 2000, divide=True, seed=d)
    q = (w * (1 - w)).sum(-1)
    mean, se = q.mean().item(), q.std().item() / math.sqrt(2000)
    u = fresh_rows(d, 2000, divide=False, seed=d)
    undivided = (u * (1 - u)).sum(-1).mean().item()
    # The chapter prints two decimals: [0.955, 0.965), widened by 3 SE of the 2,000-row mean.
    f = FIGURES["scale.divided_flat_sum"]
    low, high = f.value - f.rounding, f.value + f.rounding
    claim_record(stated=f.value, measured=mean, tolerance=f"[{low:.3f}, {high:.3f}) +- 3 SE ({3 * se:.4f})",
                 d=d, undivided=undivided)
    assert low - 3 * se <= mean < high + 3 * se


@pytest.mark.claim("scale.divided_never_saturates")
@pytest.mark.parametrize("d", VARIANCE_D)
def test_divided_no_row_puts_more_than_0_99_on_one_token(d, claim_record):
    rows = 2000
    w = fresh_rows(d, rows, divide=True, seed=d)
    share, top = frozen(w).float().mean().item(), w.max().item()
    undivided = frozen(fresh_rows(d, rows, divide=False, seed=d)).float().mean().item()
    # "Nothing saturates" over a 2,000-row sample: no frozen row at all.  With none seen, a
    # share above 3/2000 (the 95 % bound for zero events, the rule of three) is excluded.
    claim_record(stated=0, measured={"frozen share": share, "largest weight": top, "undivided share": undivided},
                 tolerance=f"0 of {rows} rows above 0.99 (share < {3 / rows:.4f} at 95 %)", d=d)
    assert share == 0
