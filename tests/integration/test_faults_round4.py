"""The fourth round of fault findings (issue 46): what a save and a report refuse.  Each test is
named by its finding's number; every write goes to a scratch checkout or a scratch results/,
never the checkout's own."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import inproc
import pytest

from claims.chapter import CHAPTER
from data import paths
from fixtures import results
from fixtures.evidence import EvidenceWriter
from textcheck import evidence as figure_evidence
from textcheck.device_readings import only_readings
from textcheck.save import save_run
from textcheck.versions import rule_id

ROOT = Path(__file__).resolve().parent.parent.parent
NODE = "claims/test_ladder_trained.py::test_probe"


def _state(folder: Path) -> dict[str, str]:
    """Every file under `folder` (hidden ones included, the locks' own files not) and its sha256."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.endswith((".lock", ".lock.holder"))}


def _run(args: list[str], root: Path = ROOT, timeout: float = 300, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, check=False,
                          timeout=timeout, env=dict(os.environ, ATTENTION_CLAIMS_ROOT=str(root), PYTHONPATH=str(ROOT)),
                          **kw)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    """A checkout of the project's committed files (results/, docs/, README.md, the packages), a
    git repository of its own, so that a report that writes where it must not harms nothing."""
    base = tmp_path_factory.mktemp("checkout")
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in tracked.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (base / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, base / name)
    for cmd in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "s"]):
        subprocess.run(["git", "-C", str(base), *cmd], capture_output=True, check=True)
    return base


# ------------------------------------------------------------ 4. the report writes into committed folders

@pytest.mark.parametrize("folder", ["results", "docs", ".", "results/badges", "claims"])
def test_4_the_report_refuses_a_committed_folder_and_writes_nothing(scratch, folder):
    before = _state(scratch)
    r = _run(["-m", "claims.report", f"--report-dir={folder}"], root=scratch)
    assert r.returncode == 2, r.stdout[-500:] + r.stderr[-2000:]
    assert "--report-dir" in r.stderr and "committed" in r.stderr and "Traceback" not in r.stderr
    assert _state(scratch) == before


@pytest.mark.parametrize("report_dir,site_dir", [("docs", "site"), ("report/pub", "docs"),
                                                 ("report/pub", "results")])
def test_4_publish_refuses_a_committed_folder_and_writes_nothing(scratch, report_dir, site_dir):
    before = _state(scratch)
    r = _run(["-m", "claims.report.publish", report_dir, site_dir], root=scratch)
    assert r.returncode == 2, r.stdout[-500:] + r.stderr[-2000:]
    assert "committed" in r.stderr and "Traceback" not in r.stderr
    assert _state(scratch) == before and not (scratch / "site").exists() and not (scratch / "report").exists()


def test_4_one_rule_for_pytest_and_the_report(scratch, tmp_path):
    """pytest's --report-dir is refused by the same function: docs/ too, not only results/."""
    for folder in ("results", "docs", ".", "tests/data"):
        assert paths.committed_folder(scratch / folder, scratch), folder
    assert paths.committed_folder(scratch / "report" / "x", scratch) is None
    assert paths.committed_folder(tmp_path / "anywhere", scratch) is None
    before = _state(ROOT / "docs")               # pytest runs in the checkout: its docs/ is what it would write
    r = inproc.run_pytest("-p", "no:cacheprovider", "-p", "no:xdist", "--co", "-q", "--report-dir=docs",
                          "claims/test_corpus.py")                      # in this process (tests/inproc.py)
    assert r.returncode == 4 and "--report-dir=docs" in r.stderr and "committed" in r.stderr, r.stderr[-2000:]
    assert _state(ROOT / "docs") == before


# ------------------------------------------------------------ 5. a save commits what the report refuses

def _shown(values: list) -> dict:
    """What a test shows of values per seed: their mean and sd, then the values (claim.record), which
    a display is checked against (its figure record's values)."""
    from textcheck.decide import spread
    mean, sd = spread(values)
    return {"mean": mean, "sd": sd, "per seed": values}


