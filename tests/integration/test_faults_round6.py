"""The sixth round of fault findings (issue 59).  Covers: finding 2 (a save commits what the
re-derivation then refuses: it now runs the whole re-derivation on the files it staged and
refuses before it commits), findings 1 and 5 (a --from-results run, which measured nothing,
commits nothing it read from results/), findings 6, 7, 9, 11, 12 and 13 (what a verdict rests on
comes from the figure table and the declared design, never from the record), finding 4 (a save
killed at random points leaves results/ fully old or fully new, as every reader sees it; a reader
finishes an interrupted save's journal or refuses naming it), and the tracebacks of the round
(each a named error with exit 2).  Every write goes to a scratch copy of results/ or a scratch
checkout, never the checkout's own."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from claims.chapter import CHAPTER
from fixtures import results, run_codec
from fixtures.evidence import EvidenceWriter
from textcheck import evidence as figure_evidence
from textcheck.save import save_run
from textcheck.store import EvidenceError

ROOT = Path(__file__).resolve().parent.parent.parent
STAMP = "2026-12-24T10:00:00+00:00"


def _state(folder: Path, hidden: bool = True) -> dict[str, str]:
    """Every file under `folder` and its sha256 (the locks' own files not; `hidden`: with the
    hidden ones, a save's journal and staged copies, which no reader reads)."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.endswith((".lock", ".lock.holder"))
            and (hidden or not p.name.startswith("."))}


@pytest.fixture
def results_dir(tmp_path) -> Path:
    """A scratch copy of the committed results/ (its JSON files: what a save and a reader read)."""
    out = tmp_path / "results"
    out.mkdir()
    for p in (ROOT / "results").glob("*.json"):
        shutil.copy2(p, out / p.name)
    return out


def _committed(results_dir: Path, key: str) -> tuple[dict, dict, str]:
    """The committed figure record `key` (as the file holds it), its test's entry and its claim."""
    rec = next(r for r in json.loads((results_dir / "figures.json").read_text())["records"] if r["key"] == key)
    for c in json.loads((results_dir / "verdicts.json").read_text())["claims"]:
        for t in c["tests"]:
            if t["key"] == key:
                return rec, t, c["id"]
    raise KeyError(key)


def _fresh(results_dir: Path, key: str, values: list, runs: list | None = None, meta: dict | None = None,
           outcome: str | None = None) -> dict:
    """A run's claims.json that measured the committed figure `key` again: `values` per seed, named
    runs `runs` (by default the committed record's)."""
    rec, entry, claim = _committed(results_dir, key)
    shown = next(r for r in figure_evidence.load(CHAPTER, results_dir / "figures.json") if r.key == key).shown
    if outcome is None:                 # as the figure table decides the values
        outcome = CHAPTER.rule_inputs(key).decide({"values": values}, CHAPTER.timed).verdict
    test = {"nodeid": entry["nodeid"], "outcome": outcome, "reason": "r", "tier": entry["tier"],
            "device": "cpu", "seconds": 1.0, "timestamp": STAMP, "source": "fresh run", "torch": "9.9",
            "runs": runs if runs is not None else rec["runs"],
            "records": [{**shown, "rule": rec["rule"], "measurement": rec["measurement"],
                         "figures": rec["figures"], "decision": {"values": values}}]}
    return {"meta": {"source": "fresh run", "timestamp": STAMP, "commit": "c-today", "torch": "9.9", **(meta or {})},
            "claims": [{"id": claim, "verdict": test["outcome"], "tests": [test]}]}


def _run_dir(tmp_path: Path, fresh: dict, results_dir: Path, name: str = "run") -> EvidenceWriter:
    ev = EvidenceWriter(tmp_path / name, results_dir=results_dir)
    (ev.root / "claims.json").write_text(json.dumps(fresh))
    return ev


def _metric(results_dir: Path, group: str, recipe: str, name: str = "val_ppl") -> list:
    return [r.metrics[name] for r in results.load(group, results_dir) if r.recipe == recipe]


