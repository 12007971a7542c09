"""The chapter's data: the Tiny Shakespeare corpus, its byte-level BPE, the split and batches."""
from data.batches import get_batch, split
from data.bpe import load_tokens, train_bpe
from data.corpus import CORPUS_CHARS, CORPUS_SHA256, CorpusError, load_corpus

__all__ = [
           "CORPUS_CHARS",
           "CORPUS_SHA256",
           "CorpusError",
           "get_batch",
           "load_corpus",
           "load_tokens",
           "split",
           "train_bpe",
]
