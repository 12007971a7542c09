"""Typed evidence, each measured value stored once (docs/evidence.md): the conversion of evidence
of the first format (claims/convert.py, claimcheck/convert.py), run again on what a merge brings,
and the one validator naming the file, the record and the field (claimcheck/records.py)."""
import json
from dataclasses import replace
from pathlib import Path

import pytest

from claimcheck import convert, verdict_file
from claimcheck import evidence as figure_evidence
from claimcheck import rederive as engine_rederive
from claimcheck.records import ClaimVerdict, FigureRecord, Reading, RunRef, TestOutcome
from claimcheck.store import EvidenceError
from claims.chapter import CHAPTER
from examples.running_mean.chapter import CHAPTER as EXAMPLE
from fixtures import results

ROOT = Path(__file__).resolve().parent.parent.parent
RUN_FILES = figure_evidence.run_files_beside(ROOT / "results" / "figures.json")
CLAIM = "norm.postnorm_diverges"
SEED_0 = "307.59488542595"          # post-norm's seed-0 held-out perplexity, results/norm.json


def _floats(x, out):
    if isinstance(x, float):
        out.append(repr(x))
    elif isinstance(x, dict):
        for v in x.values():
            _floats(v, out)
    elif isinstance(x, list):
        for v in x:
            _floats(v, out)
    return out


def _old_format(tmp: Path) -> Path:
    """A results folder of the first format: one claim's verdicts, each claim carrying copies of
    its records and a test record a copy of the chapter's table, its figure records, and the
    norm runs they name with their metrics repeated beside `metrics`."""
    out = tmp / "results"
    out.mkdir()
    committed = verdict_file.load(CHAPTER, ROOT / "results" / "verdicts.json")
    claim = next(c for c in committed if c.id == CLAIM)
    summary = verdict_file.summary(CHAPTER, claim)      # the first format stored a claim's summary beside its tests
    table = {"prenorm": 37.82, "postnorm": 308.05}
    tests = [dict(verdict_file.encode_test(t), records=[dict(r, table=table) for r in t.records]) for t in claim.tests]
    old = dict(summary, tests=tests, records=[dict(r, table=table) for r in summary["records"]])
    (out / "verdicts.json").write_text(json.dumps({"claims": [old]}, indent=1))
    keys = {t.key for t in claim.tests}
    records = [r for r in figure_evidence.load(CHAPTER) if r.key in keys]
    (out / "figures.json").write_text(figure_evidence.dumps(records))
    named = {(run.recipe, run.seed, run.key) for r in records for run in r.runs}
    runs = [r for r in results.load("norm") if (r.recipe, r.seed, r.key) in named]
    assert all("val_ppl" in r.metrics for r in runs)           # each run's held-out perplexity, as readers read it
    # the first format: each run's metrics repeated beside them (fixtures/results.py COPIED_METRICS)
    old_runs = [{**results.encode(r), **{k: r.metrics.get(k) for k in (*results.COPIED_METRICS, "device")}}
                for r in runs]
    (out / "norm.json").write_text(json.dumps({"group": "norm", "runs": old_runs}, indent=1))
    return out


