"""Nothing written outside results/, no forged file or smoke run becomes evidence, a failed rename
tears nothing, and a held lock or a bad file says what is wrong: the third round of fault findings
(numbers: the issue's list).  Each works on a scratch box holding a results/, a run's report dir
and an `outside/` that nothing may touch; real faults are caused for real (an immutable file, a
stopped lock holder, links), a full disk and a rename failing after another are simulated."""
import errno
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import inproc
import pytest
from records import recorded, run_record

from claims.chapter import CHAPTER
from fixtures import results, run_codec
from fixtures.evidence import EvidenceWriter
from fixtures.recipes import RECIPES
from fixtures.results import EvidenceError
from safeio import files, transaction
from safeio.files import SaveError, atomic_write
from safeio.locks import locked
from safeio.transaction import JOURNAL, Transaction, recover
from textcheck.records import RunRecord
from textcheck.save import save_run
from textcheck.versions import rule_id

ROOT = Path(__file__).resolve().parent.parent.parent
FORK = multiprocessing.get_context("fork")


def _fresh(cid: str = "norm.postnorm_diverges", tier: str = "gpu") -> dict:
    """A run's claims.json deciding one claim."""
    ts = "2026-12-02T12:00:00+00:00"
    test = {"nodeid": "claims/test_norm_trained.py::test_probe", "outcome": "holds", "reason": "", "tier": tier,
            "device": "cpu", "seconds": 1.0, "timestamp": ts, "source": "fresh run",
            "records": [{"stated": 1, "measured": 1, "tolerance": "t", "rule": rule_id("trained"), "seeds": 3,
                         "figures": [next(iter(CHAPTER.figures_of(cid)))],
                         "decision": {"values": [next(iter(CHAPTER.figures_of(cid).values())).value] * 3}}]}
    return {"meta": {"source": "fresh run", "timestamp": ts}, "claims": [{"id": cid, "verdict": "holds", "tests": [test]}]}


def _fresh_of_runs() -> dict:
    """A run's claims.json deciding norm.prenorm from the box's prenorm runs (seed 0 committed, seed
    1 this run's: `_box`, `_run_saving`), as the re-derivation decides it again: a save runs the
    re-derivation on what it staged and refuses what it would refuse after (issue 59, finding 2)."""
    ts = "2026-12-02T12:00:00+00:00"
    runs = [_run("prenorm", 0, 50.0), _run("prenorm", 1, 52.0)]
    values = [50.0, 52.0]
    outcome = CHAPTER.rule_inputs("norm.prenorm").decide({"values": values}, CHAPTER.timed).verdict
    test = {"nodeid": "claims/test_norm_trained.py::test_probe", "outcome": outcome, "reason": "", "tier": "gpu",
            "device": "cpu", "seconds": 1.0, "timestamp": ts, "source": "fresh run",
            "runs": [{"group": "norm", "recipe": r.recipe, "seed": r.seed, "key": r.key} for r in runs],
            "records": [{"stated": 1, "measured": 1, "tolerance": "t", "rule": rule_id("trained"), "seeds": 2,
                         "measurement": "perplexity/1", "figures": ["norm.prenorm"], "decision": {"values": values}}]}
    return {"meta": {"source": "fresh run", "timestamp": ts},
            "claims": [{"id": "norm.prenorm_needs_no_warmup", "verdict": outcome, "tests": [test]}]}


def _record(recipe: str, seed: int, ppl: float, scale: str = "chapter") -> dict:
    r = RECIPES[recipe].with_seed(seed)
    return recorded({"recipe": recipe, "seed": seed, "config": (r.smoke() if scale == "smoke" else r).to_dict(),
                     "metrics": {"val_ppl": ppl, **({"scale": "smoke"} if scale == "smoke" else {})},
                     "date": "2026-12-02", "curve": [[0, 5.0]]})


def _run(recipe: str, seed: int, ppl: float, scale: str = "chapter") -> RunRecord:
    """`_record` typed by the one decoder: a run record as training hands one to a save."""
    return run_record(_record(recipe, seed, ppl, scale))


def _box(tmp_path: Path) -> Path:
    """results/ with committed verdicts, run records, readings and a plot; outside/ beside it."""
    box = tmp_path / "box"
    (box / "results").mkdir(parents=True)
    (box / "outside").mkdir()
    (box / "outside" / "v1.txt").write_text("outside, untouched")
    atomic_write(box / "results" / "verdicts.json", json.dumps({"schema": 3, "claims": []}))
    atomic_write(box / "results" / "norm.json", json.dumps({"group": "norm", "runs": [_record("prenorm", 0, 50.0)]}))
    atomic_write(box / "results" / "readings.json", json.dumps({f"reading {i}": {"what": "w", "cpu": {"value": i}} for i in range(10)}))
    atomic_write(box / "results" / "norm.png", b"committed plot")
    return box


