"""Committed evidence under concurrency, kills and bad files: the second round of fault findings,
each a test named by its number in the issue.  Real processes are forked, killed and raced; the
results/ they write is a scratch one, never the checkout's."""
import functools
import hashlib
import json
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

import inproc
import pytest

from claims.chapter import CHAPTER
from data import chapter, corpus
from fixtures import results, run_codec
from fixtures.evidence import EvidenceWriter
from safeio.files import atomic_write
from safeio.transaction import JOURNAL, Transaction, recover
from textcheck import evidence as figure_evidence
from textcheck.save import save_run

ROOT = Path(__file__).resolve().parent.parent.parent
FORK = multiprocessing.get_context("fork")


def _figure(cid: str):
    return next(iter(CHAPTER.figures_of(cid).values()))


@functools.cache          # the committed file, read once (every round of test 1 asks for the same two)
def _measured(cid: str):
    """The committed figure record of `cid`'s figure: measured again, it is what a run records (its
    values, runs and verdict), so that a save of it is one the re-derivation accepts."""
    key = _figure(cid).id
    return next(r for r in figure_evidence.load(CHAPTER, ROOT / "results" / "figures.json") if r.key == key)


def _shown(values: list) -> dict:
    """What a test shows of values per seed: their mean and sd, then the values (claim.record), which
    a display is checked against (its figure record's values)."""
    from textcheck.decide import spread
    mean, sd = spread(values)
    return {"mean": mean, "sd": sd, "per seed": values}


def _fresh(cid: str, outcome: str = "holds", ts: str = "2026-12-01T12:00:00+00:00") -> dict:
    """A run's claims.json deciding one trained claim: its figure measured again on its committed runs."""
    rec = _measured(cid)
    test = {"nodeid": f"claims/test_ladder_trained.py::test_{cid.replace('.', '_')}", "outcome": rec.verdict,
            "reason": "", "tier": "gpu", "device": "cpu", "seconds": 1.0, "timestamp": ts, "source": "fresh run",
            "runs": [asdict(r) for r in rec.runs],
            "records": [{"stated": 1, "measured": _shown(rec.measured["values"]), "tolerance": "t",
                         "rule": rec.rule, "seeds": len(rec.measured["values"]),
                         "measurement": rec.measurement, "figures": rec.figures, "decision": rec.measured}]}
    return {"meta": {"source": "fresh run", "timestamp": ts},
            "claims": [{"id": cid, "verdict": rec.verdict, "tests": [test]}]}


def _run_dir(tmp_path: Path, name: str, cid: str, files: dict[str, bytes] | None = None) -> EvidenceWriter:
    """A run's report dir with its verdicts, its run records and evidence files listed in its manifest."""
    ev = EvidenceWriter(tmp_path / name, results_dir=tmp_path / "results")
    (ev.root / "claims.json").write_text(json.dumps(_fresh(cid)))
    named = {(r.group, r.recipe, r.seed, r.key) for r in _measured(cid).runs}
    for group in sorted({g for g, *_ in named}):
        ev.write_run_records(group, [r for r in results.load(group) if (group, r.recipe, r.seed, r.key) in named])
    for fname, data in (files or {}).items():
        atomic_write(ev.root / fname, data)
        ev.add(fname)
    return ev


def _saved_ids(results_dir: Path) -> set[str]:
    return {c["id"] for c in json.loads((results_dir / "verdicts.json").read_text())["claims"]}


def _save_in_child(ev_root, results_dir, barrier):
    ev = EvidenceWriter(ev_root, results_dir=results_dir)
    barrier.wait()
    save_run(CHAPTER, json.loads((Path(ev_root) / "claims.json").read_text()), ev, results_dir)


# ------------------------------------------------------------ 1. two saves at once

