"""Training throughput of the chapter's one-block model (width 128, context 128, batch 64,
vocabulary 1024) as a fraction of the float32 matmul peak measured in the same process.

  python benchmarks/train_throughput.py [--steps 30] [--recipe prenorm]   # last line: train_peak_fraction=...

It times the one training loop (fixtures/train.py `train`, without the held-out curve), so what
it measures is what every trained model pays.

FLOPs per token (Kaplan et al.'s count, training = 3 x forward):
  6 * N  +  6 * n_blocks * context * d_model
where N counts every parameter that multiplies (all but the token and position tables, which
are lookups; the output layer is included: it is the largest matmul here).
"""
import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from fixtures.recipes import RECIPES
from fixtures.schedule import flops_per_token
from fixtures.train import train


def matmul_peak(n: int = 2048, repeats: int = 10) -> float:
    a, b = torch.randn(n, n), torch.randn(n, n)
    a @ b
    t0 = time.perf_counter()
    for _ in range(repeats):
        a @ b
    return 2 * n ** 3 * repeats / (time.perf_counter() - t0)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--recipe", default="layernorm", help="e.g. prenorm for the twelve-block model")
    a = p.parse_args()
    recipe = RECIPES[a.recipe]
    cfg, tc = recipe.model, recipe.train
    short = replace(recipe, train=replace(tc, steps=a.steps))
    train(replace(short, train=replace(short.train, steps=2)), held_out_points=0)      # warm-up
    peak_before = matmul_peak()
    result = train(short, held_out_points=0)          # the one training loop (fixtures/train.py)
    seconds = result.metrics["train_seconds"]         # the loop alone, not the final evaluation
    peak = max(peak_before, matmul_peak())
    model = result.model
    per_token, n_mult = flops_per_token(recipe)              # the scheduler's count, one formula
    tokens = a.steps * tc.batch_size * cfg.context
    achieved = per_token * tokens / seconds
    print(f"recipe {recipe.name}: {model.n_params():,} parameters, {n_mult:,} that multiply")
    print(f"FLOPs/token = 6 * {n_mult:,} + 6 * blocks * context * attention width = {per_token:,}")
    print(f"threads {torch.get_num_threads()}; {a.steps} steps in {seconds:.2f} s = {seconds / a.steps * 1e3:.1f} ms/step")
    print(f"tokens/s {tokens / seconds:,.0f}; achieved {achieved / 1e9:.1f} GFLOP/s; "
          f"fp32 matmul peak (2048^3) {peak / 1e9:.1f} GFLOP/s")
    print(f"train_peak_fraction={achieved / peak:.3f}")


if __name__ == "__main__":
    main()
