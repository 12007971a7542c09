"""The Winograd referent task (data/winograd.py, fixtures/winograd.py).

Exact claims run in the fast tier; the trained ones train small word-level models (minutes on
two cores: the slow tier), three seeds each, on the held-out split of task seed 0.
Accuracies are compared at the chapter's rounding (0.05 percentage points) widened by two
standard deviations over seeds, floored at the binomial standard error of the held-out set.
"""
import math
import statistics
from dataclasses import dataclass

import pytest
import torch

from data.winograd import ADJ_POS, CROSSED, CROSSER, QUERY_POS, X_POS, Y_POS, cheatable, hardened, sentence
from model import LanguageModel, averaging_matrix

SEEDS = 3


# ------------------------------------------------------------------ exact (fast)

@pytest.mark.fast
@pytest.mark.claim("winograd.hard_chance")
def test_hardened_task_chance_among_the_two_nouns_is_50_percent(claim_record):
    task = hardened()
    test = task.test
    refs_first = sum(s[QUERY_POS + 1] == s[X_POS] for s in test) / len(test)
    # Either fixed slot ("always the first noun", "always the second") scores exactly 50 %, and
    # so does a coin between the two, since the two candidates always differ.
    claim_record(stated=0.5, measured=refs_first, tolerance="exact", held_out=len(test))
    assert all(s[X_POS] != s[Y_POS] for s in test)
    assert refs_first == 0.5
    # The held-out set is built from reversed pairs: never seen in this order, always in the other.
    train_pairs = {(s[X_POS], s[Y_POS]) for s in task.train}
    test_pairs = {(s[X_POS], s[Y_POS]) for s in test}
    assert not train_pairs & test_pairs
    assert all((y, x) in train_pairs for x, y in test_pairs)


@pytest.mark.fast
@pytest.mark.claim("winograd.uniform_weight")
def test_uniform_average_puts_0_067_on_each_of_15_visible_tokens(claim_record):
    words = sentence("animal", "street", "tired")
    visible = QUERY_POS + 1                                          # "the ... so the"
    w = averaging_matrix(len(words) - 1, dtype=torch.float64)[QUERY_POS, :visible]
    claim_record(stated=0.067, measured=w[0].item(), tolerance="rounds to 0.067", visible=visible)
    assert visible == 15 and torch.allclose(w, torch.full((15,), 1 / 15, dtype=torch.float64))
    assert round(w[0].item(), 3) == 0.067


# ------------------------------------------------------------------ trained (slow)

@dataclass
class Scored:
    accuracy: float          # referent named, on the held-out sentences
    wrong_noun: float        # the other noun of the pair named
    seconds: float
    model: object


@pytest.fixture(scope="session")
def winograd(trained, seeds):
    """runs(task_name, kind) -> [Scored per seed]: the Winograd recipes (fixtures/recipes.py)
    through the one engine and cache, like every trained model; each run's record (accuracy,
    wrong noun, per seed) is the run's evidence as `winograd.json`."""
    tasks = {"cheatable": cheatable(), "hardened": hardened()}
    done = {}

    def runs(task_name, kind):
        if (task_name, kind) not in done:
            done[task_name, kind] = [Scored(r.metrics["accuracy"], r.metrics["wrong_noun"],
                                            r.metrics["train_seconds"], r.model.eval())
                                     for r in trained("winograd", f"winograd_{task_name}_{kind}", seeds(SEEDS))]
        return done[task_name, kind]
    runs.tasks = tasks
    return runs


def tolerance(values, n_items):
    p = statistics.mean(values)
    se = math.sqrt(max(p * (1 - p), 1 / n_items) / n_items / len(values))
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return 0.0005 + 2 * max(sd, se)


