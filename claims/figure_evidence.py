"""The committed evidence, keyed by the chapter's figures: results/figures.json.

One record per decided figure (a figure ID of the figure table, or, for a figure the chapter
derives without printing it, the claim and what it is), holding measured values and provenance
only, never a rule input (docs/evidence.md):

  key          the figure ID ("norm.postnorm"), "figure / claim" where two claims decide one
               figure, or "claim: what" for a derived figure or an ordering
  figures      the figure IDs it is evidence of; printed: each as the chapter printed it then
  claim        the claim ID
  rule         the rule and its version it was decided under ("trained/2", claims/rule_versions.py)
  measured     the measured values, per seed in seed order or per cell (claims/record_rules.py
               MEASURED says which fields each kind holds); the stated figure, its rounding, its
               null and the rule's kind are the figure table's (claims/record_rules.py spec_for)
  measurement  what was measured and its version ("perplexity/1", fixtures/measurements.py)
  runs         the runs it came from: group, recipe, seed and cache key of each
  verdict      the verdict it was given: holds, refuted, underspecified or undecided
  reading      optional: a reading of a choice the chapter leaves open, declared in docs/choices.md
               (claims/readings_declared.py): its name, its measured values (decided by the same
               rule inputs), the date they were measured and the runs; it makes a refuted figure
               underspecified only if declared before that date
  device, date, code, torch   where, when and at which commit it was measured

Pure (no torch, no pytest): `python -m claims.rederive` decides every record again from this
file and the figure table alone.  A measurement taken from a model's weights (attention
statistics, attention maps, perplexity at other windows, gradient profiles) is recorded here when
it is taken, so no verdict needs the weights to be decided again; only measuring again does.
"""
from __future__ import annotations

import json
from pathlib import Path

from claims.chapter_figures import FIGURES
from claims.decide import Decision, RuleInputError
from claims.readings_declared import ReadingError, declared_for, with_reading
from claims.record_rules import decide, spec_for
from claims.rule_versions import RULES, VersionError, rule_id, version_of
from claims.verdicts import record_key
from data.paths import PROJECT_ROOT
from fixtures.measurements import MEASUREMENTS
from fixtures.results import EvidenceError, read_json

FILE = PROJECT_ROOT / "results" / "figures.json"
SCHEMA = 2              # 1: records carried their rule inputs ("decision"); 2: measured values only
VERDICTS = ("holds", "refuted", "underspecified", "undecided")
REQUIRED = ("key", "figures", "printed", "claim", "rule", "measured", "measurement", "runs", "verdict",
            "device", "date", "code")
# measurements taken from a trained model: a record of one names the runs it came from
TRAINED = ("perplexity", "perplexity_at_window", "softmax_stats", "softmax_stats_at_init", "position_rows",
           "winograd_accuracy", "winograd_answers", "winograd_attention", "winograd_ablation", "held_out_curve")


class FigureEvidenceError(ValueError):
    """results/figures.json (or a record in it) is not what it should be; names the file, the record and the field."""


def problems(rec) -> list[str]:
    """What is wrong with one record's shape, field by field ([] if nothing)."""
    if not isinstance(rec, dict):
        return [f"a record is {type(rec).__name__}, not an object"]
    if "decision" in rec:
        return ["field 'decision' holds rule inputs; a record holds measured values only ('measured')"]
    out = [f"field {f!r} is missing" for f in REQUIRED if f not in rec]
    if out:
        return out
    if not isinstance(rec["key"], str) or not rec["key"]:
        out.append("field 'key' is not a non-empty string")
    unknown = [f for f in rec["figures"] if f not in FIGURES] if isinstance(rec["figures"], list) else ["?"]
    if unknown:
        out.append(f"field 'figures' names figures the figure table does not know: {unknown}")
    if rec["verdict"] not in VERDICTS:
        out.append(f"field 'verdict' is {rec['verdict']!r}, not one of {', '.join(VERDICTS)}")
    if not isinstance(rec["runs"], list):
        out.append("field 'runs' is not a list")
    if "reading" in rec:
        r = rec["reading"]
        if not isinstance(r, dict) or sorted(r) != ["date", "measured", "name", "runs"]:
            out.append("field 'reading' is not an object of name, measured, date and runs")
        elif not isinstance(r["runs"], list):
            out.append("field 'reading.runs' is not a list")
    return out


def load(path: Path = FILE) -> list[dict]:
    """Every record of the file, checked for shape; raises FigureEvidenceError naming the file,
    the record and the field.  A FIFO, a device or an oversized file is refused unread (fixtures/results.py read_json)."""
    path = Path(path)
    try:
        data = read_json(path, "figure evidence")     # the one reader: type and size checked before it is read
    except EvidenceError as e:
        raise FigureEvidenceError(str(e)) from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA or not isinstance(data.get("records"), list):
        raise FigureEvidenceError(f"{path}: not figure evidence of schema {SCHEMA} "
                                  "(an object with 'schema' and a list 'records')")
    seen = set()
    for i, rec in enumerate(data["records"]):
        where = f"{path}: record {i}" + (f" ({rec.get('key')})" if isinstance(rec, dict) else "")
        bad = problems(rec)
        if bad:
            raise FigureEvidenceError(f"{where}: " + "; ".join(bad))
        if rec["key"] in seen:
            raise FigureEvidenceError(f"{where}: key {rec['key']!r} appears twice")
        seen.add(rec["key"])
    return data["records"]


def dumps(records: list[dict]) -> str:
    """The file's text: records sorted by key, one stable layout (a diff shows what changed)."""
    return json.dumps({"schema": SCHEMA, "records": sorted(records, key=lambda r: r["key"])},
                      indent=1, sort_keys=True) + "\n"


