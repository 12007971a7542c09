"""The chapter's figures, each anchored in its text: the one home of a printed number.

Every entry: a stable figure ID (never renamed, like claim IDs), its claim ID, the number as the
chapter prints it ("37.82", "99.9 %", "ten"), and an anchor: a short verbatim quote around it,
unique in the chapter.  The value and its rounding are parsed from the printed digits (half a
unit of the last one; a percentage as a fraction; a number word as its whole number), never typed
again.  tests/test_chapter_figures.py finds every anchor in the chapter's text (data/chapter.py)
and the printed number inside it.  claims/registry.py FIGURES is derived from this table.

Started with the figures the registry shared; the figures still typed in the claim tests move
here next (the chapter-view issue).  Pure: no torch, no pytest.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

WORDS = {"nothing": 0, "zero": 0, "half": 0.5, "ten": 10, "eight": 8}


@dataclass(frozen=True)
class Figure:
    id: str
    claim: str
    printed: str                 # as the chapter prints it
    anchor: str                  # verbatim, unique in the chapter, containing `printed`

    @property
    def value(self) -> float:
        """The printed number: digits as written, a percentage as a fraction, a word as its number."""
        text = self.printed.strip()
        if text in WORDS:
            return WORDS[text]
        digits = text.rstrip(" %").replace(",", "")
        number = Decimal(digits)                                     # exact: 99.9 % is 0.999
        if text.endswith("%"):
            return float(number / 100)
        return int(number) if "." not in digits else float(number)   # printed whole, kept whole

    @property
    def rounding(self) -> float:
        """Half a unit of the last printed digit (a number word: half a unit, whole numbers)."""
        text = self.printed.strip()
        if text in WORDS:
            return 0.5
        digits = text.rstrip(" %").replace(",", "")
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        half = 0.5 * 10 ** -decimals
        return half / 100 if text.endswith("%") else half


def _f(fid: str, claim: str, printed: str, anchor: str) -> tuple[str, Figure]:
    return fid, Figure(fid, claim, printed, anchor)


FIGURES: dict[str, Figure] = dict([
    # the ladder's held-out perplexities the prose quotes, and depth's train perplexities
    _f("ladder.baseline", "average.residual_matches_baseline", "59.71", "60.45 against a baseline of 59.71"),
    _f("ladder.residual_average", "average.residual_matches_baseline", "60.45", "60.45 against a baseline of 59.71"),
    _f("ladder.layernorm", "depth.two_blocks_overfit", "38.07", "against one block's 18.77 and 38.07"),
    _f("ladder.two_blocks", "depth.two_blocks_overfit", "40.57", "a validation perplexity of 40.57"),
    _f("depth.one_block_train", "depth.two_blocks_overfit", "18.77", "against one block's 18.77 and 38.07"),
    _f("depth.two_blocks_train", "depth.two_blocks_overfit", "14.49", "a training perplexity of 14.49"),
    # the twelve-block table
    _f("norm.prenorm", "norm.prenorm_needs_no_warmup", "37.82", "pre-norm,  no warmup          perplexity   37.82"),
    _f("norm.prenorm_warmup", "norm.prenorm_needs_no_warmup", "37.62",
       "pre-norm,  200-step warmup    perplexity   37.62"),
    _f("norm.postnorm", "norm.postnorm_diverges", "308.05", "post-norm, no warmup          perplexity  308.05"),
    _f("norm.postnorm_warmup", "norm.warmup_rescues_postnorm", "37.88",
       "post-norm, 200-step warmup    perplexity   37.88"),
    # the gradient profile at initialisation
    _f("norm.grad_pre_first", "norm.grad_profile", "0.0498", "pre-norm    block 1 0.0498"),
    _f("norm.grad_pre_last", "norm.grad_profile", "0.0657", "block 12 0.0657"),
    _f("norm.grad_pre_ratio", "norm.grad_profile", "1.32", "0.0657   ratio last/first  1.32"),
    _f("norm.grad_post_first", "norm.grad_profile", "0.0977", "post-norm   block 1 0.0977"),
    _f("norm.grad_post_last", "norm.grad_profile", "0.1613", "block 12 0.1613"),
    _f("norm.grad_post_ratio", "norm.grad_profile", "1.65", "0.1613   ratio last/first  1.65"),
    # what dividing by sqrt(d_k) is worth, and the runaway
    _f("scale.worth_32", "scale.no_effect_at_32", "nothing", "the division is worth nothing"),
    _f("scale.worth_256", "scale.matters_at_256", "18", "at 256 it is worth 18 points"),
    _f("scale.worth_1024", "scale.matters_at_256", "17", "at 1024 it is worth 17"),
    _f("scale.runaway_init_sd", "scale.runaway", "21", "goes from 21 at initialisation to 5147"),
    _f("scale.runaway_sd", "scale.runaway", "5147", "goes from 21 at initialisation to 5147"),
    _f("scale.runaway_entropy", "scale.runaway", "zero", "the attention entropy falls to zero"),
    _f("scale.runaway_frozen", "scale.runaway", "99.9 %", "99.9 % of rows put more than 0.99"),
    _f("scale.divided_sd", "scale.runaway", "3.44", "score standard deviation of 3.44"),
    # one attention layer's cost
    _f("cost.time_exponent", "cost.time_quadratic", "1.91", "time ~ n^1.91"),
    _f("cost.projections_x8", "cost.projections_linear", "ten", "a factor of ten for a factor of eight"),
    _f("cost.time_ratio_4096", "cost.time_quadratic", "4.37", "4096    225.432     4.37"),
    _f("cost.time_ratio_8192", "cost.time_quadratic", "3.69", "8192    832.838     3.69"),
    _f("cost.memory_exponent", "cost.memory_quadratic", "1.87", "memory ~ n^1.87"),
    _f("cost.memory_last_ratio", "cost.memory_quadratic", "3.91", "3.91 at the last step"),
    *(_f(f"cost.peak_mb_{n}", "cost.peak_memory", mb, anchor) for n, mb, anchor in (
        (128, "14.6", "0.5       14.6"), (256, "19.2", "2.0       19.2"), (512, "34.4", "8.0       34.4"),
        (1024, "89.1", "32.0       89.1"), (2048, "296.1", "128.0      296.1"), (4096, "1100.1", "512.0     1100.1"),
        (8192, "4300.1", "2048.0     4300.1"))),
    # ALiBi past the trained length
    _f("positions.alibi_64", "positions.alibi_improves", "44.95", "from 44.95 to 42.49"),
    _f("positions.alibi_256", "positions.alibi_improves", "42.49", "from 44.95 to 42.49"),
    # the Winograd accuracies
    _f("winograd.cheatable_uniform", "winograd.category_cheat", "100.0 %",
       "uniform causal average           held-out referent accuracy 100.0 %"),
    _f("winograd.cheatable_one_block", "winograd.category_cheat", "91.7 %",
       "one transformer block            held-out referent accuracy  91.7 %"),
    _f("winograd.hardened_uniform", "winograd.uniform_fails", "27.9 %", "The uniform average lands at 27.9 %"),
    _f("winograd.hardened_uniform_wrong_noun", "winograd.uniform_fails", "half",
       "answers with the wrong noun of the pair exactly half the time"),
    _f("winograd.hardened_one_block", "winograd.one_block", "92.7 %", "one block reached 92.7 %"),
    _f("winograd.hardened_two_blocks", "winograd.two_blocks", "100 %", "two reached 100 %"),
])


def located(text: str, figure: Figure) -> int:
    """Where the figure's anchor is in the chapter, or -1; raises if the anchor is there twice."""
    first = text.find(figure.anchor)
    if first >= 0 and text.find(figure.anchor, first + 1) >= 0:
        raise ValueError(f"{figure.id}: the anchor {figure.anchor!r} is not unique in the chapter")
    return first


def printed_in_anchor(figure: Figure) -> bool:
    """The printed number stands in its anchor as a whole number or word, not inside another."""
    return re.search(rf"(?<![\w.]){re.escape(figure.printed)}(?![\w]|\.\d)", figure.anchor) is not None