def test_old_format_evidence_is_converted_once_and_every_value_then_stands_once(tmp_path, capsys):
    folder = _old_format(tmp_path)
    before = verdict_file.load(CHAPTER, folder / "verdicts.json")
    seed_0 = [n for n in ("verdicts.json", "figures.json", "norm.json")
              for _ in range(_floats(json.loads((folder / n).read_text()), []).count(SEED_0))]
    assert seed_0.count("verdicts.json") >= 4 and seed_0.count("norm.json") >= 2
    assert convert.main(CHAPTER, ["--results", str(folder)]) == 0
    assert "converted" in capsys.readouterr().out

    stored = json.loads((folder / "verdicts.json").read_text())
    assert stored["schema"] == verdict_file.SCHEMA
    assert [sorted(c) for c in stored["claims"]] == [["id", "tests", "verdict"]]
    assert '"table"' not in (folder / "verdicts.json").read_text()
    # the measurement stands once, in its run's metrics in norm.json: figures.json refers to it
    # (claimcheck/run_refs.py) and verdicts.json to the figure record
    assert _floats(stored, []).count(SEED_0) == 0
    assert _floats(json.loads((folder / "figures.json").read_text()), []).count(SEED_0) == 0
    assert '"$run"' in (folder / "figures.json").read_text()
    runs = json.loads((folder / "norm.json").read_text())["runs"]
    assert not any("val_ppl" in r for r in runs)
    assert _floats(runs, []).count(SEED_0) == 1

    # read back, everything but the chapter table's copy is what it was; no verdict moved
    after = verdict_file.load(CHAPTER, folder / "verdicts.json")
    assert convert.verdict_counts(after) == convert.verdict_counts(before)
    strip = convert._without_copies(CHAPTER, before)
    assert [verdict_file.plain(c) for c in after] == [verdict_file.plain(c) for c in strip]
    assert after == strip
    assert [r.metrics["val_ppl"] for r in results.load("norm", folder)] == [
        r.metrics["val_ppl"] for r in results.load_file(ROOT / "results" / "norm.json", "norm")
        if any(r.key == x["key"] for x in runs)]
    assert engine_rederive.main(CHAPTER, ["--evidence", str(folder / "figures.json")]) == 0

    # idempotent: run again (after a merge brings nothing new), it writes nothing
    texts = {p.name: p.read_text() for p in folder.iterdir() if not p.name.startswith(".")}
    assert convert.main(CHAPTER, ["--results", str(folder)]) == 0
    assert "already in today's format" in capsys.readouterr().out
    assert {p.name: p.read_text() for p in folder.iterdir() if not p.name.startswith(".")} == texts
    assert convert.main(CHAPTER, ["--results", str(folder), "--check"]) == 0


def test_a_conversion_that_would_move_a_verdict_writes_nothing(tmp_path, capsys):
    folder = _old_format(tmp_path)
    data = json.loads((folder / "verdicts.json").read_text())
    given = data["claims"][0]["verdict"]                     # what its tests say (underspecified today)
    data["claims"][0]["verdict"] = "holds"
    (folder / "verdicts.json").write_text(json.dumps(data))
    texts = {p.name: p.read_text() for p in folder.iterdir() if not p.name.startswith(".")}
    assert convert.main(CHAPTER, ["--results", str(folder)]) == 2
    err = capsys.readouterr().err
    assert given != "holds" and f"claim {CLAIM}: stored 'holds', its tests give {given!r}" in err and "Traceback" not in err
    assert {p.name: p.read_text() for p in folder.iterdir() if not p.name.startswith(".")} == texts


@pytest.mark.parametrize("edit,field", [
    (lambda t: t.update(seconds="soon"), "'seconds'"),
    (lambda t: t.update(outcome=None), "'outcome'"),
    (lambda t: t["records"][0].update(measured={"$figure": "no.such.figure", "$at": ["values"]}), "'$figure'"),
    (lambda t: t["records"][0].update(measured={"$claim": CLAIM, "$test": "no such test", "$at": [0]}), "'$test'"),
    (lambda t: t["records"][0].update(measured={"mean": {"$spread": "mean"}, "values": [1.5, 2.5]}), "'$spread'"),
    (lambda t: t["records"][0].update(measured={"mean": {"$spread": "sd"}, "per seed": [1.5, 2.5]}), "'mean'"),
])
def test_the_one_validator_names_the_file_the_test_and_the_field(tmp_path, edit, field):
    folder = _old_format(tmp_path)
    assert convert.main(CHAPTER, ["--results", str(folder)]) == 0
    data = json.loads((folder / "verdicts.json").read_text())
    edit(data["claims"][0]["tests"][0])
    (folder / "verdicts.json").write_text(json.dumps(data))
    with pytest.raises(EvidenceError) as e:
        verdict_file.load(CHAPTER, folder / "verdicts.json")
    assert str(folder / "verdicts.json") in str(e.value) and f"claim {CLAIM}: test 0" in str(e.value)
    assert f"field {field}" in str(e.value)
    assert engine_rederive.main(CHAPTER, ["--evidence", str(folder / "figures.json")]) == (1 if "$figure" in field else 2)


