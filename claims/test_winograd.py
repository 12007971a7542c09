"""The Winograd referent task (data/winograd.py, fixtures/winograd.py).

Exact claims run in the fast tier; the trained ones train small word-level models (minutes on
two cores: the slow tier), ten seeds each (the same for every Winograd claim: with three, one
block's tolerance admitted anything from 64 % to 100 %), on the held-out split of task seed 0.
Accuracies are compared at the chapter's rounding (0.05 percentage points) widened by two
standard deviations over seeds, floored at the binomial standard error of the held-out set.
"""
import statistics
from dataclasses import dataclass

import pytest
import torch

from claims.chapter_figures import FIGURES
from claims.registry import figures
from data.winograd import (
    ADJ_POS,
    CROSSED,
    CROSSER,
    QUERY_POS,
    TEMPLATE,
    X_POS,
    Y_POS,
    cheatable,
    hardened,
    sentence,
)
from model import LanguageModel, averaging_matrix
from textcheck import printing, rules

SEEDS = 10
STATED = figures("winograd")     # the printed accuracies (claims/registry.py)


# ------------------------------------------------------------------ exact (fast)

@pytest.mark.fast
@pytest.mark.claim("winograd.hard_chance")
@pytest.mark.figure("winograd.chance")
def test_hardened_task_chance_among_the_two_nouns(claim):
    task = hardened()
    test = task.test
    refs_first = sum(s[QUERY_POS + 1] == s[X_POS] for s in test) / len(test)
    # Either fixed slot ("always the first noun", "always the second") scores exactly 50 %, and
    # so does a coin between the two, since the two candidates always differ.
    chance = FIGURES["winograd.chance"].value
    claim.record(stated=chance, measured=refs_first, tolerance="exact", held_out=len(test))
    assert all(s[X_POS] != s[Y_POS] for s in test)
    assert refs_first == chance
    # The held-out set is built from reversed pairs: never seen in this order, always in the other.
    train_pairs = {(s[X_POS], s[Y_POS]) for s in task.train}
    test_pairs = {(s[X_POS], s[Y_POS]) for s in test}
    assert not train_pairs & test_pairs
    assert all((y, x) in train_pairs for x, y in test_pairs)


@pytest.mark.fast
@pytest.mark.claim("winograd.uniform_weight")
@pytest.mark.figure("winograd.uniform_each")
def test_uniform_average_weight_on_each_visible_token(claim):
    words = sentence("animal", "street", "tired")
    visible = QUERY_POS + 1                                          # "the ... so the"
    w = averaging_matrix(len(words) - 1, dtype=torch.float64)[QUERY_POS, :visible]
    f = FIGURES["winograd.uniform_each"]
    claim.record(stated=f.value, measured=w[0].item(), tolerance=f"rounds to {f.printed}", visible=visible)
    n = FIGURES["winograd.visible_tokens"].value                     # the chapter's "fifteen visible tokens"
    assert visible == n and torch.allclose(w, torch.full((n,), 1 / n, dtype=torch.float64))
    assert abs(w[0].item() - f.value) < f.rounding


@pytest.mark.fast
@pytest.mark.claim("winograd.heldout_reversed_in_training")
def test_every_held_out_noun_pair_was_trained_in_the_reverse_order_only(claim):
    # The hardened task's split (task seed 0, a quarter held out), over its ordered noun pairs.
    task = hardened()
    train_pairs = {(s[X_POS], s[Y_POS]) for s in task.train}
    test_pairs = {(s[X_POS], s[Y_POS]) for s in task.test}
    reversed_in_training = sum((y, x) in train_pairs for x, y in test_pairs)
    own_in_training = sum((x, y) in train_pairs for x, y in test_pairs)
    claim.record(stated="every held-out pair reversed in training, never in its own order",
                 measured={"held-out ordered pairs": len(test_pairs), "reversed order in training": reversed_in_training,
                           "own order in training": own_in_training, "training ordered pairs": len(train_pairs)},
                 tolerance="exact (counts)")
    assert test_pairs and reversed_in_training == len(test_pairs) and own_in_training == 0


