"""The chapter's data: the Tiny Shakespeare corpus, its byte-level BPE, the split and batches."""
from data.corpus import CorpusError, load_corpus, CORPUS_SHA256, CORPUS_CHARS
from data.bpe import train_bpe, load_tokens
from data.batches import split, get_batch

__all__ = ["CorpusError", "load_corpus", "CORPUS_SHA256", "CORPUS_CHARS",
           "train_bpe", "load_tokens", "split", "get_batch"]
