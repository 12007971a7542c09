"""ModelConfig rejects options it does not know, naming the ones it does."""
import pytest
import torch

from fixtures.recipes import LADDER
from model import LanguageModel, ModelConfig


@pytest.mark.parametrize("field,value,expected", [
    ("mixer", "lstm", "mixer must be one of"),
    ("positions", "xpos", "positions must be one of"),
    ("norm", "mid", "norm must be"),
])
def test_unknown_option_is_a_clear_error(field, value, expected):
    with pytest.raises(ValueError, match=expected):
        ModelConfig(**{field: value})


def test_rope_needs_attention():
    with pytest.raises(ValueError, match="acts on attention scores"):
        ModelConfig(mixer="average", positions="rope")


@pytest.mark.parametrize("recipe", LADDER, ids=[r.name for r in LADDER])
def test_every_ladder_row_builds_and_runs(recipe):
    import torch
    m = LanguageModel(recipe.model)
    logits, loss = m(torch.randint(0, 1024, (2, 16)), torch.randint(0, 1024, (2, 16)))
    assert logits.shape == (2, 16, 1024) and loss.item() > 0


def test_ladder_rows_add_one_piece_each():
    sizes = {r.name: LanguageModel(r.model).n_params() for r in LADDER}
    assert sizes["baseline"] == sizes["average"]                    # the average has no parameters
    assert sizes["average_positions"] - sizes["average"] == 128 * 128
    assert sizes["one_head"] - sizes["average_positions"] == 3 * 128 * 128


def test_a_wide_head_is_mapped_back_to_the_model_width():
    import torch

    from fixtures.recipes import get
    m = LanguageModel(get("scale1024_undivided").model)
    (att,) = m.attention
    assert (att.n_heads, att.d_head) == (1, 1024)
    assert att.qkv.weight.shape == (3 * 1024, 128)                  # W_q, W_k, W_v: 128 -> 1024
    assert att.out.weight.shape == (128, 1024)                      # W_o: 1024 -> 128
    with m.capture() as seen:
        logits = m(torch.randint(0, 1024, (2, 16)))
    assert logits.shape == (2, 16, 1024) and seen["blocks.0.attn.weights"].shape == (2, 1, 16, 16)


def test_a_head_wider_than_the_model_needs_w_o():
    with pytest.raises(ValueError, match="out_proj=False needs"):
        LanguageModel(ModelConfig(n_heads=1, d_head=256, out_proj=False))


def test_capture_names_each_layers_weights_and_restores_the_model_even_on_error():
    import pytest
    import torch
    m = LanguageModel(ModelConfig(n_blocks=2, context=16)).eval()
    idx = torch.randint(0, 1024, (2, 16))
    with torch.no_grad():
        plain = m(idx)
        with m.capture() as seen:
            captured = m(idx)
    assert sorted(seen) == ["blocks.0.attn.scores", "blocks.0.attn.weights",
                            "blocks.1.attn.scores", "blocks.1.attn.weights"]
    assert seen["blocks.1.attn.weights"].shape == (2, 4, 16, 16)
    torch.testing.assert_close(captured, plain)        # the explicit path computes the same
    with pytest.raises(RuntimeError, match="boom"), m.capture():
        raise RuntimeError("boom")
    assert all(a._seen is None for a in m.attention)   # nothing is kept after the block


def test_captured_names_are_module_paths_and_weights_saved_under_the_old_name_still_load():
    """seen["blocks.0.attn.weights"] comes from model.blocks[0].attn; a state dict from before the
    sub-layer was called `attn` (`blocks.0.mixer.*`, cached models) loads into the same model."""
    model = LanguageModel(ModelConfig(n_blocks=2))
    names = {name for name, _ in model.named_modules()}
    with model.capture() as seen:
        model(torch.randint(1024, (1, 8)))
    assert all(key.rsplit(".", 1)[0] in names for key in seen)
    old = {k.replace(".attn.", ".mixer."): v for k, v in model.state_dict().items()}
    again = LanguageModel(ModelConfig(n_blocks=2))
    again.load_state_dict(old)
    assert all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), again.state_dict().values()))


def test_the_one_heads_ablations_each_drop_one_piece():
    """The qkv group's models beside the ladder's one head (fixtures/recipes.py QKV): without W_v
    the head keeps W_q and W_k and mixes the tokens themselves; with fixed weights it keeps W_v and
    its scores are one learned T x T matrix (no W_q, no W_k)."""
    from fixtures.recipes import RECIPES
    sizes = {n: LanguageModel(RECIPES[n].model).n_params() for n in ("one_head", "no_value_map", "fixed_weights")}
    assert sizes["one_head"] - sizes["no_value_map"] == 128 * 128                       # W_v
    assert sizes["one_head"] - sizes["fixed_weights"] == 2 * 128 * 128 - 128 * 128      # W_q, W_k for T x T


def test_without_w_v_the_head_mixes_the_tokens_themselves():
    from model import MultiHeadAttention, causal_mask, mask, normalise, score
    torch.manual_seed(0)
    x = torch.randn(2, 9, 16)
    for heads in (1, 4):
        att = MultiHeadAttention(16, heads, values=False, out_proj=heads > 1)
        q, k, v = att.split_heads(x)
        assert torch.equal(v, x.view(2, 9, heads, 16 // heads).transpose(1, 2))
        assert torch.allclose(att(x, path="fused"), att(x, path="explicit"), atol=1e-6)
    att = MultiHeadAttention(16, 1, values=False, out_proj=False)
    q, k, _ = att.split_heads(x)
    w = normalise(mask(score(q, k), causal_mask(9)))
    assert torch.allclose(att(x), (w @ x.unsqueeze(1)).squeeze(1), atol=1e-6)
    with pytest.raises(ValueError, match="values=False needs"):
        MultiHeadAttention(16, 1, values=False, d_head=32)


def test_fixed_weights_are_the_same_for_every_input_and_start_as_the_average():
    from model import averaging_matrix, causal_mask, mask, normalise
    from model.attention import FixedWeights
    torch.manual_seed(0)
    mixer = FixedWeights(16, 4, context=12)
    x = torch.randn(3, 10, 16)
    assert torch.allclose(mixer(x), mixer.out(averaging_matrix(10) @ mixer.v(x)), atol=1e-6)   # zero scores: uniform
    with torch.no_grad():
        mixer.scores.normal_()
    w = normalise(mask(mixer.scores[:, :10, :10], causal_mask(10)))          # (h, T, T), from the parameters alone
    v = mixer.v(x).view(3, 10, 4, 4).transpose(1, 2)                          # (B, h, T, d_head)
    assert torch.allclose(mixer(x), mixer.out((w @ v).transpose(1, 2).reshape(3, 10, 16)), atol=1e-6)
    assert torch.equal(w[:, 2, 3:], torch.zeros(4, 7))                        # causal: position 2 never sees 3 on
