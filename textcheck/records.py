"""Typed evidence: the kinds of record results/ holds, one pydantic model each, and the one check.

A run a figure record names (`RunRef`), a declared reading's measurement (`Reading`), a figure
record of results/figures.json (`FigureRecord`: the measurement, its decision and the test's display
of it), a test's outcome (`TestOutcome`) and a claim's verdict (`ClaimVerdict`) of
results/verdicts.json as the report reads them, the index's entries of them as that file holds them
(`ClaimEntry`, `TestEntry`), and a run record of results/<group>.json (`RunRecord`).  Each is a frozen
pydantic dataclass: typed from the file to the arithmetic, compared, copied (`dataclasses.replace`)
and encoded (`dataclasses.asdict`) as a dataclass.  `check(kind, value, where)` validates a JSON
object as one and turns pydantic's first complaint into a `RecordFieldError` naming the file, the
record (its key or index) and the field, in one line: every command shows that line and exits 2,
never a traceback.  A number is an int or a float, never a bool or a string; inf and nan are
numbers (a diverged run's perplexity is evidence too).
"""
from __future__ import annotations

import dataclasses
import functools
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

from pydantic import ConfigDict, PlainValidator, StrictInt, StrictStr, TypeAdapter, ValidationError
from pydantic.dataclasses import dataclass
from pydantic_core import PydanticCustomError

from textcheck.store import EvidenceError, shown
from textcheck.vocabulary import FIGURE_VERDICTS

CONFIG = ConfigDict(extra="forbid", allow_inf_nan=True)


class RecordFieldError(EvidenceError):
    """A record of an evidence file that is not of its kind: names the file, the record and the field."""

    def __init__(self, where: str, field: str, why: str):
        super().__init__(f"{where}: field {field!r} {why}")
        self.where, self.field = where, field


def _number(v):
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return v
    raise PydanticCustomError("number", "a number")


Number = Annotated[Any, PlainValidator(_number)]
Str = StrictStr | None


@dataclass(frozen=True, config=CONFIG)
class RunRef:
    """A trained run a figure record names: its group (results/<group>.json), recipe, seed and cache key."""
    group: StrictStr
    recipe: StrictStr
    seed: StrictInt
    key: StrictStr


@dataclass(frozen=True, config=CONFIG)
class Reading:
    """A reading the text leaves open, declared in docs/choices.md, measured beside the primary one."""
    name: StrictStr
    measured: dict
    date: StrictStr
    runs: list[RunRef]


@dataclass(frozen=True, config=CONFIG)
class FigureRecord:
    """One record of results/figures.json: the measurement of a figure and its decision, with
    provenance, and what its test shows of it (`shown`: the test's record as the report reads it).
    Never a rule input: those are the figure table's (textcheck/specs.py)."""
    key: StrictStr
    figures: list[StrictStr]
    printed: list[StrictStr]           # each figure as the table printed it when it was decided
    claim: StrictStr
    rule: StrictStr                    # "trained/3" (textcheck/versions.py)
    measured: dict | None
    measurement: Str                   # "perplexity/1" (the Chapter's measurements)
    runs: list[RunRef]
    verdict: Literal[FIGURE_VERDICTS]  # the ladder's decided rungs (textcheck/verdicts.py LADDER)
    device: Str
    date: Str
    code: Str
    torch: Str = None
    reading: Reading | None = None
    shown: dict | None = None


@dataclass(frozen=True, config=CONFIG)
class TestOutcome:
    """One test's outcome, keyed by what it measured (`key`: its figure record keys, " & "-joined).
    Its records are what it showed (in results/, its figure records' `shown`).  Its fields stand
    in the order a run's claims.json writes them (textcheck/merging.py outcome_object)."""
    __test__ = False                   # not a pytest test class
    nodeid: StrictStr
    outcome: StrictStr
    reason: StrictStr = ""
    records: list[dict] = dataclasses.field(default_factory=list)
    tier: Str = None
    device: Str = None
    figures: list[StrictStr] = dataclasses.field(default_factory=list)
    runs: list[RunRef] | None = None     # the trained runs it came from; None: it names none
    seconds: Number | None = None
    timestamp: Str = None
    torch: Str = None
    python: Str = None
    source: Str = None
    key: Str = None                    # None in a run's report for a test that recorded nothing


@dataclass(frozen=True, config=CONFIG)
class ClaimVerdict:
    """One claim of results/verdicts.json: its verdict and its tests.  Everything else a report
    shows of it (statement, section, stated figure, reasons, seeds) is the Chapter's or is
    summarised from its tests when it is read (textcheck/verdicts.py summarise_claim)."""
    id: StrictStr
    verdict: StrictStr
    tests: list[TestOutcome]


@dataclass(frozen=True, config=CONFIG)
class TestEntry:
    """A test in results/verdicts.json, the index: what it measured (`key`: its figure records'
    keys), its outcome and the provenance its figure records do not hold.  Its device and torch
    are its figure record's, named here only where they differ."""
    __test__ = False
    nodeid: StrictStr
    key: StrictStr
    outcome: StrictStr
    reason: StrictStr = ""
    tier: Str = None
    seconds: Number | None = None
    timestamp: Str = None
    python: Str = None
    source: Str = None
    device: Str = None
    torch: Str = None