class RecordError(ValueError):
    """One record that cannot be decided: names its field."""

    def __init__(self, field: str, message: str):
        super().__init__(f"field {field!r}: {message}")
        self.field = field


def stale(rec: dict) -> str | None:
    """Why a record is stale (decided under an older version of its rule, or under another rule
    the figure table no longer decides it by, or measured under an older version of its
    measurement), or None.  RecordError for a key with no rule inputs and for an unknown,
    malformed or newer rule or measurement version: no rule code here decides those."""
    try:
        spec = spec_for(rec["key"])
    except RuleInputError as e:
        raise RecordError("key", str(e).split(": ", 1)[1]) from None
    try:
        name, version = version_of(rec["rule"], RULES, "rule")
    except VersionError as e:
        raise RecordError("rule", str(e)) from None
    try:
        mname, mversion = version_of(rec["measurement"], MEASUREMENTS, "measurement")
    except VersionError as e:
        raise RecordError("measurement", str(e)) from None
    if name != spec.rule or version < RULES[name][0]:
        return f"decided under {rec['rule']}; the figure table decides it now under {rule_id(spec.rule)}"
    if mversion < MEASUREMENTS[mname][0]:
        return f"measured under {rec['measurement']}"
    return None


def redecide(rec: dict) -> Decision:
    """The record decided again from its measured values and the figure table's rule inputs, and
    with its declared reading where it keeps one (claims/readings_declared.py: underspecified
    where the primary refutes, the reading reproduces and was declared before it was measured).
    RecordError naming the field where the values are missing or mistyped, or the reading undeclared."""
    try:
        spec = spec_for(rec["key"])
        primary = decide(spec, rec["measured"])
    except RuleInputError as e:
        raise RecordError(e.field, str(e).split(": ", 1)[1]) from None
    if "reading" not in rec:
        return primary
    r = rec["reading"]
    try:
        declared = declared_for(rec["key"], r["name"])
        reading = decide(spec, r["measured"])
        verdict, why = with_reading(primary.verdict, reading.verdict, declared, r["date"])
    except RuleInputError as e:
        raise RecordError(f"reading.{e.field}", str(e).split(": ", 1)[1]) from None
    except ReadingError as e:
        raise RecordError(e.field, str(e).split(": ", 1)[1]) from None
    return Decision(verdict, primary.tolerance, f"{primary.why}; {why} (the reading: {reading.why})",
                    primary.measured)


def printed_now(rec: dict) -> list[str]:
    """The figures as the figure table prints them today (a changed figure must be decided again)."""
    return [FIGURES[f].printed for f in rec["figures"]]


def from_test(test: dict, meta: dict) -> list[dict]:
    """The figure records of one test's result (a run's claims.json): one per record, each keeping
    its measured values (the record's "decision").  Its verdict is decided here from them and the
    figure table, checked against the test's outcome: a test that holds has every record holding,
    a refuted one at least one refuted, an undecided one none refuted and one undecided; one that
    decided otherwise, under another rule than the figure table's, or recorded none, is named
    here and never saved."""
    claim = (test.get("claims") or [test.get("claim")])[0]
    out = []
    for rec in test.get("records") or []:
        if "decision" not in rec:
            continue
        key = record_key(rec, claim)
        try:
            spec = spec_for(key)
            decided = decide(spec, rec["decision"])
        except RuleInputError as e:
            raise FigureEvidenceError(f"{test.get('nodeid')}: record {key}: {e}; nothing saved") from None
        if rec.get("rule") != rule_id(spec.rule):
            raise FigureEvidenceError(f"{test.get('nodeid')}: record {key}: decided under {rec.get('rule')}, "
                                      f"the figure table decides it under {rule_id(spec.rule)}; nothing saved")
        if str(rec.get("measurement")).partition("/")[0] in TRAINED and not test.get("runs"):
            raise FigureEvidenceError(f"{test.get('nodeid')}: record {key}: a {rec.get('measurement')} measurement "
                                      "that names no runs (nothing shows it was trained); nothing saved")
        figures = list(rec.get("figures") or [])
        out.append({"key": key, "figures": figures,
                    "printed": printed_now({"figures": figures}),
                    "claim": claim, "rule": rec.get("rule"), "measured": rec["decision"],
                    "measurement": rec.get("measurement"), "runs": test.get("runs") or [],
                    "verdict": decided.verdict,
                    "device": rec.get("device") or test.get("device") or meta.get("device"),
                    "date": test.get("timestamp") or meta.get("timestamp"), "code": meta.get("commit"),
                    "torch": test.get("torch") or meta.get("torch")})
    if test.get("outcome") in VERDICTS:
        verdicts = [r["verdict"] for r in out]
        if not out:
            raise FigureEvidenceError(f"{test.get('nodeid')}: {test['outcome']}, but it recorded no decision "
                                      "(claims/rule.py trained_figure, ordering, or claim_record(decision=...)): "
                                      "its verdict could never be decided again; nothing saved")
        if any(v not in VERDICTS for v in verdicts) or outcome_of(verdicts) != test["outcome"]:
            raise FigureEvidenceError(f"{test.get('nodeid')}: the test's outcome is {test['outcome']}, but its recorded "
                                      f"decisions give {', '.join(verdicts)}; nothing saved")
    return out


def outcome_of(verdicts: list[str]) -> str:
    """A test's outcome from its records' verdicts: the most severe of refuted, underspecified,
    undecided, holds."""
    return next((v for v in ("refuted", "underspecified", "undecided") if v in verdicts), "holds")
