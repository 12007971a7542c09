"""The whole gpu tier at the chapter's scale on one CUDA machine, as one command, then the report.

  bash benchmarks/gpu_tier.sh [OUT]                  # or OUT=/some/dir bash benchmarks/gpu_tier.sh
  bash benchmarks/gpu_tier.sh --dry-run              # the plan and the estimated minutes; needs no GPU

Inputs come from the environment: the corpus from $ATTENTION_CLAIMS_CORPUS and the chapter text
from $ATTENTION_CLAIMS_CHAPTER (else ../shared/, as everywhere).  It installs nothing: it runs the
checkout in place (PYTHONPATH) with the torch already there (2.11 or newer, a CUDA build) and says
which packages are missing, if any, and how to install them from wheels it is handed.

It trains into its own cache under OUT (never the checkout's results/), runs the groups in order
of value (the figures the committed CPU verdicts refute first) under `pytest -n auto` within a
time budget (--budget-minutes, 8 by default: the groups whose estimate does not fit are left
out, and named), renders the report into OUT/report, and writes OUT/differs.md and
OUT/differs.json: every figure whose verdict differs from the committed (CPU) one.  Progress
(step, loss, ETA) is printed as it comes.  The last line is `gpu_tier_minutes=<minutes>`.

Estimates: on CUDA each recipe is first timed for a few steps on the device (a second or two in
all); without CUDA (the dry run) a prior is used, LAUNCH_PRIOR below: these models are small,
so a step on a large GPU is bound by kernel launches, about a fixed cost per block.  Several
xdist workers share the one GPU; PARALLEL is the speed-up assumed from that (not measured here).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MIN_TORCH = (2, 11)
NEEDS = ("tokenizers", "numpy", "filelock", "safetensors", "matplotlib", "anybadge", "pytest", "xdist")
# seconds per training step on a large GPU without measuring: a fixed cost plus one per block
LAUNCH_PRIOR = {"base": 2.0e-3, "per_block": 1.2e-3}
PARALLEL = 2.0          # speed-up assumed from several workers on one GPU (launch-bound kernels)
EVAL_SHARE = 0.15       # evaluation and the held-out curve, as a share of the training time
COST_MINUTES = 3.0      # the cost tests: 5-15 timing processes, each starting torch and CUDA


@dataclass
class Group:
    """A share of the tier: the tests it runs and the recipe groups (and seeds) they train."""
    name: str
    why: str
    tests: list[str]
    recipes: list[tuple[str, str, int]] = field(default_factory=list)   # (group, recipe, seeds)
    minutes: float = 0.0


def groups() -> list[Group]:
    """In order of value: first the trained figures the committed CPU verdicts refute and that
    the CPU took longest on (twelve blocks, the wide heads), then the rest."""
    from fixtures.recipes import RECIPES_BY_GROUP
    seeds = {"winograd": 10}
    out = [
        Group("norm", "pre/post-norm: 3 claims refuted on the CPU; twelve blocks (the CPU's longest runs)",
              ["claims/test_norm_trained.py"]),
        Group("scale", "sqrt(d_k): the runaway and d_k = 32 refuted on the CPU; the wide heads",
              ["claims/test_scale_trained.py"]),
        Group("positions", "position schemes at 64/128/256: RoPE and ALiBi refuted on the CPU",
              ["claims/test_positions_trained.py"]),
        Group("ladder", "the ladder and depth: depth refuted on the CPU", ["claims/test_ladder_trained.py"]),
        Group("winograd", "the Winograd task, ten seeds: small models the CPU trains in minutes",
              ["claims/test_winograd.py"]),
        Group("cost", "one layer's time and memory on CUDA, the kind of device the chapter's table is from",
              ["claims/test_cost.py"], minutes=COST_MINUTES),
    ]
    for g in out:
        g.recipes = [(g.name, r.name, seeds.get(g.name, 3)) for r in RECIPES_BY_GROUP.get(g.name, [])]
    # d_k = 32's divided model is the ladder's one-block row: the scale group trains it when the
    # ladder is left out (counted in both when both are taken: the estimate errs long)
    next(g for g in out if g.name == "scale").recipes.append(("ladder", "layernorm", 3))
    return out


def prior_step_seconds(recipe) -> float:
    return LAUNCH_PRIOR["base"] + LAUNCH_PRIOR["per_block"] * recipe.model.n_blocks


def measured_step_seconds(recipe, device: str, steps: int = 5) -> float:
    """Seconds per step of this recipe on the device: a smoke-scale run (the real loop), timed."""
    from dataclasses import replace

    from fixtures.train import train
    short = replace(recipe.smoke(), train=replace(recipe.smoke().train, steps=steps))
    train(short, device, held_out_points=0)                      # warm-up: kernels, allocator
    result = train(short, device, held_out_points=0)
    return result.metrics["train_seconds"] / steps


def estimate(plan: list[Group], step_seconds) -> None:
    """Fill each group's estimated minutes from seconds per step (a function of the recipe)."""
    from fixtures.recipes import get
    for g in plan:
        if not g.recipes:
            continue                                             # a fixed estimate (cost)
        total = sum(get(name).train.steps * seeds * step_seconds(get(name)) for _, name, seeds in g.recipes)
        g.minutes = total * (1 + EVAL_SHARE) / PARALLEL / 60