def _fresh(ts: str, commit: str, meta: dict | None = None) -> dict:
    """A run's claims.json deciding one trained figure of the ladder on three seeds, at its printed
    value (a record holds measured values only; the rule inputs are the figure table's)."""
    entry = next(iter(CHAPTER.figures_of("ladder.residual_head").values()))
    # the recipes its figure rests on (claims/record_runs.py RECORD_RUNS: one_head - one_head_added)
    runs = [{"group": "ladder", "recipe": r, "seed": s, "key": f"k{r}{s}"} for r in ("one_head", "one_head_added")
            for s in range(3)]
    test = {"nodeid": NODE, "outcome": "holds", "reason": "", "tier": "gpu", "device": "cuda:0", "seconds": 1.0,
            "timestamp": ts, "source": "fresh run", "torch": "9.9", "runs": runs,
            "records": [{"stated": entry.value, "measured": _shown([float(entry.value)] * 3), "tolerance": "t",
                         "rule": rule_id("trained"), "seeds": 3, "measurement": "perplexity/1",
                         "figures": [entry.id], "decision": {"values": [float(entry.value)] * 3}}]}
    return {"meta": {"source": "fresh run", "timestamp": ts, "commit": commit, "torch": "9.9", **(meta or {})},
            "claims": [{"id": "ladder.residual_head", "verdict": "holds", "tests": [test]}]}


def _run_dir(tmp_path: Path, name: str, fresh: dict, files: dict[str, str] | None = None) -> EvidenceWriter:
    ev = EvidenceWriter(tmp_path / name, results_dir=tmp_path / "results")
    (ev.root / "claims.json").write_text(json.dumps(fresh))
    for fname, text in (files or {}).items():
        (ev.root / fname).write_text(text)
        ev.add(fname, "json")
    return ev


@pytest.mark.parametrize("bad", [{"r": 5}, {"r": {"what": "x", "cpu": [1, 2]}}, [1, 2]])
def test_5_a_save_refuses_a_readings_entry_the_report_would_refuse_and_writes_nothing(tmp_path, bad):
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "readings.json").write_text(json.dumps({"ok": {"what": "w", "cpu": {"a": 1}}}))
    ev = _run_dir(tmp_path, "run", _fresh("2026-12-01T12:00:00+00:00", "c1"), {"readings.json": json.dumps(bad)})
    before = _state(tmp_path / "results")
    with pytest.raises(results.EvidenceError, match=r"readings\.json"):
        save_run(CHAPTER, json.loads((ev.root / "claims.json").read_text()), ev, tmp_path / "results")
    assert _state(tmp_path / "results") == before
    with pytest.raises(results.EvidenceError, match=r"readings\.json"):      # its evidence alone, the same
        ev.save()
    assert _state(tmp_path / "results") == before


def test_5_the_report_then_renders_what_the_save_committed(scratch, tmp_path):
    """End to end: a run with a malformed reading is refused by --save-results (exit 2, nothing
    written), and the next report still renders (exit 0)."""
    rep = tmp_path / "rep"
    ev = EvidenceWriter(rep, results_dir=scratch / "results")
    ev.json("readings.json", {"probe": {"what": "w", "cpu": 3}})
    before = _state(scratch / "results")
    r = _run(["-m", "claims.report", f"--report-dir={rep}", "--save-results"], root=scratch)
    assert r.returncode == 2 and "readings.json" in r.stderr and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert _state(scratch / "results") == before
    (rep / "readings.json").unlink()
    (rep / "manifest.json").unlink()
    r = _run(["-m", "claims.report", f"--report-dir={rep}"], root=scratch)
    assert r.returncode == 0, r.stderr[-2000:]


# ------------------------------------------------------------ 8. provenance rewritten

