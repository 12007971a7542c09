"""The project's commands run in the test's own process, answering as their subprocess did
(a subprocess.CompletedProcess: returncode, stdout, stderr), for tests that check what a command
decides, prints and writes, not the process that runs it.

A `python -m claims.rederive` subprocess spends about 1 s starting (scipy, the chapter's tables) and a
`python -m pytest` one about 5 s (torch, hypothesis, the plugins, every test module imported again);
here the modules this process has imported are reused.  A command is run as its `python -m` entry
runs it: from the project root, its `main(argv)` the exit code, an exception that escapes it a
traceback on stderr and exit 1 (as the interpreter reports it), a SystemExit its code.

Not for a test of the process itself: what a command imports (`-X importtime`), an environment it is
started with ($ATTENTION_CLAIMS_ROOT is read once, at import), a limit set on it, a signal sent to it,
or a command line as a user types it."""
from __future__ import annotations

import contextlib
import io
import os
import subprocess
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def command(main: Callable[[list[str]], int], *argv: str, prog: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`main(argv)` from `cwd` (the project root unless given), its output captured."""
    out, err = io.StringIO(), io.StringIO()
    was = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(argv))
            except SystemExit as e:                 # argparse's errors, a sys.exit in the command
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
                if isinstance(e.code, str):
                    print(e.code, file=err)
            except Exception:  # noqa: BLE001 -- what the interpreter prints of any uncaught one, exit 1
                traceback.print_exc(file=err)
                code = 1
    finally:
        os.chdir(was)
    return subprocess.CompletedProcess([prog, *argv], code, out.getvalue(), err.getvalue())


def rederive(*argv: str) -> subprocess.CompletedProcess:
    """`python -m claims.rederive ARGV`, in this process."""
    from claims.rederive import main
    return command(main, *argv, prog="python -m claims.rederive")


def report(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`python -m claims.report ARGV` started in `cwd`, in this process."""
    from claims.report.cli import main
    return command(main, *argv, prog="python -m claims.report", cwd=cwd)


def run_pytest(*argv: str) -> subprocess.CompletedProcess:
    """`python -m pytest ARGV` from the project root, in this process: the project's plugins and
    conftest files, and the test modules this process already imported, are reused."""
    return command(lambda a: int(pytest.main(a)), *argv, prog="python -m pytest")
