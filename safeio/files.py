"""Writing files so that a kill, a full disk or a second process loses nothing: the project's one
atomic write, and reading a file that may not be one.

- `atomic_write(path, data)`: a unique temporary file beside `path` (pid and a random suffix, so two
  processes never share one), flushed and fsynced, then renamed over `path`: a reader sees the old
  file or the new one, never a part; `atomic_file(path)` the same for a writer that takes a path.
- `not_a_file(stat)`, `read_at_most(path, cap, refuse)`: a path that is no regular file (a FIFO, a
  device) refused before it is read.
- `SaveError`, `os_error`: what a command says when a write could not be made.

The lock of a read-modify-write is safeio/locks.py, the all-or-nothing save of several files
safeio/transaction.py, the checks of a folder a command writes into safeio/folders.py.
Pure standard library: no torch.
"""
from __future__ import annotations

import os
import stat
import uuid
from contextlib import contextmanager
from pathlib import Path


def fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def temp_path(path: Path) -> Path:
    return side_file(path, "tmp")


def _write_synced(path: Path, data: str | bytes) -> None:
    with open(path, "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)
        f.flush()
        os.fsync(f.fileno())


def atomic_write(path: Path, data: str | bytes) -> Path:
    """Write `data` (text as UTF-8, or bytes) to `path` atomically; returns `path`.  An OSError
    (a full disk) names `path`, and leaves neither a partial temporary nor a changed `path`."""
    path = Path(path)
    tmp = temp_path(path)
    try:
        _write_synced(tmp, data)
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise OSError(e.errno, f"could not write {path} ({e.strerror or e}); it is as it was", str(path)) from e
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)
    return path


@contextmanager
def atomic_file(path: Path):
    """For writers that take a path (np.save, a tokenizer's save, a download): yields a unique
    temporary path with `path`'s suffix; when the block ends, it is fsynced and renamed over
    `path`; if the block fails, it is removed and `path` is as it was."""
    path = Path(path)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp{path.suffix}")
    try:
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


_NOT_REGULAR = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
                (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))


def not_a_file(st: os.stat_result) -> str | None:
    """What a path is when it is not a regular file ("a FIFO (named pipe)", "a directory", ...), or
    None for a regular file: a reader refuses the rest before it opens them (a FIFO would block a
    read, a device never ends)."""
    if stat.S_ISREG(st.st_mode):
        return None
    return next((name for test, name in _NOT_REGULAR if test(st.st_mode)), "not a file")


def read_at_most(path: Path, cap: int, refuse) -> bytes:
    """At most cap + 1 bytes of `path` (a longer file shows as longer than `cap`), opened without
    blocking and checked again on the open file by `refuse(stat)` (the caller's own check, which
    raises its own error), so a path swapped since the caller looked is refused, not read.  OSError
    as os raises it."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    with os.fdopen(fd, "rb") as f:
        refuse(os.fstat(f.fileno()))
        return f.read(cap + 1)


def os_error(e: OSError) -> str:
    """An OSError as a command names it: the path, what the system said, and that the command
    stopped there (a read-only folder, a path that is a file, a full disk)."""
    where = f"{e.filename}: " if getattr(e, "filename", None) else ""
    return f"{where}cannot be written or read ({e.strerror or e}); stopped there: choose a folder this user can write"


class SaveError(RuntimeError):
    """A save that could not be made, or a journal that cannot be trusted: the message names the
    file (and the journal's entry); results/ is left as it was before the save."""


def plain_name(name) -> bool:
    """A file name of this directory: a non-empty string with no directory part, not '.' or '..'."""
    return (isinstance(name, str) and name not in ("", ".", "..") and "/" not in name and "\\" not in name
            and "\x00" not in name and not os.path.isabs(name))


def side_file(final: Path, kind: str) -> Path:
    return final.with_name(f".{final.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.{kind}")
