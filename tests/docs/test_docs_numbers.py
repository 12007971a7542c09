"""Every number the manual states is accounted for, as claims/accounting.py accounts for the
chapter's: README.md, docs/*.md and benchmarks/README.md (tests/docs/docs_pages.py reads them).

A number is a run of digits as written ("16,384", "0.563", "1e-4", "2.13.0"), a number word
(two to twenty) before a unit that goes stale (seconds, minutes, hours, CPU-hours, seeds, steps,
claims, figures, tests): "about sixteen hours" is a number ("one" is left out: "one test per
figure" is a rule, not a count), or an estimate of a duration ("about a minute": ESTIMATE).  Not a
number: the digits of a name or of notation ("fp32", "GPT-2", "AVX-512", "x8", "n^2", "12d"), and
a date.  Inline code that is prose in a code font, words and numbers only (`3 of 26`), is read as
prose: it is what a page says, not a command or an identifier (PROSE_CODE).  Each number is accounted for by where it is
or by what it is, in this order:

1. generated: inside a block that `python -m claims.report --readme` writes
   (claims/report/readme.py README_BLOCKS): the README's summary, docs/claims.md's table;
2. code: inside inline code, a fenced or an indented code block.  Code is commands, their
   options, identifiers and what a program prints, not a statement about the project: the
   commands are run or declared by tests/docs/test_docs_commands.py, their options are checked against
   --help by tests/docs/test_docs.py, and the seeds of a command that trains the Winograd models are
   checked here (test_a_winograd_command_trains_the_figure_rules_seeds);
3. dated: a measurement with its date.  The unit that holds it (a paragraph, a list item, a table
   row), its table's caption (the paragraph right above the table) or a heading above it holds an
   ISO date (2026-12-01): the number is true of that day, and stays true.  Never a count of what
   the project holds or what a run of it gave (STATE_COUNT: "134 records", "89 hold", "155
   passed"): those go stale the day after and are facts of the committed files, or not stated.
   A benchmark's figure on record (benchmarks/README.md, "Figures on record") is tied to its
   source: the script its row names exists and prints that figure's name
   (test_every_figure_on_record_names_the_script_that_prints_it);
4. a fact of the code (FACTS): a phrase of the docs, its numbers, and the values the code holds,
   read from the code (never typed here) and compared at the precision the doc prints;
5. declared: not about the project, each kind with its reason: DECLARED (a numbered list's item
   number; an issue, session or chapter number), "chapter" (the chapter's own number, quoted as
   the chapter's: CHAPTER_WHY) and "quotation" (inside a verbatim quotation found in the chapter or
   the source: QUOTE_WHY).

Anything else fails, naming the page, the line and the number in its context.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import pytest
from docs_pages import ROOT, Page, pages

# a module-level constant of a source file, read without importing it (claims/test_*.py too: tests
# import no test module, tests/unit/test_layout.py); the one reader, the setup check's
from claims.chapter import CHAPTER
from claims.chapter_setup import constant as _module_constant

DATE = re.compile(r"(?<!\d)20\d\d-[01]\d-[0-3]\d(?:[T ][0-2]\d:[0-5]\d(?::[0-5]\d)?(?:\+00:00|Z| UTC)?)?(?!\d)")
NUMBER = re.compile(r"(?<![\w.^])(?<![A-Za-z]-)\d+(?:[.,]\d+)*(?:e[-+]?\d+)?(?![\w^]|\.\d)")
WORDS = {w: i for i, w in enumerate(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"])}
UNITS = r"(?:CPU-)?(?:hours?|minutes?|seconds?|seeds?|steps?|claims?|figures?|tests?)"
WORD = re.compile(rf"(?i)\b(?:{'|'.join(w for w in WORDS if w not in ('zero', 'one'))})\b"
                  rf"(?=[\s-]+(?:more\s+)?{UNITS}\b)")
# "about a minute": an estimate of how long something takes, which goes stale like "58 s" (a bound,
# "under a minute", is a target, not an estimate)
ESTIMATE = re.compile(r"(?i)(?<=\babout )an?(?= (?:second|minute|hour)\b)")
# inline code that is prose in a code font: words and numbers only, no command (`3 of 26`)
PROSE_CODE = re.compile(r"(?i)(?!(?:pytest|python|pip|bash|git)\b)(?=[^`]*[a-z])(?=[^`]*\d)[a-z0-9 ,.]*\s[a-z0-9 ,.]*")
# a count of what the project holds or what a run gave: never accepted as dated (see 3. above)
STATE_COUNT = re.compile(r"\s+(?:passed|xfailed|failed|skipped|errors?|records?|holds?|hold|refuted)\b")


def value(token: str) -> float:
    token = token.strip()
    return float(WORDS[token.lower()]) if token.lower() in WORDS else float(token.replace(",", ""))




# ---------------------------------------------------------------------------------------------
# 4. Facts of the code.  Each: a pattern over a page's text (code spans included, so that a phrase
# may name the constant it states) whose named groups are numbers, and a function returning, for
# each group, the value the code holds: read from the code, never typed here.  A number in a group
# is accounted for only if it equals the code's value (at the precision the doc prints it), and
# every fact must be found on its pages.
# ---------------------------------------------------------------------------------------------

def _source_number(path: str, pattern: str) -> float:
    """A number written in a source file's code, where no constant names it (an expression's factor)."""
    m = re.search(pattern, (ROOT / path).read_text())
    assert m, f"{path}: {pattern!r} not found"
    return float(m.group(1))


def _requires_python() -> str:
    m = re.search(r'requires-python\s*=\s*">=([\d.]+)"', (ROOT / "pyproject.toml").read_text())
    assert m
    return m.group(1)


def _shell_variable(path: str, name: str) -> str:
    m = re.search(rf"^{name}=([^\s#]+)", (ROOT / path).read_text(), re.MULTILINE)
    assert m, f"{path}: no {name}=..."
    return m.group(1)


def _option_default(script: str, option: str) -> float:
    m = re.search(rf'add_argument\(\s*"{re.escape(option)}"[^)]*?default=([\d.]+)', (ROOT / script).read_text())
    assert m, f"{script}: no {option} with a numeric default"
    return float(m.group(1))


def _least_seeds() -> int:
    """The fewest seeds --seeds accepts (fixtures/engine.py seeds_option), found by asking it."""
    import argparse

    from fixtures.engine import seeds_option
    for n in range(5):
        try:
            seeds_option(str(n))
            return n
        except argparse.ArgumentTypeError:
            continue
    raise AssertionError("seeds_option accepts none of 0..4")


def _printed(printed: str) -> dict:
    from claims.chapter_figures import Figure
    f = Figure("docs.example", "corpus.chars", printed, printed)
    return {"v": f.value, "r": f.rounding}


def _figure(fid: str) -> float:
    from claims.chapter_figures import FIGURES
    return FIGURES[fid].value


def _count(prefix: str) -> int:
    from claims.chapter_figures import FIGURES
    return sum(fid.startswith(prefix) for fid in FIGURES)


@cache
def _recipes():
    from fixtures import recipes
    return recipes


def _cost_scale() -> tuple[dict, int]:
    """claims/test_cost.py CHAPTER_SCALE (its keywords) and CAP_BYTES."""
    return (_module_constant("claims/test_cost.py", "CHAPTER_SCALE"), _module_constant("claims/test_cost.py", "CAP_BYTES"))


def _winograd_seeds() -> int:
    return _module_constant("claims/test_winograd.py", "SEEDS")


def _decide():
    from textcheck import decide
    return decide


def _min_seeds() -> int:
    return _module_constant("textcheck/decide.py", "MIN_SEEDS")


@cache
def _figure_records() -> dict:
    """results/figures.json: its records, and how many hold and are refuted (their verdicts)."""
    from textcheck import evidence as figure_evidence
    records = figure_evidence.load(CHAPTER, ROOT / "results" / "figures.json")
    return {"n": len(records), "holds": sum(r.verdict == "holds" for r in records),
            "refuted": sum(r.verdict == "refuted" for r in records),
            "undecided": sum(r.verdict == "undecided" for r in records),
            "underspecified": sum(r.verdict == "underspecified" for r in records)}


@dataclass(frozen=True)
class Fact:
    pattern: str
    values: Callable[[re.Match], dict]     # group -> the code's value (a number, or a version string)
    why: str
    pages: tuple[str, ...] = ()            # where it is stated; empty: any page


FACTS: list[Fact] = [
    # the smoke scale, the fingerprint, the seeds, the held-out curve (docs/running.md, README.md)
    Fact(r"(?P<n>\w+)\s+steps per recipe|architecture for\s+(?P<m>\w+)\s+steps",
         lambda m: {"n": _recipes().SMOKE_STEPS, "m": _recipes().SMOKE_STEPS}, "fixtures/recipes.py SMOKE_STEPS"),
    Fact(r"trained for (?P<n>\d+) steps\s+from a fixed seed",
         lambda m: {"n": __import__("fixtures.fingerprint").fingerprint._STEPS.steps}, "fixtures/fingerprint.py _STEPS"),
    Fact(r"float tolerance \((?P<n>[\de.-]+),",
         lambda m: {"n": _module_constant("fixtures/fingerprint.py", "RTOL")}, "fixtures/fingerprint.py RTOL"),
    Fact(r"seeds per trained recipe, (?P<lo>\d+) to (?P<hi>\d+);",
         lambda m: {"lo": _least_seeds(), "hi": _module_constant("fixtures/engine.py", "MAX_SEEDS")},
         "fixtures/engine.py seeds_option: 1 to MAX_SEEDS"),
    Fact(r"needs at least (?P<n>\d+), `textcheck/decide.py` MIN_SEEDS", lambda m: {"n": _min_seeds()}, "textcheck/decide.py MIN_SEEDS"),
    Fact(r"perplexity on (?P<w>\d+) fixed held-out windows at (?P<p>\d+) evenly\s+spaced steps|on its (?P<s>\d+)-window subset",
         lambda m: {"w": _module_constant("fixtures/train.py", "HELD_OUT_WINDOWS"),
                    "s": _module_constant("fixtures/train.py", "HELD_OUT_WINDOWS"),
                    "p": _module_constant("fixtures/train.py", "HELD_OUT_POINTS")},
         "fixtures/train.py HELD_OUT_WINDOWS, HELD_OUT_POINTS"),
    # the chapter's scale as the recipes hold it (docs/gpu-runner.md, docs/choices.md)
    Fact(r"chapter's scale \((?P<steps>\d+) steps, batch (?P<batch>\d+), (?P<seeds>\w+) seeds; (?P<wino>\w+)\s+for the Winograd",
         lambda m: {"steps": _recipes().TrainConfig().steps, "batch": _recipes().TrainConfig().batch_size,
                    "seeds": _min_seeds(), "wino": _winograd_seeds()},
         "fixtures/recipes.py TrainConfig, textcheck/decide.py MIN_SEEDS, claims/test_winograd.py SEEDS"),
    Fact(r"\((?P<n>\d+(?:\.\d+)*) or newer, a CUDA build\)",
         lambda m: {"n": ".".join(map(str, _module_constant("benchmarks/gpu_tier.py", "MIN_TORCH")))},
         "benchmarks/gpu_tier.py MIN_TORCH"),
    Fact(r"`--budget-minutes` \((?P<n>\d+) by default\)",
         lambda m: {"n": _option_default("benchmarks/gpu_tier.py", "--budget-minutes")}, "benchmarks/gpu_tier.py"),
    Fact(r"`ATTENTION_CLAIMS_LOCK_WAIT` seconds \((?P<n>\d+) by default\)",
         lambda m: {"n": _module_constant("safeio/locks.py", "LOCK_WAIT_DEFAULT")}, "safeio/locks.py LOCK_WAIT_DEFAULT"),
    Fact(r"Python (?P<n>\d+(?:\.\d+)*) or newer", lambda m: {"n": _requires_python()}, "pyproject.toml requires-python"),
    # the readings (docs/readings.md)
    Fact(r"stopped at that step, (?P<a>\d+),.*?the first (?P<b>\d+) steps of the (?P<c>\d+)-step run",
         lambda m: {"a": _recipes().PRENORM_STOP_AT, "b": _recipes().PRENORM_STOP_AT,
                    "c": _recipes().NORM[0].train.steps}, "fixtures/setup.py PRENORM_STOP_AT, fixtures/recipes.py NORM"),
    Fact(r"(?P<n>\w+) seeds each: (?P<c>\d+) wide, the width used until\s+2026-12-03 \(ours (?P<w>\d+)",
         lambda m: {"n": _module_constant("fixtures/setup.py", "READING_SEEDS"),
                    "c": _recipes().winograd_reading("cheatable", "uniform", "width64").model.d_model,
                    "w": _recipes().WINOGRAD_WIDTH}, "fixtures/setup.py READING_SEEDS, fixtures/recipes.py WINOGRAD_WIDTH, "
                                                     "WINOGRAD_READINGS"),
    Fact(r"a model (?P<a>\d+) wide throughout, one head of (?P<b>\d+)",
         lambda m: {"a": _recipes().RECIPES["runaway_wide_divided"].model.d_model,
                    "b": _recipes().RECIPES["runaway_wide_divided"].model.d_head}, "fixtures/recipes.py READINGS"),
    # the choices (docs/choices.md)
    Fact(r"(?P<b>\d+) byte symbols \+\s+(?P<m>\d+) merges",
         lambda m: {"b": 256, "m": _module_constant("data/bpe.py", "VOCAB_SIZE") - 256},
         "data/bpe.py VOCAB_SIZE: the 256 byte values and the merges that fill the rest"),
    Fact(r"weight decay (?P<n>\d+(?:\.\d+)*)", lambda m: {"n": _recipes().TrainConfig().weight_decay},
         "fixtures/recipes.py TrainConfig.weight_decay"),
    Fact(r"held-out (?P<h>\d+) %;.*?training (?P<t>\d+) %",
         lambda m: {"h": 100 * (1 - _module_constant("data/batches.py", "TRAIN_FRACTION")),
                    "t": 100 * _module_constant("data/batches.py", "TRAIN_FRACTION")}, "data/batches.py TRAIN_FRACTION"),
    Fact(r"at d_k = (?P<a>\d+) and (?P<b>\d+)\): the model stays (?P<w>\d+) wide",
         lambda m: {"a": min(_recipes().WIDE_HEADS), "b": max(_recipes().WIDE_HEADS), "w": _recipes().ModelConfig().d_model},
         "fixtures/setup.py WIDE_HEADS, model/lm.py ModelConfig.d_model"),
    Fact(r"back to (?P<w>\d+), no MLP and no LayerNorm; (?P<s>\d+) steps, batch (?P<b>\d+)",
         lambda m: {"w": _recipes().ModelConfig().d_model, "s": _recipes().WIDE_TRAIN.steps,
                    "b": _recipes().WIDE_TRAIN.batch_size}, "fixtures/recipes.py WIDE_TRAIN"),
    Fact(r"`sqrt\(d_k\) \* 2/3`, (?P<v>\d+(?:\.\d+)?) at\s+d_k = (?P<d>\d+)",
         lambda m: {"v": math.sqrt(max(_recipes().WIDE_HEADS)) * 2 / 3, "d": max(_recipes().WIDE_HEADS)},
         "the score sd at initialisation of the widest head (fixtures/recipes.py, the comment above WIDE_TRAIN)"),
    Fact(r"rows with > (?P<f>\d+(?:\.\d+)?) on\s+one token\) are taken on the first (?P<w>\d+) held-out windows",
         lambda m: {"f": _source_number("fixtures/softmax_stats.py", r"values > ([\d.]+)\)"),
                    "w": _module_constant("fixtures/softmax_stats.py", "N_WINDOWS")},
         "fixtures/softmax_stats.py: the frozen-row threshold, N_WINDOWS"),
    Fact(r"at d_k = (?P<h>\d+) \((?P<s>\d+)-step setup\) and (?P<a>\d+) and (?P<b>\d+)",
         lambda m: {"h": _recipes().ModelConfig().d_model // _recipes().ModelConfig().n_heads,
                    "s": _recipes().TrainConfig().steps, "a": min(_recipes().WIDE_HEADS), "b": max(_recipes().WIDE_HEADS)},
         "model/lm.py ModelConfig (the ladder's head width), fixtures/recipes.py TrainConfig, WIDE_HEADS"),
    Fact(r"blocks, (?P<s>\d+) steps, lr (?P<lr>[\de.-]+)\): the warmup is linear, lr/(?P<w>\d+) at the\s+first step up to lr at step (?P<w2>\d+)",
         lambda m: {"s": _recipes().NORM[0].train.steps, "lr": _recipes().NORM[0].train.lr,
                    "w": max(r.train.warmup_steps for r in _recipes().NORM),
                    "w2": max(r.train.warmup_steps for r in _recipes().NORM)}, "fixtures/recipes.py NORM"),
    Fact(r"the learned table has (?P<rows>\d+) rows, trained on (?P<c>\d+)-token\s+windows, so rows (?P<a>\d+)\.\.(?P<b>\d+)",
         lambda m: {"rows": max(_recipes().POSITIONS_EVAL), "c": _recipes().POSITIONS_CONTEXT,
                    "a": _recipes().POSITIONS_CONTEXT, "b": max(_recipes().POSITIONS_EVAL) - 1},
         "fixtures/recipes.py POSITIONS_CONTEXT, POSITIONS_EVAL"),
    Fact(r"one worse than at (?P<n>\d+) but better|perplexity at (?P<p>\d+)\)|"
         r"the (?P<a>\d+)/(?P<b>\d+) and (?P<c>\d+)/(?P<d>\d+) ratios",
         lambda m: {"n": _recipes().POSITIONS_CONTEXT, "p": _recipes().POSITIONS_CONTEXT,
                    "a": sorted(_recipes().POSITIONS_EVAL)[1], "b": _recipes().POSITIONS_CONTEXT,
                    "c": sorted(_recipes().POSITIONS_EVAL)[2], "d": _recipes().POSITIONS_CONTEXT},
         "fixtures/recipes.py POSITIONS_CONTEXT, POSITIONS_EVAL", ("docs/choices.md",)),
    # the cost claims (docs/cost.md) and the rule (docs/figure-rule.md)
    Fact(r"one attention layer \((?P<w>\d+) wide, (?P<h>\d+) heads, fp32\) for n = (?P<a>\d+) \.\.\. (?P<b>\d+)",
         lambda m: {"w": _module_constant("fixtures/cost.py", "WIDTH"), "h": _module_constant("fixtures/cost.py", "HEADS"),
                    "a": _cost_scale()[0]["ns"][0], "b": _cost_scale()[0]["ns"][-1]},
         "fixtures/cost.py WIDTH, HEADS; claims/test_cost.py CHAPTER_SCALE"),
    Fact(r"the layer at\s+(?P<n>[\d,]+) tokens in a child process capped at (?P<cap>\d+) GiB of address space "
         r"\(it fails; (?P<fits>[\d,]+) fits\)",
         lambda m: {"n": _figure("cost.oom_tokens"), "cap": _cost_scale()[1] / 2**30, "fits": _cost_scale()[0]["fits_n"]},
         "claims/test_cost.py CAP_BYTES, CHAPTER_SCALE.fits_n; the chapter's cost.oom_tokens"),
    Fact(r"(?P<n>\d+) % bootstrap interval",
         lambda m: {"n": 100 - 2 * _source_number("claims/timing.py", r"np\.percentile\(.*?\[([\d.]+), [\d.]+\]\)")},
         "claims/timing.py: the percentiles of the bootstrap"),
    Fact(r"at least \+-(?P<n>[\d.]+) run-to-run sd|value \+- (?P<m>[\d.]+) run-to-run sd",
         lambda m: {"n": round(__import__("scipy.stats").stats.norm.ppf(1 - _decide().LEVEL / 2), 2),
                    "m": round(__import__("scipy.stats").stats.norm.ppf(1 - _decide().LEVEL / 2), 2)},
         "textcheck/decide.py floor: the normal quantile at LEVEL"),
    Fact(r"it takes (?P<a>\d+) more processes, up to (?P<b>\d+)",
         lambda m: {"a": _module_constant("claims/timing.py", "REPEAT_STEP"), "b": _module_constant("claims/timing.py", "MAX_REPEATS")},
         "claims/timing.py REPEAT_STEP, MAX_REPEATS", ("docs/cost.md",)),
    Fact(r"two blocks, (?P<n>\d+) seeds each", lambda m: {"n": _winograd_seeds()}, "claims/test_winograd.py SEEDS"),
    # rule version 3 (docs/figure-rule.md): scipy's quantiles at the level textcheck/decide.py names
    Fact(r"inside the (?P<n>\d+) %\s+prediction interval", lambda m: {"n": round(100 * (1 - _decide().LEVEL))},
         "textcheck/decide.py LEVEL", ("docs/figure-rule.md", "README.md")),
    Fact(r"over at least (?P<n>\d+) seeds", lambda m: {"n": _min_seeds()}, "textcheck/decide.py MIN_SEEDS",
         ("docs/figure-rule.md",)),
    Fact(r"At (?P<a>\d+) seeds\s+that asks for t beyond (?P<ta>\d+\.\d+), at (?P<b>\d+) beyond (?P<tb>\d+\.\d+), at "
         r"(?P<c>\d+) beyond (?P<tc>\d+\.\d+)",
         lambda m: {k: (int(m[k]) if len(k) == 1 else round(_decide().t_quantile(int(m[k[1]])), 2))
                    for k in ("a", "b", "c", "ta", "tb", "tc")},
         "textcheck/decide.py t_quantile (scipy.stats)", ("docs/figure-rule.md",)),
    Fact(r"cannot reach (?P<l>\d+) % below (?P<n>\d+) seeds \(its smallest two-sided p at (?P<k>\d+) seeds is\s+"
         r"(?P<one>\d+)/(?P<d>\d+)\)",
         lambda m: {"l": round(100 * _decide().LEVEL), "one": 1,
                    "n": next(n for n in range(2, 20) if 2 / 2 ** n < _decide().LEVEL),
                    "k": int(m["k"]), "d": 2 ** int(m["k"]) // 2},
         "the sign-flip test's smallest two-sided p, 2 / 2^n, against textcheck/decide.py LEVEL", ("docs/figure-rule.md",)),
    Fact(r"significant at (?P<n>\d+) %", lambda m: {"n": round(100 * _decide().LEVEL)}, "textcheck/decide.py LEVEL"),
    Fact(r"field, exit (?P<n>\d+)\.", lambda m: {"n": _source_number("textcheck/rederive.py", r"print\(e, file=sys.stderr\)\s+return (\d+)")},
         "textcheck/rederive.py: a record that cannot be decided exits 2", ("docs/evidence.md",)),
    # the committed evidence (docs/evidence.md)
    Fact(r"`results/figures.json` holds (?P<n>\d+) records: (?P<h>\d+) hold, (?P<r>\d+) are refuted, (?P<u>\d+)\s+are\s+"
         r"undecided\s+and\s+(?P<s>\d+)\s+(?:is|are)\s+underspecified",
         lambda m: {"n": _figure_records()["n"], "h": _figure_records()["holds"], "r": _figure_records()["refuted"],
                    "u": _figure_records()["undecided"], "s": _figure_records()["underspecified"]},
         "results/figures.json: its records and their verdicts"),
    # the figure table (docs/figures.md)
    Fact(r"`(?P<p>[^`]+)` is\s+(?P<v>\d+(?:\.\d+)?) ± (?P<r>\d+(?:\.\d+)?)", lambda m: _printed(m.group("p")),
         "claims/chapter_figures.py Figure: the value and rounding parsed from the printed digits"),
    Fact(r"so the (?P<a>\d+) x (?P<b>\d+) averaging matrix is (?P<n>\d+) figures",
         lambda m: {"a": math.isqrt(_count("mask.a_")), "b": math.isqrt(_count("mask.a_")), "n": _count("mask.a_")},
         "claims/chapter_figures.py: the mask.a_* cells"),
    Fact(r"the Winograd maps (?P<n>\d+)", lambda m: {"n": _count("winograd.map_")},
         "claims/chapter_figures.py: the winograd.map_* cells"),
    Fact(r"`(?P<id>[a-z]+\.[a-z0-9_]+)` \((?:n\^)?(?P<n>\d+(?:[.,]\d+)*)\)", lambda m: {"n": _figure(m.group("id"))},
         "a figure ID and its printed value (claims/chapter_figures.py FIGURES)"),
    # the benchmarks (benchmarks/README.md)
    Fact(r"projected to the whole tier \((?P<n>\d+) seeds\)",
         lambda m: {"n": _option_default("benchmarks/full_cost.py", "--seeds")}, "benchmarks/full_cost.py --seeds"),
    Fact(r"matmul peak measured in the same process \((?P<n>\d+)\^3\)",
         lambda m: {"n": _source_number("benchmarks/train_throughput.py", r"def matmul_peak\(n: int = (\d+)")},
         "benchmarks/train_throughput.py matmul_peak"),
    Fact(r"at width (?P<n>\d+) it is the largest matmul", lambda m: {"n": _recipes().ModelConfig().d_model},
         "model/lm.py ModelConfig.d_model"),
]


def fact_value_matches(token: str, expected) -> bool:
    """The doc's number equals the code's at the precision the doc prints it."""
    if isinstance(expected, str):
        return token == expected
    try:
        got = value(token)
    except (ValueError, KeyError):
        return False
    decimals = len(token.split(".")[1]) if "." in token and "e" not in token.lower() else None
    if decimals is not None:
        return round(float(expected), decimals) == got
    return math.isclose(float(expected), got, rel_tol=1e-9, abs_tol=0.0)


# ---------------------------------------------------------------------------------------------
# 5. Declared: numbers that are not about the project.  Each kind: a pattern whose named groups
# are the numbers it accounts for, and the reason.  Two more kinds are decided in `walk`:
# "chapter" (CHAPTER_WHY) and "quotation" (QUOTE_WHY).
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Declared:
    kind: str
    pattern: str
    why: str


DECLARED: list[Declared] = [
    Declared("ordinal", r"(?m)^[ \t]*(?P<n>\d+)\.[ \t]",
             "the number of a numbered list's item: the list's order, not a quantity"),
    Declared("reference", r"\b(?:[Ii]ssues?|[Ss]essions?|Chapters?)\s+(?P<n>\d+)(?![\w]|[.,]\d)|#(?P<m>\d+)\b",
             "an issue, a session of the project's history, a chapter of the course: a name, not a quantity"),
]

CHAPTER_WHY = ("the chapter's own number, quoted: it is among the chapter's numbers as the code holds them "
               "(claims/chapter_figures.py, claims/accounting.py), and its clause says it is the chapter's")
QUOTE_WHY = ("inside a verbatim quotation (\"...\") of the chapter or of the project's source, found there: "
             "the number is the quoted text's")
# a clause ends at these; "ours" and "our" begin our side of a comparison
CLAUSE_END = re.compile(r"[;()\[\]|]|[.!?](?=\s)|\bours?\b")
CHAPTER_WORD = re.compile(r"(?i)\bchapter(?:'s)?\b")
CLAUSE_REACH = 60


@cache
def chapter_numbers() -> frozenset[str]:
    """Every number the chapter prints, as the code holds them without the chapter's text: the
    figures as printed and their anchors (claims/chapter_figures.py FIGURES, READ) and the
    declarations' anchors (claims/accounting.py DECLARED); "$1.8 \\times 10^{-7}$" also as 1.8e-7."""
    from claims.accounting import DECLARED as CHAPTER_DECLARED
    from claims.chapter_figures import FIGURES
    from claims.chapter_reads import READ
    texts = [t for f in [*FIGURES.values(), *READ.values()] for t in (f.printed, f.anchor)]
    texts += [d.anchor for d in CHAPTER_DECLARED]
    found = {m.group() for t in texts for m in NUMBER.finditer(t)}
    found |= {f"{m.group(1)}e{m.group(2)}" for t in texts
              for m in re.finditer(r"([\d.]+) \\times 10\^\{(-?\d+)\}", t)}
    return frozenset(found)


