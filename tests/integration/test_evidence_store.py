"""One evidence store, each value in one place (docs/evidence.md): results/verdicts.json an index
holding no value, each test's record stored once in its figure record (textcheck/shown.py), no
$-reference and no digest anywhere in results/; the codecs read and write the committed files back
byte for byte; the re-derivation names a stored claim verdict its tests do not give; python -m
claims.convert decides again what an older rule decided; the one check names the file, the record
and the field (textcheck/records.py)."""
import json
import math
import re
import shutil
import struct
from collections import defaultdict
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from claims.chapter import CHAPTER
from examples.running_mean.chapter import CHAPTER as EXAMPLE
from textcheck import convert, shown, verdict_file
from textcheck import evidence as figure_evidence
from textcheck import rederive as engine_rederive
from textcheck.records import ClaimVerdict, FigureRecord, Reading, RunRef, TestOutcome
from textcheck.run_refs import RunIndex, Runs, files_beside
from textcheck.store import EvidenceError

ROOT = Path(__file__).resolve().parent.parent.parent
RESULTS = ROOT / "results"
CLAIM = "norm.postnorm_diverges"


def _results_copy(tmp_path: Path) -> Path:
    for path in RESULTS.glob("*.json"):
        shutil.copy(path, tmp_path / path.name)
    return tmp_path


# ---------------------------------------------------------------- each value once

def _keys(x):
    if isinstance(x, dict):
        yield from x
        for v in x.values():
            yield from _keys(v)
    elif isinstance(x, list):
        for v in x:
            yield from _keys(v)


@pytest.mark.parametrize("folder", [RESULTS, EXAMPLE.root / "results"], ids=["this chapter", "the example"])
def test_results_hold_no_reference_of_the_old_codec(folder):
    """No "$" key anywhere in results/ (the $-reference codec of schema 2 is gone), and no digest."""
    for path in sorted(folder.glob("*.json")):
        keys = set(_keys(json.loads(path.read_text())))
        assert not [k for k in keys if k.startswith("$")], path
        assert "digest" not in keys, path


def _precise(x) -> bool:
    """A number two measurements cannot share by chance: not whole, not a float32 (a float32 value, a
    share of a few hundred items, 0.375 or a loss on a plateau, recurs by itself) and not a decimal of
    four digits or fewer (0.5, 1.25)."""
    if not isinstance(x, float) or not math.isfinite(x) or x.is_integer():
        return False
    try:
        if struct.unpack("f", struct.pack("f", x))[0] == x:
            return False
    except OverflowError:
        pass
    return len(repr(abs(x)).split("e")[0].replace(".", "").strip("0")) > 4


# The parts of a run record that are no measurement stored twice: its curves (trajectories of a
# loss or a share, sampled every few steps: points of two runs coincide by chance on a plateau)
# and its config (the recipe's inputs, the same learning rate in every run).
NOT_VALUES = re.compile(r"\.(curve|held_out_curve|attention_curve|config)\b")

# Values results/ still holds twice, by section (issue 57, left to do): each is a measurement taken
# once and kept in more than one place; the test fails on any other, and on an entry no longer needed.
STORED_TWICE = {
    "positions": "a model's perplexity at 128 and 256 tokens is measured once per run, then decided by several "
                 "figures (orderings, ratios) and shown beside others; it belongs in its run's record, referred to "
                 "as {recipe, seed, metric}",
    "cost": "the cost tables (cost_cpu.json: a row's ms is one of its ms_runs; cost_drift_cpu.json) and the cost "
            "figure records hold the same timings and peaks, and the time exponent and the time slope are one "
            "measurement decided by two claims",
    "scale": "scale.worth_32 and scale.no_effect_at_32 hold the same gains (one measurement, two claims)",
    "ladder & qkv": "qkv.weights_not_plain_parameters shows the corpus half's held-out perplexities (ladder and qkv "
                    "runs) beside a record whose measurement is Winograd accuracy, so its shown values are not "
                    "pointers to run metrics (textcheck/shown.py indexes only its measurement's metrics)",
    "qkv": "the same record's shown fixed-weights and one-head perplexities (see 'ladder & qkv')",
}


