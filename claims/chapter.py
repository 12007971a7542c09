"""This chapter, as the claim engine sees it: one Chapter (textcheck/chapter.py), built once from
the tables that hold it (the modules imported below; its text and checksum: data/chapter.py).  The
report's parts that are this chapter's own (errata, tables, plots) are handed to the report where
it runs (claims/report/parts.py REPORT, a TextReport).

The one entry: loaded as a pytest plugin (conftest.py's pytest_plugins; `-p claims.chapter`), this
module answers the engine's hook `pytest_textcheck_chapter`; a command passes CHAPTER as the first
argument of the engine's (`python -m claims.rederive`).
"""
from __future__ import annotations

from claims import (
    accounting,
    chapter_figures,
    chapter_reads,
    chapter_setup,
    falsification,
    number_words,
    readings_declared,
    record_rules,
    record_runs,
    registry,
    run_check,
    seed_steps,
    sentence_table,
)
from data.chapter import CHAPTER_SHA256, ChapterMissing, load_chapter
from data.paths import PROJECT_ROOT
from fixtures import results
from fixtures.measurements import MEASUREMENTS, READ_OFF_INSTRUMENT, REMEASURE
from textcheck import AnchorList, Chapter, RunRecords

CHAPTER = Chapter(
    name="the attention chapter",
    device="CUDA laptop card",
    root=PROJECT_ROOT,
    load_text=load_chapter,
    sha256=CHAPTER_SHA256,
    text_missing=(ChapterMissing,),
    figures=chapter_figures.FIGURES,
    reads=chapter_reads.READ,
    claims=registry.CLAIMS,
    sections=registry.SECTIONS,
    declared=[*accounting.DECLARED, *number_words.DECLARED_WORDS],
    declared_patterns=[*accounting.DECLARED_PATTERNS, *number_words.WORD_PATTERNS],
    sentences=sentence_table.SENTENCES,
    quotes=(AnchorList.of("setup", chapter_setup.SETUP, ident=lambda i, s: s.id),),
    rule_inputs=record_rules.spec_for,
    timed=record_rules.TIMED,
    measurements=MEASUREMENTS,
    instruments=READ_OFF_INSTRUMENT,
    remeasure=REMEASURE,
    trained_measurements=run_check.TRAINED,
    readings=readings_declared.DECLARED_READINGS,
    seed_steps=seed_steps.SEEDS_ON_RECORD,
    strength={r.anchor: r.status for r in falsification.REVIEWS if r.status != "tested"},
    run_records=RunRecords(groups=results.RUN_GROUPS, load=results.load, load_file=results.load_file,
                           load_file_metrics=results.load_file_metrics,
                           check=run_check.check, metrics=run_check.REFERABLE,
                           metric=run_check.metric, rests=run_check.rests),
    claim_records=record_runs.CLAIM_RECORDS,
    evidence_readers={f"cost_{device}.json": results.cost_table for device in ("cpu", "cuda")},
    where={"figures": "claims/chapter_figures.py", "claims": "claims/registry.py, whose IDs come from "
           "../shared/claims.md", "sentences": "claims/sentence_table.py", "rule inputs": "claims/record_rules.py",
           "declared": "claims/accounting.py, claims/number_words.py", "measurements": "fixtures/measurements.py"},
    tests="claims",
)


def pytest_textcheck_chapter(config) -> Chapter:
    """The one entry (textcheck/hooks.py): the claim engine is handed this chapter."""
    return CHAPTER
