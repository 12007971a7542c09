"""Writing files so that a kill, a full disk or a second process loses nothing: the project's one
atomic write, its lock, and an all-or-nothing save of several files.

- `atomic_write(path, data)`: a unique temporary file beside `path` (pid and a random suffix, so two
  processes never share one), flushed and fsynced, then renamed over `path`: a reader sees the old
  file or the new one, never a part.
- `locked(path)`: an exclusive lock for a read-modify-write of `path` (`.<name>.lock` beside it);
  `try_locked(path)`: the same lock if it is free now, never waiting.
- `Transaction(directory)`: stage several files, then `commit()` them together.  Every staged file
  is written and fsynced first; then a journal listing them is written atomically; then each is
  renamed into place and the journal removed.  A kill before the journal leaves the directory as
  before (the staged temporaries are swept by the next `recover`); a kill after it is rolled
  forward by the next `recover(directory)`, which every writer of results/ calls first and which
  says what it finished.  Pure standard library and filelock: no torch.
"""
from __future__ import annotations

import errno
import json
import os
import re
import shutil
import stat
import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

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


# How long a writer waits for a lock held by another process before it stops and says who holds
# it.  A save holds it for seconds; a holder that never lets go (a stopped process) must not make
# the next save wait forever with no output.
LOCK_WAIT_DEFAULT = 120


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


def os_error(e: OSError) -> str:
    """An OSError as a command names it: the path, what the system said, and that the command
    stopped there (a read-only folder, a path that is a file, a full disk)."""
    where = f"{e.filename}: " if getattr(e, "filename", None) else ""
    return (f"{where}cannot be written or read ({e.strerror or e}); stopped there: choose a folder this user can "
            "write (results/ is written only by a save, all or nothing)")


class SaveError(RuntimeError):
    """A save that could not be made, or a journal that cannot be trusted: the message names the
    file (and the journal's entry); results/ is left as it was before the save."""


# The names a save writes beside its final file: `.<final>.<pid>.<8 hex>.tmp` (a staged copy) and
# `.<final>.<pid>.<8 hex>.bak` (the committed copy, kept until the save has committed).  A journal
# may name nothing else, and the sweep removes nothing else.
_SIDE = re.compile(r"^\.(?P<final>[^/\\\x00]+)\.(?P<pid>\d+)\.[0-9a-f]{8}\.(?P<kind>tmp|bak)\Z")


def plain_name(name) -> bool:
    """A file name of this directory: a non-empty string with no directory part, not '.' or '..'."""
    return (isinstance(name, str) and name not in ("", ".", "..") and "/" not in name and "\\" not in name
            and "\x00" not in name and not os.path.isabs(name))


def side_file(final: Path, kind: str) -> Path:
    return final.with_name(f".{final.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.{kind}")


def _side_of(name, kind: str, final: str) -> bool:
    m = _SIDE.match(name) if plain_name(name) else None
    return bool(m) and m["kind"] == kind and m["final"] == final


class Transaction:
    """Files staged into one directory, committed together (see the module docstring)."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)
        self.staged: list[tuple[Path, Path]] = []          # (temporary, final)
        self.journaled = False                              # once the journal is written, the next run finishes it

    def stage(self, name: str, data: str | bytes) -> None:
        if not plain_name(name) or name == JOURNAL:
            raise SaveError(f"{self.directory}: {name!r} is not a file name of this directory; nothing saved")
        final = self.directory / name
        tmp = side_file(final, "tmp")
        try:
            _write_synced(tmp, data)
        except OSError as e:                                  # a full disk: no partial copy is left
            tmp.unlink(missing_ok=True)
            raise SaveError(f"{final}: could not write its new copy ({e.strerror or e}); nothing was saved") from e
        self.staged.append((tmp, final))

    def current(self, name: str) -> Path:
        """The file `name` as this transaction would leave it: its staged copy, else the committed one."""
        return next((tmp for tmp, final in reversed(self.staged) if final.name == name), self.directory / name)

    def commit(self) -> list[str]:
        """Rename every staged file into place, all or nothing.  The committed copies are kept
        (hard links, `.bak`) until every rename is done: a rename that fails (a file that cannot
        be replaced) rolls the others back, and SaveError names that file."""
        if not self.staged:
            return []
        journal = self.directory / JOURNAL
        backups = []
        try:
            for _, final in self.staged:
                if final.exists() or final.is_symlink():
                    bak = side_file(final, "bak")
                    _keep_copy(final, bak)
                    backups.append((bak, final))
        except OSError as e:
            self._discard([b for b, _ in backups])
            raise SaveError(f"{e.filename or final}: cannot be replaced ({e.strerror or e}); nothing was saved") from e
        try:
            atomic_write(journal, json.dumps({"files": [[t.name, f.name] for t, f in self.staged],
                                              "backups": [[b.name, f.name] for b, f in backups]}))
        except OSError as e:                                 # a full disk: nothing renamed yet
            self._discard([b for b, _ in backups])
            raise SaveError(f"{journal}: could not be written ({e.strerror or e}); nothing was saved") from e
        # From here an interrupt (Ctrl-C, a kill) leaves the journal and the staged copies for the next
        # run to finish: abort() then removes nothing.  A rename that fails is rolled back here.
        self.journaled = True
        for i, (tmp, final) in enumerate(self.staged):
            try:
                os.replace(tmp, final)
            except OSError as e:
                bak = {f: b for b, f in backups}
                done = [[bak[f].name if f in bak else None, f.name, os.lstat(f).st_ino] for _, f in self.staged[:i]]
                atomic_write(journal, json.dumps({"rollback": done}))
                _roll_back(self.directory, done)
                self._discard([b for b, _ in backups])
                journal.unlink()
                _fsync_dir(self.directory)
                raise SaveError(f"{final}: could not be replaced ({e.strerror or e}); the save was rolled back, "
                                f"{self.directory} is as before") from e
        _fsync_dir(self.directory)
        for bak, _ in backups:
            bak.unlink(missing_ok=True)
        journal.unlink()
        names = [f.name for _, f in self.staged]
        self.staged = []
        return names

    def _discard(self, extra: list[Path]) -> None:
        for p in [t for t, _ in self.staged] + extra:
            p.unlink(missing_ok=True)
        self.staged = []

    def abort(self) -> None:
        """Remove the staged copies of a save that did not reach its journal; one that did is
        finished by the next run's recover(), so nothing of it is removed here."""
        if not self.journaled:
            self._discard([])


