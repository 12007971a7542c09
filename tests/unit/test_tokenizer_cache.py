"""The BPE is trained once per corpus hash and settings, then loaded; a bad entry is rebuilt."""
import time

import numpy as np

from data import bpe


def test_second_call_loads_from_the_cache(isolated_cache, monkeypatch):
    ids = bpe.load_tokens()
    assert len(ids) > 400_000 and ids.max() < 1024
    calls = []
    monkeypatch.setattr(bpe, "_train", lambda *a: calls.append(a))
    t0 = time.time()
    again = bpe.load_tokens()
    assert not calls and time.time() - t0 < 1.0
    assert np.array_equal(ids, again)
    assert bpe.train_bpe().get_vocab_size() == 1024


def test_corrupt_cache_entry_is_rebuilt_not_used(isolated_cache):
    ids = bpe.load_tokens()
    for f in (isolated_cache / "bpe").glob("*.json"):
        f.write_text("{ truncated")
    assert np.array_equal(bpe.load_tokens(), ids)


def test_the_key_changes_with_the_settings():
    assert bpe._key(1024) != bpe._key(512)