def _state(directory: Path) -> dict[str, bytes]:
    """Every file under `directory` (links as where they point), byte for byte; lock files (empty, left
    by every writer by design) aside."""
    return {str(p.relative_to(directory)): (b"->" + os.readlink(p).encode()) if p.is_symlink() else p.read_bytes()
            for p in sorted(directory.rglob("*")) if (p.is_symlink() or p.is_file()) and not p.name.endswith(".lock")}


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


# ------------------------------------------------------------ 1. the journal writes only its own files

def _forged_journals(results_dir: Path, outside: Path) -> list[list]:
    """Twenty journals that name something other than results/'s own files and their staged copies."""
    dead = _dead_pid()
    tmp_out = outside / f".v1.txt.{dead}.0123abcd.tmp"
    tmp_out.write_text("forged")
    own = f".norm.json.{dead}.0123abcd.tmp"
    (results_dir / "link").symlink_to(outside)
    (results_dir / f".norm.json.{dead}.feedbeef.tmp").symlink_to(outside / "v1.txt")
    return [
        [[own, "../outside/v1.txt"]], [[own, "../../box/outside/v1.txt"]], [[own, str(outside / "v1.txt")]],
        [[str(tmp_out), "v1.txt"]], [["../outside/" + tmp_out.name, "v1.txt"]], [["verdicts.json", "../README.md"]],
        [[own, "link/v1.txt"]], [["link/" + tmp_out.name, "v1.txt"]], [[own, "."]], [[own, ".."]], [[own, ""]],
        [[own, JOURNAL]], [[own, "norm.json\x00x"]], [["norm.json", "verdicts.json"]], [[own, "verdicts.json"]],
        [[f".norm.json.{dead}.feedbeef.tmp", "norm.json"]], [[own, "norm.json", "extra"]], [[own]],
        [[None, "norm.json"]], [[own, "norm.json"], [own, "../outside/v1.txt"]],
    ]


def test_1_twenty_forged_journals_move_nothing_and_name_the_journal_and_the_entry(tmp_path):
    box = _box(tmp_path)
    res, outside = box / "results", box / "outside"
    forged = _forged_journals(res, outside)
    assert len(forged) == 20
    (res / f".norm.json.{_dead_pid()}.0123abcd.tmp").write_text("staged")      # a real staged copy
    before_res, before_out = _state(res), _state(outside)
    for entries in forged:
        atomic_write(res / JOURNAL, json.dumps({"files": entries}))
        with pytest.raises(SaveError) as e:
            recover(res)
        assert str(res / JOURNAL) in str(e.value) and "refused" in str(e.value).lower()
        assert _state(res) == {**before_res, JOURNAL: (res / JOURNAL).read_bytes()}      # nothing moved
        assert _state(outside) == before_out
        (res / JOURNAL).unlink()


def test_1_a_forged_journal_in_a_pytest_report_dir_is_refused_there_too(tmp_path):
    box = _box(tmp_path)
    run = box / "run"
    run.mkdir()
    atomic_write(run / JOURNAL, json.dumps({"files": [[".x.1.0123abcd.tmp", "../outside/v1.txt"]]}))
    before = _state(box / "outside")
    with pytest.raises(SaveError, match="not a file of this directory"):
        EvidenceWriter(run, results_dir=box / "results").write_run_records("norm", [_run("prenorm", 1, 51.0)])
    assert _state(box / "outside") == before


