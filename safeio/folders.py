"""The folder a command writes into, and the git checkout it stands in: whether a command may
write there (no file in the way, no link out of it, no folder git tracks), the checkout's
commit and its tracked files.  Pure standard library (git run as a command where there is one).
"""
from __future__ import annotations

import os
import stat
from pathlib import Path


def unusable_folder(path: Path) -> str | None:
    """Why `path` cannot be a folder a command writes into, or None (it is one, or can be made):
    a file stands there, or its name cannot be used (too long, not allowed by the file system)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        return f"that path cannot be used ({e.strerror})"
    return None if stat.S_ISDIR(st.st_mode) else "that is a file, not a folder"


def link_in(folder: Path, depth: int = 4) -> str | None:
    """Where a write into `folder` would follow a symbolic link out of it: the folder itself, or a
    file or folder inside it (down to `depth` levels), that is a link, as "badges -> /x/results/badges";
    None where there is none (or no folder yet).  Every command that writes into a folder of its
    own (a report, a site, a run's report dir) refuses one that holds a link, rather than write
    through it into a file it does not own (README.md, the committed badges)."""
    folder = Path(folder)
    if folder.is_symlink():
        return f"{folder.name} -> {os.readlink(folder)}"
    todo = [(folder, 0)]
    while todo:
        here, level = todo.pop()
        try:
            entries = list(os.scandir(here))
        except OSError:
            continue
        for e in sorted(entries, key=lambda e: e.name):
            if e.is_symlink():
                return f"{Path(e.path).relative_to(folder)} -> {os.readlink(e.path)}"
            if level + 1 < depth and e.is_dir(follow_symlinks=False):
                todo.append((Path(e.path), level + 1))
    return None


def checkout_commit(root: Path) -> str | None:
    """The commit a checkout is at (`git rev-parse HEAD`), or None where there is no git or no
    repository: a run's report records it, and the re-derivation refuses a report of another."""
    import subprocess
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else None


def tracked_files(root: Path, folder: Path) -> list[str]:
    """The files under `folder` that git tracks in the checkout at `root` ([] without git)."""
    import subprocess
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--", str(Path(folder).relative_to(root))],
                             capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError, ValueError):
        return []
    return [n for n in out.stdout.decode("utf-8", "replace").split("\0") if n] if out.returncode == 0 else []


def unsafe_folder(path: Path) -> str | None:
    """Why no command may write into `path` whatever text it serves: it cannot be a folder
    (unusable_folder), or it is or holds a link (link_in); None otherwise."""
    unusable = unusable_folder(Path(path))
    if unusable:
        return unusable
    link = link_in(Path(path))
    return f"that folder holds a link ({link}), which a write would follow out of it" if link else None


def not_its_own_folder(path: Path, root: Path) -> str | None:
    """Why a command may not write into `path`, a folder of the checkout at `root`, or None: it is
    or holds a symbolic link (link_in), it is the checkout's root, or git tracks files in it.  The
    rule for a text that declares no committed folders of its own (the example's report)."""
    why = unsafe_folder(Path(path))
    if why:
        return why
    root, where = Path(root).resolve(), Path(path).resolve()
    if where == root:
        return "that is the checkout's root"
    tracked = tracked_files(root, where) if where.is_relative_to(root) else []
    if tracked:
        return f"that folder holds {len(tracked)} file(s) committed to git ({', '.join(tracked[:3])}), a committed folder"
    return None


def checkout_of(path: Path) -> Path:
    """The git checkout that holds `path` (the nearest folder above it with a .git), else `path`."""
    path = Path(path).resolve()
    return next((p for p in (path, *path.parents) if (p / ".git").exists()), path)
