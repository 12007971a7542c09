"""The feed-forward network: expand by four, GELU, come back.  It acts on each position alone."""
from __future__ import annotations

from torch import nn


class MLP(nn.Module):
    def __init__(self, d_model: int, expansion: int = 4):
        super().__init__()
        self.up = nn.Linear(d_model, expansion * d_model)          # (.., C) -> (.., 4C)
        self.act = nn.GELU()
        self.down = nn.Linear(expansion * d_model, d_model)        # (.., 4C) -> (.., C)

    def forward(self, x):
        return self.down(self.act(self.up(x)))