def test_1_the_sweep_removes_only_the_staged_copies_of_dead_saves(tmp_path):
    dead = _dead_pid()
    ours = [f".norm.json.{dead}.0123abcd.tmp", f".norm.png.{dead}.89abcdef.bak"]
    theirs = [".draft.tmp", ".notes.1.tmp", ".x.tmp", "editor.swp.tmp", f".norm.json.{os.getpid()}.0123abcd.tmp"]
    for name in ours + theirs:
        (tmp_path / name).write_text("x")
    lines = recover(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(theirs)
    assert len(lines) == 2


def test_1_journal_shapes_that_are_no_journal_are_named(tmp_path):
    for body in ("[1, 2]", '{"files": 3}', '{"files": [[1, 2]]}', '{"files": [], "more": 1}', "{not json"):
        (tmp_path / JOURNAL).write_text(body)
        with pytest.raises(SaveError, match=str(tmp_path / JOURNAL)):
            recover(tmp_path)
    (tmp_path / JOURNAL).unlink()
    (tmp_path / JOURNAL).mkdir()
    with pytest.raises(SaveError, match="must be a plain file"):
        recover(tmp_path)


# ------------------------------------------------------------ 2. manifest and group names

def _forged_manifests(box: Path, run: Path) -> list[dict]:
    outside = box / "outside"
    (run / "evil").symlink_to(outside)
    (run / "peek.png").symlink_to(outside / "v1.txt")
    (run / "norm.json").write_text(json.dumps({"group": "../../outside/x", "runs": []}))
    (run / "stolen.md").symlink_to(outside / "v1.txt")
    return [{"../../outside/v1.txt": "file"}, {"../outside/v1.txt": "file"}, {str(outside / "v1.txt"): "file"},
            {"evil/v1.txt": "file"}, {"peek.png": "file"}, {"stolen.md": "file"}, {"../outside/x.json": "runs"},
            {"norm.json": "runs"}, {"ladder/../../outside.json": "json"}, {"verdicts.json": "file"},
            {"verdicts.json": "json"}, {".save-journal.json": "json"}, {"manifest.json": "file"},
            {".norm.json.1.0123abcd.tmp": "file"}, {"x.sh": "file"}, {"norm.png": "runs"}, {"notes.md": "json"},
            {"norm.png": "exec"}, {"..": "file"}, {"norm.png": None}]


def test_2_twenty_forged_manifests_change_nothing_outside_and_lose_nothing_committed(tmp_path):
    box = _box(tmp_path)
    run = box / "run"
    run.mkdir()
    for name in ("notes.md", "norm.png", "x.sh"):
        (run / name).write_text("run's own")
    forged = _forged_manifests(box, run)
    assert len(forged) == 20
    before_res, before_out = _state(box / "results"), _state(box / "outside")
    for entries in forged:
        manifest = {name: ({"kind": kind} if kind else {}) for name, kind in entries.items()}
        atomic_write(run / "manifest.json", json.dumps({"files": manifest}))
        with pytest.raises(EvidenceError) as e:
            save_run(CHAPTER, _fresh(), EvidenceWriter(run, results_dir=box / "results"), box / "results")
        assert str(run) in str(e.value), entries
        assert _state(box / "results") == before_res and _state(box / "outside") == before_out, entries
    assert not list(box.rglob("*x.json*")) and not list((box / "outside").glob(".*"))       # no lock outside


def test_2_a_group_name_read_from_a_file_never_becomes_a_path():
    for group in ("../../outside/x", "/etc/x", "norm/../ladder", "tiny"):
        with pytest.raises(EvidenceError, match="not a group of run records"):
            results.path_of(group)


def test_2_the_torch_free_group_list_is_the_recipes_groups():
    from fixtures.recipes import RECIPES_BY_GROUP
    assert tuple(sorted(RECIPES_BY_GROUP)) == results.RUN_GROUPS


# ------------------------------------------------------------ 3. a failed rename tears nothing

def _run_saving(box: Path) -> EvidenceWriter:
    ev = EvidenceWriter(box / "run", results_dir=box / "results")
    ev.write_run_records("norm", [_run("prenorm", 1, 52.0)])
    ev.json("readings.json", {"a new reading": {"cpu": {"value": 1}}}, merge=True)
    ev.text("norm.png", "new plot")
    return ev


def test_3_an_immutable_committed_file_fails_the_save_naming_it_and_results_stay_as_before(tmp_path):
    box = _box(tmp_path)
    ev = _run_saving(box)
    before = _state(box / "results")
    plot = box / "results" / "norm.png"
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(plot)], check=False, capture_output=True).returncode:
        pytest.skip("chattr +i is not possible here (not root, or a filesystem without attributes)")
    try:
        with pytest.raises(SaveError, match="norm.png"):
            save_run(CHAPTER, _fresh_of_runs(), ev, box / "results")
        assert _state(box / "results") == before                        # nothing committed, nothing left
        assert recover(box / "results") == []                           # and no journal to drop
    finally:
        subprocess.run(["chattr", "-i", str(plot)], check=False)
    assert save_run(CHAPTER, _fresh_of_runs(), ev, box / "results")                      # once it can be replaced: saved
    assert (box / "results" / "norm.png").read_text() == "new plot"


def test_3_a_rename_failing_after_others_rolls_them_back(tmp_path, monkeypatch):
    box = _box(tmp_path)
    ev = _run_saving(box)
    before = _state(box / "results")
    real, seen = os.replace, []

    def replace(src, dst):                                              # the third rename of the commit fails
        if str(src).endswith(".tmp") and Path(dst).name in ("norm.json", "readings.json", "norm.png"):
            seen.append(Path(dst).name)
            if len(seen) == 3:
                raise PermissionError(errno.EPERM, "Operation not permitted", str(dst))
        return real(src, dst)
    monkeypatch.setattr(transaction.os, "replace", replace)
    with pytest.raises(SaveError, match="could not be replaced.*rolled back") as e:
        save_run(CHAPTER, _fresh_of_runs(), ev, box / "results")
    assert len(seen) == 3 and str(box / "results" / seen[-1]) in str(e.value)
    assert _state(box / "results") == before


