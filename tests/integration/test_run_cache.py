"""The run's shared entries (fixtures/run_cache.py): the values are the ones computed without the
cache, bit for bit; each entry is computed once per run, by whichever process gets it first, and
two processes split a list of entries; an entry is never handed to another computation (other
inputs, another measurement version, another format) nor outlives its run."""
import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from data import load_tokens, split
from fixtures import measurements, run_cache
from fixtures.grad_profile import block_grad_norms
from fixtures.run_cache import RunCache

ROOT = Path(__file__).resolve().parent.parent.parent
FORK = multiprocessing.get_context("fork")


def test_the_gradient_profile_through_the_cache_is_the_one_computed_without_it(tmp_path):
    """What claims/test_norm.py decides on: one seed's profile, computed directly, against the same
    through the cache (the process that computed it, and another that reads it back)."""
    train, _ = split(load_tokens())
    direct = block_grad_norms("post", 0, train)
    inputs = {"norm": "post", "seed": 0, "train": "t"}
    computed = RunCache(tmp_path).get("grad_profile", inputs, lambda: block_grad_norms("post", 0, train))
    read = RunCache(tmp_path).get("grad_profile", inputs, lambda: pytest.fail("read back, not computed again"))
    assert computed == direct and read == direct
    assert [v.hex() for v in read] == [v.hex() for v in direct]


def test_awkward_floats_come_back_bit_for_bit_and_what_json_cannot_carry_is_refused(tmp_path):
    values = [0.1 + 0.2, 5e-324, 1.7976931348623157e308, -0.0, 1 / 3, float.fromhex("0x1.fffffep-1")]
    RunCache(tmp_path).get("grad_profile", {"k": 1}, lambda: values)
    back = RunCache(tmp_path).get("grad_profile", {"k": 1}, lambda: None)
    assert [v.hex() for v in back] == [v.hex() for v in values]
    for bad in ((1.0, 2.0), [float("nan")], {1: 2.0}):
        with pytest.raises((TypeError, ValueError)):
            RunCache(tmp_path).get("grad_profile", {"bad": repr(bad)}, lambda b=bad: b)
        assert not (tmp_path / f"grad_profile-{run_cache.entry_key('grad_profile', {'bad': repr(bad)})[:32]}.json").exists()


def test_each_entry_is_computed_once_and_only_for_its_own_computation(tmp_path, monkeypatch):
    calls = []

    def compute(i):
        calls.append(i)
        return [i["seed"] * 1.5]
    a = RunCache(tmp_path).get_all("grad_profile", [{"seed": s} for s in range(3)], compute)
    b = RunCache(tmp_path).get_all("grad_profile", [{"seed": s} for s in (2, 1, 0, 3)], compute)
    assert a == [[0.0], [1.5], [3.0]] and b == [[3.0], [1.5], [0.0], [4.5]]
    assert calls == [{"seed": 0}, {"seed": 1}, {"seed": 2}, {"seed": 3}]
    # another measurement, another version of it, another format: computed again, never read
    RunCache(tmp_path).get("grad_profile_readings", {"seed": 0}, lambda: compute({"seed": 10}))
    monkeypatch.setitem(measurements.MEASUREMENTS, "grad_profile", (99, "changed"))
    RunCache(tmp_path).get("grad_profile", {"seed": 0}, lambda: compute({"seed": 20}))
    monkeypatch.setattr(run_cache, "FORMAT", run_cache.FORMAT + 1)
    RunCache(tmp_path).get("grad_profile", {"seed": 0}, lambda: compute({"seed": 30}))
    assert calls[4:] == [{"seed": 10}, {"seed": 20}, {"seed": 30}]
    with pytest.raises(KeyError, match="unknown measurement"):
        RunCache(tmp_path).get("no_such_measurement", {}, lambda: 1)


