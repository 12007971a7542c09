"""Measurements are versioned like training (fixtures/measurements.py): this test keeps the versions honest.

Every kind of measurement the trained claims take is computed here by the function the claim
tests call (the entry point training calls, for the kinds taken at training; the gradient
profile's model and batch shrunk, the sizes it asks for recorded with it), on fixed small
models: the tiny architecture families of the training fingerprint (fixtures/fingerprint.py
`families`), each built from a fixed seed as the training loop builds it and not trained, so that
this fingerprint pins the measuring code and nothing of the training loop, which the training
fingerprint pins.  The cost claims' kinds are of one attention layer, not of a model: its peak
memory at short lengths (byte counts, the same on every run); whether it runs under a memory cap,
in real child processes; its fused kernel against the explicit path (the outputs' difference on a
fixed input, its peak memory, a capped child); and of its timing only the deterministic part, since
wall-clock times never reproduce: the processes a run asks for and the statistics it computes from
their readings (slopes, ratios, bootstrap intervals), on fixed synthetic readings.  The values are compared with
tests/data/measurement_fingerprints.json under the measurement's current ID ("softmax_stats/1"):
- no stored entry for the current ID: record one (below);
- the values moved beyond float tolerance under the same ID: what the measurement computes
  changed without a version bump.  Bump it in fixtures/measurements.py, record, and measure the
  committed figures again (fixtures/measurements.py REMEASURE names the command).

Tolerance: rtol 1e-4, atol 1e-6.  The weights come from torch's CPU generator, the same bits on
every machine; what moves between CPUs is the order of float32 sums (other BLAS kernels, other
vector widths), about 1e-6 relative after a forward and backward pass of these models.  A change
to what is measured (another window, another normalisation, a scale) moves a figure by 1e-3 or
more.  The atol is for figures at zero (no frozen rows, an accuracy of 0); every other stored
figure is at least 3.5e-3, so a change of 1e-3 relative is caught in it, except the fused kernel's
max |difference| (about 1.8e-7) and its fp32 bound (about 1e-4), below or near the atol: pinned only
as "tiny" and "that size" -- a change to either attention path moves the difference by orders of
magnitude (a 1 % scale: to 1e-2), which is caught.  Argmax figures
(Winograd accuracy and answers, frozen rows, the position classifier's accuracy) move by whole items when they move at all; the fixed
models' seeds keep them clear of ties (top two logits at least 1e-4 apart, a row's largest
weight at least 2e-4 from the 0.99 threshold: hundreds of times the float noise).  Integers are
compared exactly: counts, and the peak memory's byte counts, which do not move at all.

  python -m tests.integration.test_measurement_fingerprint            # compare: "measurements unchanged" or what moved
  python -m tests.integration.test_measurement_fingerprint --write    # record the current IDs' entries
"""
from __future__ import annotations

import argparse
import io
import itertools
import json
import math
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, redirect_stdout
from dataclasses import replace
from functools import cache
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from claims import timing
from data import load_tokens, split
from data.paths import PROJECT_ROOT
from data.winograd import CROSSED, CROSSER, sentence
from fixtures import (
    attention_stats,
    cost,
    grad_profile,
    op_counts,
    peak_memory,
    position_probe,
    position_rows,
    winograd,
)
from fixtures import train as training
from fixtures.fingerprint import families
from fixtures.measurements import AT_TRAINING, MEASUREMENTS, REMEASURE, measurement_id
from fixtures.recipes import POSITIONS_CONTEXT, POSITIONS_EVAL
from fixtures.setup import GRAD_READINGS
from model import LanguageModel
from textcheck import rules
from textcheck.versions import is_current

STORED_NAME = "tests/data/measurement_fingerprints.json"
STORED = PROJECT_ROOT / STORED_NAME
WRITE = "python -m tests.integration.test_measurement_fingerprint --write"
RTOL, ATOL = 1e-4, 1e-6
EVAL_TOKENS = 40_000      # perplexity on the corpus's first tokens: 4,000 held out, 250 windows of 16
GRAD_SIZE = {"d_model": 16, "context": 16, "n_heads": 2}    # grad_profile's model shrunk, its 12 blocks kept
GRAD_BATCH = 4


# ------------------------------------------------------------------ the fixed models and inputs

def _recipe(family: str):
    return families()[family]


