"""Project-wide pytest setup: the claim engine's plugin (textcheck/plugin.py), handed this
chapter by the one entry (claims/chapter.py, loaded below as a plugin), and the fixtures that hand trained
models to tests, with their options (fixtures/plugin.py)."""
from functools import cache
from pathlib import Path

import pytest

from data.paths import CheckoutError, require_checkout

# textcheck.plugin: the claim engine; claims.chapter: this chapter, handed to it (the one entry:
# claims/chapter.py answers the engine's hook pytest_textcheck_chapter)
pytest_plugins = ["fixtures.plugin", "fixtures.xdist_groups", "textcheck.plugin", "claims.chapter"]


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """Under xdist (`-n N`), tests that share a trained model share a worker: `--dist loadgroup`
    unless another --dist was asked for, scheduled by fixtures/xdist_groups.py (which does not rely
    on xdist's node-ID suffix, lost on pytest 9.2).  Set here rather than in addopts, so that a run
    with `-p no:xdist` still parses its command line."""
    if config.pluginmanager.hasplugin("xdist") and getattr(config.option, "dist", "no") == "no" \
            and getattr(config.option, "numprocesses", None):
        config.option.dist = "loadgroup"


def pytest_configure(config):
    """The tests read and write the checkout's results/, report/ and .cache/ (data/paths.py): a
    $ATTENTION_CLAIMS_ROOT that is not a checkout stops the run here, naming the variable and the
    path, instead of every test that needs results/ skipping for want of them."""
    try:
        require_checkout("pytest")
    except CheckoutError as e:
        raise pytest.UsageError(str(e)) from None
    _stop_rewriting_libraries(config)


# Libraries whose own modules pytest would rewrite for assertion messages, as packages of pytest
# plugins (their entry points): never this project's asserts.  Without bytecode (a fresh clone,
# PYTHONDONTWRITEBYTECODE) each is parsed and rewritten on every run: hypothesis's 73 modules were
# a second of the fast tier's collection (benchmarks/README.md).  Their asserts still run, as
# plain asserts.
NOT_REWRITTEN = ("hypothesis", "anyio")


def _stop_rewriting_libraries(config) -> None:
    must = getattr(getattr(config.pluginmanager, "rewrite_hook", None), "_must_rewrite", None)
    if isinstance(must, set):                   # pytest's own set; another version: nothing done
        must.difference_update(NOT_REWRITTEN)


# `pytest -m fast` collects only the files that can hold a fast test: every file of claims/ (the
# claim engine counts each claim a test carries, selected or not: a claim none carries would read
# "not encoded"), and those of tests/ whose text says "mark.fast" (the mark is written in the file, as
# `pytestmark = pytest.mark.fast` or a decorator).  The others (tests/integration, tests/docs:
# no fast test) were half the tier's collection on a fresh clone, imported and assertion-rewritten
# to be deselected.  A run that collects the whole tree checks that no fast test, and no claim
# test, stands in a file the fast tier would skip (pytest_collection_modifyitems below).
def _fast_only(config) -> bool:
    return (config.getoption("markexpr", "") or "").strip() == "fast"


@cache
def _says_fast(path: Path) -> bool:
    try:
        return "mark.fast" in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return True                             # unreadable: collected, so pytest names the problem


def _skipped_by_the_fast_tier(path: Path, rootpath: Path) -> bool:
    return path.suffix == ".py" and path.name.startswith("test_") and path.is_relative_to(rootpath / "tests") \
        and not _says_fast(path)


def pytest_ignore_collect(collection_path: Path, config):
    if _fast_only(config) and _skipped_by_the_fast_tier(collection_path, config.rootpath):
        return True
    return None


STRAY = pytest.StashKey[str]()


def pytest_collection_modifyitems(config, items):
    """In a run of more than the fast tier: a fast or claim test that `pytest -m fast` would not
    collect fails, saying why (in an xdist worker a UsageError would name neither)."""
    if _fast_only(config):
        return
    for item in items:
        if (item.get_closest_marker("fast") or item.get_closest_marker("claim")) \
                and _skipped_by_the_fast_tier(Path(item.path), config.rootpath):
            item.stash[STRAY] = (f"{item.nodeid}: a fast or claim test in a file of tests/ whose text never says "
                                 "'mark.fast': `pytest -m fast` does not collect it (conftest.py "
                                 "pytest_ignore_collect); mark it in its file")


def pytest_runtest_setup(item):
    if STRAY in item.stash:
        pytest.fail(item.stash[STRAY], pytrace=False)