def check(runs, stated, claim_record, n_items, **extra):
    acc = [r.accuracy for r in runs]
    tol = tolerance(acc, n_items)
    claim_record(stated=stated, measured={"mean": statistics.mean(acc), "per seed": acc,
                                          "wrong noun": [r.wrong_noun for r in runs]},
                 tolerance=f"0.0005 + 2 max(sd, SE) = {tol:.3f}", seeds=len(acc), **extra)
    return abs(statistics.mean(acc) - stated) <= tol


# Under xdist the tests of one model share a worker (its session fixture then trains or loads
# the model once); different models train in parallel.


@pytest.mark.slow
@pytest.mark.claim("winograd.category_cheat")
@pytest.mark.xfail(strict=True, reason="refuted: the uniform average reaches 70.8 % (71.9, 71.1, 69.5 "
                   "over 3 seeds), not 100 %, on the cheatable task's held-out pairs")
@pytest.mark.xdist_group("winograd_cheatable_uniform")
def test_uniform_average_solves_the_cheatable_task(winograd, claim_record):
    assert check(winograd("cheatable", "uniform"), 1.0, claim_record, 128, model="uniform")


@pytest.mark.slow
@pytest.mark.claim("winograd.category_cheat")
@pytest.mark.xfail(strict=True, reason="refuted: one block reaches 100 % on every seed (3), not 91.7 %: "
                   "here the transformer is not beaten by the bag of words")
@pytest.mark.xdist_group("winograd_cheatable_one_block")
def test_one_block_gets_91_7_percent_on_the_cheatable_task(winograd, claim_record):
    assert check(winograd("cheatable", "one_block"), 0.917, claim_record, 128, model="one block")


@pytest.mark.slow
@pytest.mark.claim("winograd.uniform_fails")
@pytest.mark.xfail(strict=True, reason="refuted: the uniform average lands at 41.5 % (43.8, 38.7, 42.1 over "
                   "3 seeds): below chance, but not 27.9 %")
@pytest.mark.xdist_group("winograd_hardened_uniform")
def test_uniform_average_lands_at_27_9_percent(winograd, claim_record):
    assert check(winograd("hardened", "uniform"), 0.279, claim_record, 240)


@pytest.mark.slow
@pytest.mark.claim("winograd.uniform_fails")
@pytest.mark.xfail(strict=True, reason="refuted: right 41.5 % vs wrong noun 58.5 % (3 seeds; never another "
                   "word): it names the wrong noun more often than the right one, 0.17 apart against 2 SE = 0.05")
@pytest.mark.xdist_group("winograd_hardened_uniform")
def test_uniform_average_names_the_wrong_noun_as_often_as_the_right_one(winograd, claim_record):
    runs = winograd("hardened", "uniform")
    right = statistics.mean(r.accuracy for r in runs)
    wrong = statistics.mean(r.wrong_noun for r in runs)
    # "as often": the two rates agree within two binomial SEs of their difference over 240
    # items per seed (the order-blind model cannot tell which noun is which).
    se = math.sqrt(0.5 * 0.5 / (240 * len(runs))) * math.sqrt(2)
    claim_record(stated="wrong noun as often as the right one", measured={"right": right, "wrong": wrong},
                 tolerance=f"|right - wrong| <= 2 SE = {2 * se:.3f}; right + wrong ~ 1", seeds=len(runs))
    assert abs(right - wrong) <= 2 * se


@pytest.mark.slow
@pytest.mark.claim("winograd.one_block")
@pytest.mark.xdist_group("winograd_hardened_one_block")
def test_one_block_reaches_92_7_percent(winograd, claim_record):
    assert check(winograd("hardened", "one_block"), 0.927, claim_record, 240)


@pytest.mark.slow
@pytest.mark.claim("winograd.two_blocks")
@pytest.mark.xdist_group("winograd_hardened_two_blocks")
def test_two_blocks_reach_100_percent(winograd, claim_record):
    assert check(winograd("hardened", "two_blocks"), 1.0, claim_record, 240)


PAIR = [sentence("animal", "street", "tired"), sentence("animal", "street", "wet")]


