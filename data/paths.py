"""Where the project is: one project root and one cache root.

The root is `$ATTENTION_CLAIMS_ROOT` if set; else the directory above this package when that is a
checkout; else the working directory or one above it, when that is a checkout.  Outside a checkout
(a non-editable install) `require_checkout()` stops a command with a clear error, instead of
writing results/ and .cache/ inside site-packages.
"""
from __future__ import annotations

import os
from pathlib import Path

ROOT_VAR = "ATTENTION_CLAIMS_ROOT"
_PACKAGE_PARENT = Path(__file__).resolve().parent.parent


class CheckoutError(RuntimeError):
    """The command needs the project's checkout (its results/, claims/, README.md) and has none."""


def is_checkout(path: Path) -> bool:
    return (path / "pyproject.toml").is_file() and (path / "claims").is_dir() and (path / "results").is_dir()


def find_root() -> Path | None:
    explicit = os.environ.get(ROOT_VAR)
    if explicit:
        return Path(explicit).resolve()
    if is_checkout(_PACKAGE_PARENT):
        return _PACKAGE_PARENT
    cwd = Path.cwd().resolve()
    return next((p for p in (cwd, *cwd.parents) if is_checkout(p)), None)


_FOUND = find_root()
PROJECT_ROOT = _FOUND or _PACKAGE_PARENT
IN_CHECKOUT = _FOUND is not None and is_checkout(_FOUND)


def require_checkout(command: str) -> Path:
    """The project root, or CheckoutError saying why there is none and how to point at one."""
    if IN_CHECKOUT:
        return PROJECT_ROOT
    if os.environ.get(ROOT_VAR):
        raise CheckoutError(f"{command}: ${ROOT_VAR}={os.environ[ROOT_VAR]} is not a checkout of attention-claims "
                            "(no pyproject.toml, claims/ and results/ there)")
    raise CheckoutError(f"{command} needs a checkout of attention-claims (its results/ and claims/), and this "
                        f"installed copy ({_PACKAGE_PARENT}) is not one: run it inside the checkout, or set "
                        f"{ROOT_VAR}=/path/to/the/checkout (or install with `pip install -e .`)")


class CacheError(RuntimeError):
    """The cache folder ($ATTENTION_CLAIMS_CACHE, else .cache/) cannot be a folder: named, never a traceback."""


def cache_root() -> Path:
    """`$ATTENTION_CLAIMS_CACHE`, else `.cache/` in the project (it survives between runs);
    CacheError naming it where it is a file or cannot be made."""
    given = os.environ.get("ATTENTION_CLAIMS_CACHE")
    root = Path(given or PROJECT_ROOT / ".cache")
    named = f"ATTENTION_CLAIMS_CACHE={given}" if given else str(root)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise CacheError(f"{named}: is a file, not a folder: the cache of trained models and data is a folder "
                         "(unset ATTENTION_CLAIMS_CACHE for .cache/ in the checkout)") from None
    except OSError as e:
        raise CacheError(f"{named}: the cache folder cannot be made ({e.strerror or e})") from None
    return root


# The checkout's folders that hold what is committed: a report or a run's evidence written into one
# would overwrite committed files or litter them.
COMMITTED = ("results", "docs", "claims", "data", "fixtures", "model", "tests", "benchmarks", ".ci", ".github", ".git")


def committed_folder(path: Path, root: Path | None = None) -> str | None:
    """Why no report, site or run may write into `path`, or None: the checkout's root, a folder of
    COMMITTED or inside one, a folder holding files committed to git, or one that is or holds a link."""
    from safeio.folders import tracked_files, unsafe_folder
    why = unsafe_folder(Path(path))
    if why:
        return why
    root = Path(root or PROJECT_ROOT).resolve()
    where = Path(path).resolve()
    if where == root:
        return "that is the checkout's root, beside README.md and the committed folders"
    if not where.is_relative_to(root):
        return None
    top = where.relative_to(root).parts[0]
    if top in COMMITTED:
        return (f"that is {top}/, a committed folder" if len(where.relative_to(root).parts) == 1
                else f"that is inside {top}/, a committed folder")
    tracked = tracked_files(root, where)
    if tracked:
        return (f"that folder holds {len(tracked)} file(s) committed to git ({', '.join(tracked[:3])}"
                f"{', ...' if len(tracked) > 3 else ''}), a committed folder")
    return None

