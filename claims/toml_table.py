"""A table of this chapter that is data, not code, as a reviewable TOML file beside its module, each
entry typed: `load(name, key, kind)` reads `claims/<name>`'s array of tables `[[key]]` as a list
of `kind` (a frozen pydantic dataclass), every field checked.  An entry that is not of its kind is a
`TableError` naming the file, the entry (its number and its first field) and the field.
"""
from __future__ import annotations

import sys
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

if sys.version_info >= (3, 11):
    import tomllib
else:                       # Python 3.10 (a GPU box's system Python): the same parser, as a package
    import tomli as tomllib

HERE = Path(__file__).resolve().parent


class TableError(ValueError):
    """A malformed table file or entry: names the file, the entry and the field."""

    def __init__(self, where: str, field: str, why: str):
        super().__init__(f"{where}: field {field!r} {why}")
        self.where, self.field = where, field


def load(name: str, key: str, kind: type, folder: Path = HERE, holds: tuple[str, ...] = ()) -> list:
    """`claims/<name>`'s (or `folder`'s) `[[key]]` entries, each validated as a `kind`; `holds`: the
    file's other tables, where it has more than one (any table not named is refused)."""
    file = folder / name
    path = file.relative_to(HERE.parent).as_posix() if file.is_relative_to(HERE.parent) else str(file)
    try:
        table = tomllib.loads(file.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise TableError(path, "(the file)", f"is not TOML: {e}") from None
    except (OSError, UnicodeDecodeError) as e:       # not there (an install without its data), unreadable, not UTF-8
        raise TableError(path, "(the file)", f"cannot be read: {e}") from None
    others = sorted(set(table) - {key, *holds})
    if others:                                       # a misspelt [[reveiw]] would otherwise be dropped silently
        raise TableError(path, others[0], f"is not one of this file's tables ({', '.join(f'[[{t}]]' for t in (key, *holds))})")
    entries = table.get(key)
    if not isinstance(entries, list):
        raise TableError(path, key, f"is {entries!r}, not an array of tables [[{key}]]")
    adapter, out = TypeAdapter(kind), []
    for i, entry in enumerate(entries, 1):
        first = next(iter(entry.values()), None) if isinstance(entry, dict) else None
        where = f"{path}: [[{key}]] entry {i}" + (f" ({first!r})" if isinstance(first, str) else "")
        try:
            out.append(adapter.validate_python(entry))
        except ValidationError as e:
            err = e.errors()[0]
            field = ".".join(str(step) for step in err["loc"]) or "(the entry)"
            if err["type"] == "missing":
                why = "is missing"
            elif err["type"] == "unexpected_keyword_argument":
                why = f"is not a field of a {kind.__name__} (its fields: {', '.join(kind.__dataclass_fields__)})"
            else:
                why = f"is {err['input']!r}: {err['msg'][:1].lower()}{err['msg'][1:]}"
            raise TableError(where, field, why) from None
    return out
