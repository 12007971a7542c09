"""The fourth outcome end to end: a figure the primary reading refutes and a reading declared
before it was measured reproduces is underspecified (claims/readings_declared.py), in the figure
record, the re-derivation, the claim's verdict, the errata and the report's counts; a reading
measured before it was declared counts for nothing, and so does one declared after any measurement
of it, one seed included (rule version 3: the committed "best held-out step" is one).  The planted
readings below are decided by BLIND, this chapter with that declaration made before any
measurement, so the fourth outcome itself stays tested."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import asdict, replace

import pytest
from records import figure, figure_objects

from claims import rederive
from claims.chapter import CHAPTER
from claims.readings_declared import DECLARED_READINGS
from claims.report import errata
from data.chapter import chapter_or_none
from data.paths import PROJECT_ROOT
from textcheck import evidence as figure_evidence
from textcheck import verdict_file
from textcheck.evidence import RecordError, file_of, redecide
from textcheck.merging import outcome_object
from textcheck.outcomes import RunReport
from textcheck.outcomes import outcome as as_outcome
from textcheck.rederive import main as engine_rederive
from textcheck.report.assembly.merged import entry as typed_entry
from textcheck.report.views.chapter_view.legend import SYMBOL
from textcheck.report.views.index import render_errata as render
from textcheck.verdicts import summarise_claim, summary_of, summary_text

FILE = file_of(CHAPTER)                 # results/figures.json
pytest_plugins = ["pytester"]

READING = DECLARED_READINGS["best held-out step"]
AFTER, BEFORE = "2026-12-04T00:00:00+00:00", "2026-12-01T13:23:56+00:00"
# the same choice declared blind (no measurement of it before its declaration), for the planted records
PLANTED = replace(READING, name=f"{READING.name} (declared blind)", keys=("norm.prenorm",), first_measured=None)
BLIND = replace(CHAPTER, readings={**DECLARED_READINGS, PLANTED.name: PLANTED})


def blind(rec):
    """A record whose reading is the blind declaration's."""
    return replace(rec, reading=replace(rec.reading, name=PLANTED.name))


def _committed(key: str = "norm.prenorm"):
    return next(r for r in figure_evidence.load(CHAPTER, FILE) if r.key == key)


def _planted(date: str, values=(37.80, 37.83, 37.84), name: str = PLANTED.name) -> dict:
    """The committed pre-norm record (its primary reading refuted: 51.97 over 3 seeds against 37.82) with a planted
    reading of the declared choice, measured at `date`: its JSON object, for a test to edit and type (`figure`)."""
    (rec,) = figure_objects([_committed()])
    rec["reading"] = {"name": name, "measured": {"values": list(values)}, "date": date,
                      "runs": [{"group": "errata", "recipe": "prenorm_stopped_500", "seed": s, "key": "x"}
                               for s in range(len(values))]}
    return rec


def test_a_planted_reading_declared_before_its_measurement_makes_a_refuted_figure_underspecified():
    rec = _planted(AFTER)
    d = redecide(BLIND, figure_evidence.decode(CHAPTER, rec))      # the one decoder takes it as it stands
    assert d.verdict == "underspecified", d.why
    assert "the chapter should say which checkpoint" in d.why


def test_a_planted_reading_measured_before_its_declaration_counts_for_nothing():
    d = redecide(BLIND, figure(_planted(BEFORE)))
    assert d.verdict == "refuted" and "counts for nothing" in d.why, d.why


def test_a_reading_that_does_not_reproduce_or_a_primary_that_holds_is_left_alone():
    assert redecide(BLIND, figure(_planted(AFTER, values=(45.0, 45.2, 44.9)))).verdict == "refuted"
    holds = _planted(AFTER)
    holds["measured"]["values"] = [37.81, 37.82, 37.83]
    assert redecide(BLIND, figure(holds)).verdict == "holds"       # a reading never moves a verdict but a refutation
    two = _planted(AFTER, values=(37.8, 37.82))
    assert redecide(BLIND, figure(two)).verdict == "refuted"       # too few seeds reproduce nothing