def within(plan: list[Group], budget: float) -> tuple[list[Group], list[Group]]:
    """The groups taken in order while their estimates fit the budget, and those left out."""
    taken, left, used = [], [], 0.0
    for g in plan:
        if used + g.minutes <= budget:
            taken.append(g)
            used += g.minutes
        else:
            left.append(g)
    return taken, left


def missing_packages() -> list[str]:
    return [name for name in NEEDS if importlib.util.find_spec(name) is None]


def torch_problem(dry_run: bool) -> str | None:
    """Why this torch cannot run the tier (too old, no CUDA), or None."""
    try:
        import torch
    except ImportError:
        return "torch is not installed (this script installs nothing: bring torch 2.11 or newer, a CUDA build)"
    version = tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:2])
    if version < MIN_TORCH:
        return f"torch {torch.__version__} is older than {'.'.join(map(str, MIN_TORCH))}"
    if not dry_run and not torch.cuda.is_available():
        return (f"torch {torch.__version__}: torch.cuda.is_available() is False (no CUDA device or a CPU-only "
                "build); --dry-run shows the plan without one")
    return None


def follow(log: Path, stop: threading.Event) -> None:
    """Print the training progress lines the workers append to the progress log, as they come."""
    pos = log.stat().st_size if log.exists() else 0
    while not stop.is_set():
        if log.exists():
            with open(log) as f:
                f.seek(pos)
                for line in f:
                    print(line.rstrip(), flush=True)
                pos = f.tell()
        stop.wait(2.0)


