"""The chapter's setup, checked: every number it states about how a model is built, trained or
measured, read from its text and compared with what uses it (claims/bookkeeping/test_chapter_setup.py
names both sides on any difference).

Each entry (`Stated`) is anchored as a figure is: a verbatim quote, unique in the chapter, with the
value printed inside it and parsed from the printed text ("128", "$3 \\times 10^{-3}$", "sixteen",
"(tired, scared, slow, weak)", a printed table's column).  `ours` returns every place that claims to
use the value, "file, recipe, field" -> what it holds (claims/setup_sources.py).  The recipes are the
chapter's setups (fixtures/recipes.py CHAPTER_GROUPS).  Where the chapter states a value for a few
models and another for the rest ("Every model ... trains for 3000 steps"; "Twelve blocks, 1000
steps"), the general entry leaves those to the specific one (`elsewhere`).

A difference is allowed only as a `Deviation`, declared in claims/chapter_setup.toml with the value
we use and in docs/choices.md with its reason (the entry's opening words, checked there); one that
no longer deviates must be removed.  Every declaration of reason "setup" (claims/accounting.py,
claims/number_words.py) is checked here or says in UNCHECKED (claims/chapter_setup.toml) why not.
"""
from __future__ import annotations

import re

from claims.chapter_figures import COST_N, COST_ROWS, VARIANCE_D, VARIANCE_ROWS
from claims.setup_entry import Deviation, Stated, Unchecked
from claims.setup_sources import (
    attention_heads,
    bpe_vocabulary,
    chapter_recipes,
    constant,
    cost_module,
    cost_scale,
    gpt2_layernorm_vectors,
    gpt2_shape,
    hardened_words,
    head_width,
    layernorms,
    mlp_expansion,
    module_constant,
    ratio,
    recipe_field,
    recipes_module,
    split_shares,
    unbiased_projections,
    winograd_module,
)
from claims.toml_table import load
from textcheck import Anchor, Figure


def _common(sid: str, anchor: str, printed: str, what: str, elsewhere: dict[str, str]) -> Stated:
    """A value of the common setup: every chapter recipe's `what`, but those a more specific
    sentence states another value for (recipe-name regex -> the entry that checks them)."""
    return Stated(sid, anchor, printed, recipe_field(what, elsewhere=elsewhere), elsewhere=elsewhere)


# Recipes a more specific sentence of the chapter states another value for
WIDE = r"^scale(256|1024)_"                   # the sqrt(d_k) experiment's shorter run
NORM = r"^(pre|post)norm"
POSITIONS = r"^positions_"

# ------------------------------------------------------------------ the table