def _model(family: str, seed: int = 0, **changes) -> LanguageModel:
    """The family's tiny model as a run of it starts (fixtures/train.py: the seed set, then the model)."""
    cfg = _recipe(family).model.replace(**changes)
    torch.manual_seed(seed)
    return LanguageModel(cfg).eval()


@cache
def _ids():
    return load_tokens()[:EVAL_TOKENS]


@cache
def _train_split():
    return split(load_tokens())[0]


def _json(x):
    """Tensors and tuples as lists, numpy scalars as Python's, dict keys as strings: what the stored file holds."""
    if isinstance(x, (torch.Tensor, np.generic)):
        return x.tolist()
    if isinstance(x, dict):
        return {str(k): _json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_json(v) for v in x]
    return x


# ------------------------------------------------------------------ each kind, by its real function

def _perplexity() -> dict:
    # what train() records (evaluate_recipe: every held-out window), and evaluate itself on a prefix
    baseline = "baseline"
    return {"evaluate_recipe": {baseline: training.evaluate_recipe(_recipe(baseline), _model(baseline))},
            "evaluate": {fam: training.evaluate(_model(fam), _ids(), _recipe(fam).model.context)
                         for fam in ("prenorm_two_blocks", "sinusoidal")}}


def _perplexity_at_window() -> dict:
    # claims/test_positions_trained.py: trained at POSITIONS_CONTEXT, evaluated at POSITIONS_EVAL;
    # here the same ratios of the tiny context, and a learned table with rows past the trained length
    context = _recipe("sinusoidal").model.context
    lengths = [context * T // POSITIONS_CONTEXT for T in POSITIONS_EVAL]
    models = {"learned": _model("sinusoidal", positions="learned", n_positions=max(lengths)),
              "sinusoidal": _model("sinusoidal"), "rope": _model("rope"), "alibi": _model("alibi")}
    return {name: {T: training.evaluate(m, _ids(), T)["val_ppl"] for T in lengths}
            for name, m in models.items()}


def _held_out_curve() -> dict:
    return {fam: training.held_out_probe(_recipe(fam), "cpu")(_model(fam))
            for fam in ("prenorm_two_blocks", "rope")}


def _position_rows() -> dict:
    # a learned table of twice the tiny context, a few optimiser steps on windows of the context
    cfg = _recipe("sinusoidal").model.replace(positions="learned", n_positions=2 * _recipe("sinusoidal").model.context)
    model = _model("sinusoidal", positions="learned", n_positions=cfg.n_positions).train()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01)
    x = torch.as_tensor(_ids()[: 4 * cfg.context], dtype=torch.long).view(4, cfg.context)
    for _ in range(3):
        opt.zero_grad()
        model(x[:, :-1], x[:, 1:])[1].backward()
        opt.step()
    return position_rows.untrained_rows(model.pos_emb.table.weight, position_rows.initial_table(cfg, 0), cfg.context)


def _position_probe() -> dict:
    # the probe on the tiny positionless and learned-position models at their own context, a few windows
    cfg = _recipe("sinusoidal").model
    return {name: position_probe.probe(_model("sinusoidal", positions=name), cfg.context, n_windows=32)
            for name in ("none", "learned")}


def _softmax_inputs(family: str) -> torch.Tensor:
    cfg = _recipe(family).model
    return attention_stats.held_out_windows(cfg.vocab_size, cfg.context)


def _softmax_stats() -> dict:
    return {fam: attention_stats.softmax_stats(_model(fam), _softmax_inputs(fam))
            for fam in ("wide_head_undivided", "prenorm_two_blocks", "average")}


def _attention_curve() -> dict:
    # the probe a run that asks for it takes at each held-out point, on the held-out windows it reads
    recipe = replace(_recipe("wide_head_undivided"), attention_probe=True)
    return {"wide_head_undivided": training.attention_probe(recipe, "cpu")(_model("wide_head_undivided"))}


def _softmax_stats_at_init() -> dict:
    cfg, x = _recipe("wide_head_undivided").model, _softmax_inputs("wide_head_undivided")
    return {"undivided": [attention_stats.softmax_stats_at_init(cfg, seed, x) for seed in (0, 2)],
            "divided": [attention_stats.softmax_stats_at_init(cfg.replace(divide=True), 0, x)]}


