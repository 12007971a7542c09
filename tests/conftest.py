import sys
from pathlib import Path

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


class _ScratchModules:
    """What an in-process pytester run leaves of sys.modules: everything but the modules imported
    from its scratch project (their names, test_sample and the like, repeat from one scratch project
    to the next).  pytester's own snapshot drops every module imported since it was taken, a library's
    C extension among them (numpy.fft's cannot be loaded twice in a process)."""

    def __init__(self, scratch: Path):
        self.scratch, self.before = scratch.resolve(), set(sys.modules)

    def restore(self) -> None:
        for name in set(sys.modules) - self.before:
            module = sys.modules[name]
            places = [getattr(module, "__file__", None), *(getattr(module, "__path__", None) or [])]
            if any(p and Path(p).resolve().is_relative_to(self.scratch) for p in places):
                del sys.modules[name]


@pytest.fixture
def inprocess(pytester, monkeypatch):
    """pytester, for runs in this process (`inprocess.runpytest_inprocess(...)`): for tests of what a run
    decides and writes, not of the process that runs it.  A pytest subprocess spends about 5 s starting
    (torch, hypothesis, the plugins); in process, the project's plugins and conftest files already
    imported are reused.  Modules of the scratch project are dropped after each run and at the end
    (_ScratchModules); pytester's private snapshot hooks are replaced here, so a pytest without them
    fails this fixture at once rather than running with another policy."""
    monkeypatch.setattr(pytester, "_sys_modules_snapshot", _ScratchModules(pytester.path))
    monkeypatch.setattr(pytester, "_Pytester__take_sys_modules_snapshot", lambda: _ScratchModules(pytester.path))
    return pytester
