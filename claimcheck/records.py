"""Typed evidence: the kinds of record results/ holds, and the one validator that checks them.

Each kind is a dataclass whose fields say what the record holds and of which type: a run a
figure record names (`RunRef`), a declared reading's measurement (`Reading`), a figure record of
results/figures.json (`FigureRecord`: the measurement and its decision), a test's outcome
(`TestOutcome`) and a claim's verdict (`ClaimVerdict`) of results/verdicts.json, and a run record
of results/<group>.json (`RunRecord`).  `check(kind, value, where)` is the one validator: it
reads the dataclass's fields and raises a `RecordFieldError` naming the file, the record (its key
or index) and the field; the codecs (claimcheck/evidence.py for figures.json,
claimcheck/verdict_file.py for verdicts.json, a text's run records) call it on every record they
read.  A figure record is handed on as the FigureRecord it gives (claimcheck/evidence.py load:
its readers take its fields by name), and so is a committed claim, as the ClaimVerdict of its
tests' TestOutcomes (claimcheck/verdict_file.py load); a test's own records, the report's rows
of the merged claims and a fresh run's tests are read as the JSON objects they are (a fresh test
is typed, checked by the validator, when the save keeps it).  A run record is handed on as the RunRecord it gives (the text's decoder: the engine
reads it through the Chapter's `run_records`, this project's is fixtures/results.py decode).

Why dataclasses and a validator of our own rather than pydantic (docs/evidence.md): the engine
imports nothing a text's package does not already have (the report and `python -m
claims.rederive` run without torch, in CI, from a bare checkout), the records are few and flat,
and every error has to name the file and the record as well as the field, in the words the
tests and docs/evidence.md use; a validator of thirty lines does that and is read in a minute.
Pure standard library.
"""
from __future__ import annotations

import functools
import types
import typing
from dataclasses import MISSING, dataclass, field, fields
from typing import Literal, Union

from claimcheck.store import EvidenceError, shown
from claimcheck.verdicts import FIGURE_VERDICTS


class RecordFieldError(EvidenceError):
    """A record of an evidence file that is not of its kind: names the file, the record and the field."""

    def __init__(self, where: str, field: str, why: str):
        super().__init__(f"{where}: field {field!r} {why}")
        self.where, self.field = where, field


@dataclass(frozen=True)
class RunRef:
    """A trained run a figure record names: its group (results/<group>.json), recipe, seed and cache key."""
    group: str
    recipe: str
    seed: int
    key: str


@dataclass(frozen=True)
class Reading:
    """A reading the text leaves open, declared in docs/choices.md, measured beside the primary one."""
    name: str
    measured: dict
    date: str
    runs: list[RunRef]


@dataclass(frozen=True)
class FigureRecord:
    """One record of results/figures.json: the measurement of a figure and its decision, with
    provenance.  Never a rule input: those are the figure table's (claimcheck/specs.py)."""
    key: str
    figures: list[str]
    printed: list[str]                 # each figure as the table printed it when it was decided
    claim: str
    rule: str                          # "trained/2" (claimcheck/versions.py)
    measured: Union[dict, None]        # noqa: UP007 -- evaluated at run time by check()
    measurement: Union[str, None]      # noqa: UP007 -- "perplexity/1" (the Chapter's measurements)
    runs: list[RunRef]
    verdict: Literal[FIGURE_VERDICTS]  # the ladder's decided rungs (claimcheck/verdicts.py LADDER)
    device: Union[str, None]           # noqa: UP007
    date: Union[str, None]             # noqa: UP007
    code: Union[str, None]             # noqa: UP007
    torch: Union[str, None] = None     # noqa: UP007
    reading: Union[Reading, None] = None   # noqa: UP007


@dataclass(frozen=True)
class TestOutcome:
    """One test's outcome in results/verdicts.json, keyed by what it measured (`key`: its figure
    record keys, " & "-joined).  Its records hold what its figure records do not: the stated
    figure, the tolerance, the label; a measured value its figure record holds is referred to
    by key (claimcheck/verdict_file.py), never copied.  Its fields stand in the order the file
    writes them (claimcheck/verdicts.py outcome_object: the one encoder)."""
    __test__ = False                   # not a pytest test class
    nodeid: str
    outcome: str
    reason: str = ""
    records: list[dict] = field(default_factory=list)
    tier: Union[str, None] = None      # noqa: UP007
    device: Union[str, None] = None    # noqa: UP007
    figures: list[str] = field(default_factory=list)
    runs: Union[list[RunRef], None] = None    # noqa: UP007 -- the trained runs it came from; None: it names none
    seconds: Union[float, None] = None    # noqa: UP007
    timestamp: Union[str, None] = None    # noqa: UP007
    torch: Union[str, None] = None     # noqa: UP007
    python: Union[str, None] = None    # noqa: UP007
    source: Union[str, None] = None    # noqa: UP007
    key: Union[str, None] = None       # noqa: UP007 -- None in a run's report for a test that recorded nothing