def _softmax_gradients() -> dict:
    # the wide head undivided and divided (claims/test_scale_trained.py compares the two), and a block
    # of several heads
    out = {}
    for label, family, changes in (("undivided", "wide_head_undivided", {}),
                                   ("divided", "wide_head_undivided", {"divide": True}),
                                   ("prenorm_two_blocks", "prenorm_two_blocks", {})):
        cfg = _recipe(family).model
        x, y = attention_stats.held_out_batch(cfg.vocab_size, cfg.context)
        out[label] = attention_stats.softmax_gradients(_model(family, **changes), x, y)
    return out


@contextmanager
def _small_grad_profile(asked: dict) -> Iterator[None]:
    """fixtures/grad_profile.py block_grad_norms as it is, on its model and batch shrunk to seconds'
    worth (GRAD_SIZE, GRAD_BATCH windows); the sizes it asks for go into `asked`, so a change to
    them shows in the fingerprint too."""
    real_config, real_batch = grad_profile.ModelConfig, grad_profile.get_batch

    def config(**kw):
        full = real_config(**kw)
        asked["model"] = full.to_dict()
        return full.replace(**GRAD_SIZE)

    def batch(ids, batch_size, context, generator, *args, **kw):
        asked["batch"] = [batch_size, context]
        return real_batch(ids, GRAD_BATCH, GRAD_SIZE["context"], generator, *args, **kw)
    grad_profile.ModelConfig, grad_profile.get_batch = config, batch
    try:
        yield
    finally:
        grad_profile.ModelConfig, grad_profile.get_batch = real_config, real_batch


def _grad_profile() -> dict:
    asked: dict = {}
    with _small_grad_profile(asked):
        out = {norm: grad_profile.block_grad_norms(norm, 0, _train_split()) for norm in ("pre", "post")}
    return {**out, "asked": asked}


def _grad_profile_readings() -> dict:
    asked: dict = {}
    with _small_grad_profile(asked):
        out = {label: {norm: grad_profile.block_grad_norms(norm, 0, _train_split(), init, measure)
                       for norm in ("pre", "post")}
               for label, (init, measure) in GRAD_READINGS.items()}
    return {**out, "asked": asked}


WINOGRAD_SEEDS = (0, 1, 2)


def _winograd_accuracy() -> dict:
    # what train() records for a Winograd recipe (evaluate_recipe -> fixtures/winograd.py score)
    return {fam: [training.evaluate_recipe(_recipe(fam), _model(fam, seed)) for seed in WINOGRAD_SEEDS]
            for fam in ("winograd_uniform", "winograd_two_blocks")}


def _winograd_answers() -> dict:
    task = training.winograd_task(_recipe("winograd_uniform"))
    return {part: [winograd.answers(_model("winograd_uniform", seed), task, sentences)
                   for seed in WINOGRAD_SEEDS]
            for part, sentences in (("train", task.train), ("held out", task.test))}


def _winograd_attention() -> dict:
    task = training.winograd_task(_recipe("winograd_two_blocks"))
    sentences = [sentence("animal", "street", adj) for adj in CROSSER + CROSSED]
    return {"rows": winograd.attention_rows(_model("winograd_two_blocks"), task, sentences)}


def _winograd_ablation() -> dict:
    out = {}
    for fam in ("winograd_uniform", "winograd_two_blocks"):
        task = training.winograd_task(_recipe(fam))
        models = [_model(fam, seed) for seed in WINOGRAD_SEEDS]
        out[fam] = {"training order disagreements": [winograd.training_order_disagreements(m, task) for m in models]}
        if fam == "winograd_two_blocks":
            out[fam].update({f"block {b + 1} removed": [winograd.ablated_score(m, task, b) for m in models]
                             for b in (0, 1)})
            out[fam]["first noun after block 1"] = [[winograd.first_noun_after_block1(m, task, zero_attention=z)
                                                     for z in (False, True)] for m in models]
    return out


def _winograd_head_ablation() -> dict:
    fam = "winograd_two_blocks"
    task = training.winograd_task(_recipe(fam))
    models = [_model(fam, seed) for seed in WINOGRAD_SEEDS]
    heads = _recipe(fam).model.n_heads
    return {f"block {b + 1} head {h + 1} removed": [winograd.head_ablated_score(m, task, b, h) for m in models]
            for b in (0, 1) for h in range(heads)}


# ------------------------------------------------------------------ the cost claims' kinds: one layer, not a model

PEAK_NS = (64, 128, 256)


