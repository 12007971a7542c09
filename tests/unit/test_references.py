"""model/ against released implementations, built locally without downloaded weights: HF
transformers' GPT-2 (the whole language model), BLOOM (ALiBi), GPT-J and LLaMA (RoPE), and
PyTorch's own nn.TransformerEncoderLayer (the pre- and post-norm block).

Each comparison states its tolerance in float32 machine epsilons (EPS) of the compared values'
scale: the two implementations do the same arithmetic in a different order, so they agree to a
few ulps per reduction, never bit for bit.
"""
import math

import pytest
import torch
from torch import nn

from model import LanguageModel, ModelConfig
from model.attention import MultiHeadAttention, causal_mask
from model.block import Block
from model.positions import ALiBi, RoPE, alibi_slopes

EPS = torch.finfo(torch.float32).eps


@pytest.fixture(autouse=True)
def _transformers():
    """HF transformers is the reference: imported when a test here runs, not when the module is
    collected (a run of another tier collects this module too, and would pay for the import)."""
    pytest.importorskip("transformers", reason="HF transformers is the reference (pip install -e '.[test]')")


def close(ours: torch.Tensor, theirs: torch.Tensor, ulps: float) -> None:
    """|ours - theirs| <= ulps x EPS x max|theirs| (the scale of the compared values)."""
    scale = theirs.abs().max().item() or 1.0
    diff = (ours - theirs).abs().max().item()
    assert diff <= ulps * EPS * scale, f"max |diff| {diff:.3g} = {diff / (EPS * scale):.1f} eps x {scale:.3g}"


# ------------------------------------------------------------------ GPT-2: the whole model

GPT2_SHAPE = {"vocab_size": 97, "d_model": 64, "context": 32, "n_blocks": 3, "n_heads": 4}


def gpt2_pair(seed: int = 0):
    """Our language model in GPT-2's layout (tied output, biases on q/k/v, exact GELU, learned
    positions, pre-norm) and HF's GPT2LMHeadModel with the same weights copied in."""
    from transformers import GPT2Config, GPT2LMHeadModel
    torch.manual_seed(seed)
    c = GPT2_SHAPE
    ours = LanguageModel(ModelConfig(**c, qkv_bias=True, tie_weights=True)).eval()
    cfg = GPT2Config(vocab_size=c["vocab_size"], n_positions=c["context"], n_embd=c["d_model"],
                     n_layer=c["n_blocks"], n_head=c["n_heads"], activation_function="gelu",
                     resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, layer_norm_epsilon=1e-5,
                     bos_token_id=0, eos_token_id=0, attn_implementation="eager")
    hf = GPT2LMHeadModel(cfg).eval()
    t = hf.transformer
    with torch.no_grad():
        t.wte.weight.copy_(ours.tok_emb.weight)
        t.wpe.weight.copy_(ours.pos_emb.table.weight)
        for b, h in zip(ours.blocks, t.h):
            # HF's Conv1D keeps weights as (in, out), nn.Linear as (out, in)
            h.ln_1.load_state_dict(b.ln1.state_dict())
            h.attn.c_attn.weight.copy_(b.attn.qkv.weight.T)
            h.attn.c_attn.bias.copy_(b.attn.qkv.bias)
            h.attn.c_proj.weight.copy_(b.attn.out.weight.T)
            h.attn.c_proj.bias.copy_(b.attn.out.bias)
            h.ln_2.load_state_dict(b.ln2.state_dict())
            h.mlp.c_fc.weight.copy_(b.ff.up.weight.T)
            h.mlp.c_fc.bias.copy_(b.ff.up.bias)
            h.mlp.c_proj.weight.copy_(b.ff.down.weight.T)
            h.mlp.c_proj.bias.copy_(b.ff.down.bias)
        t.ln_f.load_state_dict(ours.ln_f.state_dict())
    assert hf.lm_head.weight.data_ptr() == t.wte.weight.data_ptr()        # tied, like ours
    return ours, hf