def test_8_a_from_results_save_keeps_the_provenance_of_the_run_that_measured(tmp_path):
    # issue 59, finding 1: a --from-results test with committed evidence measured nothing, so a save
    # commits nothing of it (the committed records keep their provenance because they are not written)
    shutil.copytree(ROOT / "results", tmp_path / "results")
    was = {r.key: r for r in figure_evidence.load(CHAPTER, tmp_path / "results" / "figures.json")}
    committed = next(t["nodeid"] for c in json.loads((tmp_path / "results" / "verdicts.json").read_text())["claims"]
                     if c["id"] == "ladder.residual_head" for t in c["tests"])
    again = _fresh("2026-12-24T10:00:00+00:00", "c-today", {"from_results": True, "torch": "10.0",
                                                            "from_records": [committed]})
    again["claims"][0]["tests"][0].update(nodeid=committed, device="cpu", torch="10.0")
    second = _run_dir(tmp_path, "again", again)
    save_run(CHAPTER, again, second, tmp_path / "results")
    now = {r.key: r for r in figure_evidence.load(CHAPTER, tmp_path / "results" / "figures.json")}
    assert now.keys() == was.keys()
    for key, rec in now.items():
        assert (rec.date, rec.code, rec.device, rec.torch) == (was[key].date, was[key].code, was[key].device,
                                                               was[key].torch)


def test_8_a_from_results_record_with_no_committed_one_takes_its_runs_provenance(tmp_path):
    """A figure decided from the committed run records alone and never saved before: its date,
    device, torch and code are the runs', not this run's."""
    (tmp_path / "results").mkdir()
    ladder = results.load("ladder")
    # one run per seed (a seed trained again under a new cache key has two records; the later one)
    head, added = (list({r.seed: r for r in ladder if r.recipe == name and r.seed < 3}.values())
                   for name in ("one_head", "one_head_added"))
    runs = head + added
    (tmp_path / "results" / "ladder.json").write_text(results.dumps("ladder", runs))
    fresh = _fresh("2026-12-24T10:00:00+00:00", "c-today", {"from_results": True, "from_records": [NODE]})
    test = fresh["claims"][0]["tests"][0]
    test["runs"] = [{"group": "ladder", "recipe": r.recipe, "seed": r.seed, "key": r.key} for r in runs]
    # its values are its runs' metrics (one_head - one_head_added per seed, the figure's declared
    # combination), decided as the figure table decides them: a first decision from committed runs
    # is saved (a test with committed evidence is not: the test above)
    values = [a.metrics["val_ppl"] - b.metrics["val_ppl"] for a, b in zip(head, added)]
    (fid,) = test["records"][0]["figures"]
    test["outcome"] = fresh["claims"][0]["verdict"] = CHAPTER.rule_inputs(fid).decide({"values": values},
                                                            CHAPTER.timed).verdict
    test["records"][0]["decision"] = {"values": values}
    test["records"][0]["measured"] = _shown(values)          # what the test shows: the values it decided on
    ev = _run_dir(tmp_path, "run", fresh)
    save_run(CHAPTER, fresh, ev, tmp_path / "results")
    (rec,) = figure_evidence.load(CHAPTER, tmp_path / "results" / "figures.json")
    assert rec.date == max(r.date for r in runs) and rec.date != "2026-12-24T10:00:00+00:00"
    assert rec.device == runs[0].device and rec.torch == runs[0].torch
    assert rec.code != "c-today" and rec.code


def test_8_a_from_results_run_says_which_tests_measured_nothing(tmp_path):
    """pytest --from-results notes in claims.json's meta each test whose runs all came from the
    committed records (they measured nothing); the save reads it."""
    rep = tmp_path / "rep"
    r = inproc.run_pytest("-p", "no:cacheprovider", "-p", "no:xdist", "-q", "--from-results", "--device", "cpu",
                          "--claim", "norm.postnorm_diverges", f"--report-dir={rep}", "--no-progress")   # in this process
    assert r.returncode in (0, 1), r.stdout[-2000:] + r.stderr[-2000:]
    report = json.loads((rep / "claims.json").read_text())
    ran = [t["nodeid"] for c in report["claims"] for t in c["tests"] if t["outcome"] in ("holds", "refuted")]
    assert ran and set(ran) <= set(report["meta"]["from_records"])


# ------------------------------------------------------------ 7. the files a reader reads