def _peak_memory() -> dict:
    # what the memory claims read (claims/timing.py CostRun.peaks -> fixtures/peak_memory.py peak_table), at
    # short lengths; the byte counts as integers, compared exactly, and the slope and ratios fitted to them
    peaks = timing.CostRun("cpu", PEAK_NS).peaks
    mb = [peaks[n] for n in PEAK_NS]
    return {"peak_mb": peaks, "bytes": {n: round(peaks[n] * 2**20) for n in PEAK_NS},
            "slope": cost.loglog_slope(PEAK_NS, mb), "ratios": [b / a for a, b in itertools.pairwise(mb)]}


TIMING_NS = (16, 32, 64, 128)
TIMING_SEED = 20


@contextmanager
def _synthetic_timing(asked: dict) -> Iterator[None]:
    """fixtures/cost.py's timing as it is, each wall-clock reading replaced by a fixed synthetic one
    (time_ms: explicit 1e-4 n^2 + 1e-2 n ms, projections 2e-3 n ms, each times 1 + U(0, 0.3) from a
    seeded generator; no other runnable thread), and each timing process (Timings.more) run in this
    one: `python -m fixtures.cost`'s main with its output handed back as the child's.  What it asks
    for goes into `asked`: each process's command and the threads it times on.  The rule that judges
    a figure on its interval (textcheck/decide.py judge, versioned as a rule) is replaced by one that
    accepts at once, so the first interval is the one reported and no process is added for it."""
    rng = np.random.default_rng(TIMING_SEED)
    real = cost.time_ms, cost.others_runnable, cost.subprocess, rules.judge
    synthetic = {"explicit": lambda n: 1e-4 * n * n + 1e-2 * n, "projections": lambda n: 2e-3 * n}
    asked.update(processes=[], threads=[])

    def time_ms(fn, att, x, repeats, warm=True):
        asked["threads"].append(torch.get_num_threads())
        return [synthetic[fn.__name__](x.shape[1]) * (1 + 0.3 * rng.random()) for _ in range(repeats)]

    def run(cmd, **kw):
        asked["processes"].append(cmd[1:])                          # without the interpreter's path
        out = io.StringIO()
        with redirect_stdout(out):
            code = cost.main(cmd[cmd.index("fixtures.cost") + 1:])
        return subprocess.CompletedProcess(cmd, code, out.getvalue(), "")
    cost.time_ms, cost.others_runnable = time_ms, lambda: 0
    cost.subprocess, rules.judge = SimpleNamespace(run=run), lambda timed, value, a, b, drift=0.0: ("holds", a, b)
    try:
        yield
    finally:
        cost.time_ms, cost.others_runnable, cost.subprocess, rules.judge = real
        asked["threads"] = sorted(set(asked["threads"]))


def _timing() -> dict:
    # The wall-clock times never reproduce: the deterministic part only, on fixed synthetic readings
    # (_synthetic_timing): the processes a run asks for and how each summarises its passes, the table's
    # rows (each n's fastest process, the ratio per doubling), each timed figure's value and bootstrap
    # interval as claims/test_cost.py computes it (CostRun.judge; "time exponent" is "time slope" under
    # another name), and when a machine counts as busy.
    asked: dict = {}
    ns = TIMING_NS
    figures = {"time slope": (lambda ys: cost.loglog_slope(ns, ys), lambda t: [t.ms[n] for n in ns]),
               "last ratio": (lambda ys: ys[1] / ys[0], lambda t: [t.ms[ns[-2]], t.ms[ns[-1]]]),
               "projection slope": (lambda ys: cost.loglog_slope(ns, ys), lambda t: [t.proj_ms[n] for n in ns]),
               "projections x for x8": (lambda ys: ys[1] / ys[0], lambda t: [t.proj_ms[ns[0]], t.proj_ms[ns[-1]]])}
    with _synthetic_timing(asked):
        run = timing.CostRun("cpu", ns)
        judged = {name: run.judge(name, statistic, samples_of) for name, (statistic, samples_of) in figures.items()}
        rows = run.rows()
    busy = {}
    for others in ([0, 0, 1], [0, 1, 1], [2, 0, 3, 1]):
        t = cost.Timings(ns)
        t.others = others
        busy[str(others)] = t.busy() is not None
    return {"figures": {name: {k: j[k] for k in ("value", "bootstrap", "repeats")} for name, j in judged.items()},
            "rows": rows, "busy": busy, "asked": asked}