def test_3_a_rollback_killed_half_way_is_finished_by_the_next_run(tmp_path):
    (tmp_path / "a.json").write_text("new a")
    (tmp_path / "b.json").write_text("new b")
    bak = f".a.json.{_dead_pid()}.0123abcd.bak"
    (tmp_path / bak).write_text("old a")
    b_ino = (tmp_path / "b.json").stat().st_ino
    (tmp_path / JOURNAL).write_text(json.dumps({"rollback": [[bak, "a.json", 0], [None, "b.json", b_ino]]}))
    lines = recover(tmp_path)
    assert (tmp_path / "a.json").read_text() == "old a" and not (tmp_path / "b.json").exists()
    assert lines == ["a.json: rolled back an interrupted save", "b.json: rolled back an interrupted save"]


# ------------------------------------------------------------ 4. evidence of the wrong shape or group

def _readings_list(ev: EvidenceWriter) -> None:
    ev.json("readings.json", [])


def _norm_of_ladder(ev: EvidenceWriter) -> None:
    atomic_write(ev.root / "norm.json", json.dumps({"group": "ladder", "runs": [_record("baseline", 0, 99.0)]}))
    ev.add("norm.json", "runs")


@pytest.mark.parametrize(("plant", "why"), [
    (_readings_list, "readings.json: expected an object of entries, not list"),     # would drop 10 entries
    (_norm_of_ladder, "field 'group' is 'ladder'"),                                # would turn norm into ladder
], ids=["readings-of-no-entries", "norm-holding-ladder"])
def test_4_evidence_of_the_wrong_shape_or_group_is_refused_and_replaces_nothing(tmp_path, plant, why):
    box = _box(tmp_path)
    ev = EvidenceWriter(box / "run", results_dir=box / "results")
    plant(ev)
    before = _state(box / "results")
    with pytest.raises(EvidenceError, match=why):
        save_run(CHAPTER, _fresh(), ev, box / "results")
    assert _state(box / "results") == before


# ------------------------------------------------------------ 5. no smoke record is ever committed

def test_5_a_smoke_run_then_a_fast_run_then_a_save_leaves_results_byte_identical(tmp_path):
    box = _box(tmp_path)
    smoke = EvidenceWriter(box / "run", results_dir=box / "results", scale="smoke")
    smoke.write_run_records("norm", [_run("prenorm", s, 351.0, "smoke") for s in range(3)])
    smoke.json("readings.json", {"a smoke reading": {"cpu": {"value": 1}}}, merge=True)
    smoke.text("norm.png", "smoke plot")
    before = _state(box / "results")
    fast = EvidenceWriter(box / "run", results_dir=box / "results")             # a fast run into the same dir
    lines = save_run(CHAPTER, _fresh("corpus.chars", tier="fast"), fast, box / "results")
    assert _state(box / "results") == before
    assert "norm.png: written by a --smoke run, not saved" in lines
    assert fast.save() and _state(box / "results") == before            # its evidence alone: the same


def test_5_smoke_records_in_a_chapter_scale_file_are_left_out(tmp_path):
    box = _box(tmp_path)
    ev = EvidenceWriter(box / "run", results_dir=box / "results")
    ev.write_run_records("norm", [_run("prenorm", 1, 351.0, "smoke"), _run("prenorm", 2, 51.0)])
    lines = ev.save()
    assert lines == ["norm.json: 1 run(s) merged, 1 --smoke run(s) not saved"]
    saved = results.load("norm", box / "results")
    assert [r.seed for r in saved] == [0, 2]
    with pytest.raises(EvidenceError, match="--smoke run's: never saved"):
        results.merge("norm", [_run("prenorm", 3, 351.0, "smoke")])          # results/ itself refuses


