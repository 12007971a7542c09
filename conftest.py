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


# A run that selects by a mark written in the test files collects only the files of tests/ that can
# hold what it selects: `pytest -m fast` those whose text says "mark.fast" (`-m slow`, `-m gpu`
# alike), `--claim` / `--figure`
# those whose text says "mark.claim" or "mark.figure" (a mark is written in its file, as
# `pytestmark = pytest.mark.fast` or a decorator).  Every file of claims/ is collected (the claim
# engine counts each claim a test carries, selected or not: a claim none carried would read "not
# encoded").  The others (tests/integration, tests/docs: no fast test, no claim) were half of a
# fresh clone's fast-tier collection, imported and assertion-rewritten to be deselected.  A run
# that collects them checks that none of their tests carries such a mark (a mark added by a hook,
# or through a name the text does not show): such a test fails, saying why.
SELECTED_BY = {"fast": ("mark.fast",), "slow": ("mark.slow",), "gpu": ("mark.gpu",),
               "claim": ("mark.claim", "mark.figure")}


def _selections(config) -> list[str]:
    """Which of SELECTED_BY this run's selection needs a file of tests/ to say: a tier named alone
    (`-m fast`, `-m slow`, `-m gpu`), a --claim or --figure."""
    markexpr = (config.getoption("markexpr", "") or "").strip()
    out = [markexpr] if markexpr in ("fast", "slow", "gpu") else []
    if config.getoption("--claim", None) or config.getoption("--figure", None):
        out.append("claim")
    return out


@cache
def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None                             # unreadable: collected, so pytest names the problem


def _cannot_hold(path: Path, rootpath: Path, selection: str) -> bool:
    """A test file of tests/ whose text does not show the marks `selection` selects by."""
    if not (path.suffix == ".py" and path.name.startswith("test_") and path.is_relative_to(rootpath / "tests")):
        return False
    text = _text(path)
    return text is not None and not any(mark in text for mark in SELECTED_BY[selection])


def pytest_ignore_collect(collection_path: Path, config):
    if any(_cannot_hold(collection_path, config.rootpath, s) for s in _selections(config)):
        return True
    return None


STRAY = pytest.StashKey[str]()
MARKS = {"fast": ("fast", "claim"), "slow": ("slow", "claim"), "gpu": ("gpu", "claim"), "claim": ("claim", "figure")}     # a claim test the fast tier left out: its claim "not encoded"


def pytest_collection_modifyitems(config, items):
    """A test carrying a mark that a selection by it would not collect fails, saying why (in an
    xdist worker a UsageError would name neither the test nor the mark)."""
    for item in items:
        for selection, marks in MARKS.items():
            if any(item.get_closest_marker(m) for m in marks) and _cannot_hold(Path(item.path), config.rootpath,
                                                                              selection):
                item.stash[STRAY] = (f"{item.nodeid}: carries a {' or '.join(marks)} mark, but its file's text never "
                                     f"says {' or '.join(map(repr, SELECTED_BY[selection]))}: a run selecting by it "
                                     "does not collect the file (conftest.py pytest_ignore_collect); write the "
                                     "mark in the file")


def pytest_runtest_setup(item):
    if STRAY in item.stash:
        pytest.fail(item.stash[STRAY], pytrace=False)
