"""Re-filing trained models after a code change: only when the change computes nothing new."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from data.corpus import corpus_path
from data.paths import cache_root

ROOT = Path(__file__).resolve().parent.parent
TINY = ('\nRECIPES["tiny"] = Recipe("tiny", ModelConfig(d_model=16, context=16, n_heads=2), '
        'TrainConfig(steps=20, batch_size=4, lr=1e-2))\n')


def tree(dest: Path, edit=None) -> Path:
    """A copy of the project's code with the tiny recipe, optionally edited."""
    for d in ("model", "fixtures", "data"):
        shutil.copytree(ROOT / d, dest / d, ignore=shutil.ignore_patterns("__pycache__"))
    with open(dest / "fixtures" / "recipes.py", "a") as f:
        f.write(TINY)
    if edit:
        path, old, new = edit
        text = (dest / path).read_text()
        assert old in text
        (dest / path).write_text(text.replace(old, new))
    return dest


@pytest.fixture
def env(tmp_path):
    cache = tmp_path / "cache"
    (cache / "trained").mkdir(parents=True)
    shutil.copytree(cache_root() / "bpe", cache / "bpe")               # no BPE retraining
    return dict(os.environ, ATTENTION_CLAIMS_CACHE=str(cache), ATTENTION_CLAIMS_CORPUS=str(corpus_path()),
                OMP_NUM_THREADS="1")


def python(code_dir: Path, env: dict, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=code_dir, env=dict(env, PYTHONPATH=str(code_dir)),
                          capture_output=True, text=True, timeout=300, check=False)


TRAIN_TINY = ("-c", ("from fixtures.cache import TrainedCache; from fixtures.recipes import RECIPES; "
                     "import json; r, _ = TrainedCache().get(RECIPES['tiny']); print(json.dumps(r.metrics))"))
LOAD_TINY = ("-c", ("from fixtures.cache import TrainedCache; from fixtures.recipes import RECIPES; "
                    "import json; r = TrainedCache().load(RECIPES['tiny']); "
                    "print(json.dumps(r and dict(r.metrics, rekeyed=r.meta.get('rekeyed_from'))))"))


@pytest.mark.parametrize("edit,refiled", [
    (("model/lm.py", "class LanguageModel(nn.Module):", "class LanguageModel(nn.Module):  # refactored"), True),
    (("fixtures/train.py", "weight_decay=tc.weight_decay)", "weight_decay=2 * tc.weight_decay)"), False),
], ids=["comment-only", "weight-decay-doubled"])
def test_entries_are_refiled_only_when_the_new_code_computes_the_same(tmp_path, env, edit, refiled):
    old, new = tree(tmp_path / "old"), tree(tmp_path / "new", edit)
    trained = python(old, env, *TRAIN_TINY)
    assert trained.returncode == 0, trained.stderr
    assert json.loads(python(new, env, *LOAD_TINY).stdout) is None        # a new code version: a miss
    done = python(new, env, "-m", "fixtures.rekey", "--from-tree", str(old))
    assert done.returncode == 0, done.stderr
    loaded = json.loads(python(new, env, *LOAD_TINY).stdout)
    if refiled:
        assert "tiny s0: re-filed" in done.stdout
        assert loaded["val_ppl"] == json.loads(trained.stdout)["val_ppl"]
        assert loaded["rekeyed"]["from"] == str(old)
    else:
        assert "tiny s0: left alone (state differs)" in done.stdout
        assert loaded is None                                              # it will retrain
    assert json.loads(python(old, env, *LOAD_TINY).stdout) is not None     # the old entry stays


def test_an_unknown_revision_is_a_clear_error(env):
    done = python(ROOT, env, "-m", "fixtures.rekey", "--from", "no-such-revision")
    assert done.returncode != 0 and "git archive no-such-revision failed" in done.stderr
