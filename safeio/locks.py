"""The lock of a read-modify-write of a file: one process at a time, and who holds it said.

- `locked(path)`: an exclusive lock for a read-modify-write of `path` (`.<name>.lock` beside it),
  waited for at most `lock_wait_seconds()`, saying once who holds it;
  `try_locked(path)`: the same lock if it is free now, never waiting.
- `alive(pid)`: whether a process exists (a lock's holder, a temporary's writer).
Pure standard library and filelock: no torch.
"""
from __future__ import annotations

import json
import os
import stat
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from safeio.files import SaveError, atomic_write, not_a_file

# How long a writer waits for a lock held by another process before it stops and says who holds
# it.  A save holds it for seconds; a holder that never lets go (a stopped process) must not make
# the next save wait forever with no output.
LOCK_WAIT_DEFAULT = 120


def lock_wait_seconds() -> float:
    """$ATTENTION_CLAIMS_LOCK_WAIT, or LOCK_WAIT_DEFAULT; a value that is no number of seconds from 0
    to a day (nan, inf, 1e400 or a negative one, which would wait forever) is a SaveError."""
    raw = os.environ.get("ATTENTION_CLAIMS_LOCK_WAIT", str(LOCK_WAIT_DEFAULT))
    try:
        wait = float(raw)
    except ValueError:
        raise SaveError(f"$ATTENTION_CLAIMS_LOCK_WAIT={raw!r}: not a number of seconds") from None
    if not 0 <= wait <= MAX_LOCK_WAIT:           # nan, inf, 1e400 or a negative one would wait forever
        raise SaveError(f"$ATTENTION_CLAIMS_LOCK_WAIT={raw!r}: not a number of seconds from 0 to "
                        f"{MAX_LOCK_WAIT:g} (a day)")
    return wait


MAX_LOCK_WAIT = 86400.0


def _holder(lock: Path) -> str:
    """Who holds `lock`, as its holder wrote it (pid, command, since), and what that process is doing."""
    try:
        h = json.loads(lock.with_name(lock.name + ".holder").read_text())
        pid = int(h["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return "a process that did not say who it is"
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        state = "?"
    doing = {"T": f"stopped: resume it (kill -CONT {pid}) or end it", "t": "stopped by a debugger",
             "Z": "a zombie"}.get(state, "running" if alive(pid) else "gone")
    return f"pid {pid} ({h.get('command', '?')}, since {h.get('since', '?')}; {doing})"


@contextmanager
def locked(path: Path, timeout: float | None = None):
    """Hold the lock of `path` (a read-modify-write of it by one process at a time).  A lock held
    elsewhere is waited for at most `timeout` seconds (lock_wait_seconds(); a negative one waits
    as long as it takes), saying once who holds it; then SaveError names the holder."""
    lock = lock_of(path)
    _lock_file(lock)
    wait = lock_wait_seconds() if timeout is None else timeout
    fl = FileLock(str(lock))
    start, said = time.monotonic(), False
    while True:
        try:
            fl.acquire(timeout=max(0.0, min(2.0, wait - (time.monotonic() - start))) if wait >= 0 else 2.0)
            break
        except Timeout:
            if not said:
                print(f"waiting for {lock} (held by {_holder(lock)})"
                      + (f"; at most {wait:.0f} s" if wait >= 0 else ""), file=sys.stderr, flush=True)
                said = True
            if 0 <= wait <= time.monotonic() - start:
                raise SaveError(f"{lock}: locked by {_holder(lock)} for over {wait:.0f} s; nothing was "
                                "written (ATTENTION_CLAIMS_LOCK_WAIT sets how long to wait)") from None
    with _holding(fl, lock):
        yield


@contextmanager
def try_locked(path: Path):
    """The lock of `path` (as `locked` takes it) if no other process holds it now: yields True and
    holds it for the block; else yields False at once, without waiting (the caller does other work
    first, and comes back to `locked` to wait)."""
    lock = lock_of(path)
    _lock_file(lock)
    fl = FileLock(str(lock))
    try:
        fl.acquire(timeout=0)
    except Timeout:
        yield False
        return
    with _holding(fl, lock):
        yield True


def _lock_file(lock: Path) -> None:
    """SaveError naming `lock` where it stands as something a lock cannot be (a folder, a FIFO, a
    device): nothing is written, and no reader reads unlocked."""
    try:
        kind = not_a_file(os.lstat(lock))
    except FileNotFoundError:
        return
    except OSError as e:
        raise SaveError(f"{lock}: the lock file cannot be checked ({e.strerror or e}); nothing was written") from None
    if kind and not stat.S_ISLNK(os.lstat(lock).st_mode):
        raise SaveError(f"{lock}: is {kind}, not a lock file; remove it (nothing was written or read)")


def lock_of(path: Path) -> Path:
    """The lock file of `path`: `.<name>.lock` beside it."""
    path = Path(path)
    return path.with_name(f".{path.name}.lock")


@contextmanager
def _holding(fl: FileLock, lock: Path):
    """An acquired lock, released when the block ends; who holds it is written beside it meanwhile."""
    holder = lock.with_name(lock.name + ".holder")
    try:
        try:                                       # renamed into place: a link planted there is replaced, not followed
            atomic_write(holder, json.dumps({"pid": os.getpid(), "command": " ".join(sys.argv)[:200],
                                             "since": time.strftime("%Y-%m-%dT%H:%M:%S")}))
        except OSError:
            pass                                   # who holds it is a courtesy, not a condition
        yield
    finally:
        holder.unlink(missing_ok=True)
        fl.release()


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
    except OverflowError:
        return False
    return True