@cache
def quotable() -> str:
    """What a quotation may quote: the chapter's text as the code holds it, and the project's source."""
    from claims.accounting import DECLARED as CHAPTER_DECLARED
    from claims.chapter_figures import FIGURES
    from claims.chapter_reads import READ
    texts = [t for f in [*FIGURES.values(), *READ.values()] for t in (f.printed, f.anchor)]
    texts += [d.anchor for d in CHAPTER_DECLARED]
    texts += [p.read_text() for d in ("claims", "fixtures", "data", "model", "benchmarks") for p in (ROOT / d).rglob("*.py")]
    return " ".join(" ".join(t.split()) for t in texts)


# ---------------------------------------------------------------------------------------------
# The walk
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Number:
    page: str
    line: int
    start: int
    end: int
    text: str
    how: str = ""          # what accounts for it; "" when nothing does

    def context(self, page: Page, width: int = 50) -> str:
        before = page.text[max(0, self.start - width):self.start].replace("\n", " ")
        after = page.text[self.end:self.end + width].replace("\n", " ")
        return f"{self.page}:{self.line}: ...{before}[{self.text}]{after}..."


def attributed_to_the_chapter(masked: str, unit, start: int, end: int) -> bool:
    """The word "chapter" is in the number's clause: within CLAUSE_REACH characters before or
    after it, in its unit, with no clause end (CLAUSE_END) between."""
    for m in CHAPTER_WORD.finditer(masked, unit.start, unit.end):
        between = masked[m.end():start] if m.end() <= start else masked[end:m.start()] if m.start() >= end else None
        if between is not None and len(between) <= CLAUSE_REACH and not CLAUSE_END.search(between):
            return True
    return False


