"""Why queries, keys and values: raw dot products attend to themselves and are symmetric; the
thirty-line head is the same arithmetic as PyTorch's own attention."""
import re

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

from claims.chapter_figures import FIGURES
from claims.chapter_reads import READ
from data import split
from model import Head, LanguageModel, ModelConfig, MultiHeadAttention, causal_mask, mask, normalise, score
from textcheck import rules

pytestmark = pytest.mark.fast
EPS32 = torch.finfo(torch.float32).eps


@pytest.mark.claim("qkv.self_attention_dominates")
def test_raw_dot_product_scores_attend_mostly_to_self(corpus_tokens, claim):
    # Setting (the chapter's thought experiment made concrete): 1,000 windows of 128 real
    # tokens, embedded by a fresh nn.Embedding(1024, 128) (N(0, 1), PyTorch's default), scored
    # x_t . x_i with the causal mask, undivided as the chapter writes it.
    g = torch.Generator().manual_seed(0)
    emb = nn.Embedding(1024, 128)
    with torch.no_grad():
        emb.weight.copy_(torch.randn(1024, 128, generator=g))
        train, _ = split(corpus_tokens)
        starts = torch.randint(len(train) - 128, (1000,), generator=g)
        idx = torch.from_numpy(train.astype(np.int64))[starts[:, None] + torch.arange(128)]
        x = emb(idx)                                                   # (N, T, C)
        w = normalise(mask(score(x, x, divide=False), causal_mask(128)))
    self_w = w.diagonal(dim1=-2, dim2=-1)[:, 1:]                       # skip t=0 (only itself)
    mean_self = self_w.mean().item()
    share_argmax = (w.argmax(-1) == torch.arange(128))[:, 1:].float().mean().item()
    # Statistical tolerance: "mostly" = more than half of the weight; the standard error of a
    # mean over 127,000 rows (1,000 independent windows) is < 0.01, so a 5-SE margin is 0.05.
    se = self_w.mean(1).std().item() / 1000 ** 0.5
    claim.record(stated="mostly self (> 0.5)", measured={"mean self weight": mean_self,
                 "rows whose argmax is self": share_argmax}, tolerance=f"> 0.5 + 5 SE ({5 * se:.4f})")
    assert mean_self > 0.5 + 5 * se