def test_5_a_smoke_run_starts_its_own_manifest(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text(json.dumps({"files": {"norm.json": {"kind": "runs", "scale": "chapter"}}}))
    r = inproc.run_pytest("--smoke", f"--report-dir={run}", "--collect-only", "-q", "-p", "no:cacheprovider",
                          "tests/unit/test_layout.py")                 # in this process (tests/inproc.py)
    assert r.returncode in (0, 5), r.stdout + r.stderr
    assert not (run / "manifest.json").exists()
    assert "1 file(s) an earlier run listed there (norm.json) are no longer saved" in r.stderr      # said


# ------------------------------------------------------------ 9. clear messages, bounded waits

def _hold_then_wait(path, ready):
    with locked(path):
        ready.set()
        time.sleep(600)


def test_9_a_lock_held_by_a_stopped_process_is_waited_for_a_bounded_time_naming_the_holder(tmp_path, capsys):
    ready = FORK.Event()
    holder = FORK.Process(target=_hold_then_wait, args=(tmp_path / "save", ready))
    holder.start()
    try:
        assert ready.wait(30)
        os.kill(holder.pid, signal.SIGSTOP)
        start = time.monotonic()
        with pytest.raises(SaveError, match=f"locked by pid {holder.pid} .*stopped"), locked(tmp_path / "save", timeout=3):
            pass
        assert time.monotonic() - start < 30
        assert f"held by pid {holder.pid}" in capsys.readouterr().err
    finally:
        holder.kill()
        holder.join(10)
    with locked(tmp_path / "save", timeout=3):                          # a killed holder lets go at once
        pass


def test_9_a_full_disk_names_the_file_and_leaves_no_partial_copy(tmp_path, monkeypatch):
    def full(path, data):
        Path(path).write_bytes(b"part")
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(files, "_write_synced", full)
    tx = Transaction(tmp_path)
    with pytest.raises(SaveError, match=r"norm\.json: could not write its new copy \(No space left"):
        tx.stage("norm.json", "{}")
    with pytest.raises(OSError, match=r"could not write .*verdicts\.json"):
        atomic_write(tmp_path / "verdicts.json", "{}")
    assert list(tmp_path.iterdir()) == []


def test_9_a_manifest_without_kind_or_truncated_is_named(tmp_path):
    ev = EvidenceWriter(tmp_path / "run", results_dir=tmp_path / "results")
    (ev.root / "manifest.json").write_text(json.dumps({"files": {"norm.png": {"written": "today"}}}))
    with pytest.raises(EvidenceError, match=r"manifest.json: entry 'norm.png': field 'kind' is None"):
        ev.save()
    (ev.root / "manifest.json").write_text('{"files": {"norm.png": {"ki')
    with pytest.raises(EvidenceError, match=r"manifest.json: not valid JSON"):
        ev.save()


# ------------------------------------------------------------ 6. tampered or superseded records

def test_6_every_committed_record_is_tied_to_its_run_by_its_key():
    assert sum(len(results.load(group)) for group in results.RUN_GROUPS) > 0    # load checks every key


def test_6_every_committed_run_is_stored_once():
    """No two records of a group are one training run (recipe, seed and the date it was trained):
    a run recorded again under a newer key (its config gained a field) replaces the old record."""
    for group in results.RUN_GROUPS:
        runs = [(r.recipe, r.seed, r.date) for r in results.load(group)]
        assert len(runs) == len(set(runs)), f"{group}.json: {len(runs) - len(set(runs))} runs stored twice"


def _training(rec: RunRecord) -> str:
    """What a record's run trained, keyed as the cache keys it (fixtures/run_codec.py run_key: model,
    training, the observations keyed where set, the training version) but by the data it saw, not
    by how its data is named: a Winograd task by its sentences, so that a split drawn with the
    training seed is, at seed 0, the default split it draws (fixtures/train.py winograd_task_of)."""
    from fixtures.train import winograd_task_of
    cfg = dict(rec.config)
    if str(cfg.get("data")).startswith("winograd:"):
        task = winograd_task_of(cfg["data"], rec.seed)
        cfg["data"] = [task.name, task.train, task.test]
    return run_codec.run_key(cfg, rec.training_version if rec.training_version is not None else rec.code)


def test_6_no_committed_run_is_the_same_training_as_another():
    """No two records in results/ are one training under two names or two spellings of its data
    (the split-per-seed Winograd reading's seed 0 is the fixed split: its run is the chapter
    recipe's seed 0, in results/winograd.json, and the reading's recipe trains from seed 1 on)."""
    seen: dict[str, list[str]] = {}
    for group in results.RUN_GROUPS:
        for r in results.load(group):
            seen.setdefault(_training(r), []).append(f"{group}.json {r.recipe} seed {r.seed}")
    twice = [runs for runs in seen.values() if len(runs) > 1]
    assert not twice, f"{len(twice)} trainings stored twice, e.g. {twice[:3]}"
    # what it tells apart, and what it does not
    reading, chapter = "winograd_cheatable_uniform_split_per_seed", "winograd_cheatable_uniform"
    assert _training(_run(reading, 0, 0.5)) == _training(_run(chapter, 0, 0.5))
    assert _training(_run(reading, 1, 0.5)) != _training(_run(chapter, 1, 0.5))
    assert RECIPES[reading].first_seed == 1 and RECIPES[chapter].first_seed == 0


def _run_metric_copies(readings: dict, groups: dict[str, list[RunRecord]]) -> dict[str, list[str]]:
    """Where a reading stores a list of values per seed each of which is a metric of a run of that
    seed on record (a list of 0s and 1s alone tells nothing apart and is passed over)."""
    metrics = {(r.seed, r.metrics[k]): f"{group}.json {r.recipe} seed {r.seed} {k}"
               for group, runs in groups.items() for r in runs for k in run_codec.NUMERIC_METRICS
               if k != "train_seconds" and run_codec._number(r.metrics.get(k))}

    def lists(obj, where):
        if isinstance(obj, dict):
            for k, v in obj.items():
                yield from lists(v, f"{where}.{k}")
        elif isinstance(obj, list) and obj and all(run_codec._number(v) for v in obj):
            yield where, obj
    return {where: [metrics[seed, v] for seed, v in enumerate(values)]
            for entry, value in readings.items() for where, values in lists(value, entry)
            if all((seed, v) in metrics for seed, v in enumerate(values)) and not set(values) <= {0, 1}}


def test_6_readings_store_no_value_per_seed_that_is_a_run_metric():
    """A reading's value per seed that is a run's own metric stands in the run record alone
    (results/<group>.json): the Winograd readings keep what they change and the items held out, and
    the errata read the accuracies per seed from the runs (fixtures/setup.py winograd_reading_runs);
    the uniform average's held-out answers naming the referent or the other noun are its runs'
    accuracy and wrong noun, read from them too (fixtures/setup.py HELD_OUT_ANSWERS_IN_RUNS)."""
    groups = {group: results.load(group) for group in results.RUN_GROUPS}
    readings = json.loads((ROOT / "results" / "readings.json").read_text())
    copies = _run_metric_copies(readings, groups)
    assert not copies, f"readings.json stores run metrics: {list(copies.items())[:3]}"
    # a reading that stored its runs' accuracies, as the Winograd readings did until 2026-12-04, is named
    runs = {r.seed: r for r in groups["errata"] if r.recipe == "winograd_cheatable_uniform_width64"}
    planted = {"winograd: width64": {"cheatable_uniform": {"accuracy": [runs[s].metrics["accuracy"] for s in range(3)],
                                                           "held_out": 128}}}
    assert _run_metric_copies(planted, groups) == {
        "winograd: width64.cheatable_uniform.accuracy": [f"errata.json winograd_cheatable_uniform_width64 seed {s} "
                                                         "accuracy" for s in range(3)]}


def test_6_no_committed_run_stores_a_summary_its_curves_hold():
    """A run's last training loss and best held-out step are its curves' points: the file holds
    the curves, and a reader gets the summaries back from them, equal to what training computed.
    Read through the one decoder and written back through the one encoder, every record is as
    stored, and every file byte for byte."""
    for group in results.RUN_GROUPS:
        text = (ROOT / "results" / f"{group}.json").read_text()
        raw = json.loads(text)["runs"]
        stored = [(r["recipe"], r["seed"], k) for r in raw for k in run_codec.SUMMARIES if k in r.get("metrics", {})]
        assert not stored, f"{group}.json stores summaries its curves give: {stored[:3]}"
        final = [(r["recipe"], r["seed"]) for r in raw if r["metrics"].get("held_out_windows") == "all"
                 and r["metrics"]["held_out_curve"][-1][0] == r["metrics"]["steps"]]
        assert not final, f"{group}.json stores a whole-split curve's final point beside its val_ppl: {final[:3]}"
        for r in raw:          # read and written back: as stored, the summaries given back and dropped again
            assert run_codec.encode(run_codec.decode(r, f"{group}.json")) == r
        assert results.dumps(group, results.load(group)) == text


def test_6_a_summary_that_differs_from_its_curve_is_kept_not_lost(tmp_path):
    _, data, i = _committed_norm(tmp_path)
    edited = dict(data["runs"][i], metrics=dict(data["runs"][i]["metrics"], final_train_loss=123.0))
    assert run_codec.encode(run_codec.decode(edited, "edited"))["metrics"]["final_train_loss"] == 123.0
    raw = data["runs"][i]
    assert run_codec.encode(run_codec.decode(raw, "norm.json")) == raw          # read and written back: as stored


def test_6_a_field_a_run_record_does_not_have_is_named(tmp_path):
    """A field a RunRecord does not have (a metric beside `metrics`, as the first format wrote it:
    no reader of that format is left), which written back would be lost, is an EvidenceError naming
    the file, the record and the field."""
    d, data, i = _committed_norm(tmp_path)
    stored = data["runs"][i]
    for field in ("valppl", "val_ppl"):
        (d / "norm.json").write_text(json.dumps({"group": "norm", "runs": [dict(stored, **{field: 1.0})]}))
        with pytest.raises(EvidenceError, match=rf"norm.json, record 0 \(prenorm seed 0\): field '{field}' is not a field"):
            results.load("norm", d)


def test_6_every_committed_run_is_its_recipes_current_run_or_evidence_of_a_figure():
    """A run record stands in results/ because a recipe of today trains it (its current key) or a
    committed figure record, verdict or reading names it: a run superseded by its retraining and
    referred to by nothing is not kept beside the run that replaced it."""
    from fixtures.train import TRAINING_VERSION
    named = "".join((ROOT / "results" / f).read_text() for f in ("figures.json", "verdicts.json", "readings.json"))
    # and the runs a declared reading cites as its first measurement (rule version 3: kept on record)
    from claims.readings_declared import DECLARED_READINGS
    named += "".join(key for r in DECLARED_READINGS.values() for key in r.cites)

    def current(r: RunRecord) -> bool:          # a seed below the recipe's first_seed is another recipe's run
        recipe = RECIPES.get(r.recipe)
        return (recipe is not None and r.seed >= recipe.first_seed
                and r.key == recipe.with_seed(r.seed).key(TRAINING_VERSION))
    for group in results.RUN_GROUPS:
        dead = [(r.recipe, r.seed, r.key) for r in results.load(group) if r.key not in named and not current(r)]
        assert not dead, f"{group}.json: runs neither current nor named by any evidence: {dead[:3]}"


def test_6_a_run_recorded_again_under_a_new_key_replaces_its_old_record(tmp_path):
    d, data, i = _committed_norm(tmp_path)
    (d / "norm.json").write_text(json.dumps(data))
    old = data["runs"][i]
    again = dict(old, config=dict(old["config"], held_out_every=old["config"].get("held_out_every", 0) + 7))
    again["key"] = run_codec.record_key(again)
    assert again["key"] != old["key"]
    results.merge("norm", [run_codec.decode(again, "a run trained again")], d)
    same = [r for r in results.load("norm", d) if (r.recipe, r.seed, r.date) == (old["recipe"], old["seed"], old["date"])]
    assert [r.key for r in same] == [again["key"]]
    assert len(results.load("norm", d)) == len(data["runs"])


def test_6_the_torch_free_key_is_the_recipes_cache_key():
    from fixtures.recipes import RECIPES
    from fixtures.train import TRAINING_VERSION
    for recipe in RECIPES.values():
        for r in (recipe.with_seed(2), recipe.smoke()):
            rec = {"recipe": r.name, "seed": r.train.seed, "config": r.to_dict(), "training_version": TRAINING_VERSION}
            assert run_codec.record_key(rec) == r.key(TRAINING_VERSION), r.name


def _committed_norm(tmp_path: Path) -> tuple[Path, dict, int]:
    """A copy of the committed norm records, and the index of prenorm seed 0's newest."""
    d = tmp_path / "results"
    d.mkdir()
    data = json.loads((ROOT / "results" / "norm.json").read_text())
    i = max((j for j, r in enumerate(data["runs"]) if r["recipe"] == "prenorm" and r["seed"] == 0),
            key=lambda j: data["runs"][j]["date"])
    return d, data, i


def _readers(d: Path):
    from claims.report.evidence import Facts
    from fixtures import engine
    return [lambda: results.load("norm", d), lambda: results.by_recipe("norm", d),
            lambda: engine.recorded("norm", ["prenorm"], 1, directory=d),
            lambda: Facts({"claims": []}, d, d).per_run("norm", "prenorm")]


@pytest.mark.parametrize("edit", ["steps", "key", "no key", "name"])
def test_6_an_edited_config_or_key_is_an_error_naming_the_record_in_every_reader(tmp_path, edit):
    d, data, i = _committed_norm(tmp_path)
    rec = data["runs"][i]
    if edit == "steps":
        rec["config"]["train"]["steps"] //= 100
    elif edit == "key":
        rec["key"] = "0" * 20
    elif edit == "no key":
        del rec["key"]
    else:
        rec["config"]["name"] = "postnorm"
    (d / "norm.json").write_text(json.dumps(data))
    for read in _readers(d):
        with pytest.raises(EvidenceError, match=rf"norm.json, record {i} \(prenorm seed 0\): (key|config)"):
            read()


def test_6_a_newer_record_of_another_definition_is_named_not_passed_over_for_the_older_one(tmp_path):
    from fixtures import engine
    d, data, i = _committed_norm(tmp_path)
    other = json.loads(json.dumps(data["runs"][i]))
    other["config"]["train"]["steps"] //= 100
    other["date"] = "2099-01-01T00:00:00+00:00"
    other["key"] = run_codec.record_key(other)                    # a consistent record, of another recipe
    data["runs"].append(other)
    (d / "norm.json").write_text(json.dumps(data))
    with pytest.raises(EvidenceError, match=rf"record {len(data['runs']) - 1} \(prenorm seed 0\): differs from "
                                            r"today's recipe \(train.steps is \d+, today \d+\) and is newer"):
        engine.recorded("norm", ["prenorm"], 1, directory=d)


# ------------------------------------------------------------ 9. an unreadable chapter stops a save first

def test_9_an_unreadable_chapter_stops_a_save_before_anything_is_written(tmp_path):
    box = tmp_path / "checkout"
    box.mkdir()
    shutil.copy(ROOT / "pyproject.toml", box)
    (box / "claims").mkdir()
    shutil.copytree(ROOT / "results", box / "results")
    ev = _run_saving(_box(tmp_path))                        # a run with records, a reading and a plot to save
    (ev.root / "claims.json").write_text(json.dumps(_fresh()))
    before = _state(box / "results")
    env = dict(os.environ, ATTENTION_CLAIMS_ROOT=str(box), ATTENTION_CLAIMS_CHAPTER=str(tmp_path))    # a directory
    r = subprocess.run([sys.executable, "-m", "claims.report", "--save-results", f"--report-dir={ev.root}"],
                       cwd=box, env=env, capture_output=True, text=True, check=False, timeout=300)
    assert r.returncode == 2 and str(tmp_path) in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert _state(box / "results") == before


# ------------------------------------------------------------ the review's findings on the above

def test_3_an_interrupt_during_the_renames_is_finished_by_the_next_run(tmp_path, monkeypatch):
    box = _box(tmp_path)
    ev = _run_saving(box)
    real, seen = os.replace, []

    def replace(src, dst):                                              # Ctrl-C on the commit's second rename
        if str(src).endswith(".tmp") and Path(dst).name in ("norm.json", "readings.json", "norm.png"):
            seen.append(Path(dst).name)
            if len(seen) == 2:
                raise KeyboardInterrupt
        return real(src, dst)
    monkeypatch.setattr(transaction.os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        save_run(CHAPTER, _fresh_of_runs(), ev, box / "results")
    monkeypatch.setattr(transaction.os, "replace", real)
    lines = recover(box / "results")                                    # what the next run does first
    assert len(lines) >= 2 and all("finished an interrupted save" in line for line in lines)
    assert (box / "results" / "norm.png").read_text() == "new plot"
    assert "a new reading" in json.loads((box / "results" / "readings.json").read_text())
    assert [r.seed for r in results.load("norm", box / "results")] == [0, 1]


def test_3_a_forged_roll_back_never_deletes_a_file_it_did_not_put_there(tmp_path):
    box = _box(tmp_path)
    before = _state(box / "results")
    (box / "results" / JOURNAL).write_text(json.dumps({"rollback": [[None, "verdicts.json", 1]]}))
    recover(box / "results")
    assert _state(box / "results") == before


def test_9_a_link_planted_as_the_lock_holder_file_is_replaced_not_written_through(tmp_path):
    box = _box(tmp_path)
    (box / "results" / ".save.lock.holder").symlink_to(box / "outside" / "v1.txt")
    before = _state(box / "outside")
    with locked(box / "results" / "save", timeout=5):
        pass
    assert _state(box / "outside") == before


def test_5_a_chapter_scale_run_never_merges_a_smoke_runs_readings(tmp_path):
    box = _box(tmp_path)
    smoke = EvidenceWriter(box / "run", results_dir=box / "results", scale="smoke")
    smoke.json("readings.json", {"reading 0": {"cpu": {"value": "SMOKE"}}}, merge=True)
    ev = EvidenceWriter(box / "run", results_dir=box / "results")
    ev.json("readings.json", {"a new reading": {"cpu": {"value": 1}}}, merge=True)
    ev.save()
    saved = json.loads((box / "results" / "readings.json").read_text())
    assert saved["reading 0"]["cpu"]["value"] == 0 and saved["a new reading"]["cpu"]["value"] == 1


@pytest.mark.parametrize("name", ["norm.json", "NORM.json", "Verdicts.json", "ladder.json"])
def test_2_a_run_record_file_or_another_writers_file_cannot_be_listed_as_json(tmp_path, name):
    box = _box(tmp_path)
    ev = EvidenceWriter(box / "run", results_dir=box / "results")
    atomic_write(ev.root / name, json.dumps({"group": "ladder", "runs": []}))
    ev.add(name, "json")
    before = _state(box / "results")
    with pytest.raises(EvidenceError, match=f"entry '{name}'"):
        save_run(CHAPTER, _fresh(), ev, box / "results")
    assert _state(box / "results") == before


def test_5_results_itself_is_no_report_dir(tmp_path):
    r = inproc.run_pytest("--report-dir=results", "--collect-only", "-q", "-p", "no:cacheprovider",
                          "tests/unit/test_layout.py")                 # in this process (tests/inproc.py)
    assert r.returncode == 4 and "--report-dir=results: that is results/" in r.stderr, r.stdout + r.stderr