@pytest.mark.parametrize("change,field", [
    (lambda r: r["reading"].__setitem__("name", "whatever agrees"), "reading.name"),
    (lambda r: r.__setitem__("key", "norm.postnorm"), "reading.name"),      # declared for other figures
    (lambda r: r["reading"].__setitem__("date", "yesterday"), "reading.date"),
    (lambda r: r["reading"]["measured"].__setitem__("values", ["37.8"]), "reading.measured.values[0]"),
])
def test_an_undeclared_or_malformed_reading_is_an_error_naming_the_field(change, field):
    rec = _planted(AFTER)
    change(rec)
    with pytest.raises(RecordError) as e:
        redecide(BLIND, figure(rec))
    assert e.value.field == field


def test_underspecified_end_to_end_rederive_claim_errata_and_counts(tmp_path, capsys):
    for path in FILE.parent.glob("*.json"):          # the run records the figure records name
        if path.name not in ("figures.json", "verdicts.json"):
            shutil.copy(path, tmp_path / path.name)
    records = [r for r in figure_evidence.load(CHAPTER, FILE) if r.key != "norm.prenorm"]
    planted = figure(dict(_planted(AFTER), verdict="underspecified"))
    (tmp_path / "figures.json").write_text(figure_evidence.dumps(CHAPTER, [*records, planted]))
    verdicts = json.loads((FILE.parent / "verdicts.json").read_text())
    claim = next(c for c in verdicts["claims"] if c["id"] == "norm.prenorm_needs_no_warmup")
    test = next(t for t in claim["tests"] if t["key"] == "norm.prenorm")
    test["outcome"], test["reason"] = "underspecified", redecide(BLIND, planted).why
    (tmp_path / "verdicts.json").write_text(json.dumps(verdicts))
    assert engine_rederive(BLIND, ["--evidence", str(tmp_path / "figures.json")]) == 0, capsys.readouterr()
    # the committed verdict, not the planted one, is a difference
    test["outcome"] = "refuted"
    (tmp_path / "verdicts.json").write_text(json.dumps(verdicts))
    assert engine_rederive(BLIND, ["--evidence", str(tmp_path / "figures.json")]) == 1
    # ... and the chapter's own commands know no blind declaration: the planted reading is refused
    assert rederive.main(["--evidence", str(tmp_path / "figures.json")]) == 2
    # the claim: underspecified when no other test refutes it
    (full,) = [outcome_object(t) for c in verdict_file.load(CHAPTER, FILE.parent / "verdicts.json") for t in c.tests
               if t.key == "norm.prenorm" and c.id == claim["id"]]
    only = summarise_claim(CHAPTER, claim["id"], [dict(full, outcome="underspecified", reason=test["reason"])], True)
    assert only["verdict"] == "underspecified"
    s = summary_of([only])
    assert s["underspecified"] == 1 and "1 underspecified" in summary_text(s)
    # its erratum asks for the choice and suggests no new numbers
    (entry,) = errata.build({"claims": [only]}, tmp_path)
    assert entry["underspecified"] and entry["suggested"].startswith("State the choice: which checkpoint")
    # no new numbers: any number it names is the chapter's own ("1000 steps")
    text, _ = chapter_or_none()
    numbers = re.findall(r"\d+(?:[.,]\d+)*", entry["suggested"])
    assert numbers == ["1000"] and (text is None or "1000 steps" in text)
    assert "The chapter should say:" in render([typed_entry(entry)])
    assert "underspecified" in SYMBOL


def test_the_committed_reading_was_declared_after_a_measurement_and_counts_for_nothing():
    """The best-step reading was declared on 2026-12-03, two days after its first measurement (the
    one-seed stopped pre-norm run of results/errata.json, whose step the declaration read off).
    Its three-seed runs were trained after the declaration, yet a reading entered after any
    measurement of it is "declared after a measurement" (rule version 3): the primary reading
    refutes 37.82 and the figure stays refuted.  The run the declaration cites stays on record."""
    rec = _committed()
    assert rec.reading.name == READING.name and rec.reading.date > READING.declared
    assert READING.first_measured < READING.declared
    d = redecide(CHAPTER, rec)
    assert rec.verdict == "refuted" == d.verdict and "declared after a measurement" in d.why, d.why
    assert redecide(BLIND, blind(rec)).verdict == "underspecified"       # declared blind, it would count
    runs = json.loads((FILE.parent / "errata.json").read_text())["runs"]
    cited = [r for r in runs if r["recipe"] == "prenorm_stopped_500" and r["seed"] == 0]
    assert [r["date"] for r in cited] == [READING.first_measured]