def dated_units(page: Page) -> set:
    """The units whose numbers are dated: a date in the unit, in its table's caption, or in a
    heading above it."""
    dated, headings, caption_dated, previous = set(), {}, False, None
    for u in page.units:
        text = page.text[u.start:u.end]
        has_date = bool(DATE.search(text))
        if u.kind == "heading":
            level = len(text.strip()) - len(text.strip().lstrip("#"))
            headings = {k: v for k, v in headings.items() if k < level}
            headings[level] = has_date
        if u.kind == "row" and (previous is None or previous.kind != "row"):
            caption_dated = (previous is not None and previous.kind in ("paragraph", "item")
                             and bool(DATE.search(page.text[previous.start:previous.end])))
        if has_date or any(headings.values()) or (u.kind == "row" and caption_dated):
            dated.add(u)
        previous = u
    return dated


def fact_matches(page: Page) -> list[tuple[Fact, re.Match]]:
    return [(f, m) for f in FACTS if not f.pages or page.name in f.pages
            for m in re.finditer(f.pattern, page.text, re.DOTALL)]


def prose_masked(page: Page) -> str:
    """The page's prose (Page.masked) with its prose-like inline code (PROSE_CODE) put back."""
    masked = page.masked
    for offset, content in page.inline_code:
        if PROSE_CODE.fullmatch(content):
            masked = masked[:offset] + content + masked[offset + len(content):]
    return masked