@pytest.fixture(scope="session")
def maps(winograd, evidence):
    """Attention rows at the query position for the chapter's two sentences and for every
    adjective, from each seed's two-block model; printed and drawn into the report directory."""
    from fixtures.winograd import attention_rows, format_rows
    task = winograd.tasks["hardened"]
    models = [r.model for r in winograd("hardened", "two_blocks")]
    by_adj = torch.stack([torch.stack([attention_rows(m, task, [sentence("animal", "street", adj)])[0]
                                       for m in models])
                          for adj in CROSSER + CROSSED])                 # (adjectives, seeds, blocks, 15)
    pair = [attention_rows(models[0], task, PAIR)]
    text = "\n\n".join(format_rows(words, rows) for words, rows in zip(PAIR, pair[0]))
    evidence.text("winograd_attention.txt", text + "\n")
    print("\n" + text)
    evidence.figure("winograd_attention.png", _heatmap(PAIR, pair[0]))
    return {"by_adj": by_adj, "pair": pair[0], "models": models, "task": task}


def _heatmap(sentences, rows):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(sentences), 1, figsize=(10, 2.2 * len(sentences)))
    for ax, words, r in zip(axes, sentences, rows):
        ax.imshow(r.numpy(), cmap="Blues", vmin=0, vmax=1, aspect="auto")
        ax.set_xticks(range(QUERY_POS + 1), words[: QUERY_POS + 1], rotation=45, ha="right")
        ax.set_yticks(range(r.shape[0]), [f"block {b + 1}" for b in range(r.shape[0])])
        for b in range(r.shape[0]):
            for i in range(r.shape[1]):
                p = r[b, i].item()
                ax.text(i, b, f"{p:.2f}", ha="center", va="center", fontsize=7,
                        color="white" if p > 0.5 else "black")
        ax.set_title(" ".join(words), fontsize=9)
    return fig


@pytest.mark.slow
@pytest.mark.claim("winograd.block1_first_noun")
@pytest.mark.xfail(strict=True, reason="refuted: block 1 puts 0.039 on the first noun (0.052, 0.022, 0.042 "
                   "over 3 seeds) and its argmax is never the first noun; its row changes by up to 0.12 "
                   "across the 8 adjectives (keys see the adjective): in seed 0 it reads the adjective (tired 0.27)")
@pytest.mark.xdist_group("winograd_hardened_two_blocks")
def test_block1_concentrates_on_the_first_noun_whatever_the_adjective(maps, claim_record):
    block1 = maps["by_adj"][:, :, 0]                                 # (adj, seeds, 15)
    on_first = block1[..., X_POS]
    spread = (block1 - block1.mean(0)).abs().max().item()            # across adjectives
    claim_record(stated={"weight on first noun": 0.70, "same for both sentences": True},
                 measured={"weight on first noun": on_first.mean().item(),
                           "per seed": on_first.mean(0).tolist(),
                           "max change across adjectives": spread,
                           "argmax is first noun": (block1.argmax(-1) == X_POS).float().mean().item()},
                 tolerance="argmax is the first noun; rows equal across adjectives within 0.05",
                 seeds=block1.shape[1])
    assert (block1.argmax(-1) == X_POS).all()
    assert spread <= 0.05


@pytest.mark.slow
@pytest.mark.claim("winograd.block1_first_noun")
@pytest.mark.xfail(strict=True, reason="refuted: 0.039 on the first noun (0.052, 0.022, 0.042 over 3 seeds), not 0.70")
@pytest.mark.xdist_group("winograd_hardened_two_blocks")
def test_block1_puts_about_0_70_on_the_first_noun(maps, claim_record):
    per_seed = maps["by_adj"][:, :, 0, X_POS].mean(0)                # (seeds,)
    tol = 0.005 + 2 * per_seed.std().item()
    claim_record(stated=0.70, measured={"mean": per_seed.mean().item(), "per seed": per_seed.tolist()},
                 tolerance=f"0.005 + 2 sd = {tol:.3f}", seeds=len(per_seed))
    assert abs(per_seed.mean().item() - 0.70) <= tol


