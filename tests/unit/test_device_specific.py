"""A figure the chapter measured on its CUDA laptop card (claims/chapter_figures.py device="cuda")
is decided only on CUDA; measured elsewhere it is a reading beside the chapter's, `not run:
device-specific`, never held or refuted: at test time (textcheck/rule.py device_specific) and for
committed verdicts (textcheck/device_readings.py device_reading, only_readings)."""
from types import SimpleNamespace

import pytest

from claims.chapter import CHAPTER
from claims.chapter_figures import FIGURES
from textcheck import hooks, merging, rule, verdicts
from textcheck.versions import rule_id


def peak_test(outcome: str, device: str, record_device: str | None = None, reason: str = "") -> dict:
    rec = {"stated": 14.6, "measured": 10.5, "tolerance": "0.05 MB", "rule": rule_id("timing"),
           "figures": ["cost.peak_mb_128"], **({"device": record_device} if record_device else {})}
    return {"nodeid": "claims/test_cost.py::test_peak_memory_is_the_chapters_byte_count[128-cpu]",
            "outcome": outcome, "reason": reason, "records": [rec], "tier": "slow", "device": device,
            "figures": ["cost.peak_mb_128"], "timestamp": "2026-12-01T10:00:00+00:00", "seconds": 1.0}


def row(claims, fid="cost.peak_mb_128"):
    return next(r for r in merging.figure_rows(CHAPTER, claims) if r["id"] == fid)


def test_the_peak_mb_column_and_its_fits_are_the_cuda_cards():
    cuda = {fid for fid, f in FIGURES.items() if f.device == "cuda"}
    assert {f"cost.peak_mb_{n}" for n in (128, 256, 512, 1024, 2048, 4096, 8192)} <= cuda
    assert {"cost.time_exponent", "cost.memory_exponent", "cost.memory_last_ratio", "cost.projections_x8",
            "cost.converges_on_4"} <= cuda
    assert "cost.oom_tokens" in cuda                  # a capacity: the chapter's 8 GB card's (rule version 3)
    assert "cost.matrix_mb_128" not in cuda           # arithmetic: any device


def test_a_cpu_measurement_of_a_cuda_figure_is_a_reading_not_a_verdict():
    t = peak_test("refuted", "cpu", reason="refuted: 10.5 MB at n = 128, not 14.6")
    c = verdicts.summarise_claim(CHAPTER, "cost.peak_memory", [t], True)
    assert c["verdict"] == "not run" and "device-specific" in c["reason"]
    assert "1 device-specific reading" in verdicts.verdict_label(CHAPTER, c)
    r = row([c])
    assert r["verdict"] == "not run" and r["label"] == "not run: device-specific" and r["measured"] == 10.5


def test_on_cuda_the_same_figure_is_decided():
    c = verdicts.summarise_claim(CHAPTER, "cost.peak_memory", [peak_test("refuted", "cuda:0")], True)
    assert c["verdict"] == "refuted" and row([c])["label"] == "refuted"


def test_the_records_device_wins_over_the_runs():
    """A cost test's cpu case measures on the CPU even in a run whose device is CUDA."""
    c = verdicts.summarise_claim(CHAPTER, "cost.peak_memory", [peak_test("refuted", "cuda", record_device="cpu")], True)
    assert c["verdict"] == "not run" and row([c])["label"] == "not run: device-specific"


def test_a_fresh_device_specific_skip_is_labelled_so():
    t = peak_test("not run", "cpu", reason="not run: device-specific: 10.5 MB at n = 128 on cpu, a reading")
    assert row([verdicts.summarise_claim(CHAPTER, "cost.peak_memory", [t], True)])["label"] == "not run: device-specific"


def request_for(*figure_ids):
    marks = [SimpleNamespace(args=figure_ids)]
    return SimpleNamespace(node=SimpleNamespace(iter_markers=lambda name: marks if name == "figure" else []),
                           config=SimpleNamespace(stash={hooks.CHAPTER: CHAPTER}))    # the run's Chapter


def test_the_rule_skips_a_cuda_figure_off_cuda_and_decides_it_on_cuda():
    with pytest.raises(pytest.skip.Exception, match="not run: device-specific: 10.5 MB on cpu.*14.6"):
        rule.device_specific(request_for("cost.peak_mb_128"), "cpu", "10.5 MB")
    rule.device_specific(request_for("cost.peak_mb_128"), "cuda:0", "10.5 MB")         # decided there
    rule.device_specific(request_for("cost.matrix_mb_128"), "cpu", "0.5 MB")            # any device
    rule.device_specific(request_for("cost.converges_on_4", "cost.peak_mb_128"), "cpu", "x")   # not all cuda