def walk(page: Page) -> list[Number]:
    masked = prose_masked(page)
    for m in DATE.finditer(masked):                       # a date is the date, never a quantity
        masked = masked[:m.start()] + " " * (m.end() - m.start()) + masked[m.end():]
    owner: dict[int, str] = {}
    for fact, m in fact_matches(page):
        expected = fact.values(m)
        for g, token in m.groupdict().items():
            if token is not None and g in expected and fact_value_matches(token, expected[g]):
                owner.setdefault(m.start(g), f"fact: {fact.why}")
    for d in DECLARED:
        for m in re.finditer(d.pattern, masked):
            for g, token in m.groupdict().items():
                if token is not None:
                    owner.setdefault(m.start(g), f"{d.kind}: {d.why}")
    for m in re.finditer(r'"([^"]{1,100})"', masked):
        if m.group(1).strip() and " ".join(m.group(1).split()) in quotable():
            for n in NUMBER.finditer(masked, m.start(1), m.end(1)):
                owner.setdefault(n.start(), f"quotation: {QUOTE_WHY}")
    dated = dated_units(page)
    out = []
    for t in sorted([*NUMBER.finditer(masked), *WORD.finditer(masked), *ESTIMATE.finditer(masked)],
                    key=lambda m: m.start()):
        unit = next((u for u in page.units if u.start <= t.start() < u.end), None)
        how = owner.get(t.start(), "")
        if not how and unit in dated and not STATE_COUNT.match(masked, t.end()):
            how = "dated"
        if not how and unit and t.group() in chapter_numbers() and \
                attributed_to_the_chapter(masked, unit, t.start(), t.end()):
            how = f"chapter: {CHAPTER_WHY}"
        out.append(Number(page.name, page.line_of(t.start()), t.start(), t.end(), t.group(), how))
    return out


