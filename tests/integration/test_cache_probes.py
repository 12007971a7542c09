"""The cache under kills and races, as probes that run in minutes (slow tier).

40 kill -9s at random moments of a training run (importing, training, writing the entry): the
next request never loads a corrupt entry and is never blocked; and 4 processes asking for one
model at once train it exactly once.
"""
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fixtures.cache import TrainedCache, integrity
from fixtures.recipes import Recipe, TrainConfig
from model import ModelConfig

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent.parent
KILLS, RACERS = 40, 4
# At the smoke scale (--smoke: CI's run of the slow tier, which checks that each test reaches its
# assertions): five kills, still at random moments over the import, the training and the write,
# and the next request after them; seconds instead of minutes.
SMOKE_KILLS = 5


def recipe(steps):
    return Recipe("probe", ModelConfig(d_model=16, context=16, n_heads=2), TrainConfig(steps=steps, batch_size=4))


def spawn(cache_dir, steps):
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
            "from fixtures.cache import TrainedCache\n"
            "from fixtures.recipes import Recipe, TrainConfig\n"
            "from model import ModelConfig\n"
            "r = Recipe('probe', ModelConfig(d_model=16, context=16, n_heads=2), "
            f"TrainConfig(steps={steps}, batch_size=4))\n"
            f"_, fresh = TrainedCache({str(cache_dir)!r}).get(r)\n"
            "print('TRAINED' if fresh else 'CACHED', flush=True)\n")
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))


def check_entry(cache, r):
    """An entry that exists is whole and true to its integrity hash; returns whether it exists."""
    d = cache.entry(r)
    if not d.exists():
        return False
    meta = json.loads((d / "meta.json").read_text())
    assert meta["integrity"] == integrity(meta)
    assert cache.load(r) is not None
    return True


def test_forty_kills_never_leave_a_usable_corrupt_entry_nor_block_the_next_run(tmp_path, smoke):
    kills = SMOKE_KILLS if smoke else KILLS
    rng = random.Random(0)
    stats = {"entry after kill": 0, "no entry": 0}
    t0 = time.time()                        # how long one whole run takes on this machine, now
    spawn(tmp_path / "timing", 40).communicate(timeout=300)
    whole = time.time() - t0
    for i in range(kills):
        steps = 40 + i                      # a new key each time: every kill meets a fresh write
        p = spawn(tmp_path, steps)
        # anywhere from the import through training and the write to just after it
        time.sleep(rng.uniform(0.3, 1.1) * whole)
        p.send_signal(signal.SIGKILL)
        p.wait()
        r = recipe(steps)
        stats["entry after kill" if check_entry(TrainedCache(tmp_path), r) else "no entry"] += 1
    # the next request after all those kills: never blocked, and what it loads is whole
    t0 = time.time()
    result, _ = TrainedCache(tmp_path).get(recipe(40))
    assert time.time() - t0 < 60 and result.metrics["val_ppl"] > 1
    print(f"{kills} kills over 0.3..1.1 x {whole:.1f} s: {stats}")
    assert sum(stats.values()) == kills


def test_racing_processes_train_a_model_once(tmp_path):
    procs = [spawn(tmp_path, 200) for _ in range(RACERS)]
    outcomes = [p.communicate(timeout=300)[0].strip() for p in procs]
    assert sorted(outcomes) == ["CACHED"] * (RACERS - 1) + ["TRAINED"]
    assert check_entry(TrainedCache(tmp_path), recipe(200))