def _keep_copy(final: Path, bak: Path) -> None:
    """`bak` holds what `final` holds now: a hard link (no copy), or a copy where links fail."""
    try:
        os.link(final, bak, follow_symlinks=False)
    except OSError as e:
        if e.errno not in (errno.EXDEV, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.EPERM):
            raise
        shutil.copy2(final, bak, follow_symlinks=False)


def _roll_back(directory: Path, done: list) -> None:
    """Put back the committed copy of each file already replaced.  One that did not exist before
    (no copy) is removed only while it is still the file the save put there (its inode)."""
    for bak, final, ino in done:
        if bak is None:
            try:
                if os.lstat(directory / final).st_ino == ino:
                    (directory / final).unlink()
            except FileNotFoundError:
                pass
        elif (directory / bak).exists() or (directory / bak).is_symlink():
            os.replace(directory / bak, directory / final)


def _read_journal(journal: Path) -> dict:
    """The journal, every name in it checked: SaveError names the journal and the entry."""
    fix = (f"inspect it and the .*.tmp files beside it, then delete {journal.name}; nothing was moved")
    try:
        data = json.loads(journal.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SaveError(f"{journal}: an interrupted save's journal is unreadable ({e}); {fix}") from e
    if not isinstance(data, dict) or not ({"files"} <= set(data) <= {"files", "backups"} or set(data) == {"rollback"}):
        raise SaveError(f"{journal}: not a save journal (expected 'files' and 'backups', or 'rollback'); {fix}")
    for field, kind in (("files", "tmp"), ("backups", "bak"), ("rollback", "bak")):
        entries = data.get(field, [])
        if not isinstance(entries, list):
            raise SaveError(f"{journal}: field {field!r} is {entries!r}, not a list; {fix}")
        for entry in entries:
            size = 3 if field == "rollback" else 2              # a roll-back entry also holds the inode it put there
            ok = (isinstance(entry, list) and len(entry) == size and plain_name(entry[1]) and entry[1] != JOURNAL
                  and (field != "rollback" or (isinstance(entry[2], int) and not isinstance(entry[2], bool)))
                  and not _SIDE.match(entry[1])
                  and ((field == "rollback" and entry[0] is None) or _side_of(entry[0], kind, entry[1])))
            if not ok:
                raise SaveError(f"{journal}: entry {entry!r} of {field!r} is not a file of this directory and its "
                                f"own .{kind} copy; a journal names only those. Refused: {fix}")
            if entry[0] is not None and (journal.parent / entry[0]).is_symlink():
                raise SaveError(f"{journal}: entry {entry!r} of {field!r}: {entry[0]} is a link; refused: {fix}")
    return data


def recover(directory: Path) -> list[str]:
    """Finish a save that a kill interrupted after its journal was written (every file it lists
    was complete by then), or finish rolling back one whose rename failed, and sweep the
    temporaries of one killed before.  A journal that names anything but this directory's own
    files is refused (SaveError) before anything is moved.  Returns what it did, one line per
    file, to be printed."""
    directory = Path(directory)
    journal = directory / JOURNAL
    done = []
    if journal.exists() or journal.is_symlink():
        if journal.is_symlink() or not journal.is_file():
            raise SaveError(f"{journal}: an interrupted save's journal must be a plain file; inspect it, then "
                            "remove it; nothing was moved")
        data = _read_journal(journal)
        if "rollback" in data:
            _roll_back(directory, data["rollback"])
            done += [f"{final}: rolled back an interrupted save" for _, final, _ in data["rollback"]]
        for tmp_name, final_name in data.get("files", []):
            tmp = directory / tmp_name
            if tmp.exists():
                try:
                    os.replace(tmp, directory / final_name)
                except OSError as e:
                    raise SaveError(f"{directory / final_name}: could not be replaced while finishing an interrupted "
                                    f"save ({e.strerror or e}); {journal} and the copies it names are kept: make "
                                    "the file replaceable and run again") from e
                done.append(f"{final_name}: finished an interrupted save")
        for bak_name, _ in data.get("backups", []):
            (directory / bak_name).unlink(missing_ok=True)
        _fsync_dir(directory)
        journal.unlink()
    for stray in sorted(directory.glob(".*.*")):
        m = _SIDE.match(stray.name)
        if not m or alive(int(m["pid"])) or stray.is_dir():
            continue                                    # not ours, or another process is writing it
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
    except OverflowError:
        return False
    return True


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
