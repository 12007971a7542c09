"""The chapter's data tables (claims/toml_table.py): a TOML file's entries typed, and a malformed
entry refused by name: the file, the entry and the field."""
from __future__ import annotations

from typing import Literal

import pytest
from pydantic import ConfigDict, StrictStr
from pydantic.dataclasses import dataclass

from claims.toml_table import TableError, load


@dataclass(frozen=True, config=ConfigDict(extra="forbid"))
class Row:
    name: StrictStr
    kind: Literal["a", "b"]


def _load(tmp_path, text: str):
    (tmp_path / "t.toml").write_text(text, encoding="utf-8")
    return load("t.toml", "row", Row, folder=tmp_path)


def test_entries_are_typed_in_order(tmp_path):
    rows = _load(tmp_path, '[[row]]\nname = "x"\nkind = "a"\n\n[[row]]\nname = \'y\\z\'\nkind = "b"\n')
    assert rows == [Row("x", "a"), Row("y\\z", "b")]


@pytest.mark.parametrize("entry, field, why", [
    ('name = "y"\nkind = "c"', "kind", "is 'c': input should be 'a' or 'b'"),
    ('name = "y"', "kind", "is missing"),
    ('name = 3\nkind = "a"', "name", "is 3: input should be a valid string"),
    ('name = "y"\nkind = "a"\nextra = 1', "extra", "is not a field of a Row (its fields: name, kind)"),
])
def test_a_malformed_entry_names_the_file_the_entry_and_the_field(tmp_path, entry, field, why):
    with pytest.raises(TableError) as e:
        _load(tmp_path, f'[[row]]\nname = "x"\nkind = "a"\n\n[[row]]\n{entry}\n')
    label = "" if entry.startswith("name = 3") else " ('y')"          # the entry's first field, where a string
    assert str(e.value) == f"{tmp_path / 't.toml'}: [[row]] entry 2{label}: field {field!r} {why}"
    assert e.value.field == field


def test_a_file_that_is_not_toml_or_has_no_such_table_is_named(tmp_path):
    with pytest.raises(TableError, match=r"t\.toml: field '\(the file\)' is not TOML"):
        _load(tmp_path, "[[row]\n")
    with pytest.raises(TableError, match=r"t\.toml: field 'row' is None, not an array of tables \[\[row\]\]"):
        _load(tmp_path, '# nothing yet\n')


def test_a_misspelt_table_a_missing_file_or_one_not_utf8_is_named(tmp_path):
    with pytest.raises(TableError, match=r"t\.toml: field 'rwo' is not one of this file's tables \(\[\[row\]\]\)"):
        _load(tmp_path, '[[row]]\nname = "x"\nkind = "a"\n\n[[rwo]]\nname = "y"\nkind = "a"\n')
    with pytest.raises(TableError, match=r"gone\.toml: field '\(the file\)' cannot be read"):
        load("gone.toml", "row", Row, folder=tmp_path)
    (tmp_path / "t.toml").write_bytes(b'[[row]]\nname = "\xff"\nkind = "a"\n')
    with pytest.raises(TableError, match=r"t\.toml: field '\(the file\)' cannot be read"):
        load("t.toml", "row", Row, folder=tmp_path)
