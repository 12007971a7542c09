"""The chapter's parts, one small module per concept, composed by `ModelConfig`."""
from model import params
from model.attention import Head, MultiHeadAttention, capture, causal_mask, mask, mix, normalise, score
from model.average import AverageLM, CausalAverage, averaging_matrix
from model.block import Block
from model.lm import LanguageModel, ModelConfig
from model.mlp import MLP
from model.positions import ALiBi, LearnedPositions, RoPE, SinusoidalPositions, alibi_slopes

__all__ = ["MLP", "ALiBi", "AverageLM", "Block", "CausalAverage", "Head", "LanguageModel", "LearnedPositions",
           "ModelConfig", "MultiHeadAttention", "RoPE", "SinusoidalPositions", "alibi_slopes",
           "averaging_matrix", "capture", "causal_mask", "mask", "mix", "normalise", "params", "score"]
