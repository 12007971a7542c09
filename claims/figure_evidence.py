"""The committed evidence, keyed by the chapter's figures: results/figures.json.

One record per decided figure (a figure ID of the figure table, or, for a figure the chapter
derives without printing it, the claim and what it is), holding what deciding it again needs:

  key          the figure ID ("norm.postnorm"), "figure / claim" where two claims decide one
               figure, or "claim: what" for a derived figure
  figures      the figure IDs it is evidence of; printed: each as the chapter printed it then
  claim        the claim ID
  rule         the rule and its version ("trained/1", claims/rule_versions.py)
  decision     the rule's inputs (claims/decide.py again): the values measured, per seed in
               seed order (`seeds`) or per cell, the stated figure and its tolerance parameters
  measurement  what was measured and its version ("perplexity/1", fixtures/measurements.py)
  runs         the runs it came from: group, recipe, seed and cache key of each
  verdict      the verdict it was given: holds or refuted
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
from claims.decide import KINDS, Decision, again
from claims.verdicts import record_key
from data.paths import PROJECT_ROOT

FILE = PROJECT_ROOT / "results" / "figures.json"
SCHEMA = 1
VERDICTS = ("holds", "refuted")
REQUIRED = ("key", "figures", "printed", "claim", "rule", "decision", "measurement", "runs", "verdict",
            "device", "date", "code")


class FigureEvidenceError(ValueError):
    """results/figures.json (or a record in it) is not what it should be; names the file, the record and the field."""


def problems(rec) -> list[str]:
    """What is wrong with one record, field by field ([] if nothing)."""
    if not isinstance(rec, dict):
        return [f"a record is {type(rec).__name__}, not an object"]
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
    if rec["decision"] is not None:
        kind = rec["decision"].get("kind") if isinstance(rec["decision"], dict) else None
        if kind not in KINDS:
            out.append(f"field 'decision' has kind {kind!r}, not one of {', '.join(KINDS)}")
        else:
            out += [f"field 'decision' lacks {k!r}" for k in KINDS[kind] if k not in rec["decision"]]
    if not isinstance(rec["runs"], list):
        out.append("field 'runs' is not a list")
    return out


def load(path: Path = FILE) -> list[dict]:
    """Every record of the file, checked; raises FigureEvidenceError naming the file, the record
    and the field."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FigureEvidenceError(f"{path}: not found") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise FigureEvidenceError(f"{path}: not valid JSON ({e})") from None
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


def redecide(rec: dict) -> Decision | None:
    """The record decided again under today's rule; None where it records no decision (a figure
    decided under a rule version whose inputs it does not keep: stale until measured again)."""
    return again(rec["decision"]) if rec["decision"] is not None else None


def printed_now(rec: dict) -> list[str]:
    """The figures as the figure table prints them today (a changed figure must be decided again)."""
    return [FIGURES[f].printed for f in rec["figures"]]


def from_test(test: dict, meta: dict) -> list[dict]:
    """The figure records of one test's result (a run's claims.json): one per record, each keeping
    its decision's inputs.  Its verdict is the decision's, checked against the test's outcome: a
    test that holds has every record holding, a refuted one at least one refuted; one that decided
    otherwise than its recorded decisions, or recorded none, is named here and never saved."""
    claim = (test.get("claims") or [test.get("claim")])[0]
    out = []
    for rec in test.get("records") or []:
        if "decision" not in rec:
            continue
        decided = redecide(rec)
        figures = list(rec.get("figures") or [])
        out.append({"key": record_key(rec, claim), "figures": figures,
                    "printed": printed_now({"figures": figures}),
                    "claim": claim, "rule": rec.get("rule"), "decision": rec["decision"],
                    "measurement": rec.get("measurement"), "runs": test.get("runs") or [],
                    "verdict": decided.verdict if decided else test["outcome"],
                    "device": rec.get("device") or test.get("device") or meta.get("device"),
                    "date": test.get("timestamp") or meta.get("timestamp"), "code": meta.get("commit"),
                    "torch": test.get("torch") or meta.get("torch")})
    if test.get("outcome") in VERDICTS:
        verdicts = [r["verdict"] for r in out]
        if not out:
            raise FigureEvidenceError(f"{test.get('nodeid')}: {test['outcome']}, but it recorded no decision "
                                      "(claims/rule.py trained_figure, ordering, or claim_record(decision=...)): "
                                      "its verdict could never be decided again; nothing saved")
        if any(v not in VERDICTS for v in verdicts) or (test["outcome"] == "holds") != all(v == "holds" for v in verdicts):
            raise FigureEvidenceError(f"{test.get('nodeid')}: the test's outcome is {test['outcome']}, but its recorded "
                                      f"decisions give {', '.join(verdicts)}; nothing saved")
    return out