SETUP: list[Stated] = [
    # the corpus, its tokens, and the setup every model shares
    Stated("corpus.vocabulary", "with a vocabulary of 1024", "1024",
           lambda: {**bpe_vocabulary(), **recipe_field("model.vocab_size")()}),
    Stated("corpus.split_train", "split 90/10", "90", lambda: {"data/batches.py split: the training share (%)": split_shares()[0]}),
    Stated("corpus.split_held_out", "split 90/10", "10",
           lambda: {"data/batches.py split: the held-out share (%)": split_shares()[1]}),
    Stated("common.width", "Every model is 128 wide", "128", recipe_field("model.d_model")),
    _common("common.context", "sees 128 tokens", "128", "model.context", {POSITIONS: "positions.window"}),
    _common("common.steps", "trains for 3000 steps", "3000", "train.steps", {NORM: "norm.steps", WIDE: "scale.short_steps"}),
    _common("common.lr", "AdamW at $10^{-3}$", "$10^{-3}$", "train.lr", {NORM: "norm.lr"}),
    _common("common.batch", "with a batch of 64", "64", "train.batch_size", {WIDE: "scale.short_batch"}),
    # the variance table: its d column, the widths the test measures at
    Stated("scale.variance_d", "\n".join(VARIANCE_ROWS), "", column=0,
           ours=lambda: {"claims/chapter_figures.py VARIANCE_D (claims/test_scale.py's rows)": tuple(VARIANCE_D)}),
    Stated("scale.pairs", "twenty thousand random pairs", "twenty thousand",
           module_constant("claims/test_scale.py", "PAIRS")),
    Stated("scale.row_length", "One row of 64 scores", "64",
           module_constant("claims/test_scale.py", "ROW_LENGTH", " (fresh_rows' positions)")),
    Stated("scale.row_length_effective", "exactly one token out of 64,", "64",
           module_constant("claims/test_scale.py", "ROW_LENGTH", " (fresh_rows' positions)")),
    Stated("scale.effective_at", "Undivided, at $d_k = 256$", "256",
           module_constant("claims/test_scale.py", "EFFECTIVE_AT")),
    Stated("scale.rows", "two thousand random rows", "two thousand",
           module_constant("claims/test_scale.py", "ROWS")),
    Stated("scale.frozen_at", "At $d_k = 1024$, seven", "1024",
           module_constant("claims/test_scale.py", "FROZEN_AT")),
    # what dividing by sqrt(d_k) is worth: the trained widths and the shorter run
    Stated("scale.widths", "at four head widths", "four",
           lambda: {"fixtures/recipes.py SCALE and LADDER 'layernorm': the head widths trained":
                    len({head_width(r) for g, r in chapter_recipes() if g == "SCALE" or r.name == "layernorm"})}),
    Stated("scale.long_steps", "come from the 3000-step budget", "3000",
           recipe_field("train.steps", r"^(scale32_undivided|layernorm)$")),
    Stated("scale.short_steps", "a shorter run — 1500 steps", "1500", recipe_field("train.steps", WIDE)),
    Stated("scale.short_batch", "1500 steps, batch of 32", "32", recipe_field("train.batch_size", WIDE)),
    Stated("scale.short_one_head", "one head, no normalisation", "one", recipe_field("model.n_heads", WIDE)),
    Stated("scale.short_no_norm", "one head, no normalisation", "no",
           recipe_field("LayerNorms in the model", WIDE, where=layernorms)),
    Stated("scale.at_32", "At $d_k = 32$ the division", "32",
           recipe_field("head width", r"^(scale32_undivided|layernorm)$", where=head_width)),
    Stated("scale.at_256", "because at 256 it is worth", "256", recipe_field("head width", r"^scale256_", where=head_width)),
    Stated("scale.at_1024", "and at 1024 it is worth", "1024", recipe_field("head width", r"^scale1024_", where=head_width)),
    Stated("scale.nothing_at_32", "at 32, everything by 256", "32",
           recipe_field("head width", r"^scale32_undivided$", where=head_width)),
    Stated("scale.everything_by_256", "at 32, everything by 256", "256",
           recipe_field("head width", r"^scale256_", where=head_width)),
    # the ladder's rows the prose names by their shape
    Stated("ladder.four_heads", "Four heads buy", "Four", recipe_field("model.n_heads", r"^four_heads$")),
    Stated("ladder.mlp_expansion", "a four-times expansion", "four",
           recipe_field("the MLP's expansion", r"^layernorm$", where=mlp_expansion)),
    Stated("ladder.unbiased_projections", "leaves the bias off three of them", "three",
           recipe_field("projections without a bias", r"^layernorm$", where=unbiased_projections)),
    Stated("ladder.one_head", "and 9 for one head", "one", recipe_field("model.n_heads", r"^one_head(_added)?$")),
    Stated("depth.two_blocks", "Two blocks on this corpus", "Two", recipe_field("model.n_blocks", r"^two_blocks$")),
    Stated("depth.one_block", "against one block's", "one", recipe_field("model.n_blocks", r"^layernorm$")),
    # twelve blocks, pre- and post-norm
    Stated("norm.blocks", "Twelve blocks, 1000 steps", "Twelve", recipe_field("model.n_blocks", NORM)),
    Stated("norm.steps", "Twelve blocks, 1000 steps", "1000", recipe_field("train.steps", NORM)),
    Stated("norm.lr", "learning rate $3 \\times 10^{-3}$", "$3 \\times 10^{-3}$", recipe_field("train.lr", NORM)),
    Stated("norm.pre_warmup", "pre-norm,  200-step warmup", "200", recipe_field("train.warmup_steps", r"^prenorm_warmup$")),
    Stated("norm.post_warmup", "post-norm, 200-step warmup", "200", recipe_field("train.warmup_steps", r"^postnorm_warmup$")),
    Stated("norm.pre_no_warmup", "pre-norm,  no warmup", "no", recipe_field("train.warmup_steps", r"^prenorm$")),
    Stated("norm.post_no_warmup", "post-norm, no warmup", "no", recipe_field("train.warmup_steps", r"^postnorm$")),
    # positions
    Stated("positions.window", "trained on 64-token windows", "64", recipe_field("model.context", POSITIONS)),
    Stated("positions.evaluated", "evaluated at 64, 128 and 256", "64, 128 and 256",
           lambda: {"fixtures/recipes.py POSITIONS_EVAL (claims/test_positions_trained.py's lengths)":
                    recipes_module().POSITIONS_EVAL}),
    Stated("positions.four_ways", "Four ways to inject position", "Four",
           lambda: {"fixtures/recipes.py POSITIONS: the position schemes (positions_none aside)":
                    len({r.model.positions for g, r in chapter_recipes() if g == "POSITIONS" and r.model.positions != "none"})}),
    # the cost of one attention layer
    Stated("cost.width", "One attention layer, 512 wide", "512",
           lambda: {"fixtures/cost.py layer(): W_q's input width": cost_module().layer().qkv.in_features}),
    Stated("cost.heads", "512 wide, 8 heads", "8", lambda: {"fixtures/cost.py layer(): heads": cost_module().layer().n_heads}),
    Stated("cost.batch", "batch of one, float32", "one",
           lambda: {"fixtures/cost.py tokens(): the input's batch": cost_module().tokens(4).shape[0]}),
    Stated("cost.dtype", "batch of one, float32", "float32",
           lambda: {"fixtures/cost.py tokens(): the input's dtype": str(cost_module().tokens(4).dtype).removeprefix("torch."),
                    "fixtures/cost.py layer(): the weights' dtype": str(cost_module().layer().qkv.weight.dtype).removeprefix("torch.")}),
    Stated("cost.one_sequence", "One attention layer, one sequence", "one",
           lambda: {"fixtures/cost.py tokens(): the input's batch": cost_module().tokens(4).shape[0]}),
    Stated("cost.tokens", "\n".join(COST_ROWS), "", column=0,
           ours=lambda: {"claims/test_cost.py CHAPTER_SCALE.ns, then the out-of-memory row's CHAPTER_SCALE.fused_n":
                         (*cost_scale()["ns"], cost_scale()["fused_n"]),
                         "claims/chapter_figures.py COST_N (the cost figures' rows)": tuple(COST_N)}),
    Stated("cost.doubling", "a doubling of $n$", "doubling",
           lambda: {"claims/test_cost.py CHAPTER_SCALE.ns: each length over the one before":
                    ratio(cost_scale()["ns"])}),
    Stated("cost.cap", "on an 8 GB GPU at", "8",
           lambda: {"claims/test_cost.py CAP_BYTES (GiB)": constant("claims/test_cost.py", "CAP_BYTES") / 2**30}),
    Stated("cost.matrix_heads", "being 8 heads", "8", lambda: {"fixtures/cost.py layer(): heads": cost_module().layer().n_heads}),
    Stated("cost.matrix_bytes", "16,384 times 4 bytes", "4",
           lambda: {"fixtures/cost.py tokens(): bytes per element": cost_module().tokens(4).element_size()}),
    # GPT-2 small's shape
    Stated("params.gpt2_width", "small — $d = 768$", "768", gpt2_shape("d_model", "d")),
    Stated("params.gpt2_blocks", "$d = 768$, 12 blocks", "12", gpt2_shape("n_blocks", "n_blocks")),
    Stated("params.gpt2_vocab", "a vocabulary of 50,257", "50,257", gpt2_shape("vocab_size", "vocab")),
    Stated("params.gpt2_context", "a context of 1024", "1024", gpt2_shape("context", "context")),
    Stated("params.row_vocab", "50,257 x 768", "50,257", gpt2_shape("vocab_size", "vocab")),
    Stated("params.row_vocab_width", "50,257 x 768", "768", gpt2_shape("d_model", "d")),
    Stated("params.row_context", "1,024 x 768", "1,024", gpt2_shape("context", "context")),
    Stated("params.row_context_width", "1,024 x 768", "768", gpt2_shape("d_model", "d")),
    Stated("params.row_blocks", "\n  12 blocks", "12", gpt2_shape("n_blocks", "n_blocks")),
    Stated("params.row_layernorm", "2 x 768", "2",
           lambda: {"model/params.py GPT2Small: the final LayerNorm's row over d": gpt2_layernorm_vectors()}),
    Stated("params.row_layernorm_width", "2 x 768", "768", gpt2_shape("d_model", "d")),
    # the Winograd task and its models
    Stated("winograd.pool", "one pool of sixteen nouns", "sixteen",
           lambda: {"data/winograd.py POOL": len(winograd_module().POOL),
                    "data/winograd.py hardened(): the nouns in the first slot": len(hardened_words(winograd_module().X_POS)),
                    "data/winograd.py hardened(): the nouns in the second slot": len(hardened_words(winograd_module().Y_POS))}),
    Stated("winograd.crosser_count", "four making it the crosser", "four",
           lambda: {"data/winograd.py CROSSER": len(winograd_module().CROSSER)}),
    Stated("winograd.crosser", "the crosser (tired, scared, slow, weak)", "(tired, scared, slow, weak)",
           lambda: {"data/winograd.py CROSSER": winograd_module().CROSSER}),
    Stated("winograd.crossed_count", "four making it the crossed", "four",
           lambda: {"data/winograd.py CROSSED": len(winograd_module().CROSSED)}),
    Stated("winograd.crossed", "the crossed (wet, wide, busy, steep)", "(wet, wide, busy, steep)",
           lambda: {"data/winograd.py CROSSED": winograd_module().CROSSED}),
    Stated("winograd.eight_adjectives", "all eight adjectives", "eight",
           lambda: {"data/winograd.py hardened(): the adjectives": len(hardened_words(winograd_module().ADJ_POS))}),
    Stated("winograd.template", "\nthe {x} did not cross the {y} because it was too {adj} , so the {ref} waited .\n",
           "the {x} did not cross the {y} because it was too {adj} , so the {ref} waited .",
           lambda: {"data/winograd.py TEMPLATE": winograd_module().TEMPLATE}),
    Stated("winograd.heads", "the four heads of each block", "four", attention_heads(r"^winograd_")),
    Stated("winograd.cheatable_one_block", "\none transformer block ", "one",
           recipe_field("model.n_blocks", r"^winograd_cheatable_one_block$")),
    Stated("winograd.one_block", "why one block reached", "one", recipe_field("model.n_blocks", r"^winograd_hardened_one_block$")),
    Stated("winograd.two_blocks", "and two reached", "two", recipe_field("model.n_blocks", r"^winograd_hardened_two_blocks$")),
]
SETUP_BY_ID = {s.id: s for s in SETUP}