def _rederive(results_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "claims.rederive", "--evidence", str(results_dir / "figures.json")],
                          cwd=ROOT, capture_output=True, text=True, check=False,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)


# ------------------------------------------------------------ 2. a save commits what the re-derivation refuses

def test_2_a_fresh_test_naming_runs_not_in_results_is_refused_before_commit(tmp_path, results_dir):
    before = _state(results_dir)
    runs = [{"group": "norm", "recipe": "prenorm", "seed": s, "key": f"{s:020x}"} for s in range(3)]
    fresh = _fresh(results_dir, "norm.prenorm", [52.0, 51.0, 53.0], runs=runs)
    with pytest.raises(EvidenceError, match=r"figures\.json: this save would commit what the re-derivation refuses"
                                            r"(.|\n)*norm\.prenorm: runs\[0\] \(norm prenorm seed 0 key 0+\) "
                                            r"is not in results/norm\.json"):
        save_run(CHAPTER, fresh, _run_dir(tmp_path, fresh, results_dir), results_dir)
    assert _state(results_dir) == before


def test_2_perplexities_that_are_no_metric_of_their_runs_are_refused_before_commit(tmp_path, results_dir):
    before = _state(results_dir)
    fresh = _fresh(results_dir, "norm.prenorm", [39.0, 40.0, 41.0])
    with pytest.raises(EvidenceError, match=r"norm\.prenorm: seed 0's value 39\.0 in results/figures\.json is no "
                                            r"metric of its runs"):
        save_run(CHAPTER, fresh, _run_dir(tmp_path, fresh, results_dir), results_dir)
    assert _state(results_dir) == before


def test_2_retraining_some_seeds_and_saving_some_tests_of_the_group_is_refused(tmp_path, results_dir):
    """prenorm seed 0 trained again with another perplexity (the same recipe and key), and only
    norm.prenorm's test saved: the records of the group's tests not run again (norm.eight_times,
    a ratio stored as a number) still name the old value, so the save is refused naming one."""
    before = _state(results_dir)
    runs = results.load("norm", results_dir)
    redone = [r for r in runs if r.recipe == "prenorm" and r.seed == 0]
    (redone,) = redone
    from dataclasses import replace
    new = replace(redone, metrics={**redone.metrics, "val_ppl": 60.5})
    values = [60.5, *_metric(results_dir, "norm", "prenorm")[1:]]
    fresh = _fresh(results_dir, "norm.prenorm", values)
    ev = _run_dir(tmp_path, fresh, results_dir)
    ev.write_run_records("norm", [new])
    with pytest.raises(EvidenceError, match=r"this save would commit what the re-derivation refuses(.|\n)*"
                                            r"norm\.eight_times: seed 0's value"):
        save_run(CHAPTER, fresh, ev, results_dir)
    assert _state(results_dir) == before
    # the run records alone (a save of evidence without verdicts) are refused the same way
    from textcheck.save import save_evidence
    with pytest.raises(EvidenceError, match=r"norm\.eight_times: seed 0's value"):
        save_evidence(CHAPTER, ev, results_dir)
    assert _state(results_dir) == before


def test_2_a_save_of_what_was_measured_still_commits(tmp_path, results_dir):
    """The check refuses only what the re-derivation refuses: the committed values measured again
    are saved (the date is the run's), and the re-derivation then passes."""
    fresh = _fresh(results_dir, "norm.prenorm", _metric(results_dir, "norm", "prenorm"))
    save_run(CHAPTER, fresh, _run_dir(tmp_path, fresh, results_dir), results_dir)
    saved = {r.key: r for r in figure_evidence.load(CHAPTER, results_dir / "figures.json")}
    assert saved["norm.prenorm"].date == STAMP
    r = _rederive(results_dir)
    assert r.returncode == 0, r.stdout + r.stderr


# ------------------------------------------------------------ 1 and 5. a --from-results run measured nothing

