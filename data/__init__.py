"""The chapter's data: the Tiny Shakespeare corpus, its byte-level BPE, the split and batches.

The names are imported on first use (PEP 562), so that `data.paths` can be used by code that
must not import torch (the reporter).
"""
from importlib import import_module

_WHERE = {"get_batch": "data.batches", "split": "data.batches", "load_tokens": "data.bpe",
          "train_bpe": "data.bpe", "CORPUS_CHARS": "data.corpus", "CORPUS_SHA256": "data.corpus",
          "CorpusError": "data.corpus", "load_corpus": "data.corpus"}

__all__ = ["CORPUS_CHARS", "CORPUS_SHA256", "CorpusError", "get_batch", "load_corpus", "load_tokens",
           "split", "train_bpe"]


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'data' has no attribute {name!r}")