def _template_query() -> tuple[list[str], int]:
    """The template's words, its slots as written ("{ref}"), and the 0-based index of the query
    "the" before the referent's slot: counted from the template itself, not from QUERY_POS."""
    words = TEMPLATE.split()
    query = words.index("{ref}") - 1
    assert words[query] == "the" and all(p[query] == "the" for p in PAIR) and query == QUERY_POS
    return words, query


# The template's two counts the chapter prints: "the at position 14" (the query's 0-based index,
# the same in both of its sentences) and "the fifteen visible tokens" (that position sees itself
# and every word before it: the index + 1).
TEMPLATE_COUNTS = [pytest.param("winograd.query_position", lambda query: query, id="the query's index",
                                marks=pytest.mark.figure("winograd.query_position")),
                   pytest.param("winograd.visible_tokens", lambda query: query + 1, id="tokens visible there",
                                marks=pytest.mark.figure("winograd.visible_tokens"))]


@pytest.mark.fast
@pytest.mark.claim("winograd.template_counts")
@pytest.mark.parametrize("fid,count", TEMPLATE_COUNTS)
def test_the_templates_counts_at_the_referent_position(fid, count, claim):
    words, query = _template_query()
    f, n = FIGURES[fid], count(query)
    decision = rules.within(n, f.value, f.rounding)
    claim.record(stated=f.value, measured=n, tolerance=f"the printed rounding, {f.rounding}",
                 decision=decision.measured, visible_words=words[:query + 1], counted_from=0)
    claim.decide(decision.holds, f"{fid} counted in the template: {decision.why}")


# ------------------------------------------------------------------ trained (slow)

@dataclass
class Scored:
    accuracy: float          # referent named, on the held-out sentences
    wrong_noun: float        # the other noun of the pair named
    seconds: float
    model: object


class Runs(list):
    """The seeds' Scored runs of one model, with the model's name for the figure rows."""

    def __init__(self, scored, name: str):
        super().__init__(scored)
        self.name = name


@pytest.fixture(scope="session")
def winograd(trained, seeds):
    """runs(task_name, kind) -> [Scored per seed]: the Winograd recipes (fixtures/recipes.py)
    through the one engine and cache, like every trained model; each run's record (accuracy,
    wrong noun, per seed) is the run's evidence as `winograd.json`."""
    tasks = {"cheatable": cheatable(), "hardened": hardened()}
    done = {}

    def runs(task_name, kind, weights=False):
        """weights=False: the accuracies only (under --from-results, the committed records)."""
        if (task_name, kind, weights) not in done:
            done[task_name, kind, weights] = Runs(
                [Scored(r.metrics["accuracy"], r.metrics["wrong_noun"], r.metrics["train_seconds"],
                        r.model.eval() if r.model is not None else None)
                 for r in trained("winograd", f"winograd_{task_name}_{kind}", seeds(SEEDS), weights=weights)],
                f"{task_name} {kind.replace('_', ' ')}")
        else:                       # handed out again: noted on this test too (the evidence's runs)
            trained.note("winograd", f"winograd_{task_name}_{kind}")
        return done[task_name, kind, weights]
    runs.tasks = tasks
    return runs