def _hand_edit_prenorm(results_dir: Path, value: float = 39.0) -> None:
    """prenorm seed 0's val_ppl in norm.json edited by hand (its key, made of its config, unchanged)."""
    data = json.loads((results_dir / "norm.json").read_text())
    (run,) = [r for r in data["runs"] if r["recipe"] == "prenorm" and r["seed"] == 0]
    run["metrics"]["val_ppl"] = value
    (results_dir / "norm.json").write_text(json.dumps(data, indent=1))


def test_1_a_from_results_save_commits_nothing_and_the_rederivation_refuses_the_hand_edit(tmp_path, results_dir):
    """The replay of findings 1 and 5: prenorm seed 0's val_ppl edited to 39.0, a --from-results run
    decides from it (its claims.json says so) and is saved.  Nothing it read from results/ is
    committed (the figure records and the index as before, dates and all), and the re-derivation
    refuses the hand edit (the ratio and difference stored beside it no longer follow from it)."""
    _hand_edit_prenorm(results_dir)
    before = _state(results_dir)
    values = _metric(results_dir, "norm", "prenorm")
    assert values[0] == 39.0
    fresh = _fresh(results_dir, "norm.prenorm", values, meta={"from_results": True})
    fresh["meta"]["from_records"] = [fresh["claims"][0]["tests"][0]["nodeid"]]
    try:
        lines = save_run(CHAPTER, fresh, _run_dir(tmp_path, fresh, results_dir), results_dir)
    except EvidenceError as e:                        # refused, naming what it refuses: as good
        assert "norm.eight_times" in str(e)
    else:
        assert any("measured nothing" in line for line in lines), lines
    assert _state(results_dir) == before
    r = _rederive(results_dir)
    assert r.returncode != 0 and "norm.eight_times: seed 0's value" in r.stdout + r.stderr, r.stdout + r.stderr


def test_1_a_first_decision_from_committed_runs_is_saved(tmp_path, results_dir):
    """A --from-results test with no committed evidence (a new claim decided over runs already on
    record) measured no run, but it decides for the first time: its record, references to committed
    runs and no value of its own, is saved, and the re-derivation decides it again from them.  Only
    a test that has committed evidence is kept as it was (the finding above)."""
    key = "average.positions_gain"
    rec, entry, claim = _committed(results_dir, key)
    fresh = _fresh(results_dir, key, rec["measured"]["values"], meta={"from_results": True})
    fresh["meta"]["from_records"] = [entry["nodeid"]]
    for name, drop in (("figures.json", lambda d: d.update(records=[r for r in d["records"] if r["key"] != key])),
                       ("verdicts.json", lambda d: d.update(claims=[c for c in d["claims"] if c["id"] != claim]))):
        data = json.loads((results_dir / name).read_text())
        drop(data)
        (results_dir / name).write_text(json.dumps(data, indent=1))
    lines = save_run(CHAPTER, fresh, _run_dir(tmp_path, fresh, results_dir), results_dir)
    assert not any("measured nothing" in line for line in lines), lines
    assert [r for r in json.loads((results_dir / "figures.json").read_text())["records"] if r["key"] == key]
    r = _rederive(results_dir)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.slow
def test_1_the_replay_end_to_end_commits_nothing_and_the_rederivation_refuses(tmp_path):
    """The issue's replay in a scratch checkout: prenorm seed 0's val_ppl edited to 39.0 in
    results/norm.json, `pytest claims/test_norm_trained.py -m trained --device cpu --from-results
    --cached-only`, then `python -m claims.report --save-results`: refused with a named error or
    nothing committed, and `python -m claims.rederive` then refuses the hand edit."""
    scratch = _scratch(tmp_path)
    _hand_edit_prenorm(scratch / "results")
    before = _state(scratch / "results")
    env = dict(os.environ, PYTHONPATH=str(ROOT), ATTENTION_CLAIMS_ROOT=str(scratch),
               ATTENTION_CLAIMS_CACHE=str(tmp_path / "cache"))
    rep = tmp_path / "R"
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-q",
                        "claims/test_norm_trained.py", "-m", "trained", "--device", "cpu", "--from-results",
                        "--cached-only", f"--report-dir={rep}", "--no-progress"], cwd=scratch, capture_output=True,
                       text=True, check=False, timeout=600, env=env)
    assert r.returncode in (0, 1) and (rep / "claims.json").exists(), r.stdout[-2000:] + r.stderr[-2000:]
    r = subprocess.run([sys.executable, "-m", "claims.report", f"--report-dir={rep}", "--save-results"], cwd=scratch,
                       capture_output=True, text=True, check=False, timeout=600, env=env)
    assert r.returncode in (0, 2) and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert _state(scratch / "results", hidden=False) == {k: v for k, v in before.items() if not k.startswith(".")}
    r = subprocess.run([sys.executable, "-m", "claims.rederive"], cwd=scratch, capture_output=True, text=True,
                       check=False, timeout=300, env=env)
    assert r.returncode != 0 and "norm.eight_times: seed 0's value" in r.stdout + r.stderr, r.stdout + r.stderr