def test_a_failed_computation_leaves_no_entry_and_a_foreign_file_is_a_clear_error(tmp_path):
    def boom():
        raise RuntimeError("killed half way")
    with pytest.raises(RuntimeError, match="half way"):
        RunCache(tmp_path).get("grad_profile", {"seed": 0}, boom)
    assert [p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")] == []
    assert RunCache(tmp_path).get("grad_profile", {"seed": 0}, lambda: [1.0]) == [1.0]    # the lock was let go
    entry = next(tmp_path.glob("grad_profile-*.json"))
    entry.write_text(json.dumps({"key": "another", "value": [2.0]}))
    with pytest.raises(RuntimeError, match=f"{entry.name}.*field 'key'"):
        RunCache(tmp_path).get("grad_profile", {"seed": 0}, lambda: [1.0])


def test_without_a_directory_an_entry_is_computed_once_in_the_process(tmp_path, monkeypatch):
    # a cache path that is a file is a named error (issue 59: the plugin refuses such a run before
    # any test); a run cache without a directory computes each entry once in its process
    from data.paths import CacheError
    monkeypatch.setenv("ATTENTION_CLAIMS_CACHE", str(tmp_path / "file"))
    (tmp_path / "file").write_text("not a directory: the cache cannot be made")
    with pytest.raises(CacheError, match="is a file, not a folder"):
        run_cache.new_run_dir()
    here, calls = RunCache(None), []
    for _ in range(2):
        assert here.get("grad_profile", {"seed": 0}, lambda: calls.append(1) or [0.5]) == [0.5]
    assert calls == [1]
    run_cache.end_run(None)


def _share(directory, barrier, log, out):
    """One of two processes asking for the same six entries: its first computation waits until the
    other process is computing too, so the two are computing different entries at once."""
    first = []

    def compute(i):
        if not first:
            first.append(barrier.wait(timeout=60))
        with open(log, "a") as f:
            f.write(f"{os.getpid()} {i['seed']}\n")
        return [i["seed"] / 7]
    values = RunCache(Path(directory)).get_all("grad_profile", [{"seed": s} for s in range(6)], compute)
    Path(out).write_text(json.dumps(values))


def test_two_processes_split_the_entries_and_each_reads_the_others(tmp_path):
    barrier, log = FORK.Barrier(2), tmp_path / "computed.log"
    procs = [FORK.Process(target=_share, args=(tmp_path / "run", barrier, log, tmp_path / f"out{k}.json"))
             for k in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]
    computed = [line.split() for line in log.read_text().splitlines()]
    assert sorted(int(s) for _, s in computed) == list(range(6))           # each entry once
    assert len({pid for pid, _ in computed}) == 2                           # by both processes
    outs = [json.loads((tmp_path / f"out{k}.json").read_text()) for k in range(2)]
    assert outs[0] == outs[1] == [[s / 7] for s in range(6)]


def test_a_run_removes_its_entries_and_those_of_a_run_whose_process_is_gone(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTENTION_CLAIMS_CACHE", str(tmp_path))
    mine, other = run_cache.new_run_dir(), tmp_path / run_cache.RUNS / f"{os.getpid()}-0123abcd"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    gone = tmp_path / run_cache.RUNS / f"{dead.pid}-0123abcd"
    for d in (mine, other, gone):
        RunCache(d).get("grad_profile", {}, lambda: 1.0)
    run_cache.end_run(mine)
    assert sorted(p.name for p in (tmp_path / run_cache.RUNS).iterdir()) == [other.name]


def test_under_xdist_the_workers_compute_a_shared_entry_once_and_the_run_removes_it(tmp_path):
    """The plugin for real: -n 2, six tests on two workers asking for the same four entries; then the
    same serially (-p no:xdist).  Each run computes each entry once and leaves no run directory."""
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["fixtures.plugin"]\n')
    (tmp_path / "test_shared.py").write_text(
        "import os, time, pytest\n"
        "@pytest.mark.parametrize('t', range(6))\n"
        "def test_uses(t, run_cache):\n"
        "    def compute(i):\n"
        "        time.sleep(0.2)\n"
        "        with open(os.environ['COMPUTED_LOG'], 'a') as f:\n"
        "            f.write(f\"{os.environ.get('PYTEST_XDIST_WORKER', 'main')} {i['seed']}\\n\")\n"
        "        return [i['seed'] / 3]\n"
        "    assert run_cache.get_all('grad_profile', [{'seed': s} for s in range(4)], compute) == "
        "[[s / 3] for s in range(4)]\n")
    for how in (["-n", "2", "--dist", "load"], ["-p", "no:xdist"]):
        log, cache = tmp_path / f"computed{how[0]}.log", tmp_path / f"cache{how[0]}"
        r = subprocess.run([sys.executable, "-m", "pytest", *how, "-p", "no:cacheprovider", "-q",
                            f"--rootdir={tmp_path}", str(tmp_path / "test_shared.py")],
                           cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT), COMPUTED_LOG=str(log),
                                                 ATTENTION_CLAIMS_ROOT=str(ROOT), ATTENTION_CLAIMS_CACHE=str(cache)),
                           capture_output=True, text=True, check=False, timeout=300)
        assert r.returncode == 0 and "6 passed" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
        assert sorted(int(line.split()[1]) for line in log.read_text().splitlines()) == [0, 1, 2, 3], how
        assert list((cache / run_cache.RUNS).iterdir()) == [], how