# whether the layer runs under the chapter's 8 GiB card: at the chapter's 16384 tokens it must not (the
# score matrix alone is 8 GiB), at 128 it must.  Not a cap shrunk to the lengths: below ~1 GiB the cap
# measures the child's own overhead (thread stacks, malloc arenas: more with more cores).
CAPPED_CAP, CAPPED_NS = 8 * 2**30, (16384, 128)
_CHILDREN: dict = {}


def _capped_child(cmd, **kw) -> subprocess.CompletedProcess:
    """subprocess.run, each child run once in this process (a child takes ~2.5 s on two cores, mostly
    importing torch): the self-check below, which measures again, reuses the comparison's children."""
    key = (tuple(cmd), tuple(sorted(kw.items())))
    if key not in _CHILDREN:
        check = kw.pop("check", False)
        _CHILDREN[key] = subprocess.run(cmd, check=check, **kw)
    return _CHILDREN[key]


@contextmanager
def _children_noted() -> Iterator[dict]:
    """fixtures/cost.py's capped children run through _capped_child (once per process), each command
    noted by its length, without the interpreter's path."""
    asked: dict = {}

    def child(cmd, **kw):
        asked[cmd[3]] = cmd[1:]
        return _capped_child(cmd, **kw)
    real = cost.subprocess
    cost.subprocess = SimpleNamespace(run=child)
    try:
        yield asked
    finally:
        cost.subprocess = real


def _capped_run() -> dict:
    # fixtures/cost.py run_capped as the cost claims call it, its children run for real (at once, on two
    # cores ~3 s); the error's text is torch's and the machine's: whether it names memory is kept
    with _children_noted() as asked, ThreadPoolExecutor(len(CAPPED_NS)) as pool:
        results = list(pool.map(lambda n: cost.run_capped(n, "explicit", "cpu", cap_bytes=CAPPED_CAP), CAPPED_NS))
    keep = ("n", "path", "cap_bytes", "device", "ok", "asked_bytes", "out_shape")
    return {"runs": [{**{k: r.get(k) for k in keep}, "says memory": "memory" in str(r.get("error", "")).lower()}
                     for r in results],
            "asked": asked}


# the fused kernel (claims/test_cost.py test_fused_kernel_*): its output against the explicit path's at one
# short length on a fixed input, its peak memory at two, and its capped run at a length that fits.
FUSED_SAME_N, FUSED_SEED = 128, 0
FUSED_PEAK_NS = (64, 128)
FUSED_CAPPED_N = 128


def _fused_kernel() -> dict:
    # The difference is nonzero here (1.8e-7, about one float32 ulp of the outputs' max 1.13) and the same
    # bits in two processes; on another CPU it is other rounding, but any rounding stays under the ATOL of
    # 1e-6, while a change to either path moves it by orders of magnitude (a 1 % scale: to 1e-2).  The
    # bound (64 eps32 max|out| sqrt(n)) holds the explicit output's max.  The peaks are byte counts, on
    # the one thread `measure` sets (the CPU flash kernel's buffers are per thread).  The capped child
    # (fixtures.capped, ~2.5 s, mostly importing torch) runs once in this process (_capped_child) and
    # alongside the in-process part, so it costs the comparison about one child and the self-check nothing.
    with _children_noted() as asked, ThreadPoolExecutor(1) as pool:
        capped = pool.submit(cost.run_capped, FUSED_CAPPED_N, "fused", "cpu", cap_bytes=CAPPED_CAP)
        att = cost.layer("cpu")
        generator = torch.Generator().manual_seed(FUSED_SEED)
        x = torch.randn(1, FUSED_SAME_N, cost.WIDTH, generator=generator)
        with torch.no_grad():
            ref, out = cost.explicit(att, x), cost.fused(att, x)
        same = {"n": FUSED_SAME_N, "max |diff|": (ref - out).abs().max().item(),
                "bound": 64 * torch.finfo(torch.float32).eps * ref.abs().max().item() * FUSED_SAME_N ** 0.5}
        peaks = {n: peak_memory.peak_bytes(cost.fused, att, torch.randn(1, n, cost.WIDTH, generator=generator)) / 2**20
                 for n in FUSED_PEAK_NS}
        run = capped.result()
    keep = ("n", "path", "cap_bytes", "device", "ok", "asked_bytes", "out_shape")
    return {"same result": same,
            "peak_mb": peaks, "bytes": {n: round(peaks[n] * 2**20) for n in FUSED_PEAK_NS},
            "slope": cost.loglog_slope(FUSED_PEAK_NS, [peaks[n] for n in FUSED_PEAK_NS]),
            "capped": {k: run.get(k) for k in keep}, "asked": asked}


