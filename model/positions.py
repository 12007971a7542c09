"""Four ways to tell attention where things are.

Learned and sinusoidal positions are added to the token embedding (absolute); RoPE rotates q
and k so the score depends only on t - i; ALiBi adds -m_h * (t - i) to head h's scores, with
geometric slopes m_h.  RoPE and ALiBi act inside attention through one interface:
`rotate(q, k)` and `score_bias(T)`.
"""
from __future__ import annotations

import torch
from torch import nn


class LearnedPositions(nn.Module):
    """One learned vector per position.  `n_positions` may exceed the training context: rows
    past it exist but are never trained (the chapter's 'still the random vector it started as')."""

    def __init__(self, n_positions: int, d_model: int):
        super().__init__()
        self.table = nn.Embedding(n_positions, d_model)

    def forward(self, T: int, device=None) -> torch.Tensor:        # -> (T, C)
        if T > self.table.num_embeddings:
            raise ValueError(f"learned position table has {self.table.num_embeddings} rows; asked for {T}")
        return self.table(torch.arange(T, device=device))


class SinusoidalPositions(nn.Module):
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


class RoPE(nn.Module):
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

    def score_bias(self, T: int, device=None, dtype=None) -> None:
        return None


def alibi_slopes(n_heads: int) -> torch.Tensor:
    """m_h = 2^(-8h/H) for h = 1..H: a geometric sequence (Press et al., for H a power of 2)."""
    h = torch.arange(1, n_heads + 1, dtype=torch.float64)
    return torch.pow(2.0, -8.0 * h / n_heads)


class ALiBi(nn.Module):
    """A penalty on the score proportional to distance, with a different slope per head."""

    def __init__(self, n_heads: int):
        super().__init__()
        self.register_buffer("slopes", alibi_slopes(n_heads).float(), persistent=False)

    def rotate(self, q, k):
        return q, k

    def score_bias(self, T: int, device=None, dtype=torch.float32) -> torch.Tensor:
        t = torch.arange(T, device=device)
        distance = (t[:, None] - t[None, :]).clamp(min=0)          # t - i on and below the diagonal
        return (-self.slopes.to(device)[:, None, None] * distance).to(dtype)   # (h, T, T)