def _owner(where: str) -> str:
    """The section a place belongs to: a figure record's key's, or a results file's name's."""
    if where.startswith(figure_evidence.NAME + ":"):
        return where.split(":", 1)[1].split(".", 1)[0]
    return where.split(".json", 1)[0].split("_", 1)[0]


def stored_twice(folder: Path) -> dict[str, list[str]]:
    """{value: the places results/ holds it} of every value (a list of numbers, one of them a
    precise number, or a precise number) held in more than one place."""
    places = defaultdict(list)

    def walk(x, where):
        if NOT_VALUES.search(where):
            return
        numbers = isinstance(x, list) and len(x) > 1 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in x)
        if (numbers and any(map(_precise, x))) or _precise(x):
            places[json.dumps(x)].append(where)
        for k, v in x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ():
            walk(v, f"{where}.{k}" if isinstance(x, dict) else f"{where}[{k}]")
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        if path.name == figure_evidence.NAME:
            for rec in data["records"]:
                walk(rec, f"{path.name}:{rec['key']}")
        else:
            walk(data, path.name)
    return {v: w for v, w in places.items() if len(w) > 1 and not _reproduced(folder, w)}


RUN_METRIC = re.compile(r"^(\w+\.json)\.runs\[(\d+)\]\.metrics\.(\w+)$")


def _reproduced(folder: Path, where: list[str]) -> bool:
    """Whether every place is the same metric of a run record of one recipe and seed in one group
    file: the run trained again under a new cache key (its code changed, not its computation) and
    measured the same number, bit for bit.  Two measurements that agree, not one stored twice."""
    found = [RUN_METRIC.match(w) for w in where]
    if not all(found) or len({(m[1], m[3]) for m in found}) != 1:
        return False
    runs = json.loads((folder / found[0][1]).read_text())["runs"]
    return len({(runs[int(m[2])]["recipe"], runs[int(m[2])]["seed"]) for m in found}) == 1


def test_no_value_is_stored_twice_in_results():
    twice = stored_twice(RESULTS)
    sections = defaultdict(list)
    for value, where in twice.items():
        owners = {_owner(w) for w in where}
        sections[owners.pop() if len(owners) == 1 else " & ".join(sorted(owners))].append((value[:60], where[:3]))
    unknown = {s: found[:3] for s, found in sections.items() if s not in STORED_TWICE}
    assert not unknown, unknown
    assert not set(STORED_TWICE) - set(sections), f"stored once now: {set(STORED_TWICE) - set(sections)}"


def test_the_index_holds_no_value():
    """results/verdicts.json: claims, their tests' keys, outcomes and provenance; no number but a
    test's duration (`seconds`)."""
    for folder in (RESULTS, EXAMPLE.root / "results"):
        data = json.loads((folder / verdict_file.NAME).read_text())
        assert data["schema"] == verdict_file.SCHEMA == 3
        for c in data["claims"]:
            assert sorted(c) == ["id", "tests", "verdict"]
            for t in c["tests"]:
                assert set(t) <= {"nodeid", "key", "outcome", "reason", "tier", "seconds", "timestamp", "python",
                                  "source", "device", "torch"}, t
                assert all(isinstance(v, str) or v is None for k, v in t.items() if k != "seconds"), t


