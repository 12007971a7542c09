"""Byte-level BPE with a vocabulary of 1024, trained with HF `tokenizers` on the corpus.

Choices the chapter leaves open (its tokenizer is Chapter 7's own):
- trained on the whole corpus (the chapter's token count is of the whole corpus), before the
  split, with the 256 byte symbols as the initial alphabet and no special tokens, so
  vocabulary 1024 = 256 bytes + 768 merges;
- GPT-2's byte-level pre-tokeniser without a prefix space.
The trained tokenizer and the token ids are cached, keyed by the corpus hash and these settings.
"""
from __future__ import annotations

import hashlib
import json
import sys

import numpy as np
import tokenizers
from filelock import FileLock
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

from data.corpus import CORPUS_SHA256, load_corpus
from data.paths import cache_root
from safeio.files import atomic_file

VOCAB_SIZE = 1024


def _settings(vocab_size: int) -> dict:
    return {"corpus_sha256": CORPUS_SHA256, "vocab_size": vocab_size, "model": "bpe",
            "pre_tokenizer": "bytelevel", "add_prefix_space": False,
            "tokenizers": tokenizers.__version__}


def _key(vocab_size: int) -> str:
    blob = json.dumps(_settings(vocab_size), sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def _train(text: str, vocab_size: int) -> Tokenizer:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=[], show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator([text], trainer=trainer)
    return tok


def train_bpe(vocab_size: int = VOCAB_SIZE) -> Tokenizer:
    """The corpus's BPE tokenizer: loaded from the cache, or trained (seconds) and cached."""
    return _cached(vocab_size)[0]


def load_tokens(vocab_size: int = VOCAB_SIZE) -> np.ndarray:
    """The whole corpus as token ids (uint16), from the cache when present."""
    return _cached(vocab_size)[1]


def _cached(vocab_size: int) -> tuple[Tokenizer, np.ndarray]:
    d = cache_root() / "bpe"
    d.mkdir(parents=True, exist_ok=True)
    key = _key(vocab_size)
    tok_path, ids_path = d / f"{key}.json", d / f"{key}.npy"
    with FileLock(str(d / f"{key}.lock")):
        if tok_path.is_file() and ids_path.is_file():
            try:
                return Tokenizer.from_file(str(tok_path)), np.load(ids_path)
            except Exception as e:  # noqa: BLE001 -- tokenizers raises a bare Exception on a bad file
                # a corrupt entry is rebuilt, never used
                print(f"[bpe] cached tokenizer {tok_path.name} unreadable ({type(e).__name__}); rebuilding",
                      file=sys.stderr, flush=True)
        text = load_corpus()
        tok = _train(text, vocab_size)
        ids = np.asarray(tok.encode(text).ids, dtype=np.uint16)
        for path, write in ((tok_path, lambda p: tok.save(str(p))),
                            (ids_path, lambda p: np.save(p, ids))):
            with atomic_file(path) as tmp:
                write(tmp)
        return tok, ids