def _block2(maps):
    block2 = maps["by_adj"][:, :, 1]                                 # (adj, seeds, 15)
    return block2[: len(CROSSER)], block2[len(CROSSER):]


def _routing_record(maps, claim_record, which):
    crosser, crossed = _block2(maps)
    measured = {f"{name}: weight on {what}": t[..., pos].mean().item()
                for name, t in (("crosser", crosser), ("crossed", crossed))
                for what, pos in (("first noun", X_POS), ("second noun", Y_POS), ("adjective", ADJ_POS))}
    claim_record(stated={"tired: adjective": 1.00, "wet: street": 0.49}, measured=measured,
                 tolerance=f"argmax for {which} adjectives on every adjective and seed", seeds=crosser.shape[1])


@pytest.mark.slow
@pytest.mark.claim("winograd.block2_routing")
@pytest.mark.xfail(strict=True, reason="refuted: for crosser adjectives block 2 fetches the first noun "
                   "(0.64 in seed 0 for tired) and puts 0.017 on the adjective, averaged over 4 adjectives x 3 seeds")
@pytest.mark.xdist_group("winograd_hardened_two_blocks")
def test_block2_reads_the_adjective_for_crosser_adjectives(maps, claim_record):
    _routing_record(maps, claim_record, "crosser")
    crosser, _ = _block2(maps)
    assert (crosser.argmax(-1) == ADJ_POS).all()


@pytest.mark.slow
@pytest.mark.claim("winograd.block2_routing")
@pytest.mark.xdist_group("winograd_hardened_two_blocks")
def test_block2_fetches_the_other_noun_for_crossed_adjectives(maps, claim_record):
    _routing_record(maps, claim_record, "crossed")
    _, crossed = _block2(maps)
    assert (crossed.argmax(-1) == Y_POS).all()


@pytest.mark.fast
@pytest.mark.claim("winograd.block1_same_row_argument")
@pytest.mark.parametrize("seed", range(3))
def test_a_same_first_layer_query_does_not_make_the_same_row(seed, request, claim_record):
    """The chapter's inference, as an exact property of a first-layer head (any weights): the
    two sentences differ only in the adjective (position 11), so the query at position 14 is
    the same in both (its premise, checked bit for bit); is block 1's row there the same?"""
    from fixtures.recipes import winograd_recipe
    task = hardened()
    torch.manual_seed(seed)
    model = LanguageModel(winograd_recipe("hardened", "two_blocks").model).eval()
    idx = task.encode(PAIR)[:, :-1]
    with torch.no_grad(), model.capture() as seen:
        x = model.tok_emb(idx) + model.pos_emb.embed(idx.shape[1])
        q, _, _ = model.blocks[0].mixer.split_heads(model.blocks[0].ln1(x))
        model(idx)
    rows = seen["blocks.0.attn.weights"][:, :, QUERY_POS, : QUERY_POS + 1]       # (2, h, 15)
    query_moved = (q[0, :, QUERY_POS] - q[1, :, QUERY_POS]).abs().max().item()
    row_moved = (rows[0] - rows[1]).abs().max().item()
    claim_record(stated="same query, so the same block-1 row for both sentences",
                 measured={"query difference": query_moved, "row difference": row_moved,
                           "weight on the adjective": rows[:, :, ADJ_POS].mean(1)},
                 tolerance="exact (bit for bit)", seed=seed)
    assert query_moved == 0.0                                        # the premise holds
    if row_moved > 0:
        request.applymarker(pytest.mark.xfail(strict=True, reason=(
            f"refuted: the query is identical but the row is not (max difference {row_moved:.3g}): "
            "the keys include the adjective, which differs between the sentences")))
    assert row_moved == 0.0
