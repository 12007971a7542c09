"""Averaging over a prefix is a loop, a triangular matmul, and a masked softmax, exactly."""
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

from claims.chapter_figures import FIGURES
from model import LanguageModel, ModelConfig, MultiHeadAttention, averaging_matrix
from model.attention import causal_mask, mask, normalise
from model.average import prefix_mean_loop

pytestmark = pytest.mark.fast
EPS32 = torch.finfo(torch.float32).eps


def three_ways(x):
    T = x.shape[0]
    loop = prefix_mean_loop(x)
    mat = averaging_matrix(T) @ x
    S = mask(torch.zeros(T, T), causal_mask(T))
    soft = normalise(S) @ x
    return loop, mat, soft


def bound(x):
    # Each way sums at most T fp32 numbers in its own order and divides (or multiplies by a
    # rounded 1/(t+1)): a few ulps of the largest prefix mean of |x| per summed term.
    T = x.shape[0]
    return 2 * T * EPS32 * x.abs().max().item()


@pytest.mark.claim("mask.loop_matmul_softmax")
@settings(max_examples=40, deadline=None)
@given(T=st.integers(1, 96), C=st.integers(1, 32), seed=st.integers(0, 2**31 - 1))
def test_loop_matmul_and_softmax_agree(T, C, seed):
    x = torch.randn(T, C, generator=torch.Generator().manual_seed(seed))
    loop, mat, soft = three_ways(x)
    assert (loop - mat).abs().max().item() <= bound(x)
    assert (loop - soft).abs().max().item() <= bound(x)


@pytest.mark.claim("mask.loop_matmul_softmax")
@pytest.mark.figure("mask.loop_vs_matmul", "mask.loop_vs_softmax")
def test_the_three_ways_differ_by_float_noise_at_the_chapters_scale(claim):
    x = torch.randn(128, 128, generator=torch.Generator().manual_seed(0))
    loop, mat, soft = three_ways(x)
    d_mat, d_soft = (loop - mat).abs().max().item(), (loop - soft).abs().max().item()
    stated = {"loop vs matmul": FIGURES["mask.loop_vs_matmul"].value,
              "loop vs softmax": FIGURES["mask.loop_vs_softmax"].value}
    claim.record(stated=stated, measured={"loop vs matmul": d_mat, "loop vs softmax": d_soft},
                 tolerance=f"<= {bound(x):.2e} (fp32 summation bound)",
                 per_figure={"mask.loop_vs_matmul": d_mat, "mask.loop_vs_softmax": d_soft})
    # the chapter's differences are float noise, and so are ours: all under the same bound
    assert max(d_mat, d_soft, *stated.values()) <= bound(x)


CELLS = [f"mask.a_{r}_{c}" for r in range(1, 7) for c in range(1, 7)]
CHAPTER_6x6 = [[FIGURES[f"mask.a_{r}_{c}"].value for c in range(1, 7)] for r in range(1, 7)]


@pytest.mark.claim("mask.averaging_matrix")
@pytest.mark.figure(*CELLS)
def test_averaging_matrix_is_the_printed_6x6(claim):
    A = averaging_matrix(6)
    claim.record(stated=CHAPTER_6x6, measured=A.round(decimals=3), tolerance="printed to 3 decimals",
                 per_figure={f"mask.a_{r + 1}_{c + 1}": A[r, c].item() for r in range(6) for c in range(6)})
    assert torch.equal(A.round(decimals=3), torch.tensor(CHAPTER_6x6))


@pytest.mark.claim("mask.averaging_matrix")
@settings(max_examples=30, deadline=None)
@given(T=st.integers(1, 300))
def test_rows_sum_to_one_and_upper_triangle_is_exactly_zero(T):
    A = averaging_matrix(T, dtype=torch.float64)
    assert torch.all(torch.triu(A, diagonal=1) == 0)
    torch.testing.assert_close(A.sum(1), torch.ones(T, dtype=torch.float64), rtol=0, atol=T * 1e-15)
    t = torch.arange(T, dtype=torch.float64)
    torch.testing.assert_close(A.diagonal(), 1 / (t + 1), rtol=1e-15, atol=0)