def _scratch(tmp_path: Path) -> Path:
    """A checkout of the project's tracked files, a git repository of its own."""
    scratch = tmp_path / "checkout"
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in tracked.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (scratch / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, scratch / name)
    for cmd in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "s"]):
        subprocess.run(["git", "-C", str(scratch), *cmd], capture_output=True, check=True)
    return scratch


def test_1_a_from_results_save_keeps_the_committed_dates(tmp_path, results_dir):
    """On untouched results/, a --from-results save of a test re-dates nothing in verdicts.json
    (the tracebacks' last item) and writes nothing."""
    before = _state(results_dir)
    fresh = _fresh(results_dir, "norm.prenorm", _metric(results_dir, "norm", "prenorm"), meta={"from_results": True})
    fresh["meta"]["from_records"] = [fresh["claims"][0]["tests"][0]["nodeid"]]
    save_run(CHAPTER, fresh, _run_dir(tmp_path, fresh, results_dir), results_dir)
    assert _state(results_dir) == before


# ------------------------------------------------------------ 4. a kill during a save, as every reader sees it

def _readers_see(results_dir: Path, capsys) -> int:
    """What the readers make of `results_dir`: the re-derivation (in-process: it reads under the
    save lock, as the report's refusals and model do) exits with its code."""
    from textcheck import rederive
    code = rederive.main(CHAPTER, ["--evidence", str(results_dir / "figures.json")])
    capsys.readouterr()
    return code


def _new_state(tmp_path: Path, results_dir: Path) -> tuple[dict, dict, dict]:
    """The state of `results_dir` before, and after a whole save of norm.prenorm measured again
    (figures.json and verdicts.json both change), done on a copy."""
    ref = tmp_path / "reference" / "results"
    shutil.copytree(results_dir, ref)
    fresh = _fresh(ref, "norm.prenorm", _metric(ref, "norm", "prenorm"))
    save_run(CHAPTER, fresh, _run_dir(tmp_path / "reference", fresh, ref), ref)
    old, new = _state(results_dir), _state(ref)
    assert old["figures.json"] != new["figures.json"] and old["verdicts.json"] != new["verdicts.json"]
    return old, new, fresh


def test_4_a_reader_finishes_a_save_killed_half_way_through_its_commit(tmp_path, results_dir, capsys):
    """A save killed after its first rename (its journal written, verdicts.json new, figures.json
    not yet): the re-derivation, the first reader after it, finishes the save under the lock and
    reads results/ fully new; it used to read half of it and refuse (exit 1)."""
    from safeio import transaction
    _old, new, fresh = _new_state(tmp_path, results_dir)
    real = transaction.os.replace

    def first_only(src, dst):
        if Path(dst).name == "figures.json":
            raise KeyboardInterrupt         # as a kill there leaves it: the journal and a staged copy
        return real(src, dst)
    transaction.os.replace = first_only
    try:
        with pytest.raises(KeyboardInterrupt):
            save_run(CHAPTER, fresh, _run_dir(tmp_path, fresh, results_dir), results_dir)
    finally:
        transaction.os.replace = real
    assert (results_dir / transaction.JOURNAL).exists()
    assert _readers_see(results_dir, capsys) == 0
    assert _state(results_dir) == new and not (results_dir / transaction.JOURNAL).exists()


