"""Committed verdicts checked against what today's code and rules decide: the re-derivation
(claims/rederive.py) and the rule versions (claims/rule_versions.py, stale verdicts)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from claims import rederive, rule_versions
from claims.verdicts import outcome_label, summarise_claim, summary_of, summary_text, verdict_label
from data.paths import checkout_commit

ROOT = Path(__file__).resolve().parent.parent
LEVEL = "claims/test_ladder_trained.py::test_run_ends_at_the_chapters_perplexity[x]"
GAIN = "claims/test_ladder_trained.py::test_gain_in_perplexity_points[y]"
MAPS = "claims/test_winograd.py::test_printed_attention_weight[z]"
NEEDS_GIT = pytest.mark.skipif(checkout_commit() is None, reason="no git repository here: a commit cannot be checked")


def _test(nodeid, outcome, reason="", rule="trained/1", ts="2026-12-01T00:00:00+00:00"):
    return {"nodeid": nodeid, "outcome": outcome, "reason": reason, "timestamp": ts, "tier": "gpu",
            "device": "cpu", "seconds": 0.1, "source": "committed",
            "records": [{"stated": 1, "measured": 1, "tolerance": "t", "rule": rule}]}


def _report(*tests, cid="depth.two_blocks_overfit", **meta):
    """A --from-results run's report made here (the kind the re-derivation takes), with `meta` over it."""
    return {"meta": {"scale": "chapter", "from_results": True, "commit": checkout_commit(), **meta},
            "claims": [{"id": cid, "tests": list(tests)}]}


def test_a_rederived_verdict_that_differs_is_named_with_both_verdicts(tmp_path):
    committed = _report(_test(LEVEL, "holds"), _test(GAIN, "refuted"), _test(MAPS, "holds"))
    fresh = _report(_test(LEVEL, "refuted", "refuted: 41.2 ± 0.3, not 40.57"), _test(GAIN, "refuted"),
                    _test(MAPS, "not run", "winograd_hardened_two_blocks seed 0 is not in the trained cache (--cached-only)"))
    result = rederive.compare(fresh, committed)
    assert result["agree"] == [GAIN] and result["need_weights"] == [MAPS]
    assert result["differ"] == [(LEVEL, "holds", "refuted", "refuted: 41.2 ± 0.3, not 40.57")]
    (tmp_path / "claims.json").write_text(json.dumps(fresh))
    (tmp_path / "committed.json").write_text(json.dumps(committed))
    r = subprocess.run([sys.executable, "-m", "claims.rederive", f"--report-dir={tmp_path}",
                        f"--committed={tmp_path / 'committed.json'}"], cwd=ROOT, capture_output=True, text=True,
                       check=False)
    assert r.returncode == 1
    assert f"DIFFERS {LEVEL}: committed holds, fresh refuted" in r.stdout
    assert "re-derived 2 committed figure verdicts" in r.stdout and "need weights not cached here" in r.stdout


def test_agreeing_verdicts_pass_and_a_run_that_decided_nothing_fails(tmp_path):
    committed = _report(_test(LEVEL, "holds"))
    for fresh, code in ((_report(_test(LEVEL, "holds")), 0), (_report(_test(LEVEL, "not run", "skipped")), 1)):
        (tmp_path / "claims.json").write_text(json.dumps(fresh))
        (tmp_path / "committed.json").write_text(json.dumps(committed))
        r = subprocess.run([sys.executable, "-m", "claims.rederive", f"--report-dir={tmp_path}",
                            f"--committed={tmp_path / 'committed.json'}"], cwd=ROOT, capture_output=True,
                           text=True, check=False)
        assert r.returncode == code, r.stdout + r.stderr


@pytest.mark.parametrize(("meta", "why"), [
    ({"scale": "smoke"}, "a --smoke run"),
    ({"from_results": False}, "not a --from-results run"),
    ({"from_results": None}, "not a --from-results run"),
    pytest.param({"commit": "0" * 40}, f"made at commit {'0' * 40}, but this checkout is at", marks=NEEDS_GIT),
    pytest.param({"commit": None}, "made at commit unknown", marks=NEEDS_GIT),
])
def test_the_rederivation_refuses_a_report_of_another_kind_or_commit_saying_why(tmp_path, meta, why):
    committed = _report(_test(LEVEL, "holds"))
    (tmp_path / "claims.json").write_text(json.dumps(_report(_test(LEVEL, "holds"), **meta)))
    (tmp_path / "committed.json").write_text(json.dumps(committed))
    r = subprocess.run([sys.executable, "-m", "claims.rederive", f"--report-dir={tmp_path}",
                        f"--committed={tmp_path / 'committed.json'}"], cwd=ROOT, capture_output=True, text=True,
                       check=False)
    assert r.returncode == 2 and why in r.stderr and str(tmp_path / "claims.json") in r.stderr, r.stderr


def test_a_corrupt_report_is_named(tmp_path):
    (tmp_path / "claims.json").write_text('{"claims": [')
    r = subprocess.run([sys.executable, "-m", "claims.rederive", f"--report-dir={tmp_path}"], cwd=ROOT,
                       capture_output=True, text=True, check=False)
    assert r.returncode == 2 and str(tmp_path / "claims.json") in r.stderr and "not valid JSON" in r.stderr


def test_the_committed_verdicts_all_name_their_rule():
    committed = json.loads((ROOT / "results" / "verdicts.json").read_text())
    rule_names = {rec.get("rule") for c in committed["claims"] for t in c["tests"] for rec in t["records"]}
    assert None not in rule_names
    assert {r.partition("/")[0] for r in rule_names} <= set(rule_versions.RULES)


# ------------------------------------------------------------------ stale verdicts

TIMING = "claims/test_cost.py::test_time_grows_as_n_squared[cpu]"


def test_a_verdict_decided_under_an_older_rule_is_stale_never_a_plain_holds():
    old = _test(TIMING, "holds", rule="timing/1")
    c = summarise_claim("cost.time_quadratic", [old], encoded=True)
    assert c["verdict"] == "stale"
    assert verdict_label(c).startswith("stale (1 figure(s) decided under an older rule")
    assert outcome_label(old).startswith("stale: holds under timing/1")
    s = summary_of([c])
    assert s["stale"] == 1 and s["holds"] == 0 and "1 stale" in summary_text(s)


def test_a_fresh_verdict_under_the_current_rule_replaces_the_stale_one():
    current = rule_versions.rule_id("timing")
    assert current == f"timing/{rule_versions.RULES['timing'][0]}" and current != "timing/1"
    c = summarise_claim("cost.time_quadratic", [_test(TIMING, "refuted", "refuted: 2.05", rule=current),
                                                _test(TIMING.replace("[cpu]", "[x]"), "holds", rule="timing/1")], True)
    assert c["verdict"] == "refuted" and "1 stale" in verdict_label(c)


def test_an_unknown_rule_is_a_clear_error():
    with pytest.raises(KeyError, match="unknown rule 'taste'"):
        rule_versions.rule_id("taste")