def test_7_a_fifo_as_evidence_is_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for args in (["--evidence", str(fifo)], ["--verdicts", str(fifo)]):
        try:
            r = _run(["-m", "claims.rederive", *args], timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"claims.rederive {' '.join(args)}: still waiting on the FIFO after 30 s")
        assert r.returncode == 2 and str(fifo) in r.stderr and "not a regular file" in r.stderr, r.stderr[-2000:]


def _limited_memory():
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


@pytest.mark.parametrize("flag", ["--evidence", "--verdicts"])
def test_7_dev_zero_is_refused_before_it_is_read(flag):
    try:
        r = _run(["-m", "claims.rederive", flag, "/dev/zero"], timeout=60, preexec_fn=_limited_memory)
    except subprocess.TimeoutExpired:
        pytest.fail("claims.rederive still reading /dev/zero after 60 s")
    assert r.returncode == 2 and "/dev/zero" in r.stderr and "not a regular file" in r.stderr, r.stderr[-2000:]
    assert "Traceback" not in r.stderr


def test_7_a_huge_file_is_refused_from_its_size_not_read(tmp_path):
    huge = tmp_path / "verdicts.json"
    with open(huge, "wb") as f:
        f.truncate(8 << 30)                                             # sparse: 8 GiB, no disk used
    with pytest.raises(results.EvidenceError, match=r"verdicts\.json: 8,589,934,592 bytes, over the"):
        results.read_json(huge, "committed verdicts")
    r = _run(["-m", "claims.rederive", "--verdicts", str(huge)], timeout=60, preexec_fn=_limited_memory)
    assert r.returncode == 2 and str(huge) in r.stderr and "Traceback" not in r.stderr, r.stderr[-2000:]


# (a mistyped --verdicts path: tests/integration/test_record_rules.py)


# ------------------------------------------------------------ 11. a selection that runs nothing

def _earlier_report(rep: Path) -> bytes:
    rep.mkdir(parents=True)
    text = json.dumps({"meta": {"source": "an earlier run"}, "claims": []}).encode()
    (rep / "claims.json").write_bytes(text)
    return text


@pytest.mark.parametrize("args", [["--claim", "scale.runaway", "-m", "fast"], ["--claim", "scale.runaway"],
                                  ["-m", "fast and gpu"]])
def test_11_a_selection_that_runs_nothing_says_why_fails_and_keeps_the_last_report(tmp_path, args):
    import torch
    if torch.cuda.is_available():
        pytest.skip("on a CUDA machine scale.runaway's tests run (and train)")
    rep = tmp_path / "rep"
    earlier = _earlier_report(rep)
    r = inproc.run_pytest("-p", "no:cacheprovider", "-p", "no:xdist", "-q", *args, f"--report-dir={rep}",
                          "claims")                                    # in this process (tests/inproc.py)
    assert r.returncode not in (0, 1), r.stdout[-2000:]
    assert "claim report not written" in r.stdout and "no claim test ran" in r.stdout, r.stdout[-2000:]
    assert (rep / "claims.json").read_bytes() == earlier


# ------------------------------------------------------------ 9. torn reads

@pytest.mark.parametrize("command", [["-m", "claims.rederive"], ["-m", "claims.report", "--report-dir=report/torn"]])
def test_9_a_reader_of_results_waits_for_a_save_in_progress(scratch, command):
    """A save commits its files under the save lock; the report and the re-derivation read results/
    under it too, so neither reads some files from before a save and some from after.  With the lock
    held and a wait of 1 s, each waits, names the holder and stops, exit 2."""
    with results.save_lock(scratch / "results"):
        r = subprocess.run([sys.executable, *command, *(["--evidence", str(scratch / "results" / "figures.json")]
                                                        if "claims.rederive" in command else [])],
                           cwd=ROOT, capture_output=True, text=True, check=False, timeout=300,
                           env=dict(os.environ, ATTENTION_CLAIMS_ROOT=str(scratch), PYTHONPATH=str(ROOT),
                                    ATTENTION_CLAIMS_LOCK_WAIT="1"))
    assert r.returncode == 2 and "waiting for" in r.stderr and ".save.lock" in r.stderr, r.stdout[-1000:] + r.stderr
    assert "Traceback" not in r.stderr