def _save_child(ev_root: str, results_dir: str, committing=None) -> None:
    """A save in a forked process; `committing` (an Event) is set when its commit begins, and each
    of its renames then takes 5 ms (a slow disk: the window between two renames is one a kill can hit)."""
    import time

    from safeio import transaction
    if committing is not None:
        commit, rename = transaction.Transaction.commit, transaction.os.replace

        def told(self):
            committing.set()
            return commit(self)

        def slow(src, dst):
            rename(src, dst)
            time.sleep(0.005)
        transaction.Transaction.commit, transaction.os.replace = told, slow
    fresh = json.loads((Path(ev_root) / "claims.json").read_text())
    save_run(CHAPTER, fresh, EvidenceWriter(Path(ev_root), results_dir=Path(results_dir)), Path(results_dir))


@pytest.mark.slow
def test_4_twenty_sigkills_at_random_points_of_a_save_leave_results_fully_old_or_fully_new(tmp_path, results_dir,
                                                                                            capsys):
    """A real save (a forked process) SIGKILLed at twenty random points of its run: ten anywhere
    from its start to its end, ten within its commit (the journal, the renames, each slowed to
    5 ms, the fsyncs: where a kill would split it).  Every reader after it (the re-derivation,
    reading under the save lock, which finishes a journal it finds) sees results/ fully as before or fully as after, and decides it
    all again (exit 0)."""
    import multiprocessing
    import random
    import signal
    import time
    fork = multiprocessing.get_context("fork")
    old, new, fresh = _new_state(tmp_path, results_dir)
    base = tmp_path / "base"
    shutil.copytree(results_dir, base)
    timing = tmp_path / "timing"
    shutil.copytree(base, timing / "results")
    ev = _run_dir(timing, fresh, timing / "results")
    started = time.perf_counter()
    p = fork.Process(target=_save_child, args=(str(ev.root), str(timing / "results")))
    p.start()
    p.join(120)
    took = time.perf_counter() - started
    assert p.exitcode == 0 and _state(timing / "results") == new
    rng = random.Random(59)
    seen = {"old": 0, "new": 0}
    for i in range(20):
        trial = tmp_path / f"trial{i}"
        shutil.copytree(base, trial / "results")
        ev = _run_dir(trial, fresh, trial / "results")
        committing = fork.Event()
        p = fork.Process(target=_save_child, args=(str(ev.root), str(trial / "results"), committing))
        p.start()
        if i % 2:
            committing.wait(60)
            time.sleep(rng.uniform(0, 0.03))
        else:
            time.sleep(rng.uniform(0, took * 1.1))
        if p.is_alive():
            os.kill(p.pid, signal.SIGKILL)
        p.join(60)
        assert _readers_see(trial / "results", capsys) == 0, f"trial {i}"
        state = _state(trial / "results", hidden=False)
        assert state in (old, new), f"trial {i}: results/ is neither as before nor as after the save"
        seen["old" if state == old else "new"] += 1
    assert sum(seen.values()) == 20


# ------------------------------------------------------------ 3. what a verdict rests on: the figure table and the design

def _edit(results_dir: Path, key: str, change) -> dict:
    """The figure record `key` changed by hand (`change(record)`), its verdict what the figure table
    decides of its new values where they are numbers (a forger's best: the files agree)."""
    data = json.loads((results_dir / "figures.json").read_text())
    (rec,) = [r for r in data["records"] if r["key"] == key]
    change(rec)
    (results_dir / "figures.json").write_text(json.dumps(data, indent=1))
    return rec


def _refused(results_dir: Path, capsys) -> str:
    """What the re-derivation says of `results_dir` when it refuses it (it must: exit 1 or 2), and
    what every report reads through (textcheck/rederive.py accepted) refuses the same."""
    from textcheck import rederive
    code = rederive.main(CHAPTER, ["--evidence", str(results_dir / "figures.json")])
    said = capsys.readouterr()
    assert code != 0, said.out[-3000:] + said.err[-3000:]
    with pytest.raises(EvidenceError):
        rederive.accepted(CHAPTER, results_dir)
    return said.out + said.err