def check(claim, runs, stated, n_items, rate="accuracy", **extra):
    """One printed rate (accuracy, or how often the wrong noun is named) against the mean over
    seeds, judged on the prediction interval of one new run (textcheck/decide.py rate: t(n - 1)
    max(sd, binomial sd) sqrt(1 + 1/n)) widened by the chapter's rounding; refuted with a generated reason."""
    values = [getattr(r, rate) for r in runs]
    other = "wrong_noun" if rate == "accuracy" else "accuracy"
    label = f"{runs.name}: {rate.replace('_', ' ')}"
    spec = claim.spec(label)                                  # the figure table's rounding and null
    assert spec.kind == "rate" and spec.stated == stated, (label, spec)
    null, null_what = spec.null if spec.null else (None, "")
    decision = rules.rate(values, stated, n_items, spec.rounding, null=null, null_what=null_what)
    tol = decision.tolerance
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    claim.record(stated=stated, measured={"mean": statistics.mean(values), "sd": sd, "per seed": values,
                                          other.replace("_", " "): [getattr(r, other) for r in runs]},
                 tolerance=f"{spec.rounding} + t({len(values) - 1}) max(sd, binomial sd) sqrt(1 + 1/n) = {tol:.3f}", seeds=len(values), rule="rate",
                 decision=decision.measured, measurement="winograd_accuracy", label=label, **extra)
    claim.settle(decision.verdict,
                 f"{rate.replace('_', ' ')} {printing.over_seeds([100 * v for v in values], ' %')}, "
                 f"{'against' if decision.verdict == 'undecided' else 'not'} {100 * stated:.1f} % "
                 f"(tolerance {100 * tol:.1f} points); {other.replace('_', ' ')} "
                 f"{printing.over_seeds([100 * getattr(r, other) for r in runs], ' %')}"
                 + (f"; {decision.why.split('; ')[-1]}" if decision.verdict == "undecided" else ""))


# Under xdist the tests of one model share a worker (its session fixture then trains or loads
# the model once); different models train in parallel.


@pytest.mark.slow
@pytest.mark.claim("winograd.category_cheat")
@pytest.mark.xdist_group("winograd_cheatable_uniform")
@pytest.mark.figure("winograd.cheatable_uniform")
def test_uniform_average_solves_the_cheatable_task(winograd, claim):
    check(claim, winograd("cheatable", "uniform"), STATED["cheatable_uniform"], 128, model="uniform")


@pytest.mark.slow
@pytest.mark.claim("winograd.category_cheat")
@pytest.mark.xdist_group("winograd_cheatable_one_block")
@pytest.mark.figure("winograd.cheatable_one_block")
def test_one_block_accuracy_on_the_cheatable_task(winograd, claim):
    check(claim, winograd("cheatable", "one_block"), STATED["cheatable_one_block"], 128, model="one block")


@pytest.mark.slow
@pytest.mark.claim("winograd.uniform_fails")
@pytest.mark.xdist_group("winograd_hardened_uniform")
@pytest.mark.figure("winograd.hardened_uniform")
def test_uniform_average_accuracy_on_the_hardened_task(winograd, claim):
    check(claim, winograd("hardened", "uniform"), STATED["hardened_uniform"], 240)


@pytest.mark.slow
@pytest.mark.claim("winograd.uniform_fails")
@pytest.mark.xdist_group("winograd_hardened_uniform")
@pytest.mark.figure("winograd.hardened_uniform_wrong_noun")
def test_how_often_the_uniform_average_names_the_wrong_noun(winograd, claim):
    # "answers with the wrong noun of the pair exactly half the time": 50 %, of all held-out items
    check(claim, winograd("hardened", "uniform"), STATED["hardened_uniform_wrong_noun"], 240, rate="wrong_noun")


@pytest.mark.slow
@pytest.mark.claim("winograd.one_block")
@pytest.mark.xdist_group("winograd_hardened_one_block")
@pytest.mark.figure("winograd.hardened_one_block")
def test_one_block_accuracy_on_the_hardened_task(winograd, claim):
    check(claim, winograd("hardened", "one_block"), STATED["hardened_one_block"], 240)


@pytest.mark.slow
@pytest.mark.claim("winograd.two_blocks")
@pytest.mark.xdist_group("winograd_hardened_two_blocks")
@pytest.mark.figure("winograd.hardened_two_blocks")
def test_two_blocks_accuracy_on_the_hardened_task(winograd, claim):
    check(claim, winograd("hardened", "two_blocks"), STATED["hardened_two_blocks"], 240)


PAIR = [sentence("animal", "street", "tired"), sentence("animal", "street", "wet")]