def test_a_derived_figure_is_decided_under_its_operands_reading():
    """The two differences the tests derive from the twelve-block table carry the table's reading
    (claims/readings_declared.py lists them), so they are decided under the same readings."""
    derived = [k for k in READING.keys if ":" in k]
    assert len(derived) == 2
    for key in derived:
        assert key in {r.key for r in figure_evidence.load(CHAPTER, FILE)}, key


def test_each_declaration_time_is_the_commit_that_entered_it_in_docs_choices():
    git = shutil.which("git")
    if not git or not (PROJECT_ROOT / ".git").exists():
        pytest.skip("not a git checkout: the declarations' commits cannot be read")
    for r in DECLARED_READINGS.values():
        p = subprocess.run([git, "log", "--reverse", "--format=%cI", "-S", r.anchor, "--", "docs/choices.md"],
                           cwd=PROJECT_ROOT, capture_output=True, text=True, check=False)
        first = p.stdout.split()[:1]
        if p.returncode or not first:
            pytest.skip(f"git log cannot read docs/choices.md's history here: {p.stderr.strip()[:200]}")
        assert first[0] == r.declared, f"{r.name}: declared {r.declared}, entered {first[0]}"


LIVE = '''
import pytest
from textcheck.rule import trained_figure

@pytest.mark.fast
@pytest.mark.claim("norm.prenorm_needs_no_warmup")
@pytest.mark.figure("norm.prenorm")
@pytest.mark.parametrize("when", ["{after}", "{before}"])
def test_prenorm(when, claim_record, request):
    trained_figure(request, claim_record, measurement="perplexity", label="prenorm held-out perplexity",
                   stated=37.82, rounding=0.005, values=[53.1, 53.4, 53.2],
                   reading=("best held-out step", [37.80, 37.83, 37.84], when))
'''


def test_a_live_test_with_a_declared_reading_is_underspecified_and_one_measured_before_is_refuted(inprocess, monkeypatch):
    pytester = inprocess                # run in this process (tests/conftest.py)
    """The test path of the fourth outcome (textcheck/rule.py trained_figure's `reading`): the
    claim report counts the reading measured after its declaration as underspecified, the one
    measured before as refuted, and records the reading beside the primary measurement."""
    import os
    monkeypatch.setenv("PYTHONPATH", str(PROJECT_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    pytester.makeini("[pytest]\nmarkers =\n  fast\n  slow\n  gpu\n  claim(id)\n  figure(id)\n")
    (pytester.path / "claims").mkdir()
    (pytester.path / "claims" / "test_live.py").write_text(LIVE.replace("{after}", AFTER).replace("{before}", BEFORE))
    pytester.runpytest_inprocess("-p", "fixtures.plugin", "-p", "claims.chapter", "-p", "no:cacheprovider",
                                  "-m", "fast", "claims/test_live.py")
    report = json.loads((pytester.path / "report" / "claims.json").read_text())
    (claim,) = [c for c in report["claims"] if c["id"] == "norm.prenorm_needs_no_warmup"]
    outcome = {t["nodeid"].split("[")[1].rstrip("]"): t for t in claim["tests"]}
    # the chapter's own declaration was made after a measurement: neither counts (rule version 3)
    assert outcome[AFTER]["outcome"] == "refuted" and "declared after a measurement" in outcome[AFTER]["reason"]
    assert outcome[BEFORE]["outcome"] == "refuted" and "counts for nothing" in outcome[BEFORE]["reason"]
    assert outcome[AFTER]["records"][0]["reading"] == {"name": "best held-out step", "date": AFTER,
                                                       "measured": {"values": [37.80, 37.83, 37.84]}}
    # saved as a figure record that keeps the reading and its runs, decided again the same way
    test = {**outcome[AFTER], "claims": [claim["id"]],
            "runs": [{"group": "norm", "recipe": "prenorm", "seed": s, "key": f"k{s}"} for s in range(3)]}
    (rec,) = figure_evidence.from_test(CHAPTER, as_outcome(test), claim["id"], RunReport.of({"claims": [], "meta": {"timestamp": AFTER}}))
    assert rec.verdict == "refuted" and asdict(rec)["reading"]["runs"] == test["runs"]
    assert redecide(CHAPTER, rec).verdict == "refuted" and redecide(BLIND, blind(rec)).verdict == "underspecified"
