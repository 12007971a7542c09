import pytest


@pytest.fixture
def isolated_cache(tmp_path, monkeypatch):
    """A private cache root, so machinery tests never touch the project's cache."""
    root = tmp_path / "cache"
    monkeypatch.setenv("ATTENTION_CLAIMS_CACHE", str(root))
    return root