@pytest.fixture(scope="session")
def maps(winograd, evidence):
    """Attention rows at the query position for the chapter's two sentences and for every
    adjective, from each seed's two-block model; printed and drawn into the report directory."""
    from fixtures.winograd import attention_rows, format_rows
    task = winograd.tasks["hardened"]
    models = [r.model for r in winograd("hardened", "two_blocks", weights=True)]
    by_adj = torch.stack([torch.stack([attention_rows(m, task, [sentence("animal", "street", adj)])[0]
                                       for m in models])
                          for adj in CROSSER + CROSSED])                 # (adjectives, seeds, blocks, 15)
    pair = [attention_rows(models[0], task, PAIR)]
    text = "\n\n".join(format_rows(words, rows) for words, rows in zip(PAIR, pair[0]))
    evidence.text("winograd_attention.txt", text + "\n")
    print("\n" + text)
    evidence.plot("winograd_attention.png", _heatmap(PAIR, pair[0]))
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
@pytest.mark.xdist_group("winograd_hardened_two_blocks")
def test_block1_concentrates_on_the_first_noun_whatever_the_adjective(maps, claim):
    # "whatever the adjective", a universal sentence: decided as the level the chapter prints for
    # block 1's weight on the first noun (winograd.map_tired_1_1), averaged over every adjective
    # seed by seed (claims/record_rules.py), never as an exact share of rows
    block1 = maps["by_adj"][:, :, 0]                                 # (adj, seeds, 15)
    on_first = block1[..., X_POS]
    spread = (block1 - block1.mean(0)).abs().max().item()            # across adjectives
    argmax_first = (block1.argmax(-1) == X_POS).float().mean().item()
    most = [word_at(i) for i in block1.mean(0).argmax(-1).tolist()]  # per seed, averaged over adjectives
    level = FIGURES[f"winograd.map_tired_1_{X_POS}"]                # the 0.70 the chapter prints for it
    claim.trained_figure(label=LEVEL_BLOCK1, stated=level.value, rounding=level.rounding,
                         values=on_first.mean(0).tolist(), measurement="winograd_attention",
                         max_change_across_adjectives=spread, argmax_is_first_noun=argmax_first,
                         per_model=per_model(block1, lambda rows: bool((rows.argmax(-1) == X_POS).all()),
                                             "block 1's heaviest word is the first noun for every adjective"),
                         note=(f"block 1's argmax is the first noun in {100 * argmax_first:.0f} % of (adjective, seed) "
                               f"rows (per seed its heaviest word is {', '.join(most)}); the row changes by up to "
                               f"{spread:.2f} across the {len(CROSSER + CROSSED)} adjectives"))


LEVEL_BLOCK1 = "block 1: argmax on the first noun, whatever the adjective"


def per_model(rows: torch.Tensor, shows, what: str) -> dict:
    """The chapter prints one model's rows; ours are ten models whose circuits differ.  How many of
    them show what the sentence says (`shows`, on one seed's rows: (adjectives, 15)), with each
    seed's row averaged over the adjectives: the chapter's model as one draw among them."""
    by_seed = rows.transpose(0, 1)                                   # (seeds, adjectives, 15)
    flags = [shows(r) for r in by_seed]
    return {"what": what, "models showing it": sum(flags), "of": len(flags), "per seed": flags,
            "rows": [{f"{w}@{i}": round(v, 3) for i, (w, v) in enumerate(zip(WORDS, r.mean(0).tolist()))}
                     for r in by_seed]}


# The chapter's printed map, every cell: the two sentences, each block's weight on each visible
# word at the query position, averaged over the four heads.  Each cell is a figure: the mean over
# seeds at the printed rounding (0.005) + 2 sd.
WORDS = PAIR[0][: QUERY_POS + 1]


def word_at(pos: int) -> str:
    """A visible position by its word; the adjective's slot by its role (it varies by sentence)."""
    return "the adjective" if pos == ADJ_POS else repr(WORDS[pos])
PRINTED = {(adj, blk): [FIGURES[f"winograd.map_{adj}_{blk}_{pos}"].value for pos in range(QUERY_POS + 1)]
           for adj in ("tired", "wet") for blk in (1, 2)}