def test_a_test_shows_its_figure_record_and_what_a_rule_gives_is_not_stored():
    """A trained figure's test shows the figure table's stated figure and null, its record's rule,
    figures and measurement, and the mean and sd of its values per seed: none is stored, each is
    derived when read; its values per seed are a pointer to the record's own."""
    stored = {r["key"]: r for r in json.loads((RESULTS / figure_evidence.NAME).read_text())["records"]}
    figures = {r.key: r for r in figure_evidence.load(CHAPTER)}
    rec, raw = figures["norm.postnorm"], stored["norm.postnorm"]["shown"]
    assert not {"stated", "null", "rule", "figures", "measurement"} & set(raw)
    assert raw["measured"] == {"per seed": {"measured": ["values"]}}
    mean, sd = (rec.shown["measured"][k] for k in ("mean", "sd"))
    assert list(rec.shown["measured"]) == ["mean", "sd", "per seed"] and rec.shown["measured"]["per seed"] == \
        rec.measured["values"]
    assert (mean, sd) == pytest.approx((sum(rec.measured["values"]) / 3, sd))
    assert rec.shown["stated"] == CHAPTER.rule_inputs(rec.key).stated and rec.shown["rule"] == rec.rule
    # a mean its values do not give back exactly is stored as it is
    off = dict(rec.shown, measured=dict(rec.shown["measured"], mean=mean + 1e-9))
    runs = Runs(CHAPTER, rec.runs, RunIndex(CHAPTER, files_beside(RESULTS / "x")))
    small = shown.compact(CHAPTER, rec, off, runs, "here")
    assert small["measured"]["mean"] == mean + 1e-9
    assert shown.expand(CHAPTER, rec, small, runs, "here") == off


def test_a_display_that_would_read_back_differently_is_refused():
    rec = next(r for r in figure_evidence.load(CHAPTER) if r.key == "norm.postnorm")
    runs = Runs(CHAPTER, rec.runs, None)
    for odd in ({"absent": ["x"]}, {"extra": {"measured": ["values"]}}):
        with pytest.raises(shown.ShownError, match="here: field"):
            shown.compact(CHAPTER, rec, {**rec.shown, **odd}, runs, "here")


# ---------------------------------------------------------------- the codecs, byte for byte

@pytest.mark.parametrize("chapter", [CHAPTER, EXAMPLE], ids=["this chapter", "the example"])
def test_the_committed_store_is_typed_and_written_back_byte_for_byte(chapter):
    """Read, each figure record is a FigureRecord (its runs RunRefs, its reading a Reading), each
    claim a ClaimVerdict of TestOutcomes whose records are their figure records' `shown`; written
    again by the one writer beside the same run records, both files are the committed ones."""
    results_dir = Path(chapter.root) / "results"
    figures = figure_evidence.load(chapter, results_dir / figure_evidence.NAME)
    assert figures and all(isinstance(r, FigureRecord) and all(isinstance(x, RunRef) for x in r.runs) for r in figures)
    assert all(r.reading is None or isinstance(r.reading, Reading) for r in figures)
    claims = verdict_file.load(chapter, results_dir / verdict_file.NAME, figures)
    assert claims and all(isinstance(c, ClaimVerdict) for c in claims)
    by_key = {r.key: r for r in figures}
    for c in claims:
        for t in c.tests:
            assert isinstance(t, TestOutcome) and t.records == [by_key[t.key].shown]
    texts = verdict_file.texts(chapter, claims, figures, files_beside(results_dir / "x"))
    for name, text in texts.items():
        assert text == (results_dir / name).read_text(), name


def _fields_reversed(x):
    if isinstance(x, dict):
        return {k: _fields_reversed(x[k]) for k in reversed(list(x))}
    if isinstance(x, list):
        return [_fields_reversed(v) for v in x]
    return x


def test_a_records_measured_values_are_written_the_same_whatever_the_order_of_their_fields():
    figures = figure_evidence.load(CHAPTER)
    run_file = files_beside(RESULTS / "x")
    assert figure_evidence.dumps(CHAPTER, [replace(r, measured=_fields_reversed(r.measured)) for r in figures],
                                 run_file) == figure_evidence.dumps(CHAPTER, figures, run_file)


def test_a_save_writes_both_files_from_the_one_writer_and_a_test_without_a_figure_record_is_refused():
    figures = figure_evidence.load(CHAPTER)
    claims = verdict_file.load(CHAPTER, RESULTS / verdict_file.NAME, figures)
    key = claims[0].tests[0].key
    with pytest.raises(EvidenceError, match=f"its record {re.escape(repr(key))} has no figure record"):
        verdict_file.texts(CHAPTER, claims, [r for r in figures if r.key != key])


# ---------------------------------------------------------------- the index's verdicts, checked

