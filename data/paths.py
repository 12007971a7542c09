"""Where the project keeps what it derives: one cache root, configurable by environment."""
from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def cache_root() -> Path:
    """`$ATTENTION_CLAIMS_CACHE`, else `.cache/` in the project (it survives between runs)."""
    root = Path(os.environ.get("ATTENTION_CLAIMS_CACHE", PROJECT_ROOT / ".cache"))
    root.mkdir(parents=True, exist_ok=True)
    return root
