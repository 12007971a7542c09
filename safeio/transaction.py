"""An all-or-nothing save of several files into one directory.

`Transaction(directory)`: stage several files, then `commit()` them together.  Every staged file
is written and fsynced first; then a journal listing them is written atomically; then each is
renamed into place and the journal removed.  A kill before the journal leaves the directory as
before (the staged temporaries are swept by the next `recover`); a kill after it is rolled
forward by the next `recover(directory)`, which every writer of results/ calls first and which
says what it finished.  A file is written through safeio/files.py (`files._write_synced`, the
one synced write, which the fault tests count).  Pure standard library: no torch.
"""
from __future__ import annotations

import errno
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from safeio import files
from safeio.files import SaveError, atomic_write, fsync_dir, plain_name, side_file
from safeio.locks import alive

JOURNAL = ".save-journal.json"

# The names a save writes beside its final file: `.<final>.<pid>.<8 hex>.tmp` (a staged copy) and
# `.<final>.<pid>.<8 hex>.bak` (the committed copy, kept until the save has committed).  A journal
# may name nothing else, and the sweep removes nothing else.
_SIDE = re.compile(r"^\.(?P<final>[^/\\\x00]+)\.(?P<pid>\d+)\.[0-9a-f]{8}\.(?P<kind>tmp|bak)\Z")


class _Side(NamedTuple):
    """A side file's name, read: its final file's name, the pid of the save that wrote it, and its kind."""
    final: str
    pid: int
    kind: str


def _side(name: str) -> _Side | None:
    m = _SIDE.match(name)
    return _Side(m.group("final"), int(m.group("pid")), m.group("kind")) if m else None


def _side_of(name, kind: str, final: str) -> bool:
    side = _side(name) if plain_name(name) else None
    return side is not None and side.kind == kind and side.final == final


@dataclass(frozen=True)
class _Journal:
    """A save's journal: the staged copies and their final names, and the committed copies kept
    (`files`, `backups`: [copy, final] each), or the renames to undo (`rollback`: [copy or None,
    final, inode] each)."""
    files: list = field(default_factory=list)
    backups: list = field(default_factory=list)
    rollback: list | None = None


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
            files._write_synced(tmp, data)
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
                fsync_dir(self.directory)
                raise SaveError(f"{final}: could not be replaced ({e.strerror or e}); the save was rolled back, "
                                f"{self.directory} is as before") from e
        fsync_dir(self.directory)
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


def _read_journal(journal: Path) -> _Journal:
    """The journal, every name in it checked: SaveError names the journal and the entry."""
    fix = (f"inspect it and the .*.tmp files beside it, then delete {journal.name}; nothing was moved")
    try:
        data = json.loads(journal.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SaveError(f"{journal}: an interrupted save's journal is unreadable ({e}); {fix}") from e
    if not isinstance(data, dict) or not ({"files"} <= set(data) <= {"files", "backups"} or set(data) == {"rollback"}):
        raise SaveError(f"{journal}: not a save journal (expected 'files' and 'backups', or 'rollback'); {fix}")
    read = _Journal(**data)
    for name, kind, entries in (("files", "tmp", read.files), ("backups", "bak", read.backups),
                                ("rollback", "bak", [] if read.rollback is None else read.rollback)):
        if not isinstance(entries, list):
            raise SaveError(f"{journal}: field {name!r} is {entries!r}, not a list; {fix}")
        for entry in entries:
            size = 3 if name == "rollback" else 2              # a roll-back entry also holds the inode it put there
            ok = (isinstance(entry, list) and len(entry) == size and plain_name(entry[1]) and entry[1] != JOURNAL
                  and (name != "rollback" or (isinstance(entry[2], int) and not isinstance(entry[2], bool)))
                  and not _SIDE.match(entry[1])
                  and ((name == "rollback" and entry[0] is None) or _side_of(entry[0], kind, entry[1])))
            if not ok:
                raise SaveError(f"{journal}: entry {entry!r} of {name!r} is not a file of this directory and its "
                                f"own .{kind} copy; a journal names only those. Refused: {fix}")
            if entry[0] is not None and (journal.parent / entry[0]).is_symlink():
                raise SaveError(f"{journal}: entry {entry!r} of {name!r}: {entry[0]} is a link; refused: {fix}")
    return read


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
        read = _read_journal(journal)
        if read.rollback is not None:
            _roll_back(directory, read.rollback)
            done += [f"{final}: rolled back an interrupted save" for _, final, _ in read.rollback]
        for tmp_name, final_name in read.files:
            tmp = directory / tmp_name
            if tmp.exists():
                try:
                    os.replace(tmp, directory / final_name)
                except OSError as e:
                    raise SaveError(f"{directory / final_name}: could not be replaced while finishing an interrupted "
                                    f"save ({e.strerror or e}); {journal} and the copies it names are kept: make "
                                    "the file replaceable and run again") from e
                done.append(f"{final_name}: finished an interrupted save")
        for bak_name, _ in read.backups:
            (directory / bak_name).unlink(missing_ok=True)
        fsync_dir(directory)
        journal.unlink()
    for stray in sorted(directory.glob(".*.*")):
        side = _side(stray.name)
        if side is None or alive(side.pid) or stray.is_dir():
            continue                                    # not ours, or another process is writing it
        stray.unlink(missing_ok=True)
        done.append(f"{stray.name}: removed (a temporary of a save killed before it began to commit)")
    return done
