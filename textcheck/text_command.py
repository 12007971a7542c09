"""The engine's `rederive` and `convert`, run for one text by a command module of the text's own
(this chapter's `python -m claims.rederive` and `python -m claims.convert`), under its own name;
`python -m textcheck` runs them the same way (textcheck/commands.py).  Imports only the command
it runs: a re-derivation loads nothing of the report."""
from __future__ import annotations

from textcheck.chapter import Chapter

PROG = "python -m textcheck"


def command(chapter: Chapter, name: str, argv=None, prog: str | None = None) -> int:
    """The engine's `rederive` or `convert` for `chapter`, as a text's own command module runs it
    (this chapter's `python -m claims.rederive` and `python -m claims.convert`): `prog` is the
    name its messages and its help give the command."""
    if name == "rederive":
        from textcheck import rederive
        return rederive.main(chapter, argv, prog=prog or f"{PROG} rederive")
    if name == "convert":
        from textcheck import convert
        return convert.main(chapter, argv, prog=prog or f"{PROG} convert")
    raise ValueError(f"{name!r} is not a command the engine runs for a text's module; it runs rederive and convert")