PAGE_LIST = pages()


@pytest.mark.parametrize("page", PAGE_LIST, ids=lambda p: p.name)
def test_every_number_in_the_docs_is_generated_dated_a_fact_or_declared(page):
    missing = [n.context(page) for n in walk(page) if not n.how]
    assert not missing, (f"{page.name}: numbers that are neither generated, in code, dated, a fact of the code "
                         f"(FACTS) nor declared (DECLARED, chapter, quotation); date a measurement, state a "
                         f"fact in FACTS, or move a count into a generated block:\n" + "\n".join(missing))


def test_every_fact_is_stated_and_true():
    """Each fact is found in the docs, and every number it names is the code's."""
    found, wrong = {f.why: 0 for f in FACTS}, []
    for page in PAGE_LIST:
        for fact, m in fact_matches(page):
            found[fact.why] += 1
            expected = fact.values(m)
            for g, token in m.groupdict().items():
                if token is not None and g in expected and not fact_value_matches(token, expected[g]):
                    wrong.append(f"{page.name}:{page.line_of(m.start(g))}: {token!r} where the code holds "
                                 f"{expected[g]!r} ({fact.why})")
    assert not wrong, "numbers in the docs that differ from the code:\n" + "\n".join(wrong)
    unused = [why for why, n in found.items() if not n]
    assert not unused, f"facts no page states any more (remove them, or restore the phrase): {unused}"