def _op_counts() -> dict:
    # what the convergence claims count (claims/test_cost.py test_a_doubling_of_n_converges_in_the_counts),
    # at short lengths: integers on the meta device, the same on every machine, compared exactly
    return {"flops": {n: op_counts.counted_flops(n) for n in PEAK_NS},
            "peak_bytes": {n: op_counts.counted_peak_bytes(n) for n in PEAK_NS}}


MEASURES: dict[str, Callable[[], dict]] = {
    "perplexity": _perplexity, "perplexity_at_window": _perplexity_at_window,
    "held_out_curve": _held_out_curve, "position_rows": _position_rows, "position_probe": _position_probe,
    "softmax_stats": _softmax_stats, "softmax_stats_at_init": _softmax_stats_at_init,
    "softmax_gradients": _softmax_gradients,
    "attention_curve": _attention_curve,
    "grad_profile": _grad_profile, "grad_profile_readings": _grad_profile_readings,
    "winograd_accuracy": _winograd_accuracy, "winograd_answers": _winograd_answers,
    "winograd_attention": _winograd_attention, "winograd_ablation": _winograd_ablation,
    "winograd_head_ablation": _winograd_head_ablation,
    "peak_memory": _peak_memory, "timing": _timing, "capped_run": _capped_run, "fused_kernel": _fused_kernel,
    "op_counts": _op_counts,
}
# The function each kind is measured by (what the claim tests call), by module and name: the self-check
# below scales its output and expects the fingerprint to catch it.
MEASURED_BY = {
    "perplexity": (training, "evaluate"), "perplexity_at_window": (training, "evaluate"),
    "held_out_curve": (training, "perplexity"),
    "position_rows": (position_rows, "untrained_rows"),
    "position_probe": (position_probe, "score"),
    "softmax_stats": (attention_stats, "softmax_stats"),
    "softmax_stats_at_init": (attention_stats, "softmax_stats_at_init"),
    "softmax_gradients": (attention_stats, "softmax_gradients"),
    "attention_curve": (training, "softmax_stats"),
    "grad_profile": (grad_profile, "block_grad_norms"),
    "grad_profile_readings": (grad_profile, "block_grad_norms"),
    "winograd_accuracy": (winograd, "score"), "winograd_answers": (winograd, "answers"),
    "winograd_attention": (winograd, "attention_rows"), "winograd_ablation": (winograd, "ablated_score"),
    "winograd_head_ablation": (winograd, "head_ablated_score"),
    "peak_memory": (peak_memory, "peak_table"), "timing": (cost, "loglog_slope"), "capped_run": (cost, "run_capped"),
    "fused_kernel": (cost, "fused"), "op_counts": (op_counts, "counted_flops"),
}