@dataclass(frozen=True, config=CONFIG)
class ClaimEntry:
    """A claim in results/verdicts.json: its ID, its verdict and its tests (each read as a
    TestEntry by the file's reader, which names the test)."""
    id: StrictStr
    verdict: StrictStr
    tests: list


@dataclass(frozen=True, config=CONFIG)
class RunRecord:
    """One trained run of results/<group>.json (its text's codec: fixtures/run_codec.py)."""
    recipe: StrictStr
    seed: StrictInt
    key: Str = None
    config: dict | None = None      # what ties it to its recipe (the text's validator)
    metrics: dict = dataclasses.field(default_factory=dict)
    curve: list = dataclasses.field(default_factory=list)      # [step, loss] pairs (the text's validator)
    date: Str = None
    wall_seconds: Number | None = None
    device: Str = None
    training_version: StrictInt | None = None
    code: Str = None
    torch: Str = None
    python: Str = None
    # sha256 of the trained weights (the cache entry's meta.json weights_sha256): what ties the
    # values measured from them to these weights, not only to the config; absent in runs recorded
    # before it was kept (optional)
    weights_sha256: Str = None
    # when it went on record: the time a save (or `python -m fixtures`) first committed it to
    # results/, which `date` (when it was trained, its cache entry's `created`) is not: a seed trained
    # before a record was decided and committed after it was not on record when it was decided
    # (claims/run_check.py short_of_record); absent in runs committed before it was kept (optional)
    recorded: Str = None

    @classmethod
    def checked(cls, value, where: str) -> RunRecord:
        """A run record read from JSON, every field checked (`check`): what a text's codec of its
        run records calls, naming `where` (the file and the record) in its error."""
        return check(cls, value, where)


WORDS = {"int_type": "a whole number", "int_from_float": "a whole number", "string_type": "a string",
         "dict_type": "an object", "list_type": "a list", "number": "a number", "bool_type": "true or false"}


@functools.cache
def _adapter(kind) -> TypeAdapter:
    return TypeAdapter(kind)


@functools.cache
def field_names(kind) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(kind))


def _inner(tp):
    """The record kind a field's type holds (through list[...] and Optional[...]), or None."""
    while get_origin(tp) in (list, Union, Annotated):
        tp = next((a for a in get_args(tp) if a is not type(None)), None)
    return tp if dataclasses.is_dataclass(tp) else None


@dataclasses.dataclass(frozen=True)
class _Complaint:
    """One of pydantic's complaints (its ErrorDetails, without its URL), read once."""
    type: str
    loc: tuple
    msg: str
    input: Any
    ctx: dict | None = None


def _error(kind, where: str, prefix: str, e: _Complaint) -> RecordFieldError:
    """pydantic's complaint `e` in the words of the other checks: the field's path, then why."""
    path, owner = prefix, kind
    for step in e.loc:
        if isinstance(step, int):
            path += f"[{step}]"
        elif owner is not None and step in field_names(owner):
            path += ("." if path and not path.endswith(".") else "") + step
            owner = _inner(get_type_hints(owner)[step])
        elif owner is not None and e.type == "unexpected_keyword_argument":
            path += ("." if path and not path.endswith(".") else "") + str(step)
    if e.type == "missing":
        return RecordFieldError(where, path, "is missing")
    if e.type == "unexpected_keyword_argument":
        return RecordFieldError(where, path, f"is not a field of a {owner.__name__} "
                                f"(its fields: {', '.join(field_names(owner))})")
    if e.type == "literal_error":           # pydantic's words: "Input should be 'holds', 'refuted' or ..."
        expected = "one of " + e.msg.removeprefix("Input should be ").replace("'", "")
    elif e.type in ("dataclass_type", "dataclass_args_type"):
        expected = f"an object (a {(owner or kind).__name__})"
    else:
        expected = WORDS.get(e.type, e.msg.lower())
    return RecordFieldError(where, path or "(the record)", f"is {shown(e.input)}, not {expected}")


def check(kind, value, where: str, prefix: str = "", extra: bool = False):
    """`value` (an object read from JSON) as a `kind` (one of the models above), every field
    checked; RecordFieldError naming `where` (the file and the record) and the first field it
    refuses otherwise: a field missing, of the wrong type, or (unless `extra`) one the kind does not have."""
    if not isinstance(value, dict):
        raise RecordFieldError(where, prefix.rstrip(".") or "(the record)",
                               f"is {shown(value)}, not an object (a {kind.__name__})")
    if extra:
        value = {k: v for k, v in value.items() if k in field_names(kind)}
    try:
        return _adapter(kind).validate_python(value)
    except ValidationError as e:
        raise _error(kind, where, prefix, _Complaint(**e.errors(include_url=False)[0])) from None
