"""The 90/10 split (held-out = the last 10 %) and random training windows."""
from __future__ import annotations

import numpy as np
import torch

TRAIN_FRACTION = 0.9


def split(ids: np.ndarray, train_fraction: float = TRAIN_FRACTION) -> tuple[np.ndarray, np.ndarray]:
    """First 90 % for training, the last 10 % held out (contiguous, so no window straddles)."""
    n = int(len(ids) * train_fraction)
    return ids[:n], ids[n:]


def get_batch(ids: np.ndarray | torch.Tensor, batch_size: int, context: int,
              generator: torch.Generator, device: str | torch.device = "cpu"
              ) -> tuple[torch.Tensor, torch.Tensor]:
    """`batch_size` windows at uniformly random offsets; y is x shifted by one token."""
    data = ids if isinstance(ids, torch.Tensor) else torch.from_numpy(ids.astype(np.int64))
    starts = torch.randint(len(data) - context, (batch_size,), generator=generator)
    offsets = starts[:, None] + torch.arange(context + 1)          # (B, T+1)
    window = data[offsets]
    return window[:, :-1].to(device), window[:, 1:].to(device)     # x, y: (B, T)
