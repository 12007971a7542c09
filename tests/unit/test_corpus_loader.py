"""The corpus loader: found by env var, then ../shared/data, then download; sha256 always."""
import urllib.request

import pytest

from data import corpus
from data.corpus import CORPUS_SHA256, CorpusError, corpus_path, load_corpus


def test_env_var_path_is_used_when_it_holds_the_real_corpus(tmp_path, monkeypatch):
    real = corpus_path()
    copy = tmp_path / "ts.txt"
    copy.write_bytes(real.read_bytes())
    monkeypatch.setenv(corpus.ENV_VAR, str(copy))
    assert corpus_path() == copy
    assert len(load_corpus()) == 1_115_394


def test_missing_env_var_path_names_the_path_and_the_expected_hash(tmp_path, monkeypatch):
    missing = tmp_path / "nowhere.txt"
    monkeypatch.setenv(corpus.ENV_VAR, str(missing))
    with pytest.raises(CorpusError) as e:
        load_corpus()
    assert str(missing) in str(e.value) and "not found" in str(e.value)
    assert CORPUS_SHA256 in str(e.value)


def test_altered_corpus_is_refused(tmp_path, monkeypatch):
    altered = tmp_path / "ts.txt"
    altered.write_bytes(corpus_path().read_bytes().replace(b"ROMEO", b"ROMEA", 1))
    monkeypatch.setenv(corpus.ENV_VAR, str(altered))
    with pytest.raises(CorpusError, match="does not match"):
        load_corpus()


def test_every_place_looked_is_named_when_nothing_is_found(tmp_path, monkeypatch, isolated_cache):
    # No shared/ beside a fake project root, and a download that fails (the network is a
    # fault we cannot cause here, so urlopen is replaced).
    monkeypatch.delenv(corpus.ENV_VAR, raising=False)
    monkeypatch.setattr(corpus, "PROJECT_ROOT", tmp_path / "project")

    def offline(*a, **k):
        raise OSError("network unreachable")
    monkeypatch.setattr(urllib.request, "urlopen", offline)
    with pytest.raises(CorpusError) as e:
        load_corpus()
    msg = str(e.value)
    assert str(tmp_path / "shared" / "data" / "tinyshakespeare.txt") in msg
    assert str(isolated_cache / "tinyshakespeare.txt") in msg
    assert corpus.CORPUS_URL in msg and "network unreachable" in msg
    assert not list(isolated_cache.glob(".*.tmp*"))            # nothing half-written left


def test_a_download_with_the_wrong_hash_is_deleted(tmp_path, monkeypatch, isolated_cache):
    monkeypatch.delenv(corpus.ENV_VAR, raising=False)
    monkeypatch.setattr(corpus, "PROJECT_ROOT", tmp_path / "project")

    class Response:
        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

        sent = False

        def read1(self, n):
            data, self.sent = (b"" if self.sent else b"not shakespeare"), True
            return data
    monkeypatch.setattr(urllib.request, "urlopen", lambda *a, **k: Response())
    with pytest.raises(CorpusError, match="downloaded file has sha256"):
        load_corpus()
    assert not (isolated_cache / "tinyshakespeare.txt").exists()