CELLS = [pytest.param(adj, blk, pos, w, id=f"{adj} blk {blk} {PAIR[adj == 'wet'][pos]}@{pos}",
                      marks=[pytest.mark.claim("winograd.block1_first_noun" if blk == 1 else "winograd.block2_routing"),
                             pytest.mark.figure(f"winograd.map_{adj}_{blk}_{pos}")])
         for (adj, blk), row in PRINTED.items() for pos, w in enumerate(row)]


@pytest.mark.slow
@pytest.mark.xdist_group("winograd_hardened_two_blocks")
@pytest.mark.parametrize("adj,block,pos,stated", CELLS)
def test_printed_attention_weight(adj, block, pos, stated, maps, claim):
    per_seed = maps["by_adj"][(CROSSER + CROSSED).index(adj), :, block - 1, pos]     # (seeds,)
    claim.trained_figure(measurement="winograd_attention", label=f"{adj}: block {block} on {WORDS[pos]!r} (position {pos})",
                         stated=stated, values=per_seed.tolist(), rounding=FIGURES[f"winograd.map_{adj}_{block}_{pos}"].rounding)


def _block2(maps):
    block2 = maps["by_adj"][:, :, 1]                                 # (adj, seeds, 15)
    return block2[: len(CROSSER)], block2[len(CROSSER):]


def _routing(maps, claim, which, target):
    """"For a crosser-adjective the second block spends its entire weight on the adjective ... For
    a crossed-adjective it goes and fetches the other noun": universal sentences, each decided as
    the level the chapter prints for it (claims/record_rules.py), block 2's weight on the target
    averaged over the adjectives of the role, seed by seed; never an exact share of rows."""
    crosser, crossed = _block2(maps)
    t = crosser if which == "crosser" else crossed
    label = f"block 2, {which} adjectives: argmax on {word_at(target)}"
    # the level the chapter prints for it: 1.00 on the adjective, 0.49 on 'street'
    level = FIGURES[f"winograd.map_{'tired' if which == 'crosser' else 'wet'}_2_{target}"]
    hit = (t.argmax(-1) == target).float().mean().item()
    heaviest = {word_at(int(i)): n for i, n in zip(*torch.unique(t.argmax(-1), return_counts=True))}
    claim.trained_figure(label=label, stated=level.value, rounding=level.rounding,
                         values=t[..., target].mean(0).tolist(), measurement="winograd_attention",
                         share_of_rows_with_argmax_on_target=hit,
                         per_model=per_model(t, lambda rows: bool((rows.argmax(-1) == target).all()),
                                             f"block 2's heaviest word is {word_at(target)} for every {which} adjective"),
                         # where block 2's weight goes, means over adjectives and seeds (the errata cite them)
                         weights={"crosser: weight on first noun": crosser[..., X_POS].mean().item(),
                                  "crosser: weight on adjective": crosser[..., ADJ_POS].mean().item(),
                                  "crossed: weight on second noun": crossed[..., Y_POS].mean().item(),
                                  "crossed: weight on first noun": crossed[..., X_POS].mean().item()},
                         note=(f"block 2's argmax is {word_at(target)} in {100 * hit:.0f} % of (adjective, seed) rows; its "
                               "heaviest word, counted over rows: "
                               + ", ".join(f"{w} {int(n)}" for w, n in sorted(heaviest.items(), key=lambda kv: -kv[1]))))


@pytest.mark.slow
@pytest.mark.claim("winograd.block2_routing")
@pytest.mark.xdist_group("winograd_hardened_two_blocks")
def test_block2_reads_the_adjective_for_crosser_adjectives(maps, claim):
    _routing(maps, claim, "crosser", ADJ_POS)


@pytest.mark.slow
@pytest.mark.claim("winograd.block2_routing")
@pytest.mark.xdist_group("winograd_hardened_two_blocks")
def test_block2_fetches_the_other_noun_for_crossed_adjectives(maps, claim):
    _routing(maps, claim, "crossed", Y_POS)


