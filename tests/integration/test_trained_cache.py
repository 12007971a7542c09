"""The trained-model cache: end to end, deterministic, safe against kills, corruption and races."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import torch

from fixtures.cache import TrainedCache
from fixtures.recipes import Recipe, TrainConfig
from fixtures.train import train
from model import ModelConfig

ROOT = Path(__file__).resolve().parent.parent.parent
TINY = Recipe("tiny", ModelConfig(d_model=16, context=16, n_heads=2),
              TrainConfig(steps=20, batch_size=4, lr=1e-2))


def test_tiny_recipe_trains_end_to_end_and_is_cached(tmp_path):
    cache = TrainedCache(tmp_path)
    first, fresh = cache.get(TINY)
    assert fresh and first.curve[-1][1] < first.curve[0][1]     # the loss went down
    again, fresh_again = cache.get(TINY)
    assert not fresh_again and again.metrics == first.metrics
    for (k, a), b in zip(first.model.state_dict().items(), again.model.state_dict().values()):
        assert torch.equal(a, b), k
    meta = json.loads((cache.entry(TINY) / "meta.json").read_text())
    assert meta["recipe"]["model"]["d_model"] == 16 and len(meta["curve"]) == 3    # steps 0, 10, 19


def test_same_seed_gives_the_same_metrics_on_cpu():
    assert train(TINY).metrics["val_ppl"] == train(TINY).metrics["val_ppl"]
    assert train(TINY.with_seed(1)).metrics["val_ppl"] != train(TINY).metrics["val_ppl"]


def test_key_depends_on_recipe_seed_and_training_version_not_name():
    assert TINY.key(1) != TINY.with_seed(1).key(1)
    assert TINY.key(1) == Recipe("other name", TINY.model, TINY.train).key(1)
    assert TINY.key(1) != TINY.key(2)                         # the training version is in the key


def test_a_comment_in_model_or_data_leaves_every_cache_key_as_it_was(tmp_path):
    """The key is the recipe and TRAINING_VERSION, not source text: lint or comment edits keep
    trained models valid (tests/integration/test_fingerprint.py guards that behaviour did not change)."""
    import shutil
    for d in ("model", "data", "fixtures"):
        shutil.copytree(ROOT / d, tmp_path / d, ignore=shutil.ignore_patterns("__pycache__"))
    for path in ("model/attention.py", "data/bpe.py", "fixtures/train.py"):
        with open(tmp_path / path, "a") as f:
            f.write("\n# a comment added by a lint pass\n")
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from fixtures.recipes import RECIPES; "
            "from fixtures.cache import TrainedCache; c = TrainedCache(sys.argv[2]); "
            "print(sorted(c.entry(r).name for r in RECIPES.values()))")
    keys = [subprocess.run([sys.executable, "-c", code, str(root), str(tmp_path / "cache")], capture_output=True,
                           text=True, check=True).stdout for root in (ROOT, tmp_path)]
    assert keys[0] == keys[1] and "layernorm-s0-" in keys[0]


def test_corrupt_entry_is_retrained_not_used(tmp_path):
    cache = TrainedCache(tmp_path)
    cache.get(TINY)
    weights = cache.entry(TINY) / "weights.safetensors"
    weights.write_bytes(weights.read_bytes()[:100])            # truncated on disk
    result, fresh = cache.get(TINY)
    assert fresh and result.curve[-1][1] < result.curve[0][1]
    assert cache.load(TINY) is not None                        # the new entry is good
    kept = list((tmp_path / ".corrupt").iterdir())             # the bad one is set aside, not deleted
    assert len(kept) == 1 and (kept[0] / "weights.safetensors").stat().st_size == 100


def _spawn(cache_dir, steps, *extra):
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
            "from fixtures.cache import TrainedCache\n"
            "from fixtures.recipes import Recipe, TrainConfig\n"
            "from fixtures.train import Progress\n"
            "from model import ModelConfig\n"
            "r = Recipe('tiny', ModelConfig(d_model=16, context=16, n_heads=2), "
            f"TrainConfig(steps={steps}, batch_size=4))\n"
            f"_, fresh = TrainedCache({str(cache_dir)!r}).get(r, progress=Progress('t', r.train.steps, every=0))\n"
            "print('TRAINED' if fresh else 'CACHED', flush=True)\n")
    return subprocess.Popen([sys.executable, "-c", code, *extra], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))


def test_killed_training_leaves_no_usable_entry(tmp_path):
    p = _spawn(tmp_path, 1_000_000)
    deadline = time.time() + 60
    while time.time() < deadline and "step" not in (p.stderr.readline() or ""):
        pass
    p.send_signal(signal.SIGKILL)
    p.wait()
    cache = TrainedCache(tmp_path)
    r = Recipe("tiny", TINY.model, TrainConfig(steps=1_000_000, batch_size=4))
    assert not cache.entry(r).exists() and cache.load(r) is None
    assert not [d for d in tmp_path.iterdir() if d.is_dir() and not d.name.startswith(".tmp")]


def test_two_concurrent_requests_train_once(tmp_path):
    procs = [_spawn(tmp_path, 300) for _ in range(2)]
    outs = sorted(p.communicate(timeout=300)[0].strip() for p in procs)
    assert outs == ["CACHED", "TRAINED"]