def test_gpt2_layout_gives_hf_gpt2s_logits_and_loss():
    ours, hf = gpt2_pair()
    idx = torch.randint(GPT2_SHAPE["vocab_size"], (2, GPT2_SHAPE["context"]), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        theirs = hf(idx, labels=idx)
        logits, loss = ours(idx[:, :-1], idx[:, 1:])          # HF shifts the labels inside
        full = ours(idx)
    close(full, theirs.logits, ulps=64)
    close(logits, theirs.logits[:, :-1], ulps=64)
    assert abs(loss.item() - theirs.loss.item()) <= 16 * EPS * theirs.loss.item()


def test_gpt2_layout_gives_hf_gpt2s_gradients():
    ours, hf = gpt2_pair(seed=2)
    idx = torch.randint(GPT2_SHAPE["vocab_size"], (2, GPT2_SHAPE["context"]), generator=torch.Generator().manual_seed(3))
    _, loss = ours(idx[:, :-1], idx[:, 1:])
    loss.backward()
    hf(idx, labels=idx).loss.backward()
    t = hf.transformer
    # (our parameter, HF's, whether HF's is stored transposed); the tied table's gradient includes the output layer's
    pairs = [(ours.tok_emb.weight, t.wte.weight, False), (ours.pos_emb.table.weight, t.wpe.weight, False),
             (ours.ln_f.weight, t.ln_f.weight, False)]
    for b, h in zip(ours.blocks, t.h):
        pairs += [(b.attn.qkv.weight, h.attn.c_attn.weight, True), (b.attn.qkv.bias, h.attn.c_attn.bias, False),
                  (b.attn.out.weight, h.attn.c_proj.weight, True), (b.ff.up.weight, h.mlp.c_fc.weight, True),
                  (b.ff.down.weight, h.mlp.c_proj.weight, True), (b.ln1.weight, h.ln_1.weight, False),
                  (b.ln2.bias, h.ln_2.bias, False)]
    for mine, theirs, transposed in pairs:
        close(mine.grad.T if transposed else mine.grad, theirs.grad, ulps=256)


# ------------------------------------------------------------------ ALiBi: BLOOM's

@pytest.mark.parametrize("heads", range(1, 17))
def test_alibi_slopes_are_blooms(heads):
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor
    T = 9
    bloom = build_alibi_tensor(torch.ones(1, T), heads, torch.float32).view(heads, 1, T)   # slope_h * i
    slopes = bloom[:, 0, 1]                                           # key position 1: the slope itself
    close(alibi_slopes(heads).float(), slopes, ulps=1)


@pytest.mark.parametrize("heads", [1, 3, 8, 12])
def test_alibi_bias_after_softmax_is_blooms(heads):
    """BLOOM adds +m_h * i (key position) and relies on softmax ignoring a per-row constant; ours
    adds -m_h * (t - i).  They differ by m_h * t on each row, so after the causal softmax they are
    the same weights."""
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor
    T = 16
    s = torch.randn(heads, T, T, generator=torch.Generator().manual_seed(heads))
    allowed = causal_mask(T)
    bloom = build_alibi_tensor(torch.ones(1, T), heads, torch.float32).view(heads, 1, T)
    ours = ALiBi(heads).score_bias(T)
    w_ours = torch.softmax((s + ours).masked_fill(~allowed, float("-inf")), -1)
    w_bloom = torch.softmax((s + bloom).masked_fill(~allowed, float("-inf")), -1)
    close(w_ours, w_bloom, ulps=32)


# ------------------------------------------------------------------ RoPE: GPT-J's and LLaMA's

D_HEAD, T_ROPE = 16, 24


def _qk(seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 3, T_ROPE, D_HEAD, generator=g), torch.randn(2, 3, T_ROPE, D_HEAD, generator=g)  # (B, h, T, d)


def test_rope_is_gptjs_rotary_which_pairs_neighbouring_features():
    from transformers.models.gptj.modeling_gptj import apply_rotary_pos_emb, create_sinusoidal_positions
    q, k = _qk()
    sincos = create_sinusoidal_positions(T_ROPE, D_HEAD)[None]        # (1, T, d): sin | cos
    sin, cos = sincos[..., : D_HEAD // 2], sincos[..., D_HEAD // 2:]
    gptj = lambda x: apply_rotary_pos_emb(x.transpose(1, 2), sin, cos).transpose(1, 2)   # GPT-J: (B, T, h, d)
    rq, rk = RoPE(D_HEAD).rotate(q, k)
    close(rq, gptj(q), ulps=8)
    close(rk, gptj(k), ulps=8)


def test_rope_is_llamas_after_the_permutation_between_the_two_pairings():
    """LLaMA pairs feature j with j + d/2 (rotate_half); ours and GPT-J pair 2j with 2j + 1.
    Reordering the features (evens first, then odds) maps one pairing onto the other."""
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb
    q, k = _qk(seed=1)
    cfg = LlamaConfig(hidden_size=3 * D_HEAD, num_attention_heads=3, head_dim=D_HEAD, max_position_embeddings=64,
                      rope_theta=10_000.0)
    pos = torch.arange(T_ROPE)[None]
    cos, sin = LlamaRotaryEmbedding(cfg)(q, pos)
    perm = torch.cat([torch.arange(0, D_HEAD, 2), torch.arange(1, D_HEAD, 2)])
    lq, lk = apply_rotary_pos_emb(q[..., perm], k[..., perm], cos, sin)
    rq, rk = RoPE(D_HEAD).rotate(q, k)
    close(rq[..., perm], lq, ulps=8)
    close(rk[..., perm], lk, ulps=8)


# ------------------------------------------------------------------ the block: nn.TransformerEncoderLayer

@pytest.mark.parametrize("norm", ["pre", "post"])
def test_block_is_torchs_transformer_encoder_layer_under_a_causal_mask(norm):
    d, h, T = 64, 4, 20
    torch.manual_seed(4)
    ours = Block(MultiHeadAttention(d, h, qkv_bias=True), d, norm=norm).eval()
    ref = nn.TransformerEncoderLayer(d, h, dim_feedforward=4 * d, dropout=0.0, activation="gelu",
                                     batch_first=True, norm_first=norm == "pre").eval()
    with torch.no_grad():
        ref.self_attn.in_proj_weight.copy_(ours.attn.qkv.weight)       # W_q, W_k, W_v stacked, as ours
        ref.self_attn.in_proj_bias.copy_(ours.attn.qkv.bias)
        ref.self_attn.out_proj.load_state_dict(ours.attn.out.state_dict())
        ref.linear1.load_state_dict(ours.ff.up.state_dict())
        ref.linear2.load_state_dict(ours.ff.down.state_dict())
        ref.norm1.load_state_dict(ours.ln1.state_dict())
        ref.norm2.load_state_dict(ours.ln2.state_dict())
    x = torch.randn(2, T, d, generator=torch.Generator().manual_seed(5))
    mask = nn.Transformer.generate_square_subsequent_mask(T)          # -inf above the diagonal
    y_ref = ref(x, src_mask=mask, is_causal=True)
    y = ours(x)
    close(y, y_ref, ulps=64)
    assert math.isfinite(y.abs().max().item())