@pytest.mark.fast
@pytest.mark.claim("winograd.block1_same_row_argument")
@pytest.mark.parametrize("seed", range(3))
def test_a_same_first_layer_query_does_not_make_the_same_row(seed, claim):
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
        q, _, _ = model.blocks[0].attn.split_heads(model.blocks[0].ln1(x))
        model(idx)
    rows = seen["blocks.0.attn.weights"][:, :, QUERY_POS, : QUERY_POS + 1]       # (2, h, 15)
    query_moved = (q[0, :, QUERY_POS] - q[1, :, QUERY_POS]).abs().max().item()
    row_moved = (rows[0] - rows[1]).abs().max().item()
    claim.record(stated="same query, so the same block-1 row for both sentences",
                 measured={"query difference": query_moved, "row difference": row_moved,
                           "weight on the adjective": rows[:, :, ADJ_POS].mean(1)},
                 tolerance="exact (bit for bit)", seed=seed, label=f"seed {seed}")
    assert query_moved == 0.0                                        # the premise holds
    claim.decide(row_moved == 0.0, f"the query is identical but the row is not (max difference {row_moved:.3g}): "
                                   "the keys include the adjective, which differs between the sentences")


# ------------------------------------------------------------------ untested until issue 44 (docs/choices.md)

@pytest.mark.slow
@pytest.mark.claim("winograd.order_blind_answers_backwards")
@pytest.mark.xdist_group("winograd_hardened_uniform")
def test_the_order_blind_model_names_the_other_noun(winograd, claim):
    # "anything that knows which two nouns are present but not which came first must answer
    # backwards".  The premise, exact: the model answers each held-out sentence as it answers the
    # same nouns in the training order (every sentence of every seed; the average is order-free
    # by construction, so this is a check of the trained weights, not a rate).  The sentence:
    # between the two nouns it names the one the training order made the referent, the other noun
    # of the held-out sentence, more often than the referent (paired by seed).
    from fixtures.winograd import training_order_disagreements
    runs = winograd("hardened", "uniform", weights=True)
    disagreements = [training_order_disagreements(r.model, winograd.tasks["hardened"]) for r in runs]
    assert sum(disagreements) == 0, f"answers unlike the training order's, per seed: {disagreements}"
    other, referent = [r.wrong_noun for r in runs], [r.accuracy for r in runs]
    claim.ordering(label="the order-blind model: the other noun over the referent",
                   stated="answers backwards", measured={"other noun": other, "referent": referent},
                   measurement="winograd_accuracy", seeds=len(runs), training_order_disagreements=disagreements,
                   conditions=[[f"seed {i}: the other noun named more often than the referent", o, ">", r]
                               for i, (o, r) in enumerate(zip(other, referent))],
                   tolerance="a paired t test over seeds, significant at 5 % two-sided",
                   reason=f"other noun {printing.over_seeds([100 * v for v in other], ' %')}, referent "
                          f"{printing.over_seeds([100 * v for v in referent], ' %')}")


@pytest.mark.slow
@pytest.mark.claim("winograd.bag_beats_transformer")
@pytest.mark.xdist_group("winograd_cheatable_uniform")
def test_the_bag_of_words_beats_the_transformer(winograd, claim):
    # "The bag of words beats the transformer." (read as docs/choices.md declares it): on the
    # animal/place task the uniform average's held-out referent accuracy above one block's,
    # paired by seed
    bag = [r.accuracy for r in winograd("cheatable", "uniform")]
    block = [r.accuracy for r in winograd("cheatable", "one_block")]
    claim.ordering(label="animal/place task: the bag of words above the transformer",
                   stated="the bag of words beats the transformer",
                   measured={"uniform average": bag, "one block": block}, measurement="winograd_accuracy",
                   seeds=len(bag),
                   conditions=[[f"seed {i}: the uniform average's held-out accuracy above one block's", a, ">", b]
                               for i, (a, b) in enumerate(zip(bag, block))],
                   tolerance="a paired t test over seeds, significant at 5 % two-sided",
                   reason=f"uniform average {printing.over_seeds([100 * v for v in bag], ' %')}, one block "
                          f"{printing.over_seeds([100 * v for v in block], ' %')}")


