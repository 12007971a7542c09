"""The corpus: Tiny Shakespeare, found, downloaded if need be, and always checked by sha256.

Places looked, in order: `$ATTENTION_CLAIMS_CORPUS` (if set, the only local candidate, so that a
typo is reported); `../shared/data/tinyshakespeare.txt` beside the project; the download cache
(`<cache>/tinyshakespeare.txt`), filled from the public source.
"""
from __future__ import annotations

import hashlib
import os
import time
import urllib.request
from pathlib import Path

from data.paths import PROJECT_ROOT, cache_root
from safeio.files import atomic_file

CORPUS_SHA256 = "86c4e6aa9db7c042ec79f339dcb96d42b0075e16b8fc2e86bf0ca57e2dc565ed"
CORPUS_CHARS = 1_115_394
CORPUS_URL = "https://raw.githubusercontent.com/karpathy/char-rnn/master/data/tinyshakespeare/input.txt"
ENV_VAR = "ATTENTION_CLAIMS_CORPUS"
DOWNLOAD_DEADLINE = 60.0        # seconds for the whole download, however slowly the peer trickles
READ_TIMEOUT = 30.0             # seconds for any one read
NO_DOWNLOAD_VAR = "ATTENTION_CLAIMS_NO_DOWNLOAD"


class CorpusError(RuntimeError):
    """The corpus could not be found, or what was found is not the chapter's corpus."""


CORPUS_BYTES = CORPUS_CHARS      # ASCII: as many bytes as characters; checked before anything is read


def sha256_file(path: Path) -> str:
    """The sha256 of a file's bytes, read in blocks (a trained model is megabytes to gigabytes)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def candidate_paths() -> list[Path]:
    explicit = os.environ.get(ENV_VAR)
    if explicit:
        return [Path(explicit)]
    return [PROJECT_ROOT.parent / "shared" / "data" / "tinyshakespeare.txt",
            cache_root() / "tinyshakespeare.txt"]


def _download(dest: Path, deadline: float | None = None) -> str:
    """Download to a temp file, then rename, within `deadline` seconds (each read READ_TIMEOUT)."""
    deadline = DOWNLOAD_DEADLINE if deadline is None else deadline
    start = time.monotonic()
    try:
        with atomic_file(dest) as tmp, urllib.request.urlopen(CORPUS_URL, timeout=min(READ_TIMEOUT, deadline)) as r, \
                open(tmp, "wb") as f:
            while chunk := r.read1(1 << 16):
                f.write(chunk)
                if time.monotonic() - start > deadline:
                    raise TimeoutError(f"not finished after the {deadline:.0f} s deadline "
                                       f"({f.tell():,} bytes received)")
        return "downloaded"
    except Exception as e:  # noqa: BLE001 -- network errors of every kind end up in the one message below
        return f"download failed: {type(e).__name__}: {e}"


def corpus_path() -> Path:
    """The path of a verified copy of the corpus, or a CorpusError naming every place looked."""
    looked: list[str] = []
    candidates = candidate_paths()
    for path in candidates:
        if path.is_dir():
            looked.append(f"  {path}: is a directory, not the corpus file")
            continue
        if not path.exists():
            looked.append(f"  {path}: not found")
            continue
        if not path.is_file():                      # a FIFO, a device (/dev/zero), a socket: never read
            looked.append(f"  {path}: not a regular file")
            continue
        size = path.stat().st_size
        if size != CORPUS_BYTES:                    # a 16 GiB file is refused before a byte is read
            looked.append(f"  {path}: {size:,} bytes, not the corpus's {CORPUS_BYTES:,}")
            continue
        digest = sha256_file(path)
        if digest == CORPUS_SHA256:
            return path
        looked.append(f"  {path}: sha256 {digest} does not match")
    if not os.environ.get(ENV_VAR) and not os.environ.get(NO_DOWNLOAD_VAR):
        dest = candidates[-1]
        outcome = _download(dest)
        if outcome == "downloaded":
            digest = sha256_file(dest)
            if digest == CORPUS_SHA256:
                return dest
            dest.unlink()
            outcome = f"downloaded file has sha256 {digest}; deleted"
        looked.append(f"  {CORPUS_URL}: {outcome}")
    raise CorpusError(
        "Tiny Shakespeare corpus not found or altered. Looked in:\n" + "\n".join(looked)
        + f"\nExpected sha256 {CORPUS_SHA256} ({CORPUS_CHARS:,} characters). "
        f"Set {ENV_VAR}=/path/to/tinyshakespeare.txt to point at a copy.")


def load_corpus() -> str:
    """The corpus text, verified."""
    return corpus_path().read_text(encoding="utf-8")
