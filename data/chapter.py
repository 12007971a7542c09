"""The chapter's text: an input like the corpus, found and checked by sha256.

Places looked, in order:
1. the path in `$ATTENTION_CLAIMS_CHAPTER` (if set, the only candidate: a typo is reported, not
   bypassed);
2. `../shared/chapter.txt` beside the project.

The chapter is not public, so nothing downloads it.  Absent, what needs it skips and names every
place looked (`ChapterMissing`); present but not the chapter the figures were read from, it is
an error (`ChapterAltered`), never a silent skip.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from data.paths import PROJECT_ROOT

CHAPTER_SHA256 = "b14df5dd4c956a90978bb87bdbad0ae99b82e2e61d0dc08c11654a9c35727fcc"
ENV_VAR = "ATTENTION_CLAIMS_CHAPTER"
MAX_BYTES = 1 << 22             # the chapter is ~30 kB; a larger file is not it (read no further)


# What no longer matches in an altered text, said by the layers that anchor into it
# (claims/chapter_figures.py and claims/accounting.py register themselves): text -> lines.
EXPLAIN: list[Callable[[str], list[str]]] = []


def what_changed(text: str) -> str:
    lines = [line for explain in EXPLAIN for line in explain(text)]
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


def candidate_paths() -> list[Path]:
    explicit = os.environ.get(ENV_VAR)
    if explicit:
        return [Path(explicit)]
    return [PROJECT_ROOT.parent / "shared" / "chapter.txt"]


def chapter_path() -> Path:
    """The path of the verified chapter text; ChapterMissing or ChapterAltered otherwise."""
    looked = []
    for path in candidate_paths():
        if not path.exists():
            looked.append(f"  {path}: not found")
            continue
        if not path.is_file():
            raise ChapterAltered(f"{path}: not a regular file (the chapter text is a ~30 kB UTF-8 file)")
        if path.stat().st_size > MAX_BYTES:
            raise ChapterAltered(f"{path}: {path.stat().st_size:,} bytes, not the chapter (~30 kB)")
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != CHAPTER_SHA256:
            raise ChapterAltered(f"{path}: sha256 {digest} is not the chapter's {CHAPTER_SHA256}; the "
                                 "figures and quotes of this project were read from that text"
                                 + what_changed(path.read_bytes().decode("utf-8", errors="replace")))
        return path
    raise ChapterMissing("the chapter text was not found. Looked in:\n" + "\n".join(looked)
                         + f"\nSet {ENV_VAR}=/path/to/chapter.txt to point at a copy.")


def load_chapter() -> str:
    """The chapter's text, verified."""
    return chapter_path().read_text(encoding="utf-8")


def chapter_or_none() -> tuple[str | None, str]:
    """(text, "") or (None, why it is absent); an altered chapter still raises."""
    try:
        return load_chapter(), ""
    except ChapterMissing as e:
        return None, str(e)