def test_6_a_stale_record_with_a_forged_verdict_decides_nothing_and_is_counted_stale(results_dir, capsys):
    """winograd.hardened_uniform kept under rate/1 with a forged holds (its test and claim too):
    the re-derivation lists it as stale, never as agreeing, and the claim's verdict is stale, never
    the forged holds."""
    from textcheck import rederive, verdict_file
    _edit(results_dir, "winograd.hardened_uniform", lambda r: r.update(rule="rate/1", verdict="holds"))
    data = json.loads((results_dir / "verdicts.json").read_text())
    for c in data["claims"]:
        for t in c["tests"]:
            if t["key"] == "winograd.hardened_uniform":
                t["outcome"] = "holds"
    (results_dir / "verdicts.json").write_text(json.dumps(data, indent=1))
    records = figure_evidence.load(CHAPTER, results_dir / "figures.json")
    result = rederive.compare(CHAPTER, records, results_dir / "figures.json")
    assert "winograd.hardened_uniform" in [k for k, *_ in result.stale]
    assert "winograd.hardened_uniform" not in result.agree
    (claim,) = [c for c in verdict_file.load(CHAPTER, results_dir / "verdicts.json")
                if c.id == "winograd.uniform_fails"]
    assert verdict_file.verdict_of(CHAPTER, claim.id, claim.tests) != "holds"


@pytest.mark.parametrize("ref", [{"recipe": "positions_alibi", "seed": 1, "metric": "val_ppl"},
                                 {"recipe": "positions_alibi", "seed": 0, "metric": "train_seconds"}],
                         ids=["another seed's run", "a metric no value may be"])
def test_7_a_reference_to_another_seeds_run_or_another_metric_is_refused(results_dir, ref):
    _edit(results_dir, "positions.alibi_64", lambda r: r["measured"]["values"].__setitem__(0, ref))
    with pytest.raises(figure_evidence.FigureEvidenceError, match=r"positions\.alibi_64.*field 'measured\.values"):
        figure_evidence.load(CHAPTER, results_dir / "figures.json")


def test_9_a_record_with_more_values_than_its_runs_seeds_is_refused(results_dir, capsys):
    _edit(results_dir, "norm.prenorm", lambda r: r["measured"]["values"].append(52.0))
    said = _refused(results_dir, capsys)
    assert "norm.prenorm" in said and "holds 4 values, but" in said and "3 seeds" in said


def test_11_a_record_cut_to_a_subset_of_its_declared_seeds_is_refused(results_dir, capsys):
    """ladder.baseline rests on the 5 seeds average.residual_matches_baseline is declared on
    (claims/seed_steps.py SEEDS_ON_RECORD); cut to 3 (runs and values alike), it is refused."""
    def cut(r):
        r["runs"] = [run for run in r["runs"] if run["seed"] < 3]
        r["measured"]["values"] = r["measured"]["values"][:3]
    _edit(results_dir, "ladder.baseline", cut)
    said = _refused(results_dir, capsys)
    assert "ladder.baseline: field 'runs' names 3 seeds of ladder baseline, but average.residual_matches_baseline " \
           "is declared on 5" in said


def test_10_a_rates_count_of_items_is_the_designs_not_the_records(results_dir, capsys):
    """n_items 240 -> 3 would widen the binomial spread until the rate's verdict flips: the count is
    the figure table's (claims/record_rules.py RATE_ITEMS), and a record that says otherwise is refused."""
    _edit(results_dir, "winograd.hardened_uniform", lambda r: r["measured"].update(n_items=3))
    said = _refused(results_dir, capsys)
    assert "winograd.hardened_uniform" in said and "n_items" in said and "240" in said


