"""The transformer block: a mixer across positions and an MLP within them, each a sub-layer.

pre-norm   x = x + drop(mix(ln1(x)));   x = x + drop(ff(ln2(x)))      (the chapter's code)
post-norm  x = ln1(x + drop(mix(x)));   x = ln2(x + drop(ff(x)))      (the 2017 paper)
Without `residual` a sub-layer replaces its input (the ladder's 'replacing' rows).
"""
from __future__ import annotations

from torch import nn

from model.mlp import MLP


class Block(nn.Module):
    def __init__(self, mixer: nn.Module, d_model: int, *, mlp: bool = True, norm: str = "pre",
                 residual: bool = True, dropout: float = 0.0):
        super().__init__()
        if norm not in ("none", "pre", "post"):
            raise ValueError(f"norm must be 'none', 'pre' or 'post', not {norm!r}")
        self.norm, self.residual = norm, residual
        self.attn = mixer           # attention, or the ladder's uniform average in its place
        self.ff = MLP(d_model) if mlp else None
        self.ln1 = nn.LayerNorm(d_model) if norm != "none" else nn.Identity()
        self.ln2 = nn.LayerNorm(d_model) if (norm != "none" and mlp) else nn.Identity()
        self.resid_dropout = nn.Dropout(dropout)        # each sub-layer's output, before the add
        self._register_load_state_dict_pre_hook(_renamed_mixer)

    def sublayer(self, x, f, ln):
        if self.norm == "post":
            y = self.resid_dropout(f(x))
            return ln(x + y) if self.residual else ln(y)
        y = self.resid_dropout(f(ln(x)))
        return x + y if self.residual else y

    def forward(self, x):                               # x: (B, T, C) -> (B, T, C)
        x = self.sublayer(x, self.attn, self.ln1)
        if self.ff is not None:
            x = self.sublayer(x, self.ff, self.ln2)
        return x


def _renamed_mixer(state_dict, prefix, *args):
    """Weights saved before the sub-layer was named `attn` (as `mixer`) load as they are."""
    for key in [k for k in state_dict if k.startswith(prefix + "mixer.")]:
        state_dict[prefix + "attn." + key[len(prefix) + len("mixer."):]] = state_dict.pop(key)
