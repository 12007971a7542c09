"""Model size is arithmetic: the per-block formula and GPT-2 small's accounting, counted on
modules we build (on the meta device, so nothing is allocated)."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claims.chapter_figures import FIGURES, GPT2_ROWS
from fixtures.recipes import LADDER
from model import Block, LanguageModel, ModelConfig, MultiHeadAttention
from model.params import GPT2Small, attention_params, block_params, build_on_meta, count, mlp_params
from textcheck import rules

pytestmark = pytest.mark.fast

GPT2 = ModelConfig(vocab_size=50_257, d_model=768, context=1024, n_blocks=12, n_heads=12,
                   qkv_bias=True, tie_weights=True)
# The chapter's accounting, row by row (claims/chapter_figures.py GPT2_ROWS): row name -> figure ID
ROW_FIGURE = dict(zip(["token embeddings", "position embeddings", "one block", "12 blocks", "final LayerNorm",
                       "total (weights tied)"], (f"params.{k}" for k in GPT2_ROWS)))
CHAPTER_TABLE = {row: FIGURES[fid].value for row, fid in ROW_FIGURE.items()}
TOTAL = FIGURES["params.total"].value


def gpt2_block(d: int, qkv_bias: bool = True) -> Block:
    return Block(MultiHeadAttention(d, 1, qkv_bias=qkv_bias), d, mlp=True, norm="pre")


@pytest.mark.claim("params.block_formula")
@settings(max_examples=30, deadline=None)
@given(d=st.integers(1, 2048))
def test_a_block_has_12d2_plus_13d_parameters(d):
    block = build_on_meta(lambda: gpt2_block(d))
    assert count(block) == 12 * d * d + 13 * d == block_params(d)


@pytest.mark.claim("params.bias_difference")
@pytest.mark.figure("params.bias_count")
def test_no_bias_on_three_projections_saving_at_gpt2_width(claim):
    with_bias = count(build_on_meta(lambda: gpt2_block(768, qkv_bias=True)))
    without = count(build_on_meta(lambda: gpt2_block(768, qkv_bias=False)))
    stated = FIGURES["params.bias_count"].value
    claim.record(stated=stated, measured=with_bias - without, tolerance="exact")
    assert with_bias - without == stated


@pytest.fixture(scope="module")
def gpt2_small():
    return build_on_meta(lambda: LanguageModel(GPT2))


def measured_rows(m) -> dict[str, int]:
    return {"token embeddings": count(m.tok_emb), "position embeddings": count(m.pos_emb),
            "one block": count(m.blocks[0]), "12 blocks": count(m.blocks),
            "final LayerNorm": count(m.ln_f), "total (weights tied)": m.n_params()}


@pytest.mark.claim("params.gpt2_small")
@pytest.mark.parametrize("row", [pytest.param(r, marks=pytest.mark.figure(f), id=r) for r, f in ROW_FIGURE.items()])
def test_gpt2_small_table(row, gpt2_small, claim):
    measured = measured_rows(gpt2_small)[row]
    claim.record(stated=CHAPTER_TABLE[row], measured=measured, tolerance="exact", row=row)
    assert measured == CHAPTER_TABLE[row] == GPT2Small().rows()[row]


@pytest.mark.claim("params.embedding_third")
@pytest.mark.figure("params.embedding_share")
def test_embedding_table_share_of_gpt2_small(gpt2_small, claim):
    share = count(gpt2_small.tok_emb) / gpt2_small.n_params()
    third = FIGURES["params.embedding_share"].value
    # "nearly a third": below 1/3 and within a tenth of it, i.e. in [0.30, 1/3).
    claim.record(stated=f"nearly {third:.4f}", measured=share, tolerance=f"[{0.9 * third:.2f}, {third:.4f})")
    assert 0.9 * third <= share < third


def formula(vocab: int, d: int, context: int, blocks: int) -> int:
    """The chapter's count: V d + n_ctx d + L (12 d^2 + 13 d) + 2 d (tied output, final LayerNorm)."""
    return vocab * d + context * d + blocks * block_params(d) + 2 * d


def gpt2_config(d: int, blocks: int, heads: int, vocab: int = 50_257, context: int = 1024) -> ModelConfig:
    return ModelConfig(vocab_size=vocab, d_model=d, context=context, n_blocks=blocks, n_heads=heads,
                       qkv_bias=True, tie_weights=True)


@pytest.mark.claim("params.formula_is_the_model")
@settings(max_examples=25, deadline=None)
@given(d_head=st.integers(1, 64), heads=st.integers(1, 8), blocks=st.integers(1, 6),
       vocab=st.integers(2, 60_000), context=st.integers(1, 2048))
