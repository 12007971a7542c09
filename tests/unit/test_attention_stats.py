"""The softmax statistics behind scale.runaway, on heads whose answer is known."""
import math

import pytest
import torch

from fixtures.attention_stats import softmax_stats
from model import LanguageModel, ModelConfig

pytestmark = pytest.mark.fast

T = 16


def one_head(d_head: int, divide: bool = False) -> LanguageModel:
    torch.manual_seed(0)
    return LanguageModel(ModelConfig(n_heads=1, d_head=d_head, divide=divide, mlp=False, norm="none",
                                     context=T))


def test_a_head_with_zero_queries_is_uniform_over_its_prefix():
    m = one_head(64)
    with torch.no_grad():
        m.attention[0].qkv.weight[:64].zero_()                      # W_q = 0: every score is 0
    (stats,) = softmax_stats(m, torch.randint(0, 1024, (4, T)))
    # row t averages over t + 1 tokens: entropy log(t + 1), rows t = 1 .. T-1
    assert stats["entropy"] == pytest.approx(sum(math.log(t + 1) for t in range(1, T)) / (T - 1), rel=1e-5)
    assert stats["score_sd"] == 0 and stats["frozen"] == 0
    assert stats["rows"] == 4 * (T - 1)


def test_an_undivided_wide_head_starts_frozen_and_dividing_thaws_it():
    x = torch.randint(0, 1024, (8, T))
    (undivided,) = softmax_stats(one_head(1024), x)
    (divided,) = softmax_stats(one_head(1024, divide=True), x)
    # token + position embeddings have variance 2, q and k entries 2/3: score sd = sqrt(d) * 2/3
    assert undivided["score_sd"] == pytest.approx(math.sqrt(1024) * 2 / 3, rel=0.1)
    assert divided["score_sd"] == pytest.approx(undivided["score_sd"] / 32, rel=1e-4)
    assert undivided["frozen"] > 0.5 > divided["frozen"]
    assert undivided["entropy"] < divided["entropy"]


def test_statistics_leave_the_model_as_they_found_it():
    m = one_head(64)
    m.train()
    softmax_stats(m, torch.randint(0, 1024, (2, T)))
    assert m.training and m.attention[0]._seen is None
