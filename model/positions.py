"""Four ways to tell attention where things are.

Learned and sinusoidal positions are added to the token embedding (absolute); RoPE rotates q
and k so the score depends only on t - i; ALiBi adds -m_h * (t - i) to head h's scores, with
geometric slopes m_h.  All four share one small interface (`PositionScheme`): `embed(T)` for
what is added to the token embedding, `rotate(q, k)` and `score_bias(T)` for what acts inside
attention; each scheme overrides only what it does.
"""
from __future__ import annotations

import math

import torch
from torch import nn


class PositionScheme(nn.Module):
    """Where a scheme acts; the defaults do nothing there."""

    def embed(self, T: int, device=None) -> torch.Tensor | None:      # -> (T, C), added to tokens
        return None

    def rotate(self, q: torch.Tensor, k: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return q, k

    def score_bias(self, T: int, device=None, dtype=None) -> torch.Tensor | None:  # -> (h, T, T)
        return None


class LearnedPositions(PositionScheme):
    """One learned vector per position.  `n_positions` may exceed the training context: rows
    past it exist but are never trained (the chapter's 'still the random vector it started as')."""

    def __init__(self, n_positions: int, d_model: int):
        super().__init__()
        self.table = nn.Embedding(n_positions, d_model)

    def forward(self, T: int, device=None) -> torch.Tensor:        # -> (T, C)
        if T > self.table.num_embeddings:
            raise ValueError(f"learned position table has {self.table.num_embeddings} rows; asked for {T}")
        return self.table(torch.arange(T, device=device))

    embed = forward


class SinusoidalPositions(PositionScheme):
    """The 2017 paper's: sin/cos at geometrically spaced frequencies, defined at any position."""

    def __init__(self, d_model: int, base: float = 10_000.0):
        super().__init__()
        self.d_model, self.base = d_model, base

    def forward(self, T: int, device=None) -> torch.Tensor:        # -> (T, C)
        pos = torch.arange(T, device=device, dtype=torch.float32)[:, None]
        freq = self.base ** (-torch.arange(0, self.d_model, 2, device=device) / self.d_model)
        pe = torch.zeros(T, self.d_model, device=device)
        pe[:, 0::2] = torch.sin(pos * freq)
        pe[:, 1::2] = torch.cos(pos * freq[: self.d_model // 2])
        return pe

    embed = forward


class RoPE(PositionScheme):
    """Rotate each 2-d slice (x_{2j}, x_{2j+1}) of q and k by angle position * base^(-2j/d)."""

    def __init__(self, d_head: int, base: float = 10_000.0):
        super().__init__()
        assert d_head % 2 == 0, "RoPE rotates pairs of features"
        self.register_buffer("freq", base ** (-torch.arange(0, d_head, 2).float() / d_head),
                             persistent=False)

    def rotate_one(self, x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        angle = positions.to(torch.float32)[:, None] * self.freq    # (T, d/2)
        cos, sin = angle.cos().to(x.dtype), angle.sin().to(x.dtype)
        x1, x2 = x[..., 0::2], x[..., 1::2]                         # (..., T, d/2)
        out = torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)
        return out.flatten(-2)                                      # (..., T, d)

    def rotate(self, q: torch.Tensor, k: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        positions = torch.arange(q.shape[-2], device=q.device)
        return self.rotate_one(q, positions), self.rotate_one(k, positions)


def alibi_slopes(n_heads: int) -> torch.Tensor:
    """The ALiBi paper's slopes (Press et al., 2022).  For H a power of two: m_h = 2^(-8h/H),
    h = 1..H, a geometric sequence.  Otherwise: the slopes of the nearest lower power of two P,
    then every other slope of 2P, until there are H."""
    if n_heads < 1:
        raise ValueError(f"ALiBi needs at least one head, not {n_heads}")
    if math.log2(n_heads).is_integer():
        h = torch.arange(1, n_heads + 1, dtype=torch.float64)
        return torch.pow(2.0, -8.0 * h / n_heads)
    p = 2 ** math.floor(math.log2(n_heads))
    return torch.cat([alibi_slopes(p), alibi_slopes(2 * p)[0::2][: n_heads - p]])


class ALiBi(PositionScheme):
    """A penalty on the score proportional to distance, with a different slope per head."""

    def __init__(self, n_heads: int):
        super().__init__()
        self.register_buffer("slopes", alibi_slopes(n_heads).float(), persistent=False)

    def score_bias(self, T: int, device=None, dtype=torch.float32) -> torch.Tensor:
        t = torch.arange(T, device=device)
        distance = (t[:, None] - t[None, :]).clamp(min=0)          # t - i on and below the diagonal
        return (-self.slopes.to(device)[:, None, None] * distance).to(dtype)   # (h, T, T)