@pytest.mark.slow
@pytest.mark.claim("winograd.two_hop_ablation")
@pytest.mark.xdist_group("winograd_hardened_two_blocks")
def test_each_blocks_attention_at_the_query_is_needed(winograd, claim):
    # "one head moves a candidate forward, a head in a later layer reads a token that decides
    # whether to keep it": remove either block's attention output at the query position (zeroed,
    # declared in docs/choices.md) and the two-block model should lose the task
    from fixtures.winograd import ablated_score
    runs = winograd("hardened", "two_blocks", weights=True)
    task = winograd.tasks["hardened"]
    intact = [r.accuracy for r in runs]
    removed = {b: [ablated_score(r.model, task, b)[0] for r in runs] for b in (0, 1)}
    claim.ordering(label="two blocks: each block's attention at the query position needed",
                   stated="a two-hop circuit", measured={"intact": intact, "block 1 removed": removed[0],
                                                        "block 2 removed": removed[1]},
                   measurement="winograd_ablation", seeds=len(runs),
                   conditions=[[(f"seed {i}: accuracy with block {b + 1}'s attention output at the query zeroed "
                                 "below the intact model's"), removed[b][i], "<", intact[i]]
                               for b in (0, 1) for i in range(len(runs))],
                   tolerance="a paired t test over seeds, significant at 5 % two-sided",
                   reason=f"intact {printing.over_seeds([100 * v for v in intact], ' %')}; block 1's attention removed "
                          f"{printing.over_seeds([100 * v for v in removed[0]], ' %')}; block 2's "
                          f"{printing.over_seeds([100 * v for v in removed[1]], ' %')}")


@pytest.mark.slow
@pytest.mark.claim("winograd.two_hop_ablation")
@pytest.mark.xdist_group("winograd_hardened_two_blocks")
def test_two_blocks_beat_one_seed_by_seed(winograd, claim):
    # "it is why one block reached 92.7 % and two reached 100 %": the depth ordering, paired by seed
    one, two = [r.accuracy for r in winograd("hardened", "one_block")], [r.accuracy for r in winograd("hardened", "two_blocks")]
    claim.ordering(label="two blocks above one", stated="one block below two",
                   measured={"one block": one, "two blocks": two}, measurement="winograd_accuracy", seeds=len(two),
                   conditions=[[f"seed {i}: two blocks' held-out accuracy above one block's", t, ">", o]
                               for i, (o, t) in enumerate(zip(one, two))],
                   tolerance="a paired t test over seeds, significant at 5 % two-sided",
                   reason=f"one block {printing.over_seeds([100 * v for v in one], ' %')}, two {printing.over_seeds([100 * v for v in two], ' %')}")


@pytest.mark.slow
@pytest.mark.claim("winograd.block1_carries_first_noun")
@pytest.mark.xdist_group("winograd_hardened_two_blocks")
def test_block1_puts_the_first_noun_in_the_residual_stream(winograd, claim):
    # "block 1 ... drags the first noun forward"; "the answer is already in the residual stream
    # -- block 1 put it there": after block 1, at the query position, the residual stream read
    # through the unembedding favours the first noun over the second (docs/choices.md)
    from fixtures.winograd import first_noun_after_block1
    runs = winograd("hardened", "two_blocks", weights=True)
    task = winograd.tasks["hardened"]
    share = [first_noun_after_block1(r.model, task) for r in runs]
    removed = [first_noun_after_block1(r.model, task, zero_attention=True) for r in runs]
    claim.ordering(label="after block 1: the first noun in the residual stream",
                   stated="block 1 put it there", measured={"first noun favoured": share, "block 1's attention removed": removed},
                   measurement="winograd_ablation", seeds=len(runs),
                   conditions=[c for i, (a, z) in enumerate(zip(share, removed)) for c in (
                       [f"seed {i}: the first noun favoured over the second in more than half the held-out sentences", a, ">", 0.5],
                       [f"seed {i}: more often than with block 1's attention at the query zeroed", a, ">", z])],
                   tolerance="a paired t test over seeds, significant at 5 % two-sided",
                   reason=f"first noun favoured after block 1 in {printing.over_seeds([100 * v for v in share], ' %')} of held-out "
                          f"sentences; with its attention at the query removed {printing.over_seeds([100 * v for v in removed], ' %')}")