def test_1_two_concurrent_saves_keep_both_runs_verdicts_in_20_rounds_of_20(tmp_path):
    # one save first, in this process, into a folder of its own: what a save imports on its first
    # call (scipy, numpy: 0.3 s) is imported once here, so that the forked children race on the
    # save itself and not each on its imports
    warm = tmp_path / "warm-up"
    (warm / "results").mkdir(parents=True)
    ev = _run_dir(warm, "A", "norm.postnorm_diverges")
    save_run(CHAPTER, json.loads((ev.root / "claims.json").read_text()), ev, warm / "results")
    kept = 0
    for i in range(20):
        base = tmp_path / f"round{i}"
        (base / "results").mkdir(parents=True)
        a = _run_dir(base, "A", "norm.postnorm_diverges", {"norm.png": b"A" * 1000})
        b = _run_dir(base, "B", "ladder.residual_head", {"ladder.png": b"B" * 1000})
        barrier = FORK.Barrier(2)
        procs = [FORK.Process(target=_save_in_child, args=(ev.root, base / "results", barrier)) for ev in (a, b)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(60)
        assert all(p.exitcode == 0 for p in procs)
        kept += _saved_ids(base / "results") == {"norm.postnorm_diverges", "ladder.residual_head"}
        assert not list((base / "results").glob(".*.tmp"))              # no temporary left behind
    assert kept == 20


# ------------------------------------------------------------ 2. a kill at any point of a save

def _state(results_dir: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(results_dir.iterdir())
            if p.is_file() and not p.name.startswith(".")}


def _save_and_die(ev_root, results_dir, kill_at, count=None):
    """Save, with a SIGKILL aimed at the kill_at-th file operation of the save (each file written,
    each rename); with kill_at 0, count the operations into `count` instead."""
    from safeio import files
    calls = {"n": 0}

    def aimed(fn):
        def wrapper(*a, **k):
            calls["n"] += 1
            if calls["n"] == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return fn(*a, **k)
        return wrapper
    replace, write = files.os.replace, files._write_synced
    files.os.replace, files._write_synced = aimed(replace), aimed(write)
    try:
        ev = EvidenceWriter(ev_root, results_dir=results_dir)
        save_run(CHAPTER, json.loads((Path(ev_root) / "claims.json").read_text()), ev, results_dir)
    finally:
        files.os.replace, files._write_synced = replace, write
    if count is not None:
        count.append(calls["n"])


def _start(base: Path) -> EvidenceWriter:
    """results/ with a committed plot and verdicts, and a run that saves over the plot and adds two files."""
    (base / "results").mkdir(parents=True)
    atomic_write(base / "results" / "verdicts.json", json.dumps({"schema": 3, "claims": []}))
    atomic_write(base / "results" / "norm.png", b"old" * 1000)
    return _run_dir(base, "run", "norm.postnorm_diverges",
                    {"norm.png": b"new" * 200_000, "norm_table.md": b"t" * 10, "readings.txt": b"r"})


def test_2_a_kill_at_any_point_of_a_save_leaves_results_as_before_or_after_in_20_aimed_tries(tmp_path, monkeypatch):
    # every save commits at one time (the run records' `recorded`), so that a save finished in any
    # try is the same bytes as the reference save's (the forked saves inherit it)
    monkeypatch.setattr(results, "now", lambda: "2026-12-24T10:00:00+00:00")
    ref = _start(tmp_path / "reference")
    before = _state(tmp_path / "reference" / "results")
    ops = []
    _save_and_die(ref.root, tmp_path / "reference" / "results", 0, ops)     # how many writes and renames
    after = _state(tmp_path / "reference" / "results")
    assert before != after and ops[0] >= 8
    outcomes = {"before": 0, "after": 0, "mixed": 0}
    for i in range(20):                                               # each operation in turn, round again
        kill_at = 1 + i % ops[0]
        base = tmp_path / f"try{i}"
        ev = _start(base)
        p = FORK.Process(target=_save_and_die, args=(ev.root, base / "results", kill_at))
        p.start()
        p.join(60)
        recover(base / "results")                                     # what the next run does first
        now = _state(base / "results")
        outcomes["before" if now == before else "after" if now == after else "mixed"] += 1
        assert not (base / "results" / JOURNAL).exists() and not list((base / "results").glob(".*.tmp"))
    print(f"20 kills aimed at the {ops[0]} file operations of a save: {outcomes}")
    assert outcomes["mixed"] == 0, outcomes
    assert outcomes["before"] and outcomes["after"], outcomes          # the kills landed on both sides


def test_2_an_interrupted_save_is_finished_by_the_next_run_and_it_says_so(tmp_path):
    tx = Transaction(tmp_path)
    tx.stage("a.json", "{}")
    tx.stage("b.png", b"png")
    journal = tmp_path / JOURNAL
    atomic_write(journal, json.dumps({"files": [[t.name, f.name] for t, f in tx.staged]}))
    os.replace(tx.staged[0][0], tx.staged[0][1])                      # killed after the first rename
    lines = recover(tmp_path)
    assert (tmp_path / "a.json").exists() and (tmp_path / "b.png").read_bytes() == b"png"
    assert lines == ["b.png: finished an interrupted save"] and not journal.exists()


# ------------------------------------------------------------ 3. a non-editable install

def test_3_an_installed_copy_outside_a_checkout_stops_with_a_clear_error_and_writes_nothing(tmp_path):
    site = tmp_path / "site-packages"                                # what `pip install .` puts there
    for pkg in ("safeio", "textcheck", "data", "claims", "fixtures", "model"):
        shutil.copytree(ROOT / pkg, site / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "ATTENTION_CLAIMS_ROOT"}
    env["PYTHONPATH"] = str(site)
    r = subprocess.run([sys.executable, "-m", "claims.report"], cwd=elsewhere, env=env, capture_output=True,
                       text=True, check=False)
    assert r.returncode == 2 and "needs a checkout" in r.stderr and "ATTENTION_CLAIMS_ROOT" in r.stderr
    assert not (site / "report").exists() and not (site / ".cache").exists() and not any(elsewhere.iterdir())
    r = subprocess.run([sys.executable, "-m", "claims.report", "--report-dir", str(tmp_path / "rep")], cwd=elsewhere,
                       env=dict(env, ATTENTION_CLAIMS_ROOT=str(ROOT)), capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert not re.search(r"(?<!\d)0 hold", r.stdout)                  # the checkout's verdicts, not none


# ------------------------------------------------------------ 5. the README table

def test_5_the_readme_table_is_the_same_after_a_fast_run_and_a_not_slow_run():
    from claims.chapter import CHAPTER
    from claims.report import readme_table
    from textcheck.commands import readme_report
    from textcheck.report.assembly.report import Readme
    committed = []
    fast = {"id": "cost.time_quadratic", "verdict": "holds", "tests": [
        {"nodeid": "claims/test_cost.py::test_a[cpu]", "outcome": "holds", "tier": "fast", "reason": "",
         "records": [], "timestamp": "t", "seconds": 0}]}
    cuda_skip = {"nodeid": "claims/test_cost.py::test_b[cuda]", "outcome": "not run", "tier": "gpu",
                 "reason": "no CUDA", "records": [], "timestamp": "t", "seconds": 0}
    not_slow = dict(fast, tests=fast["tests"] + [cuda_skip])
    a = readme_table(Readme.of(CHAPTER, readme_report(CHAPTER, {"claims": [fast]}, committed)))
    b = readme_table(Readme.of(CHAPTER, readme_report(CHAPTER, {"claims": [not_slow]}, committed)))
    assert a == b and "partial" not in a


def test_5_readme_refuses_a_run_that_lacks_verdicts_the_committed_table_has(tmp_path):
    from claims.chapter import CHAPTER
    from claims.report import weakened
    from textcheck.report.assembly.report import Readme
    (tmp_path / "docs").mkdir()
    readme = tmp_path / "docs" / "claims.md"
    readme.write_text("<!-- claims-table:start -->\n| claim | the chapter | verdict | source |\n|---|---|---|---|\n"
                      "| `params.published_size` | 124,439,808 | holds | fast, cpu |\n<!-- claims-table:end -->\n")
    def report(verdict: str) -> Readme:
        return Readme.of(CHAPTER, {"claims": [{"id": "params.published_size", "verdict": verdict}], "summary": {}})
    assert weakened(report("not run"), tmp_path) == ["params.published_size"]
    assert weakened(report("holds"), tmp_path) == []


# ------------------------------------------------------------ 6. killing the scheduler

SCHEDULER = """
import sys, time
from fixtures.recipes import get
from fixtures.schedule import Job, run
sleeper = [sys.executable, "-c", "import os, time, sys; from fixtures.schedule import die_with_parent; "
           "die_with_parent(); open(sys.argv[1], 'w').write(str(os.getpid())); time.sleep(120)"]
jobs = [Job("ladder", get("baseline").with_seed(s), 1.0) for s in range(2)]
run(jobs, 2, command=lambda j: sleeper + [sys.argv[1] + f"/worker{j.recipe.train.seed}.pid"])
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_6_killing_the_scheduler_kills_its_workers(tmp_path, sig):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    parent = subprocess.Popen([sys.executable, "-c", SCHEDULER, str(tmp_path)], env=env, cwd=ROOT)
    pids = []
    for _ in range(300):
        pids = [int(p.read_text()) for p in tmp_path.glob("worker*.pid") if p.read_text()]
        if len(pids) == 2:
            break
        time.sleep(0.1)
    assert len(pids) == 2
    parent.send_signal(sig)
    parent.wait(30)

    def alive(pid):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return Path(f"/proc/{pid}/stat").exists() and Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    for _ in range(100):
        if not any(alive(p) for p in pids):
            break
        time.sleep(0.1)
    assert not any(alive(p) for p in pids)


# ------------------------------------------------------------ 7. corrupt committed evidence

def test_7_a_string_where_a_number_belongs_is_named_by_file_record_and_field(tmp_path):
    good = {"recipe": "postnorm", "seed": 0, "key": "k", "config": {},
            "metrics": {"val_ppl": "oops", "train_ppl": 300.0}, "date": "d", "curve": [[0, 6.9]]}
    (tmp_path / "norm.json").write_text(json.dumps({"group": "norm", "runs": [good]}))
    with pytest.raises(results.EvidenceError) as e:
        results.load("norm", tmp_path)
    msg = str(e.value)
    assert str(tmp_path / "norm.json") in msg and "record 0 (postnorm seed 0)" in msg and "metrics.val_ppl" in msg


def test_7_from_results_names_the_bad_field_instead_of_failing_two_claims(tmp_path):
    from fixtures.engine import recorded
    runs = [run_codec.encode(r) for r in results.load("norm")]           # as the file holds them
    runs[0]["metrics"]["val_ppl"] = "307.59"                           # a string where a number belongs
    (tmp_path / "norm.json").write_text(json.dumps({"group": "norm", "runs": runs}))
    with pytest.raises(results.EvidenceError, match=r"record 0 .*metrics\.val_ppl is '307.59', not a number"):
        recorded("norm", ["postnorm"], 3, directory=tmp_path)


def test_7_a_truncated_verdicts_file_is_named_and_the_report_writes_nothing_to_results(tmp_path):
    scratch = tmp_path / "checkout"
    (scratch / "claims").mkdir(parents=True)
    (scratch / "results").mkdir()
    (scratch / "pyproject.toml").write_text("")
    text = (ROOT / "results" / "verdicts.json").read_text()
    (scratch / "results" / "verdicts.json").write_text(text[: len(text) // 2])
    before = _state(scratch / "results")
    r = subprocess.run([sys.executable, "-m", "claims.report", "--report-dir", str(tmp_path / "rep")], cwd=ROOT,
                       env=dict(os.environ, ATTENTION_CLAIMS_ROOT=str(scratch), PYTHONPATH=str(ROOT)),
                       capture_output=True, text=True, check=False)
    assert r.returncode == 2 and str(scratch / "results" / "verdicts.json") in r.stderr
    assert "not valid JSON" in r.stderr and "Traceback" not in r.stderr
    assert _state(scratch / "results") == before


# ------------------------------------------------------------ 8. smaller ones

def test_8_seeds_has_an_upper_bound_and_says_so_at_once():
    t0 = time.time()
    r = subprocess.run([sys.executable, "-m", "fixtures", "ladder", "--seeds", "100000", "--jobs", "2", "--dry-run"],
                       cwd=ROOT, capture_output=True, text=True, check=False)
    assert r.returncode == 2 and "from 1 to 100, not 100,000 seeds" in r.stderr and time.time() - t0 < 30


def test_8_a_huge_corpus_is_refused_before_it_is_read(tmp_path, monkeypatch):
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as f:
        f.truncate(16 * 2**30)                                        # sparse: 16 GiB, no disk used
    monkeypatch.setenv(corpus.ENV_VAR, str(huge))
    t0 = time.time()
    with pytest.raises(corpus.CorpusError, match="17,179,869,184 bytes, not the corpus's 1,115,394"):
        corpus.corpus_path()
    assert time.time() - t0 < 2


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_8_a_fifo_or_a_device_is_not_a_regular_file_not_missing(tmp_path, monkeypatch, kind):
    path = Path("/dev/zero") if kind == "device" else tmp_path / "fifo"
    if kind == "fifo":
        os.mkfifo(path)
    monkeypatch.setenv(corpus.ENV_VAR, str(path))
    with pytest.raises(corpus.CorpusError, match="not a regular file"):
        corpus.corpus_path()
    monkeypatch.setenv(chapter.ENV_VAR, str(path))
    with pytest.raises(chapter.ChapterAltered, match="not a regular file"):
        chapter.load_chapter()


def test_8_pytest_without_xdist_parses_its_command_line():
    r = inproc.run_pytest("-p", "no:xdist", "-p", "no:cacheprovider", "--co", "-q", "claims/test_corpus.py")
    assert r.returncode == 0, r.stdout + r.stderr


def test_8_under_xdist_tests_of_one_model_still_share_a_worker():
    """--dist loadgroup is set by the project's conftest when -n is given and no --dist was."""
    import importlib.util
    from types import SimpleNamespace
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)

    def config(dist, n, xdist=True):
        return SimpleNamespace(option=SimpleNamespace(dist=dist, numprocesses=n),
                               pluginmanager=SimpleNamespace(hasplugin=lambda name: xdist))
    for given, n, xdist, expected in (("no", 2, True, "loadgroup"), ("no", "auto", True, "loadgroup"),
                                      ("load", 2, True, "load"), ("no", None, True, "no"), ("no", 2, False, "no")):
        c = config(given, n, xdist)
        conftest.pytest_cmdline_main(c)
        assert c.option.dist == expected


def test_8_under_xdist_a_group_runs_on_one_worker_for_real(tmp_path):
    """Not only the option: -n 2 puts every test of one xdist_group on one worker, a group split
    over two files included, on any pytest (fixtures/xdist_groups.py; pytest 9.2 lost the node-ID
    suffix xdist's own loadgroup relies on, pytest-xdist issue 1386).  Removing the project's
    scheduler makes this fail: the groups are then spread over both workers."""
    body = ("import os, pytest\n{mark}\n@pytest.mark.parametrize('i', range(6))\ndef test_where(i):\n"
            "    with open(os.environ['WHERE_LOG'], 'a') as f:\n"
            "        f.write(f\"{{__name__}} {{i}} {{os.environ['PYTEST_XDIST_WORKER']}}\\n\")\n")
    (tmp_path / "test_one.py").write_text(body.format(mark="pytestmark = pytest.mark.xdist_group('one')"))
    (tmp_path / "test_one_more.py").write_text(body.format(mark="pytestmark = pytest.mark.xdist_group('one')"))
    (tmp_path / "test_two.py").write_text(body.format(mark="pytestmark = pytest.mark.xdist_group(name='two')"))
    (tmp_path / "test_free.py").write_text(body.format(mark=""))
    shutil.copy(ROOT / "conftest.py", tmp_path)                         # the project's conftest, as it is
    log = tmp_path / "where.log"
    r = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "-p", "no:cacheprovider", "-q",
                        f"--rootdir={tmp_path}", str(tmp_path)],
                       cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT), WHERE_LOG=str(log),
                                             ATTENTION_CLAIMS_ROOT=str(ROOT)),
                       capture_output=True, text=True, check=False, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    where: dict[str, set] = {}
    for line in log.read_text().splitlines():
        module, _, worker = line.split()
        where.setdefault(module, set()).add(worker)
    assert sum(1 for _ in log.read_text().splitlines()) == 24
    assert len(where["test_one"] | where["test_one_more"]) == 1, where      # one group, two files
    assert len(where["test_two"]) == 1, where


def test_8_a_save_that_changes_nothing_writes_nothing(tmp_path):
    (tmp_path / "results").mkdir()
    ev = _run_dir(tmp_path, "run", "norm.postnorm_diverges")
    fresh = json.loads((ev.root / "claims.json").read_text())
    save_run(CHAPTER, fresh, ev, tmp_path / "results")
    first = (tmp_path / "results" / "verdicts.json").read_bytes()
    lines = save_run(CHAPTER, fresh, ev, tmp_path / "results")
    assert "verdicts.json: unchanged" in lines
    assert (tmp_path / "results" / "verdicts.json").read_bytes() == first


def test_8_a_relative_report_dir_means_the_same_place_in_pytest_and_in_the_report(tmp_path):
    r = inproc.report("--report-dir", "report/relative-probe", cwd=tmp_path)     # started elsewhere, in this process
    assert r.returncode == 0, r.stderr
    assert (ROOT / "report" / "relative-probe" / "claims.md").exists() and not (tmp_path / "report").exists()
