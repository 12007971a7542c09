"""The evidence store's reading side: the one reader of JSON evidence (a results/ file, a run's
report), its type and size checked before it is parsed, and the one lock every writer of
results/ holds.  EvidenceError names the file and where it breaks.  Pure standard library and
filelock: no torch.
"""
from __future__ import annotations

import json
import os
import sys
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from safeio.files import SaveError, not_a_file, read_at_most
from safeio.locks import locked
from safeio.transaction import JOURNAL, recover
from textcheck.formats import typed


class EvidenceError(ValueError):
    """A committed evidence file that cannot be what it claims to be."""


# The largest file a reader of results/ reads: the largest committed one is under 1 MB, a run's
# records grow by ~15 kB a seed.  A larger file is not evidence, and is not read into memory.
MAX_BYTES = 64 << 20

def _refuse_unless_a_file(path: Path, st: os.stat_result, what: str) -> None:
    kind = not_a_file(st)
    if kind:
        raise EvidenceError(f"{path}: is {kind}, not a regular file (the {what} file); not opened")
    if st.st_size > MAX_BYTES:
        raise EvidenceError(f"{path}: {st.st_size:,} bytes, over the {MAX_BYTES:,}-byte cap of a results file "
                            f"(64 MiB): not the {what} file, and not read")


def check_file(path: Path, what: str = "evidence") -> Path:
    """`path`, when it is a regular file of at most MAX_BYTES; EvidenceError naming it otherwise
    (missing, a directory, a FIFO that would block a read, a device that never ends, a huge file).
    From its stat alone: nothing is opened."""
    try:
        _refuse_unless_a_file(Path(path), os.stat(path), what)
    except (FileNotFoundError, NotADirectoryError):
        raise EvidenceError(f"{path}: not found (the {what} file)") from None
    except OSError as e:
        raise EvidenceError(f"{path}: cannot be read ({e.strerror or e})") from None
    return Path(path)


def read_bytes(path: Path, what: str = "evidence") -> bytes:
    """The bytes of a results file, its type and size checked before it is read (check_file), and
    again on the open file (a path swapped in between is refused, not read)."""
    check_file(path, what)
    try:
        data = read_at_most(path, MAX_BYTES, lambda st: _refuse_unless_a_file(Path(path), st, what))
    except OSError as e:
        raise EvidenceError(f"{path}: cannot be read ({e.strerror or e})") from None
    if len(data) > MAX_BYTES:
        raise EvidenceError(f"{path}: over the {MAX_BYTES:,}-byte cap of a results file once read; not the {what} "
                            "file")
    return data


class DuplicateKey(ValueError):
    """A key that stands twice in one JSON object (Python's parser would keep the last silently)."""