# ------------------------------------------------------------ 3. the report refuses what rederive refuses

def test_3_the_report_refuses_a_verdict_the_re_derivation_refuses(scratch, tmp_path):
    """A hand-edited verdict in results/figures.json (a refuted figure set to holds, with
    verdicts.json left as it was) is refused by python -m claims.rederive; the report refuses
    it too, exit 2 naming the record, and writes no page showing it."""
    path = scratch / "results" / "figures.json"
    original = path.read_text()
    data = json.loads(original)
    rec = next(r for r in data["records"] if r["verdict"] == "refuted")
    rec["verdict"] = "holds"
    try:
        path.write_text(json.dumps(data, indent=1))
        r = _run(["-m", "claims.rederive"], root=scratch)
        assert r.returncode != 0
        out = tmp_path / "rep"
        r = _run(["-m", "claims.report", f"--report-dir={out}"], root=scratch)
        assert r.returncode == 2 and rec["key"] in r.stderr and "Traceback" not in r.stderr, r.stderr[-2000:]
        assert not (out / "claims.md").exists()
    finally:
        path.write_text(original)


def test_a_save_keeps_the_records_of_an_undecided_figure(tmp_path):
    """An undecided trained figure is committed as undecided, with its values (more seeds add to
    them): the save used to drop every record but a holds' or a refuted's."""
    from textcheck.save import save_run as save
    (tmp_path / "results").mkdir()
    # the runs it names are in results/ (issue 59, finding 2: a save naming runs that are not is refused)
    shutil.copy2(ROOT / "results" / "winograd.json", tmp_path / "results" / "winograd.json")
    # a printed attention cell the committed evidence leaves undecided (which cells are moves with
    # the weights they are measured on: the first such, by key)
    committed = min((r for r in figure_evidence.load(CHAPTER, ROOT / "results" / "figures.json")
                     if r.key.startswith("winograd.map_") and r.verdict == "undecided"), key=lambda r: r.key)
    key = committed.key
    values = committed.measured["values"]
    test = {"nodeid": "claims/test_winograd.py::test_probe_map", "outcome": "undecided", "reason": "undecided: probe",
            "tier": "slow", "device": "cpu", "seconds": 1.0, "timestamp": "2026-12-03T09:00:00+00:00",
            "source": "fresh run", "torch": "9.9", "runs": asdict(committed)["runs"],
            "records": [{"stated": 0, "measured": _shown(values), "tolerance": "t", "rule": committed.rule,
                         "seeds": len(values), "measurement": committed.measurement,
                         "figures": [key], "decision": {"values": values}}]}
    fresh = {"meta": {"source": "fresh run", "timestamp": test["timestamp"], "commit": "c", "torch": "9.9"},
             "claims": [{"id": committed.claim, "verdict": "undecided", "tests": [test]}]}
    ev = _run_dir(tmp_path, "run", fresh)
    save(CHAPTER, fresh, ev, tmp_path / "results")
    saved = {r.key: r for r in figure_evidence.load(CHAPTER, tmp_path / "results" / "figures.json")}
    assert saved[key].verdict == "undecided"
    assert saved[key].measured["values"] == values


