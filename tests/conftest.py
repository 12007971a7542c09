import pytest

# The engine's own tests are their own pytest project, with this chapter's packages unimportable
# (tests/engine/pytest.ini; .ci/run runs them so): never collected under this chapter's conftest.
collect_ignore = ["engine"]


@pytest.fixture
def isolated_cache(tmp_path, monkeypatch):
    """A private cache root, so machinery tests never touch the project's cache."""
    root = tmp_path / "cache"
    monkeypatch.setenv("ATTENTION_CLAIMS_CACHE", str(root))
    return root


@pytest.fixture(scope="session")
def collected_suite(tmp_path_factory):
    """The whole suite (claims/ and tests/, every tier) as pytest collects it, collected once per
    process, in it (tests/collected.py): for tests that only read test IDs and marks."""
    from collected import suite
    return suite(tmp_path_factory)