def test_12_a_deleted_record_with_its_test_marked_not_run_does_not_turn_the_claim_to_holds(results_dir, capsys):
    """The one refuted record of a claim deleted and its test marked "not run": a committed test
    is a decided one, so the index is refused (the claim never turns to holds)."""
    from textcheck import verdict_file
    key = "winograd.hardened_uniform"
    data = json.loads((results_dir / "figures.json").read_text())
    data["records"] = [r for r in data["records"] if r["key"] != key]
    (results_dir / "figures.json").write_text(json.dumps(data, indent=1))
    index = json.loads((results_dir / "verdicts.json").read_text())
    for c in index["claims"]:
        for t in c["tests"]:
            if t["key"] == key:
                t["outcome"] = "not run"
    (results_dir / "verdicts.json").write_text(json.dumps(index, indent=1))
    said = _refused(results_dir, capsys)
    assert "'outcome'" in said and "not run" in said
    with pytest.raises(EvidenceError, match="outcome"):
        verdict_file.load(CHAPTER, results_dir / "verdicts.json")


def test_2_a_record_naming_a_smoke_run_is_refused(tmp_path, results_dir, capsys):
    """A --smoke run's records (its meta's scale edited, so the report does not see it as smoke):
    the save never carries a smoke run's records into results/, and the re-derivation refuses a
    figure record that names one (or a run not in results/), so the save refuses before it commits."""
    from dataclasses import replace
    runs = [r for r in results.load("norm", results_dir) if r.recipe == "prenorm"]
    smoke = [replace(r, config={**r.config, "scale": "smoke"}) for r in runs]
    smoke = [replace(r, key=run_codec.run_key(r.config, r.training_version)) for r in smoke]
    refs = [{"group": "norm", "recipe": r.recipe, "seed": r.seed, "key": r.key} for r in smoke]
    fresh = _fresh(results_dir, "norm.prenorm", [r.metrics["val_ppl"] for r in smoke], runs=refs)
    ev = _run_dir(tmp_path, fresh, results_dir)
    results.merge("norm", smoke, ev.root)
    ev.add("norm.json", "runs")
    before = _state(results_dir)
    with pytest.raises(EvidenceError, match=r"norm\.prenorm: (names prenorm seed 0, a --smoke run's record|"
                                            r"runs\[0\] \(norm prenorm seed 0 key \w+\) is not in results/norm)"):
        save_run(CHAPTER, fresh, ev, results_dir)
    assert _state(results_dir) == before


# ------------------------------------------------------------ 13. the example's report and its re-derivation

def _example_at(tmp_path: Path):
    """The example text with its root in a scratch folder holding a copy of its results/."""
    from dataclasses import replace

    from examples.running_mean.chapter import CHAPTER as EXAMPLE
    shutil.copytree(EXAMPLE.root / "results", tmp_path / "results")
    return replace(EXAMPLE, root=tmp_path)


def test_13_the_examples_report_renders_nothing_its_rederivation_refuses(tmp_path):
    from textcheck import commands
    example = _example_at(tmp_path)
    path = tmp_path / "results" / "figures.json"
    data = json.loads(path.read_text())
    data["records"][0]["measured"]["values"] = [0.9, 0.91, 0.92]          # decided again: refuted, not holds
    path.write_text(json.dumps(data, indent=1))
    with pytest.raises(EvidenceError, match=r"refused by python -m textcheck rederive(.|\n)*noise\.uniform_10000: "
                                            r"holds when committed, refuted decided again"):
        commands.render(example, commands.TextReport(), tmp_path / "out")
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------ the tracebacks: each a named error, exit 2

@pytest.mark.parametrize("report", ["[]", '{"claims": 5}', '{"claims": [{"id": "noise.uniform"}]}',
                                    '{"claims": [{"id": "noise.uniform", "verdict": "holds", "tests": [5]}]}'])
