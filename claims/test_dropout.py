"""Dropout sits in three places: the attention weights after the softmax, each sub-layer's
output before the residual add, and the embedding sum.  In eval mode it is the identity.

Placement is tested by behaviour: switch one site to p = 1 (drop everything) and see what
the model computes."""
import pytest
import torch

from model import LanguageModel, ModelConfig, capture

pytestmark = pytest.mark.fast


def model(p: float) -> LanguageModel:
    torch.manual_seed(0)
    return LanguageModel(ModelConfig(dropout=p, n_blocks=2))


def only(m: LanguageModel, site: str, p: float = 1.0) -> LanguageModel:
    for name, mod in m.named_modules():
        if isinstance(mod, torch.nn.Dropout):
            mod.p = p if name.endswith(site) else 0.0
    return m


@pytest.mark.claim("dropout.placement")
def test_dropout_sites_are_where_the_chapter_puts_them(claim):
    m = model(0.1)
    sites = sorted({name.rsplit(".", 1)[-1] for name, mod in m.named_modules()
                    if isinstance(mod, torch.nn.Dropout)})
    claim.record(stated=["attention weights", "sub-layer outputs", "embedding sum"],
                 measured=sites, tolerance="exact")
    assert sites == ["attn_dropout", "emb_dropout", "resid_dropout"]


@pytest.mark.claim("dropout.placement")
def test_dropout_is_the_identity_in_eval_mode():
    idx = torch.randint(0, 1024, (2, 64))
    with torch.no_grad():
        assert torch.equal(model(0.5).eval()(idx), model(0.0).eval()(idx))


@pytest.mark.claim("dropout.placement")
def test_attention_dropout_acts_on_the_weights_after_the_softmax():
    m = only(model(0.1).train(), "attn_dropout")
    att = m.blocks[0].attn
    x = torch.randn(2, 16, 128)
    with torch.no_grad(), capture(att) as seen:
        y = att(x)
    assert torch.allclose(seen["attn.weights"].sum(-1), torch.ones(2, 4, 16))   # softmax untouched...
    assert torch.equal(y, att.out.bias.expand_as(y))                    # ...but no value mixed in


@pytest.mark.claim("dropout.placement")
def test_residual_dropout_acts_before_the_add():
    m = only(model(0.1).train(), "resid_dropout")
    x = torch.randn(2, 16, 128)
    with torch.no_grad():
        assert torch.equal(m.blocks[0](x), x)                           # both sub-layers dropped


@pytest.mark.claim("dropout.placement")
def test_embedding_dropout_acts_on_the_sum_of_token_and_position():
    m = only(model(0.1).train(), "emb_dropout")
    seen = {}
    m.blocks[0].register_forward_pre_hook(lambda mod, args: seen.setdefault("x", args[0]))
    with torch.no_grad():
        m(torch.randint(0, 1024, (2, 16)))
    assert torch.count_nonzero(seen["x"]) == 0                          # token + position, dropped