def test_the_formula_is_the_built_models_count_for_any_size(d_head, heads, blocks, vocab, context):
    d = d_head * heads
    m = build_on_meta(lambda: LanguageModel(gpt2_config(d, blocks, heads, vocab, context)))
    assert m.n_params() == formula(vocab, d, context, blocks)


# GPT-2's published sizes (Radford et al.'s released checkpoints): medium, large, xl.
LARGER = {"medium": (1024, 24, 16, 354_823_168), "large": (1280, 36, 20, 774_030_080),
          "xl": (1600, 48, 25, 1_557_611_200)}


@pytest.mark.claim("params.formula_is_the_model")
@pytest.mark.parametrize("size", list(LARGER))
def test_the_formula_gives_the_larger_gpt2_sizes(size, claim):
    d, blocks, heads, stated = LARGER[size]
    built = build_on_meta(lambda: LanguageModel(gpt2_config(d, blocks, heads))).n_params()
    claim.record(stated=stated, measured={"formula": formula(50_257, d, 1024, blocks), "built": built},
                 tolerance="exact", size=size)
    assert formula(50_257, d, 1024, blocks) == built == stated


def _released(d: int = 768, blocks: int = 12, heads: int = 12) -> int:
    """Parameters of HF transformers' GPT2LMHeadModel (the released implementation), built from
    its config on the meta device: no weights are downloaded or allocated."""
    transformers = pytest.importorskip(
        "transformers", reason="the independent reference is optional: pip install -e '.[reference]'")
    import torch
    config = transformers.GPT2Config(n_embd=d, n_layer=blocks, n_head=heads)
    with torch.device("meta"):
        model = transformers.GPT2LMHeadModel(config)
    return sum(p.numel() for p in model.parameters())


@pytest.mark.claim("params.published_size")
@pytest.mark.figure("params.total")
def test_released_gpt2_small_parameter_count(gpt2_small, claim):
    released = _released()
    claim.record(stated=TOTAL, measured={"transformers GPT2LMHeadModel": released,
                                         "ours": gpt2_small.n_params()}, tolerance="exact")
    assert released == gpt2_small.n_params() == TOTAL


@pytest.mark.claim("params.formula_is_the_model")
@pytest.mark.parametrize("size", list(LARGER))
def test_the_larger_sizes_match_the_released_implementation(size, claim):
    d, blocks, heads, stated = LARGER[size]
    released = _released(d, blocks, heads)
    claim.record(stated=stated, measured=released, tolerance="exact", size=size, reference="transformers")
    assert released == stated


# "Whatever a model knows, most of the parameters holding it are in the per-position MLP": read
# of a whole model ("a model"), "most" as more than half of its parameters.  Measured on GPT-2
# small (the chapter's real model, tied weights) and on the chapter's own one-block model (the
# ladder's full row, fixtures/recipes.py "layernorm"), each counted on modules we build.
def _mlp_share(model) -> float:
    return sum(count(b.ff) for b in model.blocks) / model.n_params()


@pytest.mark.claim("ladder.mlp_holds_most_parameters")
def test_most_of_a_models_parameters_are_in_its_mlps(gpt2_small, claim):
    ours = build_on_meta(lambda: LanguageModel(next(r for r in LADDER if r.name == "layernorm").model))
    shares = {"GPT-2 small": _mlp_share(gpt2_small), "the chapter's one-block model": _mlp_share(ours)}
    decision = rules.bounds([[f"{name}: MLP share above one half", share, ">", 0.5] for name, share in shares.items()])
    claim.record(stated="most (more than half)", measured=shares, tolerance="more than half, each model",
                 decision=decision.measured, per_block=count(gpt2_small.blocks[0].ff) / count(gpt2_small.blocks[0]))
    claim.decide(decision.holds, "the MLPs hold " + ", ".join(f"{share:.1%} of {name}'s parameters"
                                                              for name, share in shares.items())
                 + f" (two thirds of each block's, {count(gpt2_small.blocks[0].ff) / count(gpt2_small.blocks[0]):.1%}; "
                   "the embedding tables hold much of the rest)")


@pytest.mark.claim("params.block_formula")
@settings(max_examples=30, deadline=None)
@given(d=st.integers(1, 2048))
def test_each_part_of_a_block_has_the_chapters_count(d):
    # the sub-counts, each on its built module (docs/choices.md, 2026-12-07): attention 4d^2 + 4d
    # with biases on W_q, W_k, W_v and W_o, the MLP 8d^2 + 5d, the two LayerNorms 4d
    block = build_on_meta(lambda: gpt2_block(d))
    assert count(block.attn) == 4 * d * d + 4 * d == attention_params(d)
    assert count(block.ff) == 8 * d * d + 5 * d == mlp_params(d)
    assert count(block.ln1) + count(block.ln2) == 4 * d
