"""The fourth outcome end to end: a figure the primary reading refutes and a reading declared
before it was measured reproduces is underspecified (claims/readings_declared.py), in the figure
record, the re-derivation, the claim's verdict, the errata and the report's counts; a reading
measured before it was declared counts for nothing."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import replace

import pytest
from records import figure, figure_objects

from claimcheck import evidence as figure_evidence
from claimcheck.evidence import RecordError, file_of, redecide
from claimcheck.report.views.chapter.legend import SYMBOL
from claimcheck.report.views.errata import render
from claimcheck.verdicts import summarise_claim, summary_of, summary_text
from claims import rederive
from claims.chapter import CHAPTER
from claims.readings_declared import DECLARED_READINGS
from claims.report import errata
from data.chapter import chapter_or_none
from data.paths import PROJECT_ROOT

FILE = file_of(CHAPTER)                 # results/figures.json
pytest_plugins = ["pytester"]

pytestmark = pytest.mark.fast
READING = DECLARED_READINGS["best held-out step"]
AFTER, BEFORE = "2026-12-04T00:00:00+00:00", "2026-12-01T13:23:56+00:00"


def _committed(key: str = "norm.prenorm"):
    return next(r for r in figure_evidence.load(CHAPTER, FILE) if r.key == key)


def _planted(date: str, values=(37.80, 37.83, 37.84), name: str = READING.name) -> dict:
    """The committed pre-norm record (its primary reading refuted: 51.97 over 3 seeds against 37.82) with a planted
    reading of the declared choice, measured at `date`: its JSON object, for a test to edit and type (`figure`)."""
    (rec,) = figure_objects([_committed()])
    rec["reading"] = {"name": name, "measured": {"values": list(values)}, "date": date,
                      "runs": [{"group": "errata", "recipe": "prenorm_stopped_500", "seed": s, "key": "x"}
                               for s in range(len(values))]}
    return rec


def test_a_planted_reading_declared_before_its_measurement_makes_a_refuted_figure_underspecified():
    rec = _planted(AFTER)
    d = redecide(CHAPTER, figure_evidence.decode(CHAPTER, rec))      # the one decoder takes it as it stands
    assert d.verdict == "underspecified", d.why
    assert "the chapter should say which checkpoint" in d.why


def test_a_planted_reading_measured_before_its_declaration_counts_for_nothing():
    d = redecide(CHAPTER, figure(_planted(BEFORE)))
    assert d.verdict == "refuted" and "counts for nothing" in d.why, d.why


def test_a_reading_that_does_not_reproduce_or_a_primary_that_holds_is_left_alone():
    assert redecide(CHAPTER, figure(_planted(AFTER, values=(45.0, 45.2, 44.9)))).verdict == "refuted"
    holds = _planted(AFTER)
    holds["measured"]["values"] = [37.81, 37.82, 37.83]
    assert redecide(CHAPTER, figure(holds)).verdict == "holds"       # a reading never moves a verdict but a refutation
    two = _planted(AFTER, values=(37.8, 37.82))
    assert redecide(CHAPTER, figure(two)).verdict == "refuted"       # too few seeds reproduce nothing


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
        redecide(CHAPTER, figure(rec))
    assert e.value.field == field


def test_underspecified_end_to_end_rederive_claim_errata_and_counts(tmp_path, capsys):
    for path in FILE.parent.glob("*.json"):          # the run records the figure records name
        if path.name not in ("figures.json", "verdicts.json"):
            shutil.copy(path, tmp_path / path.name)
    records = [r for r in figure_evidence.load(CHAPTER, FILE) if r.key != "norm.prenorm"]
    planted = figure(dict(_planted(AFTER), verdict="underspecified"))
    (tmp_path / "figures.json").write_text(figure_evidence.dumps([*records, planted]))
    verdicts = json.loads((FILE.parent / "verdicts.json").read_text())
    claim = next(c for c in verdicts["claims"] if c["id"] == "norm.prenorm_needs_no_warmup")
    test = next(t for t in claim["tests"] if t["key"] == "norm.prenorm")
    test["outcome"], test["reason"] = "underspecified", redecide(CHAPTER, planted).why
    (tmp_path / "verdicts.json").write_text(json.dumps(verdicts))
    assert rederive.main(["--evidence", str(tmp_path / "figures.json")]) == 0, capsys.readouterr()
    # the committed verdict, not the planted one, is a difference
    test["outcome"] = "refuted"
    (tmp_path / "verdicts.json").write_text(json.dumps(verdicts))
    assert rederive.main(["--evidence", str(tmp_path / "figures.json")]) == 1
    # the claim: underspecified when no other test refutes it
    only = summarise_claim(CHAPTER, claim["id"], [dict(test, outcome="underspecified")], True)
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
    assert "The chapter should say:" in render([entry])
    assert "underspecified" in SYMBOL


def test_the_committed_reading_was_measured_after_its_declaration_and_makes_the_figure_underspecified():
    """Until 2026-12-03 the committed reading was the one-seed stopped run of results/errata.json,
    measured two days before the reading was declared: it counted for nothing and the figure was
    refuted.  The three pre-norm runs that score the whole held-out split were trained after the
    declaration; the primary reading refutes 37.82, the best held-out step reproduces it."""
    rec = _committed()
    assert rec.reading.name == READING.name and rec.reading.date > READING.declared
    assert rec.verdict == "underspecified" and redecide(CHAPTER, rec).verdict == "underspecified"
    early = replace(rec, reading=replace(rec.reading, date="2026-12-01T00:00:00+00:00"))
    assert "counts for nothing" in redecide(CHAPTER, early).why and redecide(CHAPTER, early).verdict == "refuted"


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
from claimcheck.rule import trained_figure

@pytest.mark.fast
@pytest.mark.claim("norm.prenorm_needs_no_warmup")
@pytest.mark.figure("norm.prenorm")
@pytest.mark.parametrize("when", ["{after}", "{before}"])
def test_prenorm(when, claim_record, request):
    trained_figure(request, claim_record, measurement="perplexity", label="prenorm held-out perplexity",
                   stated=37.82, rounding=0.005, values=[53.1, 53.4, 53.2],
                   reading=("best held-out step", [37.80, 37.83, 37.84], when))
'''


def test_a_live_test_with_a_declared_reading_is_underspecified_and_one_measured_before_is_refuted(pytester, monkeypatch):
    """The test path of the fourth outcome (claimcheck/rule.py trained_figure's `reading`): the
    claim report counts the reading measured after its declaration as underspecified, the one
    measured before as refuted, and records the reading beside the primary measurement."""
    import os
    monkeypatch.setenv("PYTHONPATH", str(PROJECT_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    pytester.makeini("[pytest]\nmarkers =\n  fast\n  slow\n  gpu\n  claim(id)\n  figure(id)\n")
    (pytester.path / "claims").mkdir()
    (pytester.path / "claims" / "test_live.py").write_text(LIVE.replace("{after}", AFTER).replace("{before}", BEFORE))
    pytester.runpytest_subprocess("-p", "fixtures.plugin", "-p", "claims.chapter", "-p", "no:cacheprovider",
                                  "-m", "fast", "claims/test_live.py")
    report = json.loads((pytester.path / "report" / "claims.json").read_text())
    (claim,) = [c for c in report["claims"] if c["id"] == "norm.prenorm_needs_no_warmup"]
    outcome = {t["nodeid"].split("[")[1].rstrip("]"): t for t in claim["tests"]}
    assert outcome[AFTER]["outcome"] == "underspecified", outcome[AFTER]
    assert outcome[BEFORE]["outcome"] == "refuted" and "counts for nothing" in outcome[BEFORE]["reason"]
    assert outcome[AFTER]["records"][0]["reading"] == {"name": "best held-out step", "date": AFTER,
                                                       "measured": {"values": [37.80, 37.83, 37.84]}}
    # saved as a figure record that keeps the reading and its runs, decided again the same way
    test = {**outcome[AFTER], "claims": [claim["id"]],
            "runs": [{"group": "norm", "recipe": "prenorm", "seed": s, "key": f"k{s}"} for s in range(3)]}
    (rec,) = figure_evidence.from_test(CHAPTER, test, {"timestamp": AFTER})
    assert rec.verdict == "underspecified" and figure_evidence.encode(rec)["reading"]["runs"] == test["runs"]
    assert redecide(CHAPTER, rec).verdict == "underspecified"