@pytest.mark.claim("qkv.raw_scores_symmetric")
@settings(max_examples=40, deadline=None)
@given(T=st.integers(2, 64), C=st.integers(2, 64), seed=st.integers(0, 2**31 - 1))
def test_raw_scores_are_symmetric_and_qk_scores_are_not(T, C, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(T, C, generator=g, dtype=torch.float64)
    s = score(x, x, divide=False)
    assert torch.equal(s, s.T) or (s - s.T).abs().max() <= 2 * C * 1e-16 * s.abs().max()
    W_q, W_k = torch.randn(C, C, generator=g, dtype=torch.float64), torch.randn(C, C, generator=g, dtype=torch.float64)
    s_qk = score(x @ W_q.T, x @ W_k.T, divide=False)
    # Asymmetric for almost every draw: far above the float64 noise that bounds a symmetric one.
    assert (s_qk - s_qk.T).abs().max() > 1e-9 * s_qk.abs().max()


def _copy_to_torch(ours: MultiHeadAttention, ref: nn.MultiheadAttention):
    with torch.no_grad():
        ref.in_proj_weight.copy_(ours.qkv.weight)                   # rows: W_q; W_k; W_v
        ref.in_proj_bias.zero_()
        ref.out_proj.weight.copy_(ours.out.weight)
        ref.out_proj.bias.copy_(ours.out.bias)


def _tolerance(out: torch.Tensor, reduction: int) -> float:
    # Worst-case fp32 error of a length-`reduction` dot product, relative to the output scale.
    return reduction * EPS32 * out.abs().max().item()


# "The thirty lines above, with their weights copied from PyTorch's own: max |diff| =
# 1.7881393432617188e-07 [against both] ... on outputs whose mean magnitude is 0.159".  The
# chapter's `Head` (model/attention.py), one head as the ladder's one-head row (128 wide, head
# width 128, context 128), fed N(0, 1) inputs (left open by the chapter), its W_q, W_k, W_v
# copied from nn.MultiheadAttention(128, 1) (whose W_o is set to the identity: the chapter's head
# has none), and its q, k, v given to F.scaled_dot_product_attention.
DIFF_FIGURE = {"nn.MultiheadAttention": "qkv.diff_mha", "F.scaled_dot_product_attention": "qkv.diff_sdpa"}
CHAPTER_MAGNITUDE = READ["qkv.out_magnitude"].value


def _chapter_head_against_torch():
    torch.manual_seed(0)
    C = T = 128
    mha = nn.MultiheadAttention(C, 1, batch_first=True, bias=False).eval()
    head = Head(C, C, block=T).eval()
    x = torch.randn(1, T, C)
    with torch.no_grad():
        w_q, w_k, w_v = mha.in_proj_weight.chunk(3)
        head.q.weight.copy_(w_q); head.k.weight.copy_(w_k); head.v.weight.copy_(w_v)
        mha.out_proj.weight.copy_(torch.eye(C))
        y = head(x)
        y_mha, _ = mha(x, x, x, attn_mask=~causal_mask(T), need_weights=False)
        y_sdpa = F.scaled_dot_product_attention(head.q(x), head.k(x), head.v(x), is_causal=True)
    return y, {"nn.MultiheadAttention": (y - y_mha).abs().max().item(),
               "F.scaled_dot_product_attention": (y - y_sdpa).abs().max().item()}


@pytest.mark.claim("qkv.head_matches_torch")
@pytest.mark.parametrize("reference", [pytest.param(r, marks=pytest.mark.figure(f)) for r, f in DIFF_FIGURE.items()])
def test_the_chapters_head_matches_torch_at_the_chapters_precision(reference, claim):
    y, diffs = _chapter_head_against_torch()
    magnitude = y.abs().mean().item()
    # An exact figure, at dtype precision.  A round-off difference is a count of float32 ulps
    # that depends on the inputs, which the chapter does not give, so its 1.8e-7 is compared
    # relative to the output magnitude (the chapter's own framing: 1.8e-7 on outputs of mean
    # magnitude 0.159), in units of eps32, to its order of magnitude: the chapter's is
    # 1.8e-7 / 0.159 = 9.5 eps32, "at float32 precision"; ours must round to the same power of ten.
    CHAPTER_DIFF = FIGURES[DIFF_FIGURE[reference]].value
    theirs = CHAPTER_DIFF / CHAPTER_MAGNITUDE / EPS32
    ours = diffs[reference] / magnitude / EPS32
    claim.record(stated={"max |diff|": CHAPTER_DIFF, "mean |out|": CHAPTER_MAGNITUDE, "relative, in eps32": theirs},
                 measured={"max |diff|": diffs[reference], "mean |out|": magnitude, "relative, in eps32": ours},
                 tolerance="the same power of ten of eps32 (round(log10)); the output magnitude is recorded "
                           "(it depends on the inputs the chapter leaves open)", label=f"vs {reference}")
    same_order = ours > 0 and round(np.log10(ours)) == round(np.log10(theirs))
    claim.decide(same_order and diffs[reference] <= _tolerance(y, 128),
                 f"max |diff| against {reference} is {diffs[reference]:.3g} on outputs of mean magnitude "
                 f"{magnitude:.3f}: {ours:.1f} eps32 relative, against the chapter's {theirs:.1f}")


@pytest.mark.claim("qkv.head_matches_torch")
def test_multihead_module_matches_multihead_attention(claim):
    # The project's own module (four heads, W_o), the same check against PyTorch's
    torch.manual_seed(0)
    B, T, C, h = 2, 128, 128, 4
    x = torch.randn(B, T, C)
    ours = MultiHeadAttention(C, h).eval()
    ref = nn.MultiheadAttention(C, h, batch_first=True).eval()
    _copy_to_torch(ours, ref)
    with torch.no_grad():
        y = ours(x, path="explicit")
        y_ref, _ = ref(x, x, x, attn_mask=~causal_mask(T), need_weights=False)
    d_mha = (y - y_ref).abs().max().item()
    tol = _tolerance(y_ref, C)
    claim.record(stated="the same arithmetic at float32 precision", measured={"vs nn.MultiheadAttention": d_mha},
                 tolerance=f"<= d_model * eps32 * max|out| = {tol:.2e}", label="the 4-head module vs nn.MultiheadAttention")
    assert d_mha <= tol


@pytest.mark.claim("qkv.head_matches_torch")
def test_sdpa_path_matches_explicit_path(claim):
    torch.manual_seed(1)
    x = torch.randn(3, 50, 64)
    att = MultiHeadAttention(64, 4).eval()
    with torch.no_grad():
        fast = att(x, path="fused")
        explicit = att(x, path="explicit")
    diff, tol = (fast - explicit).abs().max().item(), _tolerance(explicit, 64)
    claim.record(stated="the same arithmetic at float32 precision", measured={"fused vs explicit": diff},
                 tolerance=f"<= d_model * eps32 * max|out| = {tol:.2e}", label="the module's SDPA path vs its explicit path")
    assert diff <= tol


def _first_layer_queries(m: LanguageModel, idx: torch.Tensor) -> torch.Tensor:
    """Block 1's queries, (B, h, T, d_head): its LayerNorm and W_q on token + position."""
    T = idx.shape[1]
    x = m.tok_emb(idx) + m.pos_emb.embed(T)
    q, _, _ = m.blocks[0].attn.split_heads(m.blocks[0].ln1(x))
    return q


@pytest.mark.claim("qkv.first_layer_query_own_token")
@pytest.mark.parametrize("seed", range(4))
def test_a_first_layer_query_sees_only_its_own_token_and_index(seed, claim):
    torch.manual_seed(seed)
    m = LanguageModel(ModelConfig(n_blocks=2, context=32)).eval()
    idx = torch.randint(0, 1024, (3, 32))
    t = int(torch.randint(0, 32, ()).item())
    other = idx.clone()
    mask = torch.arange(32) != t
    other[:, mask] = torch.randint(0, 1024, (3, int(mask.sum())))     # every other token replaced
    with torch.no_grad():
        q, q_other = _first_layer_queries(m, idx), _first_layer_queries(m, other)
    moved_here = (q[:, :, t] - q_other[:, :, t]).abs().max().item()
    moved_elsewhere = (q[:, :, mask] - q_other[:, :, mask]).abs().max().item()
    # exact: the same arithmetic on the same inputs gives the same bits; the other positions'
    # queries do move (their tokens changed), so the test can fail.
    claim.record(stated="a function of its own token and index only", measured={
        "max change of the query at t": moved_here, "max change elsewhere": moved_elsewhere},
        tolerance="exact (bit for bit)", position=t)
    assert moved_here == 0.0 and moved_elsewhere > 0


# ------------------------------------------------------------------ the printed listing, counted

def head_listing(text: str) -> list[str]:
    """The chapter's printed `class Head`, from its first line through `return w @ v`."""
    start = text.index("class Head(nn.Module):")
    end = text.index("return w @ v", start) + len("return w @ v")
    return text[start:end].split("\n")


# A line "about shapes": one that names a size (d_model, d_head, block, T), reads or changes a
# shape (.shape, transpose, the [:T, :T] slice of the mask) or picks an axis (dim=).  As generous a
# reading as the listing allows: a line of pure arithmetic on tensors (q @ k, w @ v) or a layer's
# call (self.q(x)) is not about shapes, whichever way one counts.
SHAPE_WORDS = re.compile(r"\b(?:d_model|d_head|block|T)\b|\.shape\b|\btranspose\b|\[:T, :T\]|\bdim=")


def _listing_counts(text: str) -> dict:
    lines = head_listing(text)
    nonblank = [line for line in lines if line.strip()]
    return {"lines": len(lines), "non-blank": len(nonblank), "blank": len(lines) - len(nonblank),
            "about shapes": sum(bool(SHAPE_WORDS.search(line)) for line in nonblank),
            "shape lines": [line.strip() for line in nonblank if SHAPE_WORDS.search(line)]}


@pytest.mark.claim("qkv.head_thirty_lines")
@pytest.mark.figure("qkv.listing_lines")
def test_head_listing_line_count(chapter_text, claim):
    n = _listing_counts(chapter_text)
    f = FIGURES["qkv.listing_lines"]
    decision = rules.within(n["lines"], f.value, f.rounding)          # a count, at the number word's rounding
    claim.record(stated=f.value, measured=n["lines"], tolerance=f"the printed rounding, {f.rounding}",
                 decision=decision.measured, non_blank=n["non-blank"], blank=n["blank"])
    # every line of the listing counted (blank ones too: the most a reader could count)
    claim.decide(decision.holds,
                 f"the printed listing is {n['lines']} lines ({n['non-blank']} non-blank, {n['blank']} blank), "
                 f"not {f.printed} ({f.value} +- {f.rounding})")


@pytest.mark.claim("qkv.head_thirty_lines")
@pytest.mark.figure("qkv.listing_shape_lines")
def test_head_listing_lines_about_shapes(chapter_text, claim):
    n = _listing_counts(chapter_text)
    f = FIGURES["qkv.listing_shape_lines"]
    decision = rules.within(n["about shapes"], f.value, f.rounding)
    claim.record(stated=f.value, measured=n["about shapes"], tolerance=f"the printed rounding, {f.rounding}",
                 decision=decision.measured, lines=n["lines"], non_blank=n["non-blank"], shape_lines=n["shape lines"],
                 definition="names d_model, d_head, block or T, reads .shape, transposes, slices [:T, :T] or picks dim=")
    assert n["about shapes"] <= n["non-blank"]
    claim.decide(decision.holds,
                 f"{n['about shapes']} of the listing's {n['non-blank']} non-blank lines ({n['lines']} in all) name a size, "
                 f"a shape or an axis, not {f.printed} ({f.value} +- {f.rounding}); no reading can count more than "
                 f"{n['non-blank']}")
