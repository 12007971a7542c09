"""The chapter's text: an input like the corpus, found and checked by sha256.

Places looked: `$ATTENTION_CLAIMS_CHAPTER` (if set, the only candidate), else `../shared/chapter.txt`
beside the project.  The chapter is not public, so nothing downloads it.  Absent, what needs it
skips, naming every place looked (`ChapterMissing`); present but not the chapter the figures were
read from (`ChapterAltered`), or not a file that could be it (`ChapterUnreadable`), it is an error.
"""
from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from data.paths import PROJECT_ROOT
from safeio.files import not_a_file, read_at_most

CHAPTER_SHA256 = "b14df5dd4c956a90978bb87bdbad0ae99b82e2e61d0dc08c11654a9c35727fcc"
ENV_VAR = "ATTENTION_CLAIMS_CHAPTER"
MAX_BYTES = 1 << 22             # a 4 MiB cap: the chapter is ~30 kB; a larger file is not it, and is not read


# What no longer matches in an altered text (text -> lines), handed in by the caller (`explain=`:
# claims/chapter.py CHAPTER.explainers()); this layer knows none of the anchors.
Explainer = Callable[[str], list[str]]


def what_changed(text: str, explain: Sequence[Explainer] = ()) -> str:
    lines = [line for explainer in explain for line in explainer(text)]
    if not lines:
        return ""
    shown = lines[:40] + ([f"  ... and {len(lines) - 40} more"] if len(lines) > 40 else [])
    return "\nAnchors that no longer match:\n" + "\n".join(shown)


class ChapterError(RuntimeError):
    """The chapter text is missing or is not the chapter."""


class ChapterMissing(ChapterError):
    """No chapter text in any place looked: the tests that need it skip, saying where they looked."""


class ChapterAltered(ChapterError):
    """A file is there, but it is not the chapter the figures were read from."""


class ChapterUnreadable(ChapterAltered):
    """Something is at the chapter's path, but not a file that could be the chapter (not a regular
    file, empty, over MAX_BYTES, or unreadable): an error like an altered chapter, never a skip."""


def candidate_paths() -> list[Path]:
    explicit = os.environ.get(ENV_VAR)
    if explicit:
        return [Path(explicit)]
    return [PROJECT_ROOT.parent / "shared" / "chapter.txt"]


def _named(path: Path) -> str:
    """The path as the user gave it: `$ATTENTION_CLAIMS_CHAPTER=path` when the variable named it."""
    return f"${ENV_VAR}={path}" if os.environ.get(ENV_VAR) else str(path)


def _refuse_unless_a_file(path: Path, st: os.stat_result) -> None:
    kind = not_a_file(st)
    if kind:
        raise ChapterUnreadable(f"{_named(path)}: is {kind}, not a regular file (the chapter text is a ~30 kB "
                                "UTF-8 file); not opened")
    if st.st_size > MAX_BYTES:
        raise ChapterUnreadable(f"{_named(path)}: {st.st_size:,} bytes, over the {MAX_BYTES:,}-byte cap (4 MiB) "
                                "for the chapter text (~30 kB): not the chapter, and not read")


def _read(path: Path) -> bytes | None:
    """The bytes at `path`, or None when nothing is there; ChapterUnreadable when what is there
    cannot be the chapter's file (checked from its stat before it is opened, and again once open)."""
    try:
        _refuse_unless_a_file(path, os.stat(path))
        data = read_at_most(path, MAX_BYTES, lambda st: _refuse_unless_a_file(path, st))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        raise ChapterUnreadable(f"{_named(path)}: cannot be read ({e.strerror or e})") from None
    if len(data) > MAX_BYTES:
        raise ChapterUnreadable(f"{_named(path)}: over the {MAX_BYTES:,}-byte cap (4 MiB) for the chapter text "
                                "(~30 kB) once read: not the chapter")
    if not data:
        raise ChapterUnreadable(f"{_named(path)}: is empty (0 bytes), not the chapter text (~30 kB)")
    return data


def _verified(explain: Sequence[Explainer]) -> tuple[Path, str]:
    """The chapter's path and text, read once and checked by sha256."""
    looked = []
    for path in candidate_paths():
        data = _read(path)
        if data is None:
            looked.append(f"  {path}: not found")
            continue
        digest = hashlib.sha256(data).hexdigest()
        if digest != CHAPTER_SHA256:
            raise ChapterAltered(f"{_named(path)}: sha256 {digest} is not the chapter's {CHAPTER_SHA256}; the "
                                 "figures and quotes of this project were read from that text"
                                 + what_changed(data.decode("utf-8", errors="replace"), explain))
        # decoded as Path.read_text decodes (universal newlines), from the bytes that were checked
        return path, io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read()
    raise ChapterMissing("the chapter text was not found. Looked in:\n" + "\n".join(looked)
                         + f"\nSet {ENV_VAR}=/path/to/chapter.txt to point at a copy.")


def chapter_path(explain: Sequence[Explainer] = ()) -> Path:
    """The path of the verified chapter text; ChapterMissing, ChapterUnreadable or ChapterAltered otherwise."""
    return _verified(explain)[0]


def load_chapter(explain: Sequence[Explainer] = ()) -> str:
    """The chapter's text, verified."""
    return _verified(explain)[1]


def chapter_or_none(explain: Sequence[Explainer] = ()) -> tuple[str | None, str]:
    """(text, "") or (None, why it is absent); an unreadable or altered chapter still raises."""
    try:
        return load_chapter(explain), ""
    except ChapterMissing as e:
        return None, str(e)
