"""The eighth round of issue 59's fault findings: what an audit of every finding against the code
of rounds 5 to 7 found still open (docs/faults-59.md maps each finding to its test).

- finding 6: a stale record decides nothing, so its claim is stale (never holds on the figures
  left), the report counts it stale, and a verdicts.json that says otherwise is refused;
- the tracebacks: a value nested 900 deep, and the old store's `{"$claim", "$test", "$at"}`
  references, which the typed store refuses by name;
- a chattr +i results/ folder: a save names it, exit 2, results/ as it was;
- the cosmetic ones: a test's displayed values are checked against its own figure record; the
  re-derivation reads every committed file the report reads (readings.json, run records) with the
  same reader, so it no longer passes what the report refuses;
- the seeds-on-record rule's date: a run is on record from the time a save committed it
  (RunRecord.recorded), not from the time it was trained, so a seed cached before a record was
  decided but committed after it no longer makes `python -m fixtures` refuse the training run.

Every write goes to a scratch copy of results/ (round 6's fixture), never the checkout's own.
"""
import json
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
import test_faults_round6 as _round6

from claims.chapter import CHAPTER
from fixtures import results, run_codec
from textcheck import rederive, verdict_file
from textcheck.store import EvidenceError
from textcheck.verdicts import summary_of

ROOT = Path(__file__).resolve().parent.parent.parent
results_dir = _round6.results_dir           # the scratch copy of results/: round 6's one fixture
_state = _round6._state


def _rederive(results_dir: Path, capsys) -> tuple[int, str]:
    code = rederive.main(CHAPTER, ["--evidence", str(results_dir / "figures.json")])
    said = capsys.readouterr()
    return code, said.out + said.err


def _figures(results_dir: Path, change) -> None:
    data = json.loads((results_dir / "figures.json").read_text())
    change({r["key"]: r for r in data["records"]})
    (results_dir / "figures.json").write_text(json.dumps(data, indent=1))


def _index(results_dir: Path, change) -> None:
    data = json.loads((results_dir / "verdicts.json").read_text())
    change(data)
    (results_dir / "verdicts.json").write_text(json.dumps(data, indent=1))


# ------------------------------------------------------------ 6. a stale record decides nothing

KEY, CLAIM = "winograd.cheatable_one_block", "winograd.category_cheat"


def _forge_stale(results_dir: Path, claim_verdict: str) -> None:
    """The issue's replay: the record kept under rate/1 with a forged holds, in both files, and its
    claim's verdict set to `claim_verdict`."""
    _figures(results_dir, lambda recs: recs[KEY].update(rule="rate/1", verdict="holds"))

    def forge(index):
        for c in index["claims"]:
            for t in c["tests"]:
                if t["key"] == KEY:
                    t["outcome"] = "holds"
                    c["verdict"] = claim_verdict
    _index(results_dir, forge)


def test_6_a_claim_with_a_stale_record_is_stale_never_holds_on_the_figures_left(results_dir, capsys):
    """winograd.category_cheat's one-block record (refuted) kept under rate/1 with a forged holds,
    the claim set to holds: its other figure holds, so the report showed the claim **holds (1 stale)**
    and counted "0 stale", and the re-derivation exited 0.  The stale figure decides nothing, so the
    claim is stale: the re-derivation refuses the forged holds, naming the claim."""
    _forge_stale(results_dir, "holds")
    code, said = _rederive(results_dir, capsys)
    assert code == 1, said[-3000:]
    assert f"claim {CLAIM}: holds in verdicts.json, its tests give stale" in said


def test_6_the_forgery_made_consistent_is_counted_stale_in_the_report(results_dir, capsys):
    """With the claim's verdict set to what its tests give (stale) the files agree; the report's
    row of the claim (verdict_file.summary, the report's model reads it) says stale, and its count
    of stale claims is 1, never "0 stale" beside a claim shown as holds."""
    _forge_stale(results_dir, "stale")
    code, said = _rederive(results_dir, capsys)
    assert code == 0 and f"{KEY}: decided under rate/1" in said, said[-3000:]
    claims = verdict_file.load(CHAPTER, results_dir / "verdicts.json")
    rows = [verdict_file.summary(CHAPTER, c) for c in claims]
    (row,) = [r for r in rows if r["id"] == CLAIM]
    assert row["verdict"] == "stale"
    assert summary_of(rows)["stale"] == 1


def test_6_a_refuted_figure_beside_a_stale_one_still_refutes():
    """A refuted (or failing) figure settles the claim whatever its stale figure would say."""
    from textcheck.verdicts import summarise_claim
    now = {"outcome": "refuted", "reason": "r", "records": [{"rule": "rate/3", "measurement": "winograd_accuracy/1"}],
           "nodeid": "a::x", "timestamp": "t", "seconds": 1.0}
    old = {**now, "outcome": "holds", "nodeid": "a::y", "records": [{"rule": "rate/1"}]}
    assert summarise_claim(CHAPTER, CLAIM, [now, old], True)["verdict"] == "refuted"
    assert summarise_claim(CHAPTER, CLAIM, [{**now, "outcome": "holds"}, old], True)["verdict"] == "stale"