def test_a_stale_test_gives_way_to_its_remeasurement_even_as_a_reading(tmp_path):
    """The time slope of cost.time_quadratic was decided under timing/1 on the CPU; measured again
    under today's rule it is a reading (a clock decides only on CUDA: the test is skipped as `not
    run: device-specific`).  The save stores the reading with its rule's decision, as every
    committed reading is stored, and the stale test goes: it used to stand because the new
    measurement "did not run"."""
    results_dir = tmp_path / "results"
    shutil.copytree(ROOT / "results", results_dir)
    key = "cost.time_quadratic: time slope"
    # the premise, as it stood before its remeasurement of 2026-12-03: the committed slope decided
    # under timing/1
    planted = json.loads((results_dir / "figures.json").read_text())
    (slope,) = [r for r in planted["records"] if r["key"] == key]
    slope["rule"] = "timing/1"
    (results_dir / "figures.json").write_text(json.dumps(planted, indent=1, sort_keys=True) + "\n")
    before = {r.key: r for r in figure_evidence.load(CHAPTER, results_dir / "figures.json")}
    assert figure_evidence.stale(CHAPTER, before[key]) is not None
    before_readings = sum(only_readings(CHAPTER, figure_evidence.as_test(r)) for r in before.values()
                          if figure_evidence.stale(CHAPTER, r) is None)
    stamp = "2026-12-24T10:00:00+00:00"
    fresh = _slope_reading(stamp, rule_id("timing"))
    save_run(CHAPTER, fresh, _run_dir(tmp_path, "run", fresh), results_dir)
    after = {r.key: r for r in figure_evidence.load(CHAPTER, results_dir / "figures.json")}
    assert figure_evidence.stale(CHAPTER, after[key]) is None and after[key].date == stamp
    assert after[key].measured == {"value": 2.01, "interval": [1.98, 2.04]}
    r = inproc.rederive("--evidence", str(results_dir / "figures.json"), "--verdicts", str(results_dir / "verdicts.json"))
    assert r.returncode == 0 and "stale (decided or measured under an older version" not in r.stdout, r.stdout
    assert f"(not verdicts on them): {before_readings + 1}" in r.stdout, r.stdout
    saved = json.loads((results_dir / "verdicts.json").read_text())
    (claim,) = [c for c in saved["claims"] if c["id"] == "cost.time_quadratic"]
    # rule version 3: its counts are the theory and its clock a reading on the CPU: nothing decides it here
    assert claim["verdict"] == "not run"


def _slope_reading(stamp: str, rule: str) -> dict:
    """A run that timed cost.time_quadratic's slope on the CPU: a reading, skipped as `not run:
    device-specific` with its decision recorded under `rule`."""
    test = {"nodeid": "claims/test_cost.py::test_time_grows_as_n_squared[cpu]", "outcome": "not run",
            "reason": "not run: device-specific: time slope 2.010 on cpu, read off its clock or allocator; "
                      "decided only on the chapter's kind of device (CUDA)",
            "tier": "slow", "device": "cpu", "seconds": 700.0, "timestamp": stamp, "source": "fresh run",
            "torch": "9.9", "records": [{"stated": {"slope": 1.91}, "measured": {"value": 2.01}, "tolerance": "t",
                                         "figure": "time slope", "rule": rule, "device": "cpu",
                                         "measurement": f"timing/{CHAPTER.measurements['timing'][0]}",
                                         "decision": {"value": 2.01, "interval": [1.98, 2.04]}}]}
    return {"meta": {"source": "fresh run", "timestamp": stamp, "commit": "c", "torch": "9.9"},
            "claims": [{"id": "cost.time_quadratic", "verdict": "not run", "tests": [test]}]}


def test_a_reading_decided_under_another_rule_stops_the_save_naming_it(tmp_path):
    """A reading the save cannot decide (recorded under a rule the figure table no longer decides
    it by) stops the save with an EvidenceError naming the test and the record, the error a save
    reports and exits 2 on (never a traceback), and results/ is as it was."""
    results_dir = tmp_path / "results"
    shutil.copytree(ROOT / "results", results_dir)
    before = {p.name: p.read_bytes() for p in results_dir.iterdir() if p.is_file()}
    fresh = _slope_reading("2026-12-24T10:00:00+00:00", "timing/1")
    with pytest.raises(results.EvidenceError, match=r"test_time_grows_as_n_squared\[cpu\]: record "
                                                    r"cost\.time_quadratic: time slope: decided under timing/1"):
        save_run(CHAPTER, fresh, _run_dir(tmp_path, "run", fresh), results_dir)
    assert {p.name: p.read_bytes() for p in results_dir.iterdir() if p.is_file()} == before
