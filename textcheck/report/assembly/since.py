"""Since when each figure's verdict has stood, for the chapter view's tooltips: the date and the
commit of the evidence that decided it.  Part of the report model, called by a text's
`Parts.since` with the text's root (the Chapter's `root`: its results/ under it).

The date is the deciding test's timestamp (textcheck/merging.py figure_rows: the committed test's
in results/verdicts.json, or this run's, from report/claims.json).  The commit:
- this run's evidence: the commit the run was made at (its report's meta.commit, written by
  textcheck/plugin.py), and that it is not saved;
- committed evidence: the commit that first added the deciding test's timestamp to
  results/verdicts.json, read from one `git log -p` of that file at render time (no git, or no
  history of the file: "commit unknown"; found in no commit: saved here, not committed yet; found
  only in the oldest commit of a shallow clone: "in or before" it).
Imports no torch; one git call per render (from the text's root: `git -C root`).
"""
from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

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
    """{timestamp: (short commit, parentless)}: the oldest commit whose diff of results/verdicts.json
    adds that timestamp; None where git or the file's history is missing."""
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
    """"2026-11-29, the evidence committed in aa067c6", or why the commit is not known (`commit`:
    the run's)."""
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


def since_rows(rows: Sequence[FigureRow], meta: dict, root: Path) -> list[FigureRow]:
    """Each figure row with its `since`; `meta`: the run's; `root`: the text's root (the
    Chapter's), its results/verdicts.json under it."""
    commits = first_commits(root)
    shallow = bool(commits) and any(commits.get(r.timestamp, ("", False))[1] for r in rows
                                    if r.source == "committed" and r.timestamp) and _is_shallow(root)
    commit = str(meta.get("commit") or "")
    return [replace(r, since=since_text(r, commit, commits, shallow)) for r in rows]
