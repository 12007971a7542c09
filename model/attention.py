"""Causal self-attention: score, mask, normalise, mix.

`Head` is the chapter's thirty-line head, line for line.  `MultiHeadAttention` is the one the
language model uses: h heads of width d/h from one fused q/k/v projection, concatenated and
mixed by W_o.  Its explicit path (`attend`) materialises the scores and weights; the fused
path calls F.scaled_dot_product_attention, which computes the same without keeping them.
`capture(model)` names what the explicit path saw: `seen["blocks.0.attn.weights"]`.
The chapter's steps toward the head, as ablations of it: `RawAttention` (no learned map at all),
`FixedWeights` (the weights as plain parameters, the same for every input) and
`MultiHeadAttention(values=False)` (queries and keys, the tokens themselves as values).
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

import torch
import torch.nn.functional as F
from torch import nn


def score(q: torch.Tensor, k: torch.Tensor, divide: bool = True) -> torch.Tensor:
    """s[t, i] = q_t . k_i, divided by sqrt(d_k) unless `divide` is False.  (..., T, T)"""
    s = q @ k.transpose(-2, -1)
    return s / math.sqrt(q.shape[-1]) if divide else s


def causal_mask(T: int, device=None) -> torch.Tensor:
    """True where position t may see position i (i <= t).  (T, T) bool."""
    return torch.tril(torch.ones(T, T, dtype=torch.bool, device=device))


def mask(s: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
    """Forbidden scores become -inf, the value the masking means, in every dtype."""
    return s.masked_fill(~allowed, float("-inf"))


def normalise(s: torch.Tensor) -> torch.Tensor:
    """Softmax over the keys: -inf entries get weight exactly 0, the rest sum to 1."""
    return F.softmax(s, dim=-1)


def mix(w: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """The weighted sum of values.  (..., T, T) @ (..., T, d_v) -> (..., T, d_v)"""
    return w @ v


class Head(nn.Module):
    """One head of causal self-attention (the chapter's code)."""

    def __init__(self, d_model: int, d_head: int, block: int, divide: bool = True):
        super().__init__()
        self.q = nn.Linear(d_model, d_head, bias=False)
        self.k = nn.Linear(d_model, d_head, bias=False)
        self.v = nn.Linear(d_model, d_head, bias=False)
        self.d_head, self.divide = d_head, divide
        self.register_buffer("mask", torch.tril(torch.ones(block, block)).bool())

    def forward(self, x: torch.Tensor) -> torch.Tensor:            # x: (B, T, d_model)
        T = x.shape[1]
        q, k, v = self.q(x), self.k(x), self.v(x)                   # (B, T, d_head)
        s = score(q, k, self.divide)                                # (B, T, T)
        s = mask(s, self.mask[:T, :T])
        w = normalise(s)
        return mix(w, v)                                            # (B, T, d_head)


class RawAttention(nn.Module):
    """The chapter's first try, before queries, keys and values: score position i for position t
    as x_t . x_i (undivided unless `divide`), mask, normalise, and mix the x_i themselves.  No
    parameters: what W_q, W_k and W_v then fix."""

    def __init__(self, divide: bool = False):
        super().__init__()
        self.divide = divide

    def forward(self, x: torch.Tensor) -> torch.Tensor:            # x: (B, T, d_model)
        s = mask(score(x, x, self.divide), causal_mask(x.shape[1], x.device))
        return mix(normalise(s), x)


class FixedWeights(nn.Module):
    """The weights as plain parameters (the chapter's "They cannot be plain parameters"): each
    head's T x T scores are learned numbers, the same for every sequence, masked and normalised
    as attention's are, mixing learned values (W_v, then W_o where asked).  The scores start at
    zero: the uniform average."""

    def __init__(self, d_model: int, n_heads: int, context: int, *, out_proj: bool = True, out_bias: bool = True):
        super().__init__()
        if not out_proj and n_heads != 1:
            raise ValueError("out_proj=False needs n_heads=1 (the heads must be mixed by W_o)")
        self.n_heads = n_heads
        self.scores = nn.Parameter(torch.zeros(n_heads, context, context))   # (h, T, T)
        self.v = nn.Linear(d_model, d_model, bias=False)
        self.out = nn.Linear(d_model, d_model, bias=out_bias) if out_proj else nn.Identity()

    def forward(self, x: torch.Tensor) -> torch.Tensor:            # x: (B, T, C)
        B, T, C = x.shape
        v = self.v(x).view(B, T, self.n_heads, C // self.n_heads).transpose(1, 2)   # (B, h, T, d_head)
        w = normalise(mask(self.scores[:, :T, :T], causal_mask(T, x.device)))       # (h, T, T): any input
        return self.out(mix(w, v).transpose(1, 2).reshape(B, T, C))


class MultiHeadAttention(nn.Module):
    """h heads of width d/h: the width is partitioned, not added to.

    d_head: a head width other than d/h (the chapter's wide single heads of 256 and 1024 on a
    128-wide model, for the sqrt(d_k) experiment); W_o then maps h * d_head back to d.

    positions: an optional RoPE (rotates q and k) or ALiBi (adds a per-head distance penalty
    to the scores); `divide` switches the 1/sqrt(d_k) off; `out_proj` False drops W_o (only
    meaningful for one head, whose output is then already d wide); `causal` False drops the
    mask (only to show what the mask is for).

    values: False drops W_v: the heads mix the tokens themselves, each head its d_head-wide slice
    of them (the chapter's "One thing is still wrong", before the third map).

    path: "fused" calls F.scaled_dot_product_attention, which never materialises the n x n
    scores; "explicit" is the chapter's score, mask, normalise, mix (`attend`).  Both compute
    the same thing.  Under `capture` the explicit path runs and keeps the scores and weights.
    """

    def __init__(self, d_model: int, n_heads: int, *, divide: bool = True, out_proj: bool = True,
                 qkv_bias: bool = False, out_bias: bool = True, dropout: float = 0.0,
                 positions: nn.Module | None = None, d_head: int | None = None, causal: bool = True,
                 values: bool = True, path: str = "fused"):
        super().__init__()
        if d_head is None:
            assert d_model % n_heads == 0, "heads partition the width: d_model % n_heads == 0"
            d_head = d_model // n_heads
        inner = n_heads * d_head                                     # d_model unless d_head is set
        if not out_proj and inner != d_model:
            raise ValueError("out_proj=False needs n_heads * d_head == d_model (W_o must map back)")
        if not out_proj and n_heads != 1:
            raise ValueError("out_proj=False needs n_heads=1 (the heads must be mixed by W_o)")
        if not values and inner != d_model:
            raise ValueError("values=False needs n_heads * d_head == d_model (the heads split the tokens themselves)")
        self.n_heads, self.d_head, self.inner, self.divide, self.causal = n_heads, d_head, inner, divide, causal
        self.path = _check_path(path)
        self.qkv = nn.Linear(d_model, (3 if values else 2) * inner, bias=qkv_bias)   # W_q, W_k (, W_v) stacked
        self.out = nn.Linear(inner, d_model, bias=out_bias) if out_proj else nn.Identity()
        self.attn_dropout = nn.Dropout(dropout)                      # on the weights, after softmax
        self.positions = positions
        self._seen: dict | None = None      # set by `capture`: where the explicit path records
        self._name = "attn"

    def split_heads(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        B, T, _ = x.shape
        q, k, *v = self.qkv(x).split(self.inner, dim=-1)            # 2 or 3 x (B, T, h * d_head)
        v = v[0] if v else x                                        # no W_v: the tokens themselves
        # (B, T, h * d_head) -> (B, h, T, d_head)
        return tuple(t.view(B, T, self.n_heads, self.d_head).transpose(1, 2) for t in (q, k, v))

    def attend(self, q, k, v, bias=None) -> torch.Tensor:
        """The explicit path, the chapter's four steps; the only place they are written out.
        It holds two n x n tensors at its peak (the scores while the weights are made)."""
        T = q.shape[-2]
        s = score(q, k, self.divide)                                # (B, h, T, T)
        if bias is not None:
            s = s + bias
        if self.causal:
            s = mask(s, causal_mask(T, q.device))
        w = normalise(s)
        if self._seen is not None:
            self._seen[f"{self._name}.scores"], self._seen[f"{self._name}.weights"] = s.detach(), w.detach()
        return mix(self.attn_dropout(w), v)                         # (B, h, T, d_head)

    def fused(self, q, k, v, bias=None) -> torch.Tensor:
        T = q.shape[-2]
        scale = None if self.divide else 1.0
        p = self.attn_dropout.p if self.training else 0.0
        if bias is None:
            return F.scaled_dot_product_attention(q, k, v, dropout_p=p, is_causal=self.causal, scale=scale)
        if self.causal:
            bias = bias.masked_fill(~causal_mask(T, q.device), float("-inf"))
        return F.scaled_dot_product_attention(q, k, v, attn_mask=bias, dropout_p=p, scale=scale)

    def forward(self, x: torch.Tensor, path: str | None = None) -> torch.Tensor:   # x: (B, T, C)
        B, T, _ = x.shape
        q, k, v = self.split_heads(x)                               # (B, h, T, d_head)
        bias = None
        if self.positions is not None:
            q, k = self.positions.rotate(q, k)
            bias = self.positions.score_bias(T, x.device, x.dtype)  # (h, T, T) or None
        explicit = _check_path(path or self.path) == "explicit" or self._seen is not None
        y = (self.attend if explicit else self.fused)(q, k, v, bias)
        y = y.transpose(1, 2).reshape(B, T, self.inner)             # (B, h, T, d) -> (B, T, h * d)
        return self.out(y)


def _check_path(path: str) -> str:
    if path not in ("fused", "explicit"):
        raise ValueError(f"attention path must be 'fused' or 'explicit', not {path!r}")
    return path


@contextmanager
def capture(module: nn.Module) -> Iterator[dict[str, torch.Tensor]]:
    """Keep the scores and weights of every attention layer in `module`, by name, for the
    forwards run inside the block; the layers are put back as they were on exit, whatever happens.

        with capture(model) as seen:
            model(idx)
        seen["blocks.0.attn.weights"]          # (B, h, T, T); a bare layer's: seen["attn.weights"]
    """
    seen: dict[str, torch.Tensor] = {}
    layers = [(name, m) for name, m in module.named_modules() if isinstance(m, MultiHeadAttention)]
    saved = [(m._seen, m._name) for _, m in layers]
    for name, m in layers:
        m._seen, m._name = seen, name or "attn"                    # its module path: blocks.0.attn
    try:
        yield seen
    finally:
        for (_, m), (old_seen, old_name) in zip(layers, saved):
            m._seen, m._name = old_seen, old_name