# "That is a two-hop circuit: one head moves a candidate forward, a head in a later layer reads a token
# that decides whether to keep it" (read as docs/choices.md declares it, 2026-12-07): with one head of
# each block removed at the query position, or either block's attention there, the two-block model is
# back near chance: below chance among the two nouns plus 10 points, by the ordering rule over seeds
# against that bound; the bounds it admits besides are shown, never deciding.
def _near_chance(claim, runs, label: str, what: str, removed: dict[int, list[float]], measurement: str,
                 **details) -> None:
    from claims.record_rules import NEAR_CHANCE, NEAR_CHANCE_ALTERNATIVES, near_chance
    intact = [r.accuracy for r in runs]
    shown = {}
    for name, bound in NEAR_CHANCE_ALTERNATIVES.items():
        d = rules.ordering([(f"block {b + 1}: below {bound}", "<", removed[b], [bound] * len(runs)) for b in (0, 1)])
        shown[name] = {"bound": bound, "verdict": d.verdict, "why": d.why}
    claim.ordering(label=label, stated="one head moves a candidate forward, a head in a later layer reads a token",
                   measured={"intact": intact, **{f"block {b + 1}'s {what} removed": removed[b] for b in (0, 1)}},
                   measurement=measurement, seeds=len(runs),
                   conditions=[[f"seed {i}: {near_chance(what, b + 1)}", removed[b][i], "<", NEAR_CHANCE]
                               for b in (0, 1) for i in range(len(runs))],
                   tolerance=f"a paired t test over seeds against {NEAR_CHANCE} (chance plus 10 points), "
                             "significant at 5 % two-sided",
                   alternatives=shown, **details,
                   reason=f"intact {printing.over_seeds([100 * v for v in intact], ' %')}; "
                          + "; ".join(f"block {b + 1}'s {what} removed {printing.over_seeds([100 * v for v in removed[b]], ' %')}"
                                      for b in (0, 1))
                          + "; other bounds, shown: " + ", ".join(f"{s['bound']}: {s['verdict']}" for s in shown.values()))


@pytest.mark.slow
@pytest.mark.claim("winograd.two_hop_heads_near_chance")
@pytest.mark.xdist_group("winograd_hardened_two_blocks")
def test_one_head_of_each_block_removed_leaves_chance(winograd, claim):
    # each head of each block removed at the query, one at a time; a block's head "that moves" or
    # "that reads" is, on each seed, the one whose removal leaves the lowest accuracy
    from fixtures.winograd import head_ablated_score
    runs = winograd("hardened", "two_blocks", weights=True)
    task = winograd.tasks["hardened"]
    heads = range(runs[0].model.config.n_heads)
    per_head = {b: [[head_ablated_score(r.model, task, b, h)[0] for h in heads] for r in runs] for b in (0, 1)}
    needed = {b: [min(accuracies) for accuracies in per_head[b]] for b in (0, 1)}
    _near_chance(claim, runs, "two blocks: one head of each block removed at the query", "most needed head",
                 needed, "winograd_head_ablation",
                 each_head={f"block {b + 1}": per_head[b] for b in (0, 1)},
                 most_needed_head={f"block {b + 1}": [a.index(min(a)) + 1 for a in per_head[b]] for b in (0, 1)})


@pytest.mark.slow
@pytest.mark.claim("winograd.two_hop_heads_near_chance")
@pytest.mark.xdist_group("winograd_hardened_two_blocks")
def test_either_blocks_attention_removed_leaves_chance(winograd, claim):
    # the whole block's attention output at the query zeroed (as winograd.two_hop_ablation removes it),
    # against chance rather than against the intact model
    from fixtures.winograd import ablated_score
    runs = winograd("hardened", "two_blocks", weights=True)
    task = winograd.tasks["hardened"]
    removed = {b: [ablated_score(r.model, task, b)[0] for r in runs] for b in (0, 1)}
    _near_chance(claim, runs, "two blocks: either block's attention removed at the query", "attention output",
                 removed, "winograd_ablation")