def test_a_runs_report_of_the_wrong_shape_is_a_named_error_in_every_report_and_save(report, tmp_path, capsys):
    from claims.report.cli import main as report_main
    from textcheck.commands import main as engine_main
    run = tmp_path / "run"
    run.mkdir()
    (run / "claims.json").write_text(report)
    example = ROOT / "examples" / "running_mean" / "results"
    before = _state(example)
    for argv in (["save", "--text", "examples.running_mean.chapter", f"--report-dir={run}"],
                 ["report", "--text", "examples.running_mean.chapter", f"--report-dir={run}"]):
        assert engine_main(argv) == 2
        assert f"{run / 'claims.json'}: " in capsys.readouterr().err
    assert report_main([f"--report-dir={run}"]) == 2
    assert f"{run / 'claims.json'}: " in capsys.readouterr().err
    assert _state(example) == before


def test_a_save_lock_that_is_a_folder_is_a_named_error_for_a_save_and_a_reader(tmp_path, results_dir, capsys):
    from safeio.files import SaveError
    from textcheck import rederive
    (results_dir / ".save.lock").mkdir()
    before = _state(results_dir)
    fresh = _fresh(results_dir, "norm.prenorm", _metric(results_dir, "norm", "prenorm"))
    with pytest.raises(SaveError, match=r"\.save\.lock: is a directory, not a lock file"):
        save_run(CHAPTER, fresh, _run_dir(tmp_path, fresh, results_dir), results_dir)
    assert rederive.main(CHAPTER, ["--evidence", str(results_dir / "figures.json")]) == 2
    assert ".save.lock: is a directory, not a lock file" in capsys.readouterr().err
    assert _state(results_dir) == before


def test_a_report_folder_it_cannot_write_is_a_named_error(capsys):
    from claims.report.cli import main as report_main
    folder = Path("/sys/attention-claims-report")
    try:
        folder.mkdir()
    except OSError:
        pass
    else:
        folder.rmdir()
        pytest.skip("/sys is writable here: no read-only folder to write into")
    assert report_main([f"--report-dir={folder}"]) == 2
    err = capsys.readouterr().err
    assert f"{folder}: cannot be written or read" in err and "Traceback" not in err


def test_a_site_folder_that_is_a_file_is_a_named_error(tmp_path, capsys):
    from claims.report.publish import main as publish_main
    site = tmp_path / "site"
    site.write_text("a file")
    assert publish_main([str(tmp_path / "report"), str(site)]) == 2
    assert "that is a file, not a folder" in capsys.readouterr().err


def test_a_cache_path_that_is_a_file_is_a_named_error_before_any_test_runs(tmp_path):
    cache = tmp_path / "cache"
    cache.write_text("a file")
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-q", "-m", "fast",
                        "claims/test_norm.py", f"--report-dir={tmp_path / 'rep'}", "-x"], cwd=ROOT, capture_output=True,
                       text=True, check=False, timeout=300,
                       env=dict(os.environ, PYTHONPATH=str(ROOT), ATTENTION_CLAIMS_CACHE=str(cache)))
    assert r.returncode == 4, r.stdout[-2000:] + r.stderr[-2000:]
    assert f"ATTENTION_CLAIMS_CACHE={cache}: is a file, not a folder" in r.stderr
    assert "Traceback" not in r.stdout + r.stderr


def test_save_results_over_a_corrupt_figures_json_is_a_named_error(tmp_path):
    """End to end in a scratch checkout: --save-results with results/figures.json truncated."""
    scratch = _scratch(tmp_path)
    (scratch / "results" / "figures.json").write_text('{"schema": 3, "records": [')
    before = _state(scratch / "results")
    run = tmp_path / "run"
    run.mkdir()
    (run / "claims.json").write_text(json.dumps(_fresh(ROOT / "results", "norm.prenorm",
                                                       _metric(ROOT / "results", "norm", "prenorm"))))
    r = subprocess.run([sys.executable, "-m", "claims.report", f"--report-dir={run}", "--save-results"], cwd=scratch,
                       capture_output=True, text=True, check=False, timeout=300,
                       env=dict(os.environ, PYTHONPATH=str(ROOT), ATTENTION_CLAIMS_ROOT=str(scratch)))
    assert r.returncode == 2 and "figures.json: not valid JSON" in r.stderr and "Traceback" not in r.stderr, \
        r.stderr[-2000:]
    assert _state(scratch / "results") == before
