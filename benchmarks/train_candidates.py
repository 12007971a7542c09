"""The training-speed candidates of issue #18, each against the current loop, in one process.

  python benchmarks/train_candidates.py [--recipe layernorm] [--steps 15] [--only loop,fused,...]
  # last line: best_candidate_speedup=...

One model per candidate, from the same seed and the same batches, their steps interleaved
(loop, candidate 1, candidate 2, ..., loop, ...) so that whatever else the machine does falls on
all of them alike; each candidate's median seconds per step is compared with the loop's.  The
loss after the last step is printed beside it: a candidate that changes it beyond float noise
changes what training computes (and so would need a new TRAINING_VERSION; see fixtures/train.py).

Candidates:
  loop      the step of fixtures/train.py: PyTorch's AdamW (its default, a for-loop over the
            parameters on the CPU), F.cross_entropy, zero_grad(set_to_none=True)
  foreach   AdamW(foreach=True): one multi-tensor kernel per update term
  fused     AdamW(fused=True): the CPU's fused AdamW kernel
  ce        a cross-entropy that computes its gradient (softmax - one-hot) in place in its forward
            and hands it back in its backward, instead of log_softmax + NLL + their two backwards
  compile   torch.compile of the model and loss (Inductor, C++ kernels); compile time printed
            apart and amortised over the recipe's own number of steps
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from data import get_batch, load_tokens, split
from fixtures.recipes import RECIPES
from model import LanguageModel

CANDIDATES = ("loop", "foreach", "fused", "ce", "compile")


class InPlaceCrossEntropy(torch.autograd.Function):
    """mean cross-entropy whose forward also leaves d loss / d logits = (softmax - one-hot) / N,
    computed in one buffer, for the backward to scale and return."""

    @staticmethod
    def forward(ctx, logits, targets):
        m = logits.amax(-1, keepdim=True)
        p = torch.sub(logits, m).exp_()                           # (N, V), the one new buffer
        s = p.sum(-1, keepdim=True)
        loss = (s.log() + m).squeeze(1).sub_(logits.gather(1, targets[:, None]).squeeze(1)).mean()
        p.div_(s)
        p[torch.arange(len(targets)), targets] -= 1
        ctx.save_for_backward(p)
        return loss

    @staticmethod
    def backward(ctx, grad):
        (p,) = ctx.saved_tensors
        return p.mul_(grad / p.shape[0]), None


def candidate(name: str, recipe, data):
    cfg, tc = recipe.model, recipe.train
    torch.manual_seed(0)
    model = LanguageModel(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=tc.lr, weight_decay=tc.weight_decay,
                            foreach=True if name == "foreach" else None, fused=True if name == "fused" else None)
    gen = torch.Generator().manual_seed(0)

    def loss_of(x, y):
        if name == "ce":
            logits = model(x)
            return InPlaceCrossEntropy.apply(logits.flatten(0, 1), y.flatten())
        return model(x, y)[1]
    f = torch.compile(loss_of) if name == "compile" else loss_of

    def step() -> float:
        x, y = get_batch(data, tc.batch_size, cfg.context, gen)
        loss = f(x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss.item()
    return step


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--recipe", default="layernorm")
    p.add_argument("--steps", type=int, default=15)
    p.add_argument("--only", default=",".join(CANDIDATES))
    a = p.parse_args()
    names = [n for n in a.only.split(",") if n]
    unknown = set(names) - set(CANDIDATES)
    if unknown or names[:1] != ["loop"]:
        p.error(f"candidates are {', '.join(CANDIDATES)}, the loop first" + (f"; unknown: {unknown}" if unknown else ""))
    recipe = RECIPES[a.recipe]
    train, _ = split(load_tokens())
    data = torch.from_numpy(train.astype("int64"))
    steps, warm = {}, {}
    for n in names:
        steps[n] = candidate(n, recipe, data)
        t0 = time.perf_counter()
        for _ in range(2):                                          # compiles here, for `compile`
            steps[n]()
        warm[n] = time.perf_counter() - t0
    times = {n: [] for n in names}
    last = {}
    for _ in range(a.steps):
        for n in names:
            t0 = time.perf_counter()
            last[n] = steps[n]()
            times[n].append(time.perf_counter() - t0)
    base = statistics.median(times["loop"])
    print(f"recipe {recipe.name}, threads {torch.get_num_threads()}, {a.steps} interleaved steps each")
    best = 1.0
    for n in names:
        med = statistics.median(times[n])
        # compile time, paid once per run, spread over the recipe's own steps
        amortised = med + (warm[n] - 2 * med) / recipe.train.steps if n == "compile" else med
        speedup = base / amortised
        if n != "loop":
            best = max(best, speedup)
        print(f"{n:8s} median {med * 1e3:7.1f} ms/step (fastest {min(times[n]) * 1e3:7.1f}); warm-up "
              f"{warm[n]:5.1f} s; speedup {speedup:.3f} (amortised over {recipe.train.steps} steps); "
              f"loss after the last step {last[n]:.6f}")
    print(f"best_candidate_speedup={best:.3f}")


if __name__ == "__main__":
    main()