def measure(name: str) -> dict:
    """The kind's values on the fixed models: one thread (the training fingerprint's choice), the global
    random state left as it was."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with torch.random.fork_rng(devices=[]):
            return _json(MEASURES[name]())
    finally:
        torch.set_num_threads(threads)


# ------------------------------------------------------------------ comparing, and what to do about it

def _leaves(x, path: str = "") -> Iterator[tuple[str, object]]:
    if isinstance(x, dict):
        for k in sorted(x):
            yield from _leaves(x[k], f"{path}.{k}" if path else str(k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _leaves(v, f"{path}[{i}]")
    else:
        yield path, x


def _close(a, b) -> bool:
    numbers = [isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)]
    if not all(numbers) or (isinstance(a, int) and isinstance(b, int)):
        return a == b
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= ATOL + RTOL * abs(a)


def differences(stored: dict, now: dict, most: int = 5) -> list[str]:
    """What moved beyond float tolerance, one line per value (at most `most`, then a count); empty:
    the same."""
    a, b = dict(_leaves(stored)), dict(_leaves(now))
    out = [f"{p}: stored {a[p]!r}, now {b[p]!r}" for p in a if p in b and not _close(a[p], b[p])]
    out += [f"{p}: stored, no longer measured" for p in a if p not in b]
    out += [f"{p}: measured, not stored" for p in b if p not in a]
    return out[:most] + ([f"... and {len(out) - most} more"] if len(out) > most else [])


def load() -> dict:
    if not STORED.exists():
        return {"training_version": None, "measurements": {}}
    return json.loads(STORED.read_text())


def problem(name: str, stored: dict, now: dict) -> str | None:
    """Why the kind's values do not match the stored ones under its current ID, with what to do;
    None if they do."""
    from fixtures.train import TRAINING_VERSION
    mid = measurement_id(name)
    entry = stored.get("measurements", {}).get(mid)
    if entry is None:
        return f"{mid}: no stored fingerprint in {STORED_NAME}; record it with `{WRITE}`"
    diff = differences(entry, now)
    if not diff:
        return None
    version = MEASUREMENTS[name][0]
    also = (" and TRAINING_VERSION in fixtures/train.py (it is taken at training and kept with the model, "
            "so the cache would hand back the old figures)") if name in AT_TRAINING else ""
    lead = ""
    if stored.get("training_version") != TRAINING_VERSION:
        lead = (f"the stored values are of the models of TRAINING_VERSION {stored.get('training_version')}, "
                f"now {TRAINING_VERSION}: if the fixed models changed with it (their initialisation or "
                f"forward pass), record again with `{WRITE}`; if not, ")
    return (f"{mid}: {lead}what {name} measures changed, but its version did not: bump it in "
            f"fixtures/measurements.py ({name}: {version} -> {version + 1}, with a comment saying what "
            f"changed){also}, record with `{WRITE}`, and measure the committed figures again: "
            f"{REMEASURE[name]}\n"
            "If the change was not meant to alter the measurement, it is a bug:\n  " + "\n  ".join(diff))


def write(now: dict[str, dict]) -> list[str]:
    """Store the current IDs' entries (older IDs are dropped).  An entry already stored under the
    same ID whose values moved is kept and refused (nothing is written) unless the models changed
    with TRAINING_VERSION: a measurement that changed needs a new version, not a new fingerprint."""
    from fixtures.train import TRAINING_VERSION
    stored = load()
    same_models = stored.get("training_version") == TRAINING_VERSION
    kept = stored.get("measurements", {}) if same_models else {}
    refused = [why for name, values in now.items() if measurement_id(name) in kept
               for why in [problem(name, stored, values)] if why]
    if refused:
        return refused
    out = {"training_version": TRAINING_VERSION,
           "measurements": {measurement_id(name): values for name, values in now.items()}}
    STORED.parent.mkdir(parents=True, exist_ok=True)
    STORED.write_text(json.dumps(out, indent=1) + "\n")
    return []


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.integration.test_measurement_fingerprint", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--write", action="store_true", help=f"store the current IDs' entries in {STORED}")
    a = p.parse_args(argv)
    now = {name: measure(name) for name in MEASUREMENTS}
    if a.write:
        refused = write(now)
        print("\n\n".join(refused) if refused else
              f"wrote {STORED} ({', '.join(measurement_id(n) for n in now)})")
        return 1 if refused else 0
    stored = load()
    problems = [p for p in (problem(name, stored, values) for name, values in now.items()) if p]
    print("\n\n".join(problems) or "measurements unchanged")
    return 1 if problems else 0


# ------------------------------------------------------------------ the tests

def test_every_measurement_has_a_fingerprint_and_a_command():
    assert set(MEASURES) == set(MEASUREMENTS) == set(REMEASURE) == set(MEASURED_BY)
    assert AT_TRAINING <= set(MEASUREMENTS)


def test_measurement_ids_and_staleness():
    assert measurement_id("softmax_stats") == "softmax_stats/1"
    for name, (version, _) in MEASUREMENTS.items():
        assert is_current(MEASUREMENTS, measurement_id(name))
        assert not is_current(MEASUREMENTS, f"{name}/{version + 1}") and not is_current(MEASUREMENTS, f"{name}/{version - 1}")
        assert not is_current(MEASUREMENTS, name)
    assert not is_current(MEASUREMENTS, "no_such_measurement/1")
    with pytest.raises(KeyError, match="known: perplexity"):
        measurement_id("no_such_measurement")


def _command_problems(command: str) -> list[str]:
    """What a REMEASURE command names that does not exist: a file, a claim ID, a tier mark, a test
    name its -k expects, a recipe group or recipe.  Read from the sources, nothing collected."""
    import ast
    import re
    import shlex

    from claims.registry import CLAIMS
    from fixtures.recipes import RECIPES_BY_GROUP
    out = []
    for part in command.split(" && "):
        args = shlex.split(part)
        opts = {a: args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-m", "-k", "--only")}
        if args[:1] == ["pytest"]:
            files = [PROJECT_ROOT / a for a in args if a.endswith(".py")]
            out += [f"{part}: no file {f.relative_to(PROJECT_ROOT)}" for f in files if not f.exists()]
            texts = [f.read_text() for f in files if f.exists()]
            trees = [ast.parse(t) for t in texts]
            names = {n.name for t in trees for n in ast.walk(t) if isinstance(n, ast.FunctionDef)
                     and n.name.startswith("test")}
            strings = {n.value for t in trees for n in ast.walk(t) if isinstance(n, ast.Constant)
                       and isinstance(n.value, str)}
            claims = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--claim"]
            out += [f"{part}: claim {c} is not in claims/registry.py, or no test there carries it"
                    for c in claims if c not in CLAIMS or c not in strings]
            if "-m" in opts and not any(f"mark.{opts['-m']}" in t for t in texts):
                out.append(f"{part}: no test there is marked {opts['-m']}")
            words = set(re.findall(r"[A-Za-z_]\w*", opts.get("-k", ""))) - {"and", "or", "not"}
            out += [f"{part}: -k {w}: no test there is named so" for w in sorted(words)
                    if not any(w in n for n in names)]
        elif args[:3] == ["python", "-m", "fixtures"]:
            group = RECIPES_BY_GROUP.get(args[3], [])
            out += [f"{part}: no group {args[3]}"] if not group else []
            out += [f"{part}: no recipe {r} in {args[3]}" for r in opts.get("--only", "").split(",")
                    if r and r not in {g.name for g in group}]
        elif args[:3] == ["python", "-m", "fixtures.grad_profile"]:     # the committed gradient profile's own
            out += [f"{part}: {a}: not an option of python -m fixtures.grad_profile" for a in args[3:] if a != "--write"]
        elif args[:3] != ["python", "-m", "claims.report"]:
            out.append(f"{part}: not a pytest, python -m fixtures, python -m fixtures.grad_profile or "
                       "python -m claims.report command")
    return out


def test_every_remeasure_command_names_what_exists():
    assert {name: p for name, cmd in REMEASURE.items() if (p := _command_problems(cmd))} == {}
    bad = "pytest claims/test_norm.py -m gpu -k no_such_test --claim no.such"
    assert [p.removeprefix(bad + ": ") for p in _command_problems(bad)] == [
        "claim no.such is not in claims/registry.py, or no test there carries it",
        "no test there is marked gpu", "-k no_such_test: no test there is named so"]


def test_the_table_imports_only_the_standard_library():
    """fixtures/measurements.py is read by the torch-free re-derivation."""
    import ast
    tree = ast.parse((PROJECT_ROOT / "fixtures" / "measurements.py").read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported


@pytest.mark.parametrize("name", list(MEASUREMENTS))
def test_measurement_computes_what_its_stored_fingerprint_says(name):
    why = problem(name, load(), measure(name))
    if why:
        pytest.fail(why, pytrace=False)


def _scaled(fn, factor: float):
    def scale(x):
        if isinstance(x, torch.Tensor):
            return x * factor
        if isinstance(x, (int, float)) and not isinstance(x, bool):     # counts too: bytes, tokens
            return x * factor
        if isinstance(x, dict):
            return {k: scale(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return type(x)(scale(v) for v in x)
        return x
    return lambda *args, **kw: scale(fn(*args, **kw))


@pytest.mark.parametrize("name", list(MEASUREMENTS))
def test_a_changed_measurement_fails_and_float_noise_passes(name, monkeypatch):
    stored = load()
    entry = stored["measurements"][measurement_id(name)]
    noisy = json.loads(json.dumps(entry), parse_float=lambda s: float(s) * (1 + 1e-6))
    assert differences(entry, noisy) == []
    module, attr = MEASURED_BY[name]
    monkeypatch.setattr(module, attr, _scaled(getattr(module, attr), 1.01))
    why = problem(name, stored, measure(name))
    assert why and "its version did not: bump it" in why and REMEASURE[name] in why, why
    missing = {**stored, "measurements": {}}
    assert WRITE in problem(name, missing, entry)


if __name__ == "__main__":
    sys.exit(main())
