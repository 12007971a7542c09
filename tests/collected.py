"""The suite as pytest collects it, collected in this process, for tests that read what a
collection selects (test IDs, claim and figure marks, --claim/--figure selections).

A `python -m pytest --collect-only` subprocess spends about 5 s of CPU starting (torch, hypothesis,
the plugins) and importing every test module again, before it collects anything; collected here,
with `pytest.main` and the project's own plugins and conftest files, the modules this process has
imported are reused (about 1 s for the whole suite).  Only for tests that are not about the process
boundary: a test that checks what happens when a test module is first imported (an unknown mark's
warning), or a command line as a user types it, starts its own process.

`suite()` collects the whole suite once per process and keeps it: every reader only reads it."""
from __future__ import annotations

import contextlib
import io
import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Collected:
    ret: int                                          # pytest's exit code
    out: str                                          # what it printed (the -q listing, "no tests collected")
    err: str                                          # what it printed to stderr (a usage error)
    items: dict[str, tuple[set, set]] = field(default_factory=dict)   # nodeid -> (claim IDs, figure IDs)


class _Lister:
    """Each collected test with its claim and figure marks."""

    def __init__(self):
        self.items: dict[str, tuple[set, set]] = {}

    def pytest_collection_finish(self, session):
        for item in session.items:
            claims = {m.args[0] for m in item.iter_markers("claim") if m.args}
            figures = {f for m in item.iter_markers("figure") for f in m.args}
            self.items[item.nodeid] = (claims, figures)


def collect(*args: str, report_dir: Path) -> Collected:
    """`pytest --collect-only -q <args>` run from the project root, in this process."""
    lister = _Lister()
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            # -s: nothing runs, so nothing to capture; the listing goes to the redirected stdout
            ret = pytest.main(["--collect-only", "-q", "-s", "-p", "no:cacheprovider", f"--report-dir={report_dir}",
                               *args], plugins=[lister])
    finally:
        os.chdir(cwd)
    return Collected(int(ret), out.getvalue(), err.getvalue(), lister.items)


_SUITE: list[Collected] = []


def suite(tmp_path_factory: pytest.TempPathFactory) -> Collected:
    """The whole suite (claims/ and tests/, every tier), collected once per process."""
    if not _SUITE:
        _SUITE.append(collect(report_dir=tmp_path_factory.mktemp("suite-collected") / "report"))
    return _SUITE[0]
