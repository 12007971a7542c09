"""The one entry by which a text is handed to the engine under pytest, and the run's facts.

    def pytest_textcheck_chapter(config):      # in the text's package, loaded as a plugin
        return CHAPTER                          # (this project: claims/chapter.py, by conftest.py)

The engine's plugin (textcheck/plugin.py) asks it once per session (`chapter_of`) and keeps the
Chapter in `config.stash[CHAPTER]`; every fixture, hook and rule helper of the engine reads it
from there and passes it on as an argument.  `pytest_textcheck_run` (optional) tells the engine
what the project's own plugins know of a run: the device its tests measure on, whether it is a
smoke run, whether it read committed run records instead of training.
"""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from textcheck.chapter import Chapter

CHAPTER = pytest.StashKey[Chapter]()


@pytest.hookspec(firstresult=True)
def pytest_textcheck_chapter(config) -> Chapter:
    """The Chapter this run's claim tests check (textcheck/chapter.py).  Implement it once, in
    the project's conftest.py; the first answer counts."""


@pytest.hookspec(firstresult=True)
def pytest_textcheck_run(config) -> dict:
    """{"device": "cpu" | "cuda:0" | ..., "smoke": bool, "from_results": bool}: what the project's
    plugins know of this run (every key optional; without an answer: "cpu", False, False)."""


def chapter_of(config) -> Chapter:
    """The run's Chapter, asked for once (pytest_textcheck_chapter) and kept in the stash."""
    if CHAPTER not in config.stash:
        chapter = config.hook.pytest_textcheck_chapter(config=config)
        if not isinstance(chapter, Chapter):
            raise pytest.UsageError("no chapter to check: the claim engine (textcheck) needs a conftest.py that "
                                    "implements pytest_textcheck_chapter(config) and returns a textcheck Chapter")
        config.stash[CHAPTER] = chapter
    return config.stash[CHAPTER]


@dataclass(frozen=True)
class RunFacts:
    """What a text's plugins know of this run (pytest_textcheck_run's answer, read once)."""
    device: str = "cpu"
    smoke: bool = False
    from_results: bool = False


def run_facts(config) -> RunFacts:
    """The run's device, smoke scale and source, from pytest_textcheck_run (defaults without it)."""
    return RunFacts(**(config.hook.pytest_textcheck_run(config=config) or {}))