# ------------------------------------------------------------------ declared deviations, and setup numbers checked nowhere

# Data, in claims/chapter_setup.toml: each declared deviation ([[deviation]]), and each declaration
# of reason "setup" (claims/accounting.py, claims/number_words.py) that no entry above checks, with
# why ([[unchecked]]: anchor -> reason).
DEVIATIONS: list[Deviation] = load("chapter_setup.toml", "deviation", Deviation, holds=("unchecked",))
UNCHECKED: dict[str, str] = {u.anchor: u.why for u in load("chapter_setup.toml", "unchecked", Unchecked,
                                                           holds=("deviation",))}


# ------------------------------------------------------------------ reading the chapter

def located(text: str, entry: Stated) -> int:
    """Where the entry's anchor stands in the chapter, by its one anchor index (the "setup" list)."""
    return Anchor(entry.anchor, "setup", entry.id).located(text)


def printed_in_anchor(entry: Stated) -> bool:
    """A table column holds its numbers; elsewhere the printed number stands in the anchor whole, as
    a figure's does (`Figure.printed_in_anchor`)."""
    return entry.column is not None or Figure(entry.id, "", entry.printed, entry.anchor).printed_in_anchor()


def sentence(text: str, entry: Stated) -> str:
    """The chapter's sentence the entry's anchor stands in (a printed table: the table)."""
    at = located(text, entry)
    if "\n" in entry.anchor.strip("\n"):
        return entry.anchor.strip("\n")
    end_of_anchor = at + len(entry.anchor)
    start = max(text.rfind(". ", 0, at) + 2, text.rfind("? ", 0, at) + 2, text.rfind("\n", 0, at) + 1, 0)
    ends = [i + 1 for i in (text.find(". ", end_of_anchor), text.find(".\n", end_of_anchor)) if i >= 0]
    ends += [i for i in (text.find("\n", end_of_anchor),) if i >= 0]
    return text[start:min(ends) if ends else len(text)].strip()


def drift(text: str, entry: Stated) -> tuple[list[str], list[str]]:
    """(what differs from the chapter undeclared, what differs as declared): one line each,
    naming the chapter's sentence and our place and value."""
    stated, said = entry.value, sentence(text, entry)
    undeclared, declared = [], []
    for where, ours in entry.ours().items():
        if ours is None:
            continue
        dev = next((d for d in DEVIATIONS if d.setup == entry.id and re.search(d.users, where)), None)
        if ours == stated and dev is None:
            continue
        if dev is not None and ours == dev.ours:
            declared.append(f"{where} = {ours!r} (declared: docs/choices.md \"{dev.choice}\")")
            continue
        line = f"{where} = {ours!r}, but the chapter says {stated!r}: \"{said}\""
        if dev is not None:
            line += (f" (declared deviation {dev.ours!r}, docs/choices.md \"{dev.choice}\": "
                     f"{'it no longer deviates: remove the declaration' if ours == stated else 'now another value'})")
        undeclared.append(line)
    return undeclared, declared