def test_the_committed_evidence_is_converted_and_stores_each_figure_measurement_once():
    """results/ as committed: nothing left to convert, and no figure record's measured values
    copied into verdicts.json (a test refers to its figure record by key)."""
    changes = convert.convert(CHAPTER, ROOT / "results")
    assert changes == {}, f"run python -m claims.convert: {sorted(changes)}"
    figures = set(_floats([r.measured for r in figure_evidence.load(CHAPTER)], []))
    stored = json.loads((ROOT / "results" / "verdicts.json").read_text())
    # a number a figure record also holds stands here only inside a list or object that no figure
    # record holds whole (part of it is another measurement): a whole one is a reference
    held = {json.dumps(g) for g in _groups([r.measured for r in figure_evidence.load(CHAPTER)])}
    copies = [g for g in _groups(stored) if set(_floats(g, [])) & figures
              and any(not float(v).is_integer() for v in set(_floats(g, [])) & figures)]
    assert not [g for g in copies if json.dumps(g) in held], [g for g in copies if json.dumps(g) in held][:3]
    # and not even a number of one: each stands once, in its figure record (a value beside its
    # bound is referred to by its index)
    assert not copies, copies[:3]
    # a measurement several tests record is stored once in the file too (a curve, a table of numbers)
    groups = [json.dumps(g) for g in _groups(stored)]
    assert len(groups) == len(set(groups)), [g for g in set(groups) if groups.count(g) > 1][:3]


def _groups(x):
    """Every list or object of two numbers or more in x, outside the references."""
    values = list(x.values()) if isinstance(x, dict) else x if isinstance(x, list) else []
    if len(values) >= 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return [x]
    return [g for v in values for g in _groups(v)]


def _fields_reversed(x):
    if isinstance(x, dict):
        return {k: _fields_reversed(x[k]) for k in reversed(list(x))}
    if isinstance(x, list):
        return [_fields_reversed(v) for v in x]
    return x


def test_the_save_and_the_converter_write_the_same_file_whatever_the_order_of_a_records_fields():
    """A save holds its fresh figure records' fields in the order the test wrote them, the converter
    in the order it read them: a test's value two fields of its figure record hold equally is
    referred to by the same path either way (python -m claims.convert after a save writes nothing)."""
    figures = figure_evidence.load(CHAPTER)
    committed = verdict_file.load(CHAPTER, ROOT / "results" / "verdicts.json", figures)

    def stored(records):   # the file as read: its references, whatever the order of a record's fields
        return json.dumps(json.loads(verdict_file.dumps(CHAPTER, committed, records, RUN_FILES)), sort_keys=True)
    assert '"$figure"' in stored(figures) and '"$runs"' in stored(figures)
    # what the converter wrote is what a save writes: byte for byte, the committed file
    assert stored(figures) == json.dumps(json.loads((ROOT / "results" / "verdicts.json").read_text()), sort_keys=True)
    assert stored([replace(r, measured=_fields_reversed(r.measured)) for r in figures]) == stored(figures)


def test_a_mean_and_sd_beside_their_values_per_seed_are_derived_not_stored():
    """The mean and sd a trained figure's test shows are its values per seed summarised as the
    rule summarises them: the file writes each as {"$spread": ...} and reads back the same float;
    a mean that its values do not give back exactly is kept as it is."""
    figures = figure_evidence.load(CHAPTER)
    committed = verdict_file.load(CHAPTER, ROOT / "results" / "verdicts.json", figures)
    claim = next(c for c in committed if c.id == CLAIM)
    test = next(t for t in claim.tests if any("per seed" in r.get("measured", {}) for r in t.records))
    rec = next(r for r in test.records if "per seed" in r.get("measured", {}))
    by_key = {r.key: r for r in figures}
    test = verdict_file.encode_test(test)
    small = verdict_file.compact_test(CHAPTER, CLAIM, test, by_key)
    (stored,) = [r for r in small["records"] if r.get("figure") == rec.get("figure")]
    assert stored["measured"]["mean"] == {"$spread": "mean"} and stored["measured"]["sd"] == {"$spread": "sd"}
    back = verdict_file.expand_record(CHAPTER, CLAIM, stored, by_key, "here")
    assert back["measured"]["mean"] == rec["measured"]["mean"] and back["measured"]["sd"] == rec["measured"]["sd"]
    off = dict(rec, measured=dict(rec["measured"], mean=rec["measured"]["mean"] + 1e-9))
    (kept,) = verdict_file.compact_test(CHAPTER, CLAIM, dict(test, records=[off]), by_key)["records"]
    assert kept["measured"]["mean"] == off["measured"]["mean"]


