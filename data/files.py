"""Writing files so that a kill, a full disk or a second process loses nothing: the project's one
atomic write, its lock, and an all-or-nothing save of several files.

- `atomic_write(path, data)`: a unique temporary file beside `path` (pid and a random suffix, so two
  processes never share one), flushed and fsynced, then renamed over `path`: a reader sees the old
  file or the new one, never a part.
- `locked(path)`: an exclusive lock for a read-modify-write of `path` (`.<name>.lock` beside it).
- `Transaction(directory)`: stage several files, then `commit()` them together.  Every staged file
  is written and fsynced first; then a journal listing them is written atomically; then each is
  renamed into place and the journal removed.  A kill before the journal leaves the directory as
  before (the staged temporaries are swept by the next `recover`); a kill after it is rolled
  forward by the next `recover(directory)`, which every writer of results/ calls first and which
  says what it finished.  Pure standard library and filelock: no torch.
"""
from __future__ import annotations

import json
import os
import uuid
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock

JOURNAL = ".save-journal.json"


def _fsync_dir(directory: Path) -> None:
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
    return path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")


def _write_synced(path: Path, data: str | bytes) -> None:
    with open(path, "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)
        f.flush()
        os.fsync(f.fileno())


def atomic_write(path: Path, data: str | bytes) -> Path:
    """Write `data` (text as UTF-8, or bytes) to `path` atomically; returns `path`."""
    path = Path(path)
    tmp = temp_path(path)
    try:
        _write_synced(tmp, data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)
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
    _fsync_dir(path.parent)


@contextmanager
def locked(path: Path, timeout: float = -1):
    """Hold the lock of `path` (a read-modify-write of it by one process at a time)."""
    path = Path(path)
    with FileLock(str(path.with_name(f".{path.name}.lock")), timeout=timeout):
        yield


class Transaction:
    """Files staged into one directory, committed together (see the module docstring)."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)
        self.staged: list[tuple[Path, Path]] = []          # (temporary, final)

    def stage(self, name: str, data: str | bytes) -> None:
        final = self.directory / name
        tmp = temp_path(final)
        _write_synced(tmp, data)
        self.staged.append((tmp, final))

    def commit(self) -> list[str]:
        if not self.staged:
            return []
        journal = self.directory / JOURNAL
        atomic_write(journal, json.dumps({"files": [[t.name, f.name] for t, f in self.staged]}))
        for tmp, final in self.staged:
            os.replace(tmp, final)
        _fsync_dir(self.directory)
        journal.unlink()
        names = [f.name for _, f in self.staged]
        self.staged = []
        return names

    def abort(self) -> None:
        for tmp, _ in self.staged:
            tmp.unlink(missing_ok=True)
        self.staged = []


def recover(directory: Path) -> list[str]:
    """Finish a save that a kill interrupted after its journal was written (every file it lists
    was complete by then), and sweep the temporaries of one killed before.  Returns what it did,
    one line per file, to be printed."""
    directory = Path(directory)
    journal = directory / JOURNAL
    done = []
    if journal.exists():
        try:
            pairs = json.loads(journal.read_text())["files"]
        except (json.JSONDecodeError, KeyError, TypeError) as e:
            raise RuntimeError(f"{journal}: an interrupted save's journal is unreadable ({e}); the files it "
                               "named are the .*.tmp files beside it: inspect them, then delete the journal") from e
        for tmp_name, final_name in pairs:
            tmp = directory / tmp_name
            if tmp.exists():
                os.replace(tmp, directory / final_name)
                done.append(f"{final_name}: finished an interrupted save")
        _fsync_dir(directory)
        journal.unlink()
    for stray in directory.glob(".*.tmp"):
        pid = stray.name.rsplit(".", 3)[-3] if stray.name.count(".") >= 3 else ""
        if pid.isdigit() and alive(int(pid)):
            continue                                                   # another process is writing it
        stray.unlink(missing_ok=True)
        done.append(f"{stray.name}: removed (a temporary of a save killed before it began to commit)")
    return done


def alive(pid: int) -> bool:
    """Whether process `pid` exists (this one included)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
