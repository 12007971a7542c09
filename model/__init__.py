"""The chapter's parts, one small module per concept, composed by `ModelConfig`."""
from model.average import CausalAverage, averaging_matrix
from model.attention import Head, MultiHeadAttention, score, causal_mask, mask, normalise, mix
from model.mlp import MLP
from model.block import Block
from model.positions import LearnedPositions, SinusoidalPositions, RoPE, ALiBi, alibi_slopes
from model.lm import ModelConfig, LanguageModel
from model import params

__all__ = ["CausalAverage", "averaging_matrix", "Head", "MultiHeadAttention", "score",
           "causal_mask", "mask", "normalise", "mix", "MLP", "Block", "LearnedPositions",
           "SinusoidalPositions", "RoPE", "ALiBi", "alibi_slopes", "ModelConfig",
           "LanguageModel", "params"]