# "whose rows sum to one" and "(rows sum to 1, ...)": the row sums measured, at the printed
# matrix's size and at the chapter's context, asserted at the figures' rounding (a number word's
# and a printed digit's: half a unit); float precision is the tighter test above.
@pytest.mark.claim("mask.averaging_matrix")
@pytest.mark.figure("mask.upper_zero")
def test_averaging_matrix_has_no_weight_above_the_diagonal(claim):
    # "(rows sum to 1, upper triangle is zero)": every entry above the diagonal, at the printed
    # matrix's size and at the chapter's context, exactly (the word's rounding is the wider bound)
    f = FIGURES["mask.upper_zero"]
    upper = torch.cat([torch.triu(averaging_matrix(T), diagonal=1).flatten() for T in (6, 128)])
    largest = upper.abs().max().item()
    claim.record(stated=f.value, measured=largest, tolerance=f"exactly (the word's rounding: {f.rounding})")
    assert largest == f.value


@pytest.mark.claim("mask.averaging_matrix")
@pytest.mark.parametrize("fid", [
    pytest.param("mask.rows_sum_one", id="in the prose", marks=pytest.mark.figure("mask.rows_sum_one")),
    pytest.param("mask.row_sums", id="above the printed matrix", marks=pytest.mark.figure("mask.row_sums"))])
def test_averaging_matrix_row_sums_at_the_printed_rounding(fid, claim):
    f = FIGURES[fid]
    sums = torch.cat([averaging_matrix(T).sum(1) for T in (6, 128)])    # every row of both
    farthest = sums[(sums - f.value).abs().argmax()].item()
    claim.record(stated=f.value, measured=farthest,
                 tolerance=f"the printed rounding, {f.rounding}; and float32 noise, 128 eps32, the stricter",
                 rows=len(sums), max_deviation=abs(farthest - f.value), per_figure={fid: farthest})
    assert abs(farthest - f.value) <= f.rounding
    assert abs(farthest - f.value) <= 128 * EPS32                     # and float32 noise at most


@pytest.mark.claim("mask.any_scores_valid_weights")
@settings(max_examples=60, deadline=None)
@given(T=st.integers(1, 128), scale=st.floats(1e-3, 1e30), constant=st.floats(-1e30, 1e30),
       seed=st.integers(0, 2**31 - 1))
def test_masked_softmax_of_any_finite_scores_is_a_valid_weight_matrix(T, scale, constant, seed):
    allowed = causal_mask(T)
    s = torch.randn(T, T, generator=torch.Generator().manual_seed(seed)) * scale
    for scores in (s, torch.full((T, T), constant)):
        assert torch.isfinite(scores).all()
        w = normalise(mask(scores, allowed))
        assert torch.all(w >= 0) and torch.all(torch.isfinite(w))
        assert torch.all(w.masked_select(~allowed) == 0)                   # exactly zero above
        torch.testing.assert_close(w.sum(-1), torch.ones(T), rtol=0, atol=T * EPS32)
    # equal scores, whatever their value: the uniform average over the prefix
    torch.testing.assert_close(normalise(mask(torch.full((T, T), constant), allowed)), averaging_matrix(T),
                               rtol=0, atol=EPS32)


@pytest.mark.claim("mask.any_scores_valid_weights")
def test_masked_softmax_weights_at_the_chapters_scale(claim):
    # 128 x 128 scores: unit-variance, huge (1e6 sd), and constant (0 and 1e6): every row a
    # probability vector over its prefix; a constant row the averaging matrix to float precision.
    g, allowed = torch.Generator().manual_seed(0), causal_mask(128)
    cases = {"N(0, 1)": torch.randn(128, 128, generator=g), "N(0, 1e6)": 1e6 * torch.randn(128, 128, generator=g),
             "constant 0": torch.zeros(128, 128), "constant 1e6": torch.full((128, 128), 1e6)}
    measured = {}
    for name, scores in cases.items():
        w = normalise(mask(scores, allowed))
        measured[name] = {"min weight": w.min().item(), "max above the diagonal": w.masked_select(~allowed).abs().max().item(),
                          "max |row sum - 1|": (w.sum(-1) - 1).abs().max().item()}
        if name.startswith("constant"):
            measured[name]["max |w - A|"] = (w - averaging_matrix(128)).abs().max().item()
    claim.record(stated="valid weights; equal scores give the uniform average", measured=measured,
                 tolerance=f"rows sum to 1 within 128 eps32 = {128 * EPS32:.2e}; exact zeros above the diagonal; "
                           f"a constant row within eps32 of 1/(t+1)")
    for name, m in measured.items():
        assert m["min weight"] >= 0 and m["max above the diagonal"] == 0 and m["max |row sum - 1|"] <= 128 * EPS32
        assert m.get("max |w - A|", 0) <= EPS32


def _attention_and_future(seed: int, t: int):
    torch.manual_seed(seed)
    att = MultiHeadAttention(128, 4).eval()
    x = torch.randn(1, 128, 128)
    later = x.clone()
    later[:, t + 1:] = torch.randn(1, 127 - t, 128)                   # every token after t changed
    return att, x, later


