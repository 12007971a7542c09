"""Loaded first by tests/engine/pytest.ini: this chapter's packages cannot be imported, so that every
engine test proves the engine needs no text but the one it is handed (the example's)."""
import sys

CHAPTER_PACKAGES = ("claims", "fixtures", "data", "model")


class Unimportable:
    """A finder that refuses this chapter's packages before any other finder is asked."""

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in CHAPTER_PACKAGES:
            raise ImportError(f"{name}: this chapter's packages are unimportable in the engine's tests")


sys.meta_path.insert(0, Unimportable())