# ------------------------------------------------------------ the tracebacks: nesting, the old references

def test_a_value_nested_900_deep_is_a_named_error_exit_2(results_dir, capsys):
    """A RecursionError traceback in the re-derivation and the report (the references' resolver
    recursed into it): the one JSON reader refuses evidence nested deeper than any file is."""
    value = 0.5
    for _ in range(900):
        value = [value]
    _figures(results_dir, lambda recs: recs["norm.prenorm"]["measured"]["values"].__setitem__(0, value))
    code, said = _rederive(results_dir, capsys)
    assert code == 2 and "Traceback" not in said
    assert f"{results_dir / 'figures.json'}: nested deeper than 64 levels" in said


@pytest.mark.parametrize("at", [5, "0", [[0]], [{"a": 1}], [0, [1]]],
                         ids=["a number", "a string", "a list step", "a dict step", "a list step after an index"])
def test_an_old_store_reference_is_refused_naming_the_field(at, results_dir, capsys):
    """The schema-2 `{"$claim", "$test", "$at"}` reference (its $at not a list, or a list holding a
    list or dict step) was a traceback; the typed store has no references of that kind, and refuses
    one by the field it stands in, exit 2."""
    ref = {"$claim": "norm.prenorm_beats_postnorm", "$test": "test_prenorm", "$at": at}
    _figures(results_dir, lambda recs: recs["norm.prenorm"]["measured"]["values"].__setitem__(1, ref))
    code, said = _rederive(results_dir, capsys)
    assert code == 2 and "Traceback" not in said
    assert "norm.prenorm" in said and "field 'measured.values[1]'" in said, said[-2000:]


# ------------------------------------------------------------ left from the last round: chattr +i results

def test_a_save_into_an_immutable_results_folder_is_a_named_error(tmp_path, results_dir, monkeypatch, capsys):
    """`chattr +i results` was a traceback: the save's lock cannot be created there.  The report's
    save names the file and what the system said, exit 2, and results/ is as it was."""
    from claims.report import cli
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(results_dir)], check=False,
                                        capture_output=True).returncode:
        pytest.skip("chattr +i is not possible here (not root, or a filesystem without attributes)")
    try:
        before = _state(results_dir)
        fresh = _round6._fresh(results_dir, "norm.prenorm", _round6._metric(results_dir, "norm", "prenorm"))
        ev = _round6._run_dir(tmp_path, fresh, results_dir)
        monkeypatch.setattr(cli, "RESULTS", results_dir / "verdicts.json")
        assert cli.main([f"--report-dir={ev.root}", "--save-results"]) == 2
        err = capsys.readouterr().err
        assert f"{results_dir}/" in err and "cannot be written or read (Operation not permitted)" in err, err[-2000:]
        assert "Traceback" not in err
        assert _state(results_dir) == before
    finally:
        subprocess.run([chattr, "-i", str(results_dir)], check=False)


# ------------------------------------------------------------ cosmetic: displayed values, the report's inputs

@pytest.mark.parametrize("edit, field", [
    (lambda shown: shown.update(measured=39.0), "shown.measured"),
    (lambda shown: shown["measured"].update({"per seed": [39.0, 50.8, 52.9]}), "shown.measured"),
    (lambda shown: shown["measured"].update(mean=39.0), "shown.measured.mean"),
    (lambda shown: shown.update(seeds=10), "shown.seeds")],
    ids=["a number for the values", "other values per seed", "another mean", "another count of seeds"])
def test_a_tests_displayed_values_are_checked_against_its_figure_record(edit, field, results_dir, capsys):
    """norm.prenorm's test showed its values per seed (a pointer to them), their mean and sd and
    its seeds; a display edited by hand showed numbers the verdict never rested on, and every
    reader passed it.  The display is checked against its own record: the re-derivation (and so
    every report and save) refuses it, naming the record and the field."""
    _figures(results_dir, lambda recs: edit(recs["norm.prenorm"]["shown"]))
    code, said = _rederive(results_dir, capsys)
    assert code == 1 and f"SHOWN norm.prenorm: field '{field}'" in said, said[-2000:]
    with pytest.raises(EvidenceError, match=f"norm.prenorm: field '{field}'"):
        rederive.accepted(CHAPTER, results_dir)