def test_the_committed_store_needs_no_decision_again(tmp_path, capsys):
    assert convert.redecide(CHAPTER, RESULTS) == ({}, [])
    assert convert.main(CHAPTER, ["--results", str(_results_copy(tmp_path)), "--check"]) == 0
    assert "every record decided under today's rules" in capsys.readouterr().out


def test_a_claim_verdict_its_tests_do_not_give_is_named_by_the_re_derivation(tmp_path):
    folder = _results_copy(tmp_path)
    data = json.loads((folder / "verdicts.json").read_text())
    claim = next(c for c in data["claims"] if c["id"] == CLAIM)
    given, claim["verdict"] = claim["verdict"], "holds"
    (folder / "verdicts.json").write_text(json.dumps(data))
    claims = verdict_file.load(CHAPTER, folder / "verdicts.json")
    lines = engine_rederive.against_verdicts(CHAPTER, figure_evidence.load(CHAPTER), claims)
    assert given != "holds" and lines == [f"claim {CLAIM}: holds in verdicts.json, its tests give {given}"]


@pytest.mark.parametrize("edit,field", [
    (lambda t: t.update(seconds="soon"), "'seconds'"),
    (lambda t: t.update(outcome=None), "'outcome'"),
    (lambda t: t.update(records=[]), "'records' is not a field of a TestEntry"),
    (lambda t: t.update(key="no.such.figure"), "'key'"),
])
def test_the_one_check_names_the_file_the_test_and_the_field(tmp_path, edit, field):
    folder = _results_copy(tmp_path)
    data = json.loads((folder / "verdicts.json").read_text())
    claim = next(c for c in data["claims"] if c["id"] == CLAIM)
    edit(claim["tests"][0])
    (folder / "verdicts.json").write_text(json.dumps(data))
    with pytest.raises(EvidenceError) as e:
        verdict_file.load(CHAPTER, folder / "verdicts.json")
    assert str(folder / "verdicts.json") in str(e.value) and f"field {field}" in str(e.value), e.value
    assert f"({CLAIM})" in str(e.value) or f"claim {CLAIM}: test 0" in str(e.value), e.value
    code = engine_rederive.main(CHAPTER, ["--evidence", str(folder / "figures.json")])
    assert code == (1 if field == "'key'" else 2)


def test_redecide_writes_a_record_of_an_older_rule_version_again_under_todays(tmp_path):
    """python -m claims.convert --redecide (rule version 3): a record decided under an older version
    of its rule is decided again from its measured values, written with today's version and
    verdict, its test and its claim following; a second run writes nothing."""
    from textcheck.versions import rule_id
    folder = _results_copy(tmp_path)
    data = json.loads((folder / "figures.json").read_text())
    key = "scale.no_effect_at_32: undivided ahead at d_k = 32"
    target = next(r for r in data["records"] if r["key"] == key)
    assert target["rule"] == rule_id("ordering") and target["verdict"] == "undecided"
    target["rule"], target["verdict"] = "ordering/1", "refuted"        # as rule version 2 of the ordering decided it
    (folder / "figures.json").write_text(json.dumps(data))
    changes, moved = convert.redecide(CHAPTER, folder)
    assert (key, "refuted", "undecided") in moved
    for name, text in changes.items():
        (folder / name).write_text(text)
    rec = {r.key: r for r in figure_evidence.load(CHAPTER, folder / "figures.json")}[key]
    assert rec.rule == rule_id("ordering") and rec.verdict == "undecided" and rec.shown["rule"] == rec.rule
    assert convert.redecide(CHAPTER, folder) == ({}, [])


def test_a_figure_records_fields_are_its_kinds():
    """Every field of a figure record as written is a field of a FigureRecord, `reading` and `shown`
    only where it has one."""
    names = {f for f in asdict(figure_evidence.load(CHAPTER)[0])}
    for obj in json.loads((RESULTS / figure_evidence.NAME).read_text())["records"]:
        assert set(obj) <= names and set(obj) >= names - {"reading", "shown"}, obj["key"]