@pytest.mark.claim("mask.causal_no_future_leak")
@pytest.mark.parametrize("path", ["fused", "explicit"])
def test_outputs_up_to_t_ignore_later_tokens_with_the_mask_and_not_without(path, claim):
    # The project's attention at the chapter's scale (128 wide, 4 heads, 128 tokens), t = 60: the
    # outputs at 0..t with the causal mask, then the same layer with the mask dropped.
    t = 60
    att, x, later = _attention_and_future(0, t)
    with torch.no_grad():
        diff = (att(x, path=path) - att(later, path=path)).abs()         # each input once
        masked, moved_after = diff[:, : t + 1].max().item(), diff[:, t + 1:].max().item()
        att.causal = False
        unmasked = (att(x, path=path)[:, : t + 1] - att(later, path=path)[:, : t + 1]).abs().max().item()
    claim.record(stated="no output at <= t depends on a later token; without the mask, they do",
                 measured={"with the mask, max change at <= t": masked, "without, max change at <= t": unmasked,
                           "with the mask, max change after t": moved_after},
                 tolerance="exact (bit for bit) with the mask; above 1e-3 without", path=path, position=t)
    assert masked == 0.0
    assert unmasked > 1e-3 and moved_after > 1e-3


@pytest.mark.claim("mask.causal_no_future_leak")
def test_the_language_models_logits_up_to_t_ignore_later_tokens(claim):
    # The whole model (ModelConfig's defaults: one block, learned positions): the logits at 0..t
    # are the same bits whatever tokens follow t.
    torch.manual_seed(0)
    m = LanguageModel(ModelConfig()).eval()
    idx = torch.randint(0, 1024, (2, 128))
    t = 60
    other = idx.clone()
    other[:, t + 1:] = torch.randint(0, 1024, (2, 127 - t))
    with torch.no_grad():
        a, b = m(idx), m(other)
    before, after = (a[:, : t + 1] - b[:, : t + 1]).abs().max().item(), (a[:, t + 1:] - b[:, t + 1:]).abs().max().item()
    claim.record(stated="no leak", measured={"max change at <= t": before, "max change after t": after},
                 tolerance="exact (bit for bit)", position=t)
    assert before == 0.0 and after > 0


@pytest.mark.claim("mask.neg_inf_float16")
@pytest.mark.figure("mask.masked_zero")
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64],
                         ids=["half", "bfloat", "single", "double"])
def test_neg_inf_mask_leaves_no_weight_on_masked_entries_in_every_dtype(dtype):
    assert torch.tensor(float("-inf")).to(dtype).item() == float("-inf")
    s = torch.randn(16, 16, generator=torch.Generator().manual_seed(1)).to(dtype) * 4
    w = normalise(mask(s, causal_mask(16)))
    assert torch.all(w.masked_select(~causal_mask(16)) == FIGURES["mask.masked_zero"].value)   # "exactly zero"
    tol = {torch.float16: 1e-3, torch.bfloat16: 1e-2}.get(dtype, 1e-6)  # the dtype's precision
    torch.testing.assert_close(w.float().sum(-1), torch.ones(16), rtol=0, atol=tol)


@pytest.mark.claim("mask.neg_inf_float16")
def test_a_finite_constant_does_not_mean_the_same_in_every_dtype(claim):
    allowed = causal_mask(8)
    # -1e9 is not a float16 number: a cast overflows it to -inf, and masked_fill refuses it.
    as_fp16 = torch.tensor(-1e9).half().item()
    with pytest.raises(RuntimeError):
        torch.zeros(8, 8, dtype=torch.float16).masked_fill(~allowed, -1e9)
    # In float32 it stays finite, so whether it masks depends on the range of the scores:
    # scores of magnitude 1e10 (a runaway head) make "masked" entries win the softmax.
    s = torch.full((8, 8), -1e10).masked_fill(~allowed, -1e9)
    leaked = F.softmax(s, -1).masked_select(~allowed).max().item()
    s_inf = mask(torch.full((8, 8), -1e10), allowed)
    leaked_inf = F.softmax(s_inf, -1).masked_select(~allowed).max().item()
    claim.record(stated="-inf stays -inf; -1e9 dtype-dependent",
                 measured={"-1e9 as fp16": as_fp16, "weight leaked with -1e9": leaked,
                           "weight leaked with -inf": leaked_inf}, tolerance="exact")
    assert as_fp16 == float("-inf") and torch.tensor(-1e9).float().item() == -1e9
    assert leaked > 0.1 and leaked_inf == 0.0
