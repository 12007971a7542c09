"""The uniform causal average: position t's summary is the mean of x_0..x_t.

It is one multiplication by a lower-triangular matrix whose rows sum to one, and that matrix
is exactly the softmax of an all-zero score matrix under the causal mask.
"""
from __future__ import annotations

import torch
from torch import nn


def averaging_matrix(T: int, dtype=torch.float32, device=None) -> torch.Tensor:
    """A[t, i] = 1/(t+1) for i <= t, else 0.  Shape (T, T)."""
    A = torch.tril(torch.ones(T, T, dtype=dtype, device=device))
    return A / A.sum(1, keepdim=True)


def prefix_mean_loop(x: torch.Tensor) -> torch.Tensor:
    """The obvious version, one prefix at a time.  x: (T, C) -> (T, C)."""
    return torch.stack([x[: t + 1].mean(0) for t in range(x.shape[0])])


class CausalAverage(nn.Module):
    """Replace each position by the mean of its prefix.  No parameters."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:           # x: (B, T, C)
        T = x.shape[-2]
        return averaging_matrix(T, x.dtype, x.device) @ x          # (B, T, C)


# "Embedding table plus this average plus a linear layer to the vocabulary is a complete language
# model in fifteen lines": that model as a listing in the form of the chapter's `class Head`
# (docs/choices.md), the average written out.  It is the ladder's `average` row
# (claims/test_average.py: its logits are that LanguageModel's, with its weights).
class AverageLM(nn.Module):
    """Embedding table, the causal average, a linear layer to the vocabulary."""

    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, d_model)
        self.lm_head = nn.Linear(d_model, vocab_size)

    def forward(self, idx):
        T = idx.shape[1]
        a = torch.tril(torch.ones(T, T, device=idx.device))
        x = (a / a.sum(1, keepdim=True)) @ self.tok_emb(idx)
        return self.lm_head(x)