def test_a_winograd_command_trains_the_figure_rules_seeds():
    """A documented command that trains the Winograd models asks for the seeds the figure rule
    needs for them (claims/test_winograd.py SEEDS), not fewer."""
    wrong = []
    for page in PAGE_LIST:
        lines = [line for _, _, _, body in page.fenced for line in body.splitlines()] + [c for _, c in page.inline_code]
        for line in lines:
            m = re.search(r"python -m fixtures winograd\b.*?--seeds (\d+)", line)
            if m and int(m.group(1)) < _winograd_seeds():
                wrong.append(f"{page.name}: `{line.strip()}` (the figure rule needs {_winograd_seeds()})")
    assert not wrong, "Winograd commands with too few seeds:\n" + "\n".join(wrong)


def test_an_undated_count_is_named_with_its_page_and_line():
    page = Page(ROOT / "docs" / "running.md")
    page.text = page.text + "\nThe fast tier has 71 claims and runs in about twelve seconds.\n"
    missing = [n for n in walk(page) if not n.how]
    assert [n.text for n in missing] == ["71", "twelve"]
    assert missing[0].context(page).startswith(f"docs/running.md:{page.text.count(chr(10))}:")


def test_a_dated_count_a_fact_and_a_quoted_chapter_number_pass():
    from claims.chapter_figures import FIGURES
    printed = FIGURES["ladder.baseline"].printed
    page = Page(ROOT / "docs" / "running.md")
    page.text = (page.text + "\nOn 2026-12-02 the fast tier had 71 claims.\n\n"
                 f"The baseline is the chapter's {printed}.\n\nThe chapter's baseline is lower; ours is {printed}.\n")
    missing = [n.text for n in walk(page) if not n.how]
    assert missing == [printed], missing          # ours, not the chapter's: the clause ends at "ours"


