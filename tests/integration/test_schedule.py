"""The scheduler (fixtures/schedule.py): longest first, N processes, one thread and one core each."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.recipes import CHAPTER_GROUPS, RECIPES
from fixtures.schedule import Job, plan, run, training_flops

ROOT = Path(__file__).resolve().parent.parent.parent


def jobs(*costs):
    return [Job("ladder", RECIPES["baseline"].with_seed(i), c) for i, c in enumerate(costs)]


def test_plan_gives_each_job_longest_first_to_the_least_loaded_worker():
    lanes, makespan = plan(jobs(3, 3, 2, 2, 2), 2)
    # the textbook case where LPT is not optimal (7 against 6): the rule, not a search
    assert [[j.cost for j in lane] for lane in lanes] == [[3, 2, 2], [3, 2]]
    assert makespan == 7
    assert sorted(j.recipe.train.seed for lane in lanes for j in lane) == [0, 1, 2, 3, 4]
    assert plan(jobs(5, 1), 4)[1] == 5 and plan([], 2)[1] == 0
    with pytest.raises(ValueError, match="at least 1"):
        plan(jobs(1), 0)


def test_the_cost_estimate_orders_the_chapters_models_by_their_work():
    flops = {name: training_flops(RECIPES[name]) for name in ("baseline", "layernorm", "two_blocks", "prenorm")}
    assert flops["baseline"] < flops["layernorm"] < flops["two_blocks"] < flops["prenorm"]
    # two blocks are about twice one block's work (the output layer is shared)
    assert 1.3 < flops["two_blocks"] / flops["layernorm"] < 2.0


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="needs os.sched_getaffinity (Linux)")
def test_run_starts_longest_first_with_one_thread_each_and_reports_failures(tmp_path):
    probe = ("import json, os, sys, time; time.sleep(0.3); "
             "json.dump({'threads': os.environ['OMP_NUM_THREADS'], 'cores': sorted(os.sched_getaffinity(0))}, "
             "open(sys.argv[1], 'w')); sys.exit(int(sys.argv[2]))")
    todo = jobs(1, 5, 3)
    fail = {2}                                                      # the job of cost 3 exits 1

    def command(job):
        seed = job.recipe.train.seed
        return [sys.executable, "-c", probe, str(tmp_path / f"{seed}.json"), str(int(seed in fail))]
    lines = []
    failed = run(todo, 2, command=command, write=lines.append)
    assert [j.recipe.train.seed for j in failed] == [2]
    started = [line for line in lines if "start" in line]
    assert [s.split()[2] for s in started] == ["ladder/baseline"] * 3
    assert [s.split()[3] for s in started] == ["s1", "s2", "s0"]    # cost 5, 3, 1
    seen = [json.loads((tmp_path / f"{i}.json").read_text()) for i in range(3)]
    assert all(s["threads"] == "1" for s in seen)
    if len(os.sched_getaffinity(0)) >= 2:
        assert all(len(s["cores"]) == 1 for s in seen)
        assert seen[1]["cores"] != seen[2]["cores"]                 # the first two ran side by side


def cli(*args):
    return subprocess.run([sys.executable, "-m", "fixtures", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_the_dry_run_plans_every_recipe_of_every_group_and_trains_nothing():
    r = cli("all", "--jobs", "2", "--seeds", "2", "--dry-run")
    assert r.returncode == 0, r.stderr
    n = sum(len(rs) for rs in CHAPTER_GROUPS.values()) * 2       # the chapter's setups, not the readings
    assert r.stdout.startswith(f"{n} runs") and "worker 0:" in r.stdout and "worker 1:" in r.stdout
    for rs in CHAPTER_GROUPS.values():
        for recipe in rs:
            assert f"/{recipe.name} s1" in r.stdout
    assert "errata/" not in r.stdout                                # the errata's readings are asked for by name


def test_scheduled_options_that_make_no_sense_are_errors():
    r = cli("all", "--only", "baseline", "--dry-run")
    assert r.returncode == 2 and "--only names recipes of one group" in r.stderr
    r = cli("ladder", "--dry-run")
    assert r.returncode == 2 and "give --jobs N" in r.stderr
    r = cli("ladder", "--jobs", "0")
    assert r.returncode == 2 and "must be at least 1" in r.stderr
