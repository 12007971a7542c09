"""The language model, assembled from a config that can express every row of the ladder.

tokens -> embedding (+ absolute positions) -> dropout -> blocks -> final LayerNorm -> logits

Choices the chapter leaves open: PyTorch's default initialisation (nn.Embedding N(0, 1),
nn.Linear uniform +-1/sqrt(fan_in)), as the chapter's code would get by writing nn.Linear; an
untied output layer with a bias (the chapter's "linear layer to the vocabulary"), or tied and
bias-free like GPT-2 when `tie_weights`.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace

import torch
import torch.nn.functional as F
from torch import nn

from model.attention import FixedWeights, MultiHeadAttention, RawAttention, capture
from model.average import CausalAverage
from model.block import Block
from model.positions import ALiBi, LearnedPositions, RoPE, SinusoidalPositions

# "unmasked": attention without the causal mask, every position seeing the whole window -- only
# to show what the mask is for (the leak: the next token is in the input; fixtures/recipes.py LEAK)
# "raw": the chapter's first try, scores x_t . x_i and the tokens themselves mixed, no learned map
# (fixtures/recipes.py QKV: what learned queries, keys and values buy)
# "qk": attention without W_v, the tokens themselves mixed by learned queries and keys ("So learn
# a third map"); "fixed": the weights as plain parameters, a learned T x T matrix per head
# ("They cannot be plain parameters")
MIXERS = ("none", "average", "attention", "unmasked", "raw", "qk", "fixed")
POSITIONS = ("none", "learned", "sinusoidal", "rope", "alibi")


@dataclass(frozen=True)
class ModelConfig:
    vocab_size: int = 1024
    d_model: int = 128
    context: int = 128              # the training window
    n_blocks: int = 1               # 0: no context at all (the baseline)
    mixer: str = "attention"        # what moves information between positions
    n_heads: int = 4
    d_head: int | None = None       # head width (default d_model // n_heads)
    out_proj: bool = True           # W_o; False only for a single head that replaces
    divide: bool = True             # divide the scores by sqrt(d_k)
    residual: bool = True
    mlp: bool = True
    norm: str = "pre"               # "none", "pre" or "post"
    positions: str = "learned"
    n_positions: int | None = None  # rows of the learned table (default: context)
    qkv_bias: bool = False
    dropout: float = 0.0
    tie_weights: bool = False

    def __post_init__(self):
        if self.mixer not in MIXERS:
            raise ValueError(f"mixer must be one of {MIXERS}, not {self.mixer!r}")
        if self.positions not in POSITIONS:
            raise ValueError(f"positions must be one of {POSITIONS}, not {self.positions!r}")
        if self.norm not in ("none", "pre", "post"):
            raise ValueError(f"norm must be 'none', 'pre' or 'post', not {self.norm!r}")
        if self.positions in ("rope", "alibi") and self.mixer not in ("attention", "unmasked", "qk"):
            raise ValueError(f"{self.positions} acts on attention scores; mixer is {self.mixer!r}")

    def replace(self, **changes) -> ModelConfig:
        return replace(self, **changes)

    def to_dict(self) -> dict:
        return asdict(self)


class LanguageModel(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        c = self.config = config
        self.tok_emb = nn.Embedding(c.vocab_size, c.d_model)
        self.pos_emb = None
        if c.positions == "learned":
            self.pos_emb = LearnedPositions(c.n_positions or c.context, c.d_model)
        elif c.positions == "sinusoidal":
            self.pos_emb = SinusoidalPositions(c.d_model)
        self.emb_dropout = nn.Dropout(c.dropout)                      # on the embedding sum
        self.blocks = nn.ModuleList(Block(self._mixer(), c.d_model, mlp=c.mlp, norm=c.norm,
                                          residual=c.residual, dropout=c.dropout)
                                    for _ in range(c.n_blocks if c.mixer != "none" else 0))
        self.ln_f = nn.LayerNorm(c.d_model) if c.norm != "none" and self.blocks else nn.Identity()
        self.lm_head = nn.Linear(c.d_model, c.vocab_size, bias=not c.tie_weights)
        if c.tie_weights:
            self.lm_head.weight = self.tok_emb.weight

    def _mixer(self) -> nn.Module:
        c = self.config
        if c.mixer == "average":
            return CausalAverage()
        if c.mixer == "raw":
            return RawAttention(divide=c.divide)
        if c.mixer == "fixed":
            return FixedWeights(c.d_model, c.n_heads, c.n_positions or c.context, out_proj=c.out_proj)
        pos = {"rope": lambda: RoPE(c.d_head or c.d_model // c.n_heads), "alibi": lambda: ALiBi(c.n_heads)}
        return MultiHeadAttention(c.d_model, c.n_heads, divide=c.divide, out_proj=c.out_proj,
                                  qkv_bias=c.qkv_bias, dropout=c.dropout, d_head=c.d_head,
                                  causal=c.mixer != "unmasked", values=c.mixer != "qk", positions=pos[c.positions]() if c.positions in pos else None)

    @property
    def attention(self) -> list[MultiHeadAttention]:
        """The attention layers, first block first."""
        return [b.attn for b in self.blocks if isinstance(b.attn, MultiHeadAttention)]

    def capture(self):
        """A context manager: the scores and weights of each block's attention, by name.

            with model.capture() as seen:
                model(idx)
            seen["blocks.0.attn.weights"]              # (B, h, T, T)
        """
        return capture(self)

    def forward(self, idx: torch.Tensor, targets: torch.Tensor | None = None):
        B, T = idx.shape
        x = self.tok_emb(idx)                                       # (B, T, C)
        if self.pos_emb is not None:
            x = x + self.pos_emb.embed(T, idx.device)               # (T, C) broadcast over B
        x = self.emb_dropout(x)
        for block in self.blocks:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))                         # (B, T, V)
        if targets is None:
            return logits
        loss = F.cross_entropy(logits.view(B * T, -1), targets.reshape(B * T))
        return logits, loss

    def n_params(self) -> int:
        return sum(p.numel() for p in self.parameters())            # a tied table counts once