def test_a_fact_that_the_code_contradicts_is_named():
    page = Page(ROOT / "docs" / "running.md")
    smoke = _recipes().SMOKE_STEPS
    wrong = next(w for w, i in WORDS.items() if i == smoke + 1)
    page.text = page.text.replace(f"architecture for {next(w for w, i in WORDS.items() if i == smoke)} steps",
                                  f"architecture for {wrong} steps")
    assert wrong in [n.text for n in walk(page) if not n.how]


def test_every_figure_on_record_names_the_script_that_prints_it():
    """A benchmark's figure on record is tied to its source: the row's command runs a script of
    benchmarks/ that exists and prints the figure's name as its headline (`name=value`)."""
    text = (ROOT / "benchmarks" / "README.md").read_text()
    table = text[text.index("## Figures on record"):].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in table.splitlines()
            if re.match(r"\|\s*`\w+`\s*\|", line)]
    assert rows, "benchmarks/README.md: no figure on record"
    untied = []
    for name, *_, how in rows:
        script = re.search(r"benchmarks/\w+\.py", how)
        path = ROOT / script.group() if script else None
        if path is None or not path.is_file() or f"{name.strip('`')}=" not in path.read_text():
            untied.append(f"{name}: {how}")
    assert not untied, "figures on record whose command names no script that prints them:\n" + "\n".join(untied)