def run(plan: list[Group], out: Path, budget: float) -> int:
    cache = out / "cache"
    env = dict(os.environ, ATTENTION_CLAIMS_CACHE=str(cache),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    report = out / "report"
    tests = [t for g in plan for t in g.tests]
    cmd = [sys.executable, "-m", "pytest", *tests, "-m", "gpu or trained", "--device", "cuda", "-n", "auto",
           f"--report-dir={report}", "-p", "no:cacheprovider", "-q", "-rN"]
    print("running: " + " ".join(cmd), flush=True)
    cache.mkdir(parents=True, exist_ok=True)
    stop = threading.Event()
    watcher = threading.Thread(target=follow, args=(cache / "progress.log", stop), daemon=True)
    watcher.start()
    try:
        code = subprocess.call(cmd, cwd=ROOT, env=env, timeout=budget * 60 * 3)
    except subprocess.TimeoutExpired:
        print(f"the tier ran past three times its budget ({budget * 3:.0f} minutes) and was stopped", flush=True)
        code = 124
    finally:
        stop.set()
        watcher.join()
    subprocess.call([sys.executable, "-m", "claims.report", f"--report-dir={report}"], cwd=ROOT, env=env)
    differs(report, out)
    return code


def differs(report: Path, out: Path) -> None:
    """OUT/differs.json and .md: the figures whose fresh verdict differs from the committed one."""
    from claims.chapter import CHAPTER
    from textcheck.evidence import load
    from textcheck.rederive import against_committed
    fresh_path = report / "claims.json"
    if not fresh_path.exists():
        print(f"no {fresh_path}: the run decided nothing", flush=True)
        return
    result = against_committed(CHAPTER, json.loads(fresh_path.read_text()), load(CHAPTER))
    (out / "differs.json").write_text(json.dumps({k: result[k] for k in ("differ", "new", "agree")}, indent=1))
    lines = ["# Verdicts of this GPU run that differ from the committed (CPU) ones", "",
             f"{len(result['agree'])} agree, {len(result['differ'])} differ, {len(result['new'])} new.", ""]
    lines += [f"- `{key}`: committed **{was}**, this run **{now}** — {why[:400]}"
              for key, was, now, why in result["differ"]]
    (out / "differs.md").write_text("\n".join(lines) + "\n")
    print(f"{len(result['differ'])} verdict(s) differ from the committed CPU ones: {out / 'differs.md'}", flush=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="benchmarks/gpu_tier.sh", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", nargs="?", default=os.environ.get("OUT"),
                   help="where the report, the cache and differs.md go (default: $OUT)")
    p.add_argument("--dry-run", action="store_true", help="print the plan and the estimated minutes; train nothing")
    p.add_argument("--budget-minutes", type=float, default=8.0,
                   help="the groups whose estimates do not fit in this many minutes are left out (default 8)")
    a = p.parse_args(argv)
    t0 = time.time()
    problem = torch_problem(a.dry_run)
    if problem:
        print(f"gpu tier: {problem}", file=sys.stderr)
        return 2
    missing = missing_packages()
    if missing:
        print(f"gpu tier: missing packages: {', '.join(missing)}. This script installs nothing; install them "
              "from wheels you were handed: pip install --no-index --find-links WHEELS_DIR " + " ".join(missing),
              file=sys.stderr)
        return 2
    if not a.dry_run and not a.out:
        p.error("give the output folder as an argument or in $OUT")
    plan = groups()
    if a.dry_run:
        estimate(plan, prior_step_seconds)
        how = (f"prior: {LAUNCH_PRIOR['base'] * 1e3:.1f} ms + {LAUNCH_PRIOR['per_block'] * 1e3:.1f} ms per "
               "block per step")
    else:
        import torch
        measured: dict[str, float] = {}

        def step_seconds(recipe):
            if recipe.name not in measured:
                measured[recipe.name] = measured_step_seconds(recipe, "cuda")
            return measured[recipe.name]
        print(f"timing each recipe for a few steps on {torch.cuda.get_device_name(0)} ...", flush=True)
        estimate(plan, step_seconds)
        how = "measured here: a few steps of each recipe"
    taken, left = within(plan, a.budget_minutes)
    print(f"plan (estimates {how}; workers on one GPU assumed {PARALLEL:g}x as fast as one; budget "
          f"{a.budget_minutes:g} min):", flush=True)
    for g in plan:
        runs = sum(seeds for _, _, seeds in g.recipes)
        print(f"  {'take' if g in taken else 'LEAVE OUT'} {g.name:10s} ~{g.minutes:5.1f} min  "
              f"({len(g.recipes)} recipes, {runs} runs)  {g.why}", flush=True)
    total = sum(g.minutes for g in taken)
    print(f"estimated: {total:.1f} min for {', '.join(g.name for g in taken) or 'nothing'}"
          + (f"; left out: {', '.join(g.name for g in left)} (--budget-minutes to take them)" if left else ""),
          flush=True)
    code = 0
    if not a.dry_run:
        out = Path(a.out).resolve()
        out.mkdir(parents=True, exist_ok=True)
        (out / "plan.json").write_text(json.dumps({"taken": [g.name for g in taken], "left_out": [g.name for g in left],
                                                   "estimated_minutes": {g.name: g.minutes for g in plan}}, indent=1))
        code = run(taken, out, a.budget_minutes) if taken else 0
    print(f"gpu_tier_minutes={(time.time() - t0) / 60:.2f}", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
