"""Committed verdicts checked against what today's rules decide: the re-derivation from the
committed evidence alone (claims/rederive.py, results/figures.json) and the rule versions
(textcheck/versions.py, stale verdicts)."""
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import inproc
import pytest
from records import figure_objects, figures_text

from claims.chapter import CHAPTER
from claims.record_rules import TIMED, decide, spec_for
from textcheck import evidence as figure_evidence
from textcheck import rederive as engine_rederive
from textcheck import verdict_file
from textcheck import versions as rule_versions
from textcheck.verdicts import outcome_label, summarise_claim, summary_of, summary_text, verdict_label

ROOT = Path(__file__).resolve().parent.parent.parent
COMMITTED = figure_evidence.load(CHAPTER, )


def _run(*args):
    """`python -m claims.rederive ARGS`, in this process (tests/inproc.py): what it decides and prints."""
    return inproc.rederive(*args)


def test_every_committed_figure_is_decided_again_without_torch():
    """The whole check, as CI runs it: every record decided, none skipped for weights, and
    neither torch nor pytest imported (python -X importtime lists every module imported).  How
    long it takes is a benchmark's (benchmarks/rederive.py), not a timed test's."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "claims.rederive"], cwd=ROOT,
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    decided = [rec for rec in COMMITTED if figure_evidence.stale(CHAPTER, rec) is None]
    assert f"{len(decided)} agree, 0 differ; 0 need weights" in r.stdout
    imported = {line.split("|")[-1].strip().split(".")[0] for line in r.stderr.splitlines() if "|" in line}
    # scipy.stats (the rule's quantiles and tests) brings numpy; torch and pytest stay out
    assert not imported & {"torch", "pytest"}, imported & {"torch", "pytest"}


def _test(nodeid, outcome, reason="", rule="trained/1", ts="2026-12-01T00:00:00+00:00"):
    return {"nodeid": nodeid, "outcome": outcome, "reason": reason, "timestamp": ts, "tier": "gpu",
            "device": "cpu", "seconds": 0.1, "source": "committed",
            "records": [{"stated": 1, "measured": 1, "tolerance": "t", "rule": rule}]}


def _first(group: str) -> dict:
    """The first committed, current record of a results group (its runs', or for cost its figures' prefix)."""
    current = [r for r in COMMITTED if figure_evidence.stale(CHAPTER, r) is None
               and spec_for(r.key).kind in ("trained", "rate", "within", "timed", "converges")]
    if group == "cost":
        return next(r for r in current if r.key.startswith("cost."))
    return next(r for r in current if any(run.group == group for run in r.runs))


def _changed(rec) -> dict:
    """The record's measured values with one changed enough to flip its verdict (holds to
    refuted, anything else to holds)."""
    spec, d = spec_for(rec.key), json.loads(json.dumps(rec.measured))
    holds = decide(spec, d).holds
    if spec.kind in ("trained", "rate"):
        # every seed moved past the stated figure by far more than its tolerance, or onto it
        d["values"] = [min(1.0, spec.stated + (0.5 if holds else 0)) if spec.kind == "rate"
                       else spec.stated + 1000.0 * holds for _ in d["values"]]
        if spec.kind == "rate" and holds and spec.stated >= 0.5:
            d["values"] = [0.0 for _ in d["values"]]
    elif spec.kind == "within":
        d["value"] = spec.stated + (1000.0 if holds else 0.0)
    elif spec.kind == "timed":
        timed = TIMED[spec.timed]
        inside = sum(timed.band) / 2 if timed.band else timed.stated
        d["value"] = 1000.0 if holds else inside
        d["interval"] = [d["value"] - 0.001, d["value"] + 0.001]
    elif spec.kind == "converges":
        # counts that grow linearly (ratio 2, not rising toward 4), or a count a n + n^2 (rising toward 4)
        d["counts"] = [n if holds else 1000 * n + n * n for n in d["ns"]]
    else:
        raise AssertionError(f"no change planned for a {spec.kind} record")
    return d


@pytest.mark.parametrize("group", ["norm", "scale", "ladder", "positions", "winograd", "cost"])
def test_a_changed_measurement_in_each_results_group_is_caught_naming_the_figure(group, tmp_path):
    target = _first(group)
    records = [replace(rec, measured=_changed(rec)) if rec.key == target.key else rec for rec in COMMITTED]
    path = tmp_path / "figures.json"
    path.write_text(figure_evidence.dumps(CHAPTER, records))
    r = _run(f"--evidence={path}")
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"DIFFERS {target.key}: committed {target.verdict}, decided now" in r.stdout, r.stdout
    assert ", 1 differ" in r.stdout


def test_a_figure_the_table_now_prints_differently_is_named(tmp_path):
    rec = next(r for r in COMMITTED if r.figures)
    records = [replace(r, printed=["12345"]) if r is rec else r for r in COMMITTED]
    path = tmp_path / "figures.json"
    path.write_text(figure_evidence.dumps(CHAPTER, records))
    r = _run(f"--evidence={path}")
    assert r.returncode == 1 and f"CHANGED {rec.key}: decided against ['12345']" in r.stdout


@pytest.mark.parametrize(("text", "why"), [
    ('{"records": [', "not valid JSON"),
    ('{"schema": 3, "records": [{"key": "x"}]}', "field 'figures' is missing"),
    ('{"schema": 2, "records": []}', "not figure evidence of schema 3"),
])
def test_corrupt_figure_evidence_is_named(tmp_path, text, why):
    path = tmp_path / "figures.json"
    path.write_text(text)
    r = _run(f"--evidence={path}")
    assert r.returncode == 2 and str(path) in r.stderr and why in r.stderr, r.stderr


def test_a_record_of_an_unknown_figure_or_verdict_is_named(tmp_path):
    records = figure_objects(COMMITTED)
    records[0]["figures"], records[1]["verdict"] = ["no.such_figure"], "maybe"
    path = tmp_path / "figures.json"
    path.write_text(figures_text(records))
    r = _run(f"--evidence={path}")
    assert r.returncode == 2 and "no.such_figure" in r.stderr, r.stderr


def test_the_committed_figure_records_agree_with_the_committed_verdicts():
    """results/figures.json and results/verdicts.json say the same of every committed test."""
    verdicts = verdict_file.load(CHAPTER, ROOT / "results" / "verdicts.json")
    assert engine_rederive.against_verdicts(CHAPTER, COMMITTED, verdicts) == []


def test_a_verdict_changed_in_verdicts_json_or_a_figure_record_dropped_is_caught(tmp_path):
    verdicts = json.loads((ROOT / "results" / "verdicts.json").read_text())
    test = next(t for c in verdicts["claims"] for t in c["tests"] if t["outcome"] == "holds")
    test["outcome"] = "refuted"
    (tmp_path / "verdicts.json").write_text(json.dumps(verdicts))
    (tmp_path / "figures.json").write_text(figure_evidence.dumps(CHAPTER, COMMITTED))
    r = _run(f"--evidence={tmp_path / 'figures.json'}")
    assert r.returncode == 1 and "DISAGREES" in r.stdout and test["key"] in r.stdout, r.stdout
    (tmp_path / "verdicts.json").write_text((ROOT / "results" / "verdicts.json").read_text())
    (tmp_path / "figures.json").write_text(figure_evidence.dumps(CHAPTER, COMMITTED[1:]))
    r = _run(f"--evidence={tmp_path / 'figures.json'}")
    assert r.returncode == 1 and "no figure record" in r.stdout and COMMITTED[0].key in r.stdout, r.stdout


def test_the_committed_verdicts_all_name_their_rule():
    committed = verdict_file.load(CHAPTER, ROOT / "results" / "verdicts.json")
    rule_names = {rec.get("rule") for c in committed for t in c.tests for rec in t.records}
    assert None not in rule_names
    assert {r.partition("/")[0] for r in rule_names} <= set(rule_versions.RULE_VERSIONS)


# ------------------------------------------------------------------ stale verdicts

TIMING = "claims/test_cost.py::test_time_grows_as_n_squared[cpu]"


def test_a_verdict_decided_under_an_older_rule_is_stale_never_a_plain_holds():
    old = _test(TIMING, "holds", rule="timing/1")
    c = summarise_claim(CHAPTER, "cost.time_quadratic", [old], encoded=True)
    assert c["verdict"] == "stale"
    assert verdict_label(CHAPTER, c).startswith("stale (1 figure(s) decided under an older rule")
    assert outcome_label(CHAPTER, old).startswith("stale: holds, decided under timing/1: decide it again")
    s = summary_of([c])
    assert s["stale"] == 1 and s["holds"] == 0 and "1 stale" in summary_text(s)


def test_a_fresh_verdict_under_the_current_rule_replaces_the_stale_one():
    current = rule_versions.rule_id("timing")
    assert current == f"timing/{rule_versions.RULE_VERSIONS['timing'][0]}" and current != "timing/1"
    # on CUDA: a clock decides there only (docs/cost.md); on the CPU both would be readings
    c = summarise_claim(CHAPTER, "cost.time_quadratic", [dict(_test(TIMING, "refuted", "refuted: 2.05", rule=current), device="cuda"),
                                                dict(_test(TIMING.replace("[cpu]", "[x]"), "holds", rule="timing/1"),
                                                     device="cuda")], True)
    assert c["verdict"] == "refuted" and "1 stale" in verdict_label(CHAPTER, c)


def test_an_unknown_rule_is_a_clear_error():
    with pytest.raises(KeyError, match="unknown rule 'taste'"):
        rule_versions.rule_id("taste")


def test_a_record_measured_under_an_older_measurement_version_is_stale(tmp_path):
    old = dict(_test(TIMING, "holds", rule=rule_versions.rule_id("timing")))
    old["records"] = [dict(old["records"][0], measurement="timing/0")]
    assert outcome_label(CHAPTER, old).startswith("stale: holds, measured under timing/0: measure it again")
    assert summarise_claim(CHAPTER, "cost.time_quadratic", [old], encoded=True)["verdict"] == "stale"