def test_every_committed_display_shows_its_records_values():
    """The check as committed: every figure record of results/ passes it."""
    from textcheck import evidence as figure_evidence
    from textcheck import shown
    records = figure_evidence.load(CHAPTER, ROOT / "results" / "figures.json")
    assert records and [line for rec in records for line in shown.disagreements(rec)] == []


@pytest.mark.parametrize("name, text, says", [
    ("readings.json", "[]", "not an object of readings"),
    ("errata.json", '{"group": "errata", "runs": [5]}', "a record must be an object"),
    ("norm.json", '{"group": "norm", "runs": [], "runs": []}', "the key 'runs' stands twice"),
    ("cost_cpu.json", '{"rows": [{"n": "x"}]}', "row 0: field 'n' is 'x'")],
    ids=["readings", "a run records file no record names", "a key twice", "the cost table"])
def test_the_rederivation_refuses_what_the_report_refuses(name, text, says, results_dir, capsys):
    """The re-derivation exited 0 on a results/ the report refused (exit 2): it read only the two
    files it decides and the run records its records name.  It reads every other committed file
    with the reader a save checks it with (the cost table by the text's reader, the report's), so
    both refuse, naming the file."""
    (results_dir / name).write_text(text)
    code, said = _rederive(results_dir, capsys)
    assert code == 2 and f"{results_dir / name}" in said and says in said, said[-2000:]


# ------------------------------------------------------------ the seeds on record: when a run went on record

TRAINED_BEFORE = "2026-12-03T21:40:00+00:00"        # before norm.prenorm was decided (2026-12-03T22:22:34)


def _prenorm_seed(results_dir: Path, seed: int, date: str):
    (old,) = [r for r in results.load("norm", results_dir) if r.recipe == "prenorm" and r.seed == 0]
    cfg = {**old.config, "train": {**old.config["train"], "seed": seed}}
    return replace(old, seed=seed, config=cfg, key=run_codec.run_key(cfg, old.training_version), date=date,
                   metrics={**old.metrics, "val_ppl": 51.7})


def _train(monkeypatch, results_dir: Path, runs: list) -> int:
    import fixtures.__main__ as command

    def trainer(group, names, seeds, device, *, evidence, **kw):
        evidence.write_run_records(group, runs)
        return {}
    monkeypatch.setattr(command, "runs", trainer)
    monkeypatch.setattr(command, "RESULTS_DIR", results_dir)
    monkeypatch.setattr("fixtures.schedule.die_with_parent", lambda: None)
    return command.main(["norm", "--only", "prenorm", "--device", "cpu"])


def test_a_seed_cached_before_a_record_but_committed_after_it_is_not_held_against_it(results_dir, monkeypatch,
                                                                                    capsys):
    """prenorm seed 3 trained (its cache entry created) before norm.prenorm was decided on seeds
    0-2, and committed by `python -m fixtures` today: it was not on record when the record was
    decided, so the record is not short of it.  The run's date was its cache entry's `created`, and
    the command refused the training run (norm.prenorm "leaves out seed(s) 3")."""
    assert _train(monkeypatch, results_dir, [_prenorm_seed(results_dir, 3, TRAINED_BEFORE)]) == 0, \
        capsys.readouterr().err[-2000:]
    (new,) = [r for r in results.load("norm", results_dir) if r.recipe == "prenorm" and r.seed == 3]
    assert new.date == TRAINED_BEFORE and new.recorded is not None and new.recorded > "2026-12-07"
    code, said = _rederive(results_dir, capsys)
    assert code == 0, said[-2000:]


def test_a_seed_on_record_before_a_record_was_decided_is_still_held_against_it(results_dir, monkeypatch, capsys):
    """The rule itself stands: the same seed on record (committed) before the record was decided
    and left out of it is refused, naming the seed."""
    run = replace(_prenorm_seed(results_dir, 3, TRAINED_BEFORE), recorded="2026-12-03T22:00:00+00:00")
    path = results_dir / "norm.json"
    path.write_text(results.dumps("norm", [*results.load("norm", results_dir), run]))
    code, said = _rederive(results_dir, capsys)
    assert code != 0 and "norm.prenorm: field 'runs' leaves out seed(s) 3" in said, said[-2000:]


def test_a_save_keeps_the_time_a_run_went_on_record(results_dir, monkeypatch, capsys):
    """A run committed again as it is keeps its `recorded` (a save that changes nothing writes
    nothing); a record's own `recorded` is never its say: the save gives the time it commits."""
    run = _prenorm_seed(results_dir, 3, TRAINED_BEFORE)
    assert _train(monkeypatch, results_dir, [replace(run, recorded="2020-01-01T00:00:00+00:00")]) == 0
    before = _state(results_dir)
    (first,) = [r for r in results.load("norm", results_dir) if r.seed == 3 and r.recipe == "prenorm"]
    assert first.recorded > "2026-12-07"
    assert _train(monkeypatch, results_dir, [run]) == 0
    assert _state(results_dir) == before


