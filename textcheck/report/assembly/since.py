"""Since when each figure's verdict has stood, for the chapter view's tooltips: the deciding test's
date, and the commit of its evidence: this run's commit (not saved), or the commit that first added
the test's timestamp to results/verdicts.json, from one `git log -p` of it per render ("commit
unknown" without that history, "in or before" in a shallow clone).  Imports no torch.
"""
from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from textcheck.formats import typed
from textcheck.report.assembly.merged import FigureRow

VERDICTS_PATH = "results/verdicts.json"
ADDED = re.compile(r'^\+\s*"timestamp": "([^"]+)"')


def _git(root: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30,
                             check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout if out.returncode == 0 else None


def first_commits(root: Path) -> dict | None:
    """{timestamp: (short commit, parentless)}: the oldest commit adding it; None without history."""
    log = _git(root, "log", "--reverse", "--format=#commit %h %p", "-p", "-U0", "--no-color", "--", VERDICTS_PATH)
    if not log:
        return None
    found, commit = {}, None
    for line in log.splitlines():
        if line.startswith("#commit "):
            parts = line[8:].split()
            commit = (parts[0], len(parts) == 1) if parts else None
        elif commit and (m := ADDED.match(line)):
            found.setdefault(m.group(1), commit)
    return found


def _is_shallow(root: Path) -> bool:
    return (_git(root, "rev-parse", "--is-shallow-repository") or "").strip() == "true"


def since_text(row: FigureRow, commit: str, commits: dict | None, shallow: bool) -> str:
    """"2026-11-29, the evidence committed in aa067c6", or why the commit is not known."""
    stamp = str(row.timestamp or "")
    if not stamp:
        return "no evidence yet"
    date = stamp[:10]
    if row.source != "committed":
        at = commit[:7]
        return f"{date}, this run ({'at commit ' + at if at else 'commit unknown'}), not saved"
    if commits is None:
        return f"{date}, commit unknown (no git history of {VERDICTS_PATH} here)"
    if stamp not in commits:
        return f"{date}, saved here, not committed yet"
    commit, parentless = commits[stamp]
    if parentless and shallow:
        return f"{date}, the evidence committed in or before {commit} (a shallow clone)"
    return f"{date}, the evidence committed in {commit}"


@dataclass(frozen=True)
class Commit:
    """A run's meta as since_rows reads it: the commit it ran at."""
    commit: str | None


def since_rows(rows: Sequence[FigureRow], meta: dict, root: Path) -> list[FigureRow]:
    """Each figure row with its `since`; `root`: the text's, its results/verdicts.json under it."""
    commits = first_commits(root)
    shallow = bool(commits) and any(commits.get(r.timestamp, ("", False))[1] for r in rows
                                    if r.source == "committed" and r.timestamp) and _is_shallow(root)
    commit = str(typed(Commit, meta).commit or "")
    return [replace(r, since=since_text(r, commit, commits, shallow)) for r in rows]