@dataclass(frozen=True)
class ClaimVerdict:
    """One claim in results/verdicts.json: its verdict and its tests.  Everything else a report
    shows of it (statement, section, stated figure, reasons, seeds) is the Chapter's or is
    summarised from its tests when it is read (claimcheck/verdicts.py summarise_claim)."""
    id: str
    verdict: str
    tests: list[TestOutcome]


@dataclass(frozen=True)
class RunRecord:
    """One trained run of results/<group>.json.  Its metrics are stored once, in `metrics` (a file of
    the first format repeated val_ppl and train_ppl beside them: read, never written; a copy that
    differs is refused).  `device` is written only where it is not the one in `metrics`."""
    recipe: str
    seed: int
    key: Union[str, None] = None       # noqa: UP007
    config: Union[dict, None] = None   # noqa: UP007 -- what ties it to its recipe (fixtures' validator)
    metrics: dict = field(default_factory=dict)
    curve: list = field(default_factory=list)      # [step, loss] pairs (fixtures' validator checks each)
    date: Union[str, None] = None      # noqa: UP007
    wall_seconds: Union[float, None] = None    # noqa: UP007
    device: Union[str, None] = None    # noqa: UP007
    training_version: Union[int, None] = None  # noqa: UP007
    code: Union[str, None] = None      # noqa: UP007
    torch: Union[str, None] = None     # noqa: UP007
    python: Union[str, None] = None    # noqa: UP007


@functools.cache               # a kind's hints never change: resolved once per process, not per record
def _hints(kind) -> dict:
    return typing.get_type_hints(kind, globalns=globals())


def _type_name(tp) -> str:
    origin = typing.get_origin(tp)
    if origin is Literal:
        return "one of " + ", ".join(map(str, typing.get_args(tp)))
    if origin in (Union, types.UnionType):
        return " or ".join(_type_name(a) for a in typing.get_args(tp))
    if origin is list:
        return f"a list of {_type_name(typing.get_args(tp)[0])}"
    return {str: "a string", int: "a whole number", float: "a number", dict: "an object", type(None): "null"}.get(
        tp, f"a {getattr(tp, '__name__', tp)}")


def _conforms(value, tp, where: str, field: str):
    """`value` as `tp` (a dataclass built from its object), or RecordFieldError naming where."""
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        if value is None and type(None) in typing.get_args(tp):
            return None
        options = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(options) == 1:
            return _conforms(value, options[0], where, field)
        if any(_is(value, a) for a in options):
            return value
    elif origin is Literal:
        if value in typing.get_args(tp):
            return value
    elif origin is list:
        if isinstance(value, list):
            return [_conforms(v, typing.get_args(tp)[0], where, f"{field}[{i}]") for i, v in enumerate(value)]
    elif hasattr(tp, "__dataclass_fields__"):
        if isinstance(value, dict):
            return check(tp, value, where, prefix=f"{field}.")
    elif _is(value, tp):
        return value
    raise RecordFieldError(where, field, f"is {shown(value)}, not {_type_name(tp)}")


def _is(value, tp) -> bool:
    if tp is float:       # a number (inf and nan included: a diverged run's perplexity is evidence too)
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, tp)


def check(kind, value, where: str, prefix: str = "", extra: bool = False):
    """`value` (an object read from JSON) as a `kind` (one of the dataclasses above), every field
    checked; RecordFieldError naming `where` (the file and the record) and the field otherwise: a
    field missing, of the wrong type, or (unless `extra`) one the kind does not have."""
    if not isinstance(value, dict):
        raise RecordFieldError(where, prefix.rstrip(".") or "(the record)",
                               f"is {shown(value)}, not an object (a {kind.__name__})")
    hints = _hints(kind)
    out = {}
    for f in fields(kind):
        name = prefix + f.name
        if f.name not in value:
            if f.default is MISSING and f.default_factory is MISSING:
                raise RecordFieldError(where, name, "is missing")
            out[f.name] = f.default if f.default is not MISSING else f.default_factory()
            continue
        out[f.name] = _conforms(value[f.name], hints[f.name], where, name)
    unknown = sorted(set(value) - set(out))
    if unknown and not extra:
        raise RecordFieldError(where, prefix + unknown[0], f"is not a field of a {kind.__name__} "
                               f"(its fields: {', '.join(f.name for f in fields(kind))})")
    return kind(**out)