def test_recorded_is_a_date_and_time_or_refused():
    (rec,) = [r for r in json.loads((ROOT / "results" / "norm.json").read_text())["runs"][:1]]
    with pytest.raises(ValueError, match="recorded is 'yesterday', not a date and time"):
        run_codec.decode({**rec, "recorded": "yesterday"}, "w")
    assert run_codec.decode({**rec, "recorded": "2026-12-07T10:00:00+00:00"}, "w").recorded
    assert "recorded" not in run_codec.encode(run_codec.decode(rec, "w"))      # committed runs encode as before


def test_a_runs_training_date_is_a_date_or_refused():
    """The cosmetic finding's last case: a run record's `date` was any string.  It is an ISO 8601
    date (or date and time), as training writes it; NaN and inf stay valid metrics (a diverged run's
    perplexity is evidence: fixtures/run_codec.py _number, and docs/evidence.md)."""
    (rec,) = [r for r in json.loads((ROOT / "results" / "norm.json").read_text())["runs"][:1]]
    for bad in ("last tuesday", "2026-13-01", ""):
        with pytest.raises(ValueError, match=f"date is {bad!r}, not a date"):
            run_codec.decode({**rec, "date": bad}, "w")
    for good in ("2026-12-02", "2026-12-07T10:00:00+00:00"):
        assert run_codec.decode({**rec, "date": good}, "w").date == good


# ------------------------------------------------------------ left from the last round: the plots under the lock

@pytest.mark.slow
def test_the_reports_plots_read_the_run_records_under_the_save_lock(tmp_path, results_dir, monkeypatch, capsys):
    """The report drew its plots from run records read outside the save lock (5 of 6 renders torn
    during a slowed save).  Every read of the plots' data is made while the report holds results/'s
    read lock, the one its tables are read under (round 4's test_9 shows a held lock stops it)."""
    from contextlib import contextmanager

    from claims.report import cli, plot_data
    held, reads = [], []
    real_reading, real_plot_data = cli.reading, plot_data.plot_data

    @contextmanager
    def reading(folder):
        with real_reading(folder):
            held.append(Path(folder))
            try:
                yield
            finally:
                held.pop()

    def traced(runs):
        reads.append(list(held))
        return real_plot_data(runs)
    monkeypatch.setattr(cli, "reading", reading)
    monkeypatch.setattr(plot_data, "plot_data", traced)
    monkeypatch.setattr(cli, "RESULTS", results_dir / "verdicts.json")
    assert cli.main([f"--report-dir={tmp_path / 'R'}"]) == 0, capsys.readouterr().err[-2000:]
    assert reads and all(h == [results_dir] for h in reads), reads


# ------------------------------------------------------------ found in this round: the conversion wrote what is refused

@pytest.mark.parametrize("check", [True, False], ids=["--check", "a conversion"])
def test_the_conversion_never_writes_what_the_rederivation_refuses(check, results_dir, capsys):
    """`python -m claims.convert` over a figures.json holding an old store's reference (a value the
    re-derivation refuses): `--check` counted it as a record to decide again (exit 1), and the
    conversion wrote it back, its record's other references turned into numbers (exit 0).  Both
    name it, exit 2, and results/ is as it was: the conversion commits through the re-derivation
    of what it staged, as a save does."""
    from claims.convert import main as convert_main
    ref = {"$claim": "norm.prenorm_beats_postnorm", "$test": "test_prenorm", "$at": 5}
    _figures(results_dir, lambda recs: recs["norm.prenorm"]["measured"]["values"].__setitem__(0, ref))
    before = _state(results_dir)
    assert convert_main([f"--results={results_dir}", *(["--check"] if check else [])]) == 2
    err = capsys.readouterr().err
    assert "(norm.prenorm): field 'measured.values[0]'" in err and "Traceback" not in err, err[-2000:]
    assert _state(results_dir) == before


def test_the_conversion_still_decides_a_stale_record_again(results_dir, capsys):
    """What the conversion is for stands: a record decided under an older rule (its verdict the
    one that rule gave) is one `--check` counts (exit 1, nothing written, no scratch file left), the
    conversion decides it again, and the re-derivation then agrees (exit 0)."""
    from claims.convert import main as convert_main
    _figures(results_dir, lambda recs: recs[KEY].update(rule="rate/2"))
    before = _state(results_dir, hidden=False)
    assert convert_main([f"--results={results_dir}", "--check"]) == 1
    assert "to decide again: figures.json" in capsys.readouterr().out
    assert _state(results_dir, hidden=False) == before
    assert convert_main([f"--results={results_dir}"]) == 0, capsys.readouterr().err[-2000:]
    assert _rederive(results_dir, capsys)[0] == 0