def test_a_count_of_the_project_is_never_merely_dated():
    """A run's outcome or the evidence's size, dated, is still named: it is a fact of the committed
    files (FACTS) or not stated (issue 42: "106 passed, 9 xfailed" stood dated beside 155 and 13)."""
    page = Page(ROOT / "docs" / "running.md")
    page.text += ("\nOn 2026-12-02 the fast tier gave 106 passed, 9 xfailed in 58 s; results/ held 132 records.\n\n"
                  "The hint says which is focused (`3 of 26`); it took about a minute.\n")
    missing = [n.text for n in walk(page) if not n.how]
    assert missing == ["106", "9", "132", "3", "26", "a"], missing


# A bound on how long something takes ("in under a minute", "well under a second", "in about two
# seconds") goes stale like a measured time: each one the docs state is tied here to the benchmark
# figure on record that it summarises (benchmarks/README.md, "Figures on record": the value of one
# of its `key:value` parts, or its first number), and holds only while that figure is within it.
# (page, the phrase as the page writes it, the figure on record, its part or None, the bound in seconds)
BOUND = re.compile(r"(?i)\b(?:well |just )?(?:under|within|below|in about|about) (?:an?|one|two|three|five|ten|"
                   r"\d+(?:\.\d+)?) ?(?:s|seconds?|minutes?|hours?)\b")
BOUNDS = [
    ("README.md", "under 25 s", "fresh_clone_seconds", "fast_n2_first", 25),
    ("README.md", "under 6 min", "fresh_clone_seconds", "test_command", 360),
    ("README.md", "well under a second", "rederive_in_process_seconds", None, 0.5),
    ("docs/running.md", "under 25 s", "fresh_clone_seconds", "fast_n2_first", 25),
    ("docs/evidence.md", "well under a second", "rederive_in_process_seconds", None, 0.5),
    # declared, each with its reason: no command of the project's that a benchmark times
    ("docs/adding-a-claim.md", "well under a second", None, None, "one example test's run, not a tier's"),
    ("docs/cost.md", "within an hour", None, None, "how fast a logged timing drifts, not a command's time"),
    ("docs/figures.md", "about 0.1 s", None, None, "a dated measurement (2026-12-02) of one git log"),
    ("benchmarks/README.md", "under 2 s", None, None, "the chapter view's target, beside its figure on record"),
]


def figures_on_record() -> dict[str, str]:
    """{figure name: its value cell} of benchmarks/README.md's "Figures on record"."""
    text = (ROOT / "benchmarks" / "README.md").read_text()
    table = text[text.index("## Figures on record"):].split("\n## ", 1)[0]
    return {m[1]: m[2] for m in re.finditer(r"^\|\s*`(\w+)`\s*\|([^|]*)\|", table, re.MULTILINE)}


def on_record(figure: str, part: str | None, cells: dict[str, str]) -> float:
    cell = cells[figure]
    found = re.search(rf"\b{part}:([\d.]+)", cell) if part else re.search(r"[\d.]+", cell)
    assert found, f"benchmarks/README.md: the figure on record {figure} has no {part or 'number'}: {cell[:120]}"
    return float(found.group(1) if part else found.group())


def test_every_timing_bound_in_the_docs_is_tied_to_a_figure_on_record_and_holds():
    cells, stated, untied, stale = figures_on_record(), {}, [], []
    for page in pages():
        rel = str(page.path.relative_to(ROOT))
        for m in BOUND.finditer(page.text):
            stated.setdefault((rel, m.group().lower()), page.text.count("\n", 0, m.start()) + 1)
    tied = {(page, phrase.lower()) for page, phrase, *_ in BOUNDS}
    for (rel, phrase), line in sorted(stated.items()):
        if not any(rel == p and phrase.endswith(t) for p, t in tied):
            untied.append(f"{rel}:{line}: {phrase!r}")
    for page, phrase, figure, part, bound in BOUNDS:
        if figure is not None and any(rel == page and p.endswith(phrase.lower()) for rel, p in stated):
            value = on_record(figure, part, cells)
            if not value < bound:          # (a declared entry's "bound" is its reason)
                stale.append(f"{page}: {phrase!r}, but {figure}{':' + part if part else ''} is {value} on record")
    assert not untied, "timing bounds tied to no figure on record (BOUNDS):\n" + "\n".join(untied)
    assert not stale, "timing bounds the figures on record no longer meet:\n" + "\n".join(stale)
