"""The cost of the whole trained (gpu) tier on this machine: seconds per step measured per
recipe of every group (ladder, norm, positions, scale), projected to every recipe x seed the
tier trains, beside the wall time of the runs on record in results/, and the cost of a
warm-cache rerun.  Also the projected wall time of the scheduler (`python -m fixtures all
--jobs 2`: two runs at a time, one thread each, longest first), from the same measurements.

  python benchmarks/full_cost.py [--steps 10] [--seeds 3]   # last line: full_tier_cpu_hours=...
"""
import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from fixtures import results
from fixtures.engine import NotCached, runs
from fixtures.recipes import CHAPTER_GROUPS
from fixtures.schedule import Job, plan
from fixtures.train import train

# the trained (gpu) tier; the Winograd models are the slow tier's, minutes in all
TIMED_GROUPS = {g: rs for g, rs in CHAPTER_GROUPS.items() if g != "winograd"}


def measured_hours(group: str, names: set[str], seeds: int) -> tuple[float, int]:
    """Wall hours of the runs on record in results/<group>.json (newest per recipe and seed),
    for comparison with the projection; and how many runs that is."""
    runs = [r for name, rs in results.by_recipe(group).items() if name in names for r in rs
            if r.seed < seeds and r.wall_seconds]
    return sum(r.wall_seconds for r in runs) / 3600, len(runs)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--jobs", type=int, default=2, help="workers of the projected schedule")
    a = p.parse_args()
    rows, total, jobs = [], 0.0, []
    for group, recipes in TIMED_GROUPS.items():
        for r in recipes:
            short = replace(r, train=replace(r.train, steps=a.steps))
            train(replace(short, train=replace(short.train, steps=2)))       # warm-up
            t0 = time.perf_counter()
            result = train(short)
            wall = time.perf_counter() - t0
            per_step = result.metrics["train_seconds"] / a.steps             # the loop alone
            evaluation = wall - result.metrics["train_seconds"]              # once per model
            cost = (per_step * r.train.steps + evaluation) * a.seeds
            total += cost
            rows.append((group, r.name, per_step, cost))
            jobs += [Job(group, r.with_seed(s), cost / a.seeds) for s in range(a.seeds)]
    t0 = time.perf_counter()
    cached = 0
    for group, recipes in TIMED_GROUPS.items():     # through the one entry point, training nothing
        for r in recipes:
            for s in range(a.seeds):
                try:
                    cached += len(runs(group, [r.name], 1, first_seed=s, cached_only=True)[r.name])
                except NotCached:
                    pass
    warm = time.perf_counter() - t0
    print(f"{'group':8s} {'recipe':20s} {'s/step':>8s} {'hours':>7s} {'share':>6s}")
    for g, name, per_step, cost in rows:
        print(f"{g:8s} {name:20s} {per_step:8.3f} {cost / 3600:7.2f} {cost / total:6.1%}")
    print(f"threads {torch.get_num_threads()}; seeds {a.seeds}; warm-cache load of {cached} cached "
          f"models: {warm:.1f} s")
    for group, recipes in TIMED_GROUPS.items():
        projected = sum(cost for g, _, _, cost in rows if g == group) / 3600
        hours, n = measured_hours(group, {r.name for r in recipes}, a.seeds)
        print(f"{group:10s} projected {projected:6.2f} h; on record in results/{group}.json: {hours:6.2f} h "
              f"over {n} runs (threads as they ran)")
    _, makespan = plan(jobs, a.jobs)
    recorded = [Job(g, r.with_seed(rec.seed), rec.wall_seconds) for g, recipes in TIMED_GROUPS.items()
                for r in recipes for rec in results.by_recipe(g).get(r.name, [])
                if rec.seed < a.seeds and rec.wall_seconds]
    print(f"scheduled, {a.jobs} runs at a time, one thread each, longest first (python -m fixtures all "
          f"--jobs {a.jobs}): projected wall {makespan / 3600:.2f} h for {total / 3600:.2f} CPU-hours "
          f"({total / max(makespan, 1e-9):.2f}x); the runs on record, so scheduled: "
          f"{plan(recorded, a.jobs)[1] / 3600:.2f} h wall for {sum(j.cost for j in recorded) / 3600:.2f} h")
    print(f"full_tier_cpu_hours={total / 3600:.2f}")


if __name__ == "__main__":
    main()
