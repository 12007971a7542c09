"""Parameter arithmetic: the per-block formula and GPT-2 small's accounting.

Per block of width d with a 4x MLP:
  attention  4d^2 + 4d   (W_q, W_k, W_v, W_o, each with a bias, as GPT-2 has them)
  MLP        8d^2 + 5d   (d -> 4d -> d, with biases)
  LayerNorm  4d          (two, each a gain and a bias)
  total     12d^2 + 13d
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn


def attention_params(d: int, biases: int = 4) -> int:
    return 4 * d * d + biases * d


def mlp_params(d: int) -> int:
    return 8 * d * d + 5 * d


def block_params(d: int, attention_biases: int = 4) -> int:
    return attention_params(d, attention_biases) + mlp_params(d) + 4 * d


@dataclass(frozen=True)
class GPT2Small:
    d: int = 768
    n_blocks: int = 12
    vocab: int = 50_257
    context: int = 1024

    def rows(self) -> dict[str, int]:
        """The chapter's table, computed."""
        token, position = self.vocab * self.d, self.context * self.d
        block = block_params(self.d)
        return {"token embeddings": token, "position embeddings": position, "one block": block,
                "12 blocks": self.n_blocks * block, "final LayerNorm": 2 * self.d,
                "total (weights tied)": token + position + self.n_blocks * block + 2 * self.d}


def count(module: nn.Module) -> int:
    """Parameters of a module, each shared tensor once."""
    return sum(p.numel() for p in module.parameters())


def build_on_meta(factory):
    """Build a module without allocating its weights (GPT-2 small would be 500 MB)."""
    with torch.device("meta"):
        return factory()