@pytest.mark.parametrize("chapter", [CHAPTER, EXAMPLE], ids=["this chapter", "the example"])
def test_the_committed_figure_records_are_typed_and_written_back_byte_for_byte(chapter):
    """The one codec of results/figures.json (claimcheck/evidence.py): read, each record is a
    FigureRecord (its runs RunRefs, its reading a Reading where it keeps one); written again beside
    the same run records, the file is the committed one, byte for byte: every field as it stood,
    `reading` only where a record keeps one."""
    path = figure_evidence.file_of(chapter)
    records = figure_evidence.load(chapter, path)
    assert records and all(isinstance(r, FigureRecord) and all(isinstance(x, RunRef) for x in r.runs)
                           for r in records)
    assert all(r.reading is None or isinstance(r.reading, Reading) for r in records)
    assert figure_evidence.dumps(records, chapter, figure_evidence.run_files_beside(path)) == path.read_text()
    stored = json.loads(path.read_text())["records"]
    assert [sorted(figure_evidence.encode(r)) for r in records] == [sorted(o) for o in stored]
    assert [figure_evidence.decode(chapter, figure_evidence.encode(r)) for r in records] == records


def test_the_committed_verdicts_are_typed_and_written_back_byte_for_byte():
    """The one codec of results/verdicts.json (claimcheck/verdict_file.py): read, each claim is a
    ClaimVerdict and each of its tests a TestOutcome (its runs RunRefs), every reference resolved;
    written again beside the same figure and run records, the file is the committed one, byte for
    byte: every reference as it stood, every field in its place.  (The example's file is of the
    first format, read and converted, never written back as it is: test_examples.)"""
    chapter = CHAPTER
    results_dir = ROOT / "results"
    figures = figure_evidence.load(chapter, results_dir / figure_evidence.NAME)
    claims = verdict_file.load(chapter, results_dir / verdict_file.NAME, figures)
    assert claims and all(isinstance(c, ClaimVerdict) for c in claims)
    assert all(isinstance(t, TestOutcome) and all(isinstance(r, RunRef) for r in t.runs or [])
               for c in claims for t in c.tests)
    text = verdict_file.dumps(chapter, claims, figures, figure_evidence.run_files_beside(results_dir / "x"))
    assert text == (results_dir / verdict_file.NAME).read_text()


def test_redecide_writes_a_record_of_an_older_rule_version_again_under_todays(tmp_path):
    """python -m claims.convert --redecide (rule version 3): a record decided under an older version
    of its rule is decided again from its measured values, written with today's version and
    verdict, its test and its claim following; a second run writes nothing."""
    import shutil

    from claimcheck.versions import rule_id
    for path in (ROOT / "results").glob("*.json"):
        shutil.copy(path, tmp_path / path.name)
    data = json.loads((tmp_path / "figures.json").read_text())
    target = next(r for r in data["records"] if r["key"] == "scale.no_effect_at_32: undivided ahead at d_k = 32")
    assert target["rule"] == rule_id("ordering") and target["verdict"] == "undecided"
    target["rule"], target["verdict"] = "ordering/1", "refuted"        # as rule version 2 of the ordering decided it
    (tmp_path / "figures.json").write_text(json.dumps(data))
    changes, moved = convert.redecide(CHAPTER, tmp_path)
    assert ("scale.no_effect_at_32: undivided ahead at d_k = 32", "refuted", "undecided") in moved
    for name, text in changes.items():
        (tmp_path / name).write_text(text)
    after = {r.key: r for r in figure_evidence.load(CHAPTER, tmp_path / "figures.json")}
    rec = after["scale.no_effect_at_32: undivided ahead at d_k = 32"]
    assert rec.rule == rule_id("ordering") and rec.verdict == "undecided"
    assert convert.redecide(CHAPTER, tmp_path) == ({}, [])
