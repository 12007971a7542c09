"""No cost figure is decided by a CPU clock or allocator (docs/cost.md: the one rule, no exception).

Scans the figure table and every committed decision (results/figures.json, results/verdicts.json):
a record read off a clock or an allocator (fixtures/measurements.py READ_OFF_INSTRUMENT, or the
timing rule) measured anywhere but on CUDA is a reading, never a verdict; the layer's counts are
the theory shown beside "converges on exactly 4", never a verdict on any device (rule version 3:
the sentence is about the measured x4 columns)."""
from __future__ import annotations

import json

import pytest

from claims.chapter import CHAPTER
from claims.chapter_figures import COST_INSTRUMENT, FIGURES, INSTRUMENT_DEVICE
from claims.record_rules import spec_for
from textcheck.device_readings import only_readings, read_off_instrument
from textcheck.evidence import as_test, file_of, load
from textcheck.verdicts import counts

FILE = file_of(CHAPTER)                 # results/figures.json

pytestmark = pytest.mark.fast


def test_the_figure_table_sends_clock_and_allocator_figures_to_cuda_and_counts_to_the_theory():
    for fid, instrument in COST_INSTRUMENT.items():
        assert FIGURES[fid].device == INSTRUMENT_DEVICE[instrument], fid
    assert COST_INSTRUMENT["cost.converges_on_4"] == "clock"         # the measured x4 columns
    assert {i for i, d in INSTRUMENT_DEVICE.items() if d == "cuda"} == {"clock", "allocator", "capacity"}
    assert spec_for("cost.converges_on_4").kind == "converges"       # its counts: the theory beside it
    assert spec_for("cost.converges_on_4 / cost.memory_quadratic").kind == "converges"


def test_no_committed_figure_record_is_decided_by_a_cpu_clock_or_allocator():
    records = load(CHAPTER, FILE)
    off_cuda = [r for r in records if read_off_instrument(CHAPTER, as_test(r)) and not str(r.device).startswith("cuda")]
    assert off_cuda, "the committed evidence has CPU timing and peak-memory records, shown as readings"
    assert [r.key for r in off_cuda if not only_readings(CHAPTER, as_test(r))] == []
    theory = [r for r in records if "cost.converges_on_4" in r.figures]
    assert sorted(r.measurement for r in theory) == ["op_counts/1", "op_counts/1"]
    assert not any(read_off_instrument(CHAPTER, as_test(r)) for r in theory)
    assert all(only_readings(CHAPTER, as_test(r)) for r in theory)          # shown, never a verdict


def test_no_committed_verdict_counts_a_cpu_clock_or_allocator():
    verdicts = json.loads((FILE.parent / "verdicts.json").read_text())
    bad = [(c["id"], t["key"]) for c in verdicts["claims"] for t in c["tests"]
           if read_off_instrument(CHAPTER, t) and not str(t.get("device") or "").startswith("cuda") and counts(CHAPTER, t)]
    assert bad == []


def test_a_planted_cpu_timing_of_the_theory_figure_is_a_reading_not_a_verdict():
    # the exemption removed: "theory" on the CPU clock is a reading like any other clock figure
    timed = {"figures": ["cost.converges_on_4"], "measurement": "timing/1", "rule": "timing/2", "device": "cpu"}
    assert only_readings(CHAPTER, timed)
    assert only_readings(CHAPTER, dict(timed, measurement="peak_memory/1", rule="stated/2"))
    assert not only_readings(CHAPTER, dict(timed, device="cuda"))
    # counts are the theory: a reading beside the figure on the CPU and on CUDA alike
    assert only_readings(CHAPTER, dict(timed, measurement="op_counts/1", rule="counts/1"))
    assert only_readings(CHAPTER, dict(timed, measurement="op_counts/1", rule="counts/1", device="cuda"))
    test = {"outcome": "holds", "figures": [], "device": "cpu",
            "records": [{"rule": "timing/2", "measurement": "timing/1", "device": "cpu"}]}
    assert only_readings(CHAPTER, test) and not counts(CHAPTER, test)