def one_value_per_key(pairs: list) -> dict:
    """The object of JSON's `pairs`, DuplicateKey where a key stands twice (read_json's hook)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen = set()
        raise DuplicateKey(next(k for k, _ in pairs if k in seen or seen.add(k)))
    return out


# How deep a JSON value of evidence may nest: results/ nests at most 10 deep (figures.json); a value
# nested hundreds deep (a hand edit) would exhaust every reader's recursion (issue 59's tracebacks)
MAX_DEPTH = 64


def _depth(value) -> int:
    """How deep `value` nests (a number 1, a list of numbers 2), found level by level without
    recursion (each level's children gathered by C's list.extend: the committed files hold tens of
    thousands of numbers)."""
    depth, level = 1, [value]
    while level and depth <= MAX_DEPTH:
        children = []
        for v in level:
            if isinstance(v, dict):
                children.extend(v.values())
            elif isinstance(v, list):
                children.extend(v)
        if not children:
            break
        depth += 1
        level = [w for w in children if isinstance(w, (dict, list))]
    return depth


def read_json(path: Path, what: str = "evidence"):
    """JSON from a committed file, or EvidenceError naming the file and where it breaks: the one
    reader of results/'s JSON (and of a run's), its type and size checked before it is parsed, its
    nesting after (at most MAX_DEPTH deep)."""
    try:
        data = json.loads(read_bytes(path, what).decode("utf-8"), object_pairs_hook=one_value_per_key)
        if _depth(data) > MAX_DEPTH:
            raise EvidenceError(f"{path}: nested deeper than {MAX_DEPTH} levels, which no {what} file is: edited "
                                f"by hand; restore it (git checkout -- {Path(path).name}) or rerun what writes it")
        return data
    except DuplicateKey as e:
        raise EvidenceError(f"{path}: the key {e.args[0]!r} stands twice in one object: which value counts is not "
                            f"clear; the {what} file was edited by hand (restore it: git checkout -- "
                            f"{Path(path).name})") from None
    except json.JSONDecodeError as e:
        raise EvidenceError(f"{path}: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno}): the {what} "
                            "file is truncated or edited by hand; restore it (git checkout -- "
                            f"{Path(path).name}) or rerun what writes it") from None
    except UnicodeDecodeError as e:
        raise EvidenceError(f"{path}: not UTF-8 text ({e.reason})") from None
    except EvidenceError:
        raise                       # already names the file and what is wrong (not found, too big, too deep)
    except (ValueError, RecursionError) as e:     # a 5000-digit integer, arrays nested beyond the parser's depth
        raise EvidenceError(f"{path}: not readable as JSON ({type(e).__name__}: {str(e)[:200]})") from None


def shown(value) -> str:
    """A value in an error message: its repr, cut at 80 characters, and its type (the report's reader too)."""
    text = repr(value)
    return (text if len(text) <= 80 else text[:77] + "...") + f" (a {type(value).__name__})"


def readings(path: Path) -> dict:
    """readings.json (the alternative readings the tests record): an object of readings, each an
    object whose parts (all but its `what`) are objects; EvidenceError naming the file and the
    reading otherwise.  The report reads it so, and a save checks so what it would write."""
    data = read_json(path, "alternative readings")
    if not isinstance(data, dict):
        raise EvidenceError(f"{path}: is {shown(data)}, not an object of readings")
    for name, reading in data.items():
        if not isinstance(reading, dict):
            raise EvidenceError(f"{path}: reading {name!r} is {shown(reading)}, not an object")
        for part, value in reading.items():
            if part != "what" and not isinstance(value, dict):
                raise EvidenceError(f"{path}: reading {name!r}: field {part!r} is {shown(value)}, not an object")
    return data


class ClaimsFile(dict):
    """A run's claims.json as read: its JSON object, the file it came from (`path`), and once
    checked its typed reading (`typed`: textcheck/outcomes.py RunReport.of keeps it, so that one
    command checks a run's report once, naming this file)."""

    def __init__(self, data: dict, path: Path):
        super().__init__(data)
        self.path, self.typed = Path(path), None


@dataclass(frozen=True)
class ReportParts:
    """A report's object (a merged report's, or a run's) as the engine reads its head: its meta
    (`is_smoke`) and its summary (what a run says when it ends, textcheck/run_verdicts.py)."""
    meta: dict | None
    summary: dict | None = None


@dataclass(frozen=True)
class RunScale:
    """A report's meta as `is_smoke` reads it: the scale it ran at ("smoke", "chapter")."""
    scale: str | None


def is_smoke(report) -> bool:
    """Whether a report's object (a run's claims.json, a merged report) is a smoke run's, by its
    meta's scale: its verdicts mean nothing about the text (never merged, saved or made badges)."""
    meta = typed(ReportParts, report).meta if isinstance(report, dict) else None
    return isinstance(meta, dict) and typed(RunScale, meta).scale == "smoke"


def run_report(path: Path) -> ClaimsFile:
    """A run's claims.json (its --report-dir's), read by the one reader: an object, checked where
    it is first read as a run's report (textcheck/outcomes.py RunReport.of: EvidenceError naming
    this file, the claim and test, and the field; a report and a save refuse it: never a traceback)."""
    data = read_json(path, "run's claim report")
    if not isinstance(data, dict):
        raise EvidenceError(f"{path}: is {shown(data)}, not a run's report (an object with a list 'claims')")
    return ClaimsFile(data, path)


def check_staged(tx, readers: dict | None = None) -> None:
    """Before a save commits: read back each file it staged (safeio/transaction.py Transaction) with the
    reader its final name is read with afterwards -- readings.json, any JSON, and the `readers` the caller
    adds (verdicts.json, figures.json, a text's run records) -- so that nothing is committed that
    the report or the re-derivation would then refuse.  EvidenceError names the final file."""
    readers = {"readings.json": readings, **(readers or {})}
    for tmp, final in tx.staged:
        reader = readers.get(final.name)
        if reader is None and final.suffix == ".json":
            reader = read_json
        if reader is None:
            continue
        try:
            reader(tmp)
        except ValueError as e:                 # EvidenceError, and the figure evidence's own
            why = str(e).removeprefix(f"{tmp}: ").replace(str(tmp), str(final))
            raise EvidenceError(f"{final}: this save would write what its reader refuses: {why}; nothing "
                                "saved") from None


@contextmanager
def reading(directory: Path):
    """Hold the save lock while reading `directory` (results/): a save commits its files under it,
    so a report or a re-derivation never reads some files from before a save and some from after.
    A folder the reader cannot write (read-only) holds no save either, and is read as it is; nor
    does one no save writes (no verdicts.json, figures.json or save lock in it: no lock file is left
    in a folder that is not results/).  A save killed while it committed left its journal: the
    reader finishes that save first (safeio/transaction.py recover, under the lock, saying so), so it
    reads results/ fully as the save left it; where it cannot (no lock: a read-only folder) it
    refuses, naming the journal (SaveError), never reading half of a save."""
    directory = Path(directory)
    journal = directory / JOURNAL
    saved_into = any((directory / n).exists() or (directory / n).is_symlink()
                     for n in ("verdicts.json", "figures.json", ".save.lock", JOURNAL))
    with ExitStack() as held:
        locked_now = False
        try:
            if saved_into:
                held.enter_context(save_lock(directory))
                locked_now = True
        except OSError:                         # a read-only folder (or file system): no save writes it
            pass
        if journal.exists() or journal.is_symlink():
            if not locked_now:
                raise SaveError(f"{journal}: a save was interrupted while it committed, and this reader cannot "
                                "finish it (the folder is not writable): results/ may be half old, half new; "
                                "run any save or report where it is writable, or restore results/ "
                                "(git checkout -- results/); nothing was read")
            for line in recover(directory):
                print(f"{directory}: {line}", file=sys.stderr)
        yield


def save_lock(directory: Path):
    """The lock every writer of results/ holds from its first read to its last write (a save,
    fixtures/evidence.py, holds it across its whole transaction)."""
    return locked(Path(directory) / "save")
