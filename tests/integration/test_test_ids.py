"""Test names carry no chapter figure (issue #33, item 4).

A test is named for what it checks; the figures it asserts are its `@pytest.mark.figure(...)`
marks (claims/chapter_figures.py), never typed again in its name or its parametrize ids.  A
figure typed into a name goes stale the day the chapter's number changes, and it forks the
figure's one home.  This collects every test of every tier (`pytest --collect-only`, no `-m`)
and looks for the chapter's printed figures in the collected ids.

The rule.  The figures are FIGURES and READ (a number the chapter prints, read without being
asserted).  A figure is looked for in every spelling an id could give it: the printed digits as
they are ("27.9", "0.0498", "124,439,808"), with each '.' or ',' made '_' ("27_9", "124_439_808")
or a ',' dropped ("124439808"; a dropped '.' as in 1. below), a percentage without its sign; a
match is a whole number, never part of a longer one ("1_91" is not found in "11_91", nor "768"
in "7680"; under 1., not in "1_91_2" either).
Before looking, the figure IDs and claim IDs an id names are taken out of it: a param id made
from a figure ID ("params.blocks_12", "map_tired_1_14") names a figure, it does not type one.

1. Any collected id, any test: a figure whose digits are distinctive must not appear.
   Distinctive: printed with a decimal point or an exponent ("0.96", "2.0", "3.91", "1.000"),
   or an integer of at least three significant digits ("1,115,394", "5147", "768", "188";
   trailing zeros do not count, so "100" and "500,000" are round numbers, not distinctive).
   A spelling with its decimal point dropped is another number ("1.91" -> "191" is a line number
   in a docs test's id): it is looked for only where it still reads as a typed figure, starting
   with a zero ("0.0498" -> "00498") or keeping four significant digits ("15.908" -> "15908").
   Setup sizes are not figures here: the sequence lengths n, widths d and head widths d_k the
   chapter's runs are set up with (the powers of two, 2 to 16384) and GPT-2 small's width 768
   are natural words of an id (`[16384]`, `[768]`, `d=1024`), even where the chapter also
   prints one as a result (`cost.oom_tokens` "16,384", `ladder.layernorm_params` "768").
   Small integers ("4", "12", "64", "90") and number words ("one", "four", "half") are not
   distinctive either: they are seeds, head counts, positions and ordinary words of ids.
2. A test's own figures: in the id of a test that carries `figure(F)`, F must not appear in
   any spelling at all -- however small, whether or not a setup size, rounded or cut to fewer
   decimals where that keeps three significant digits ("308.05" as "~308"; but "64.249" is not
   found in "d=64", a setup size), and as a word too ("seven", "two thirds", "nothing",
   "tenfold"; an integer up to twelve also as its word, a number word also as its digits).
   There the number can only be the figure it asserts.

Every offending id is printed with the figure ID it carries.
"""
from __future__ import annotations

import re
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from claims import registry
from claims.chapter_figures import FIGURES
from claims.chapter_reads import READ

ROOT = Path(__file__).resolve().parent.parent.parent

SETUP_SIZES = {2 ** k for k in range(1, 15)} | {768}
NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
WORD_OF = {v: w for w, v in NUMBER_WORDS.items()}


def _significant(digits: str) -> int:
    """How many significant digits a run of digits has: leading and trailing zeros do not count."""
    return len(digits.strip("0"))


def _is_word(printed: str) -> bool:
    return not any(ch.isdigit() for ch in printed)


def _coarser(text: str) -> set[str]:
    """A decimal's coarser roundings and truncations that keep three significant digits and are
    no setup size: "308.05" -> "308.1", "308.0", "308"; not "3.975" -> "4", nor "64.249" -> "64"."""
    if "." not in text or "e" in text:
        return set()
    number, places = Decimal(text.replace(",", "")), len(text.split(".")[1])
    out = set()
    for k in range(places):
        unit = Decimal(1).scaleb(-k)
        out |= {str(number.quantize(unit, rounding=ROUND_HALF_UP)), str(number.quantize(unit, rounding=ROUND_DOWN))}
    return {c for c in out if _significant(c.replace(".", "").lstrip("0")) >= 3
            and not (c.isdigit() and int(c) in SETUP_SIZES)}


def spellings(printed: str, own: bool = False) -> set[str]:
    """The ways a test id could type a printed number (lower case); `own`: rule 2's, more of them."""
    text = printed.strip().lower()
    if _is_word(text):                                   # "seven", "two thirds", "a third"
        words = text.split()
        out = {"_".join(words), " ".join(words), "".join(words), "-".join(words)}
        value = NUMBER_WORDS.get(text)
        return out | ({str(value), f"{text}fold"} if value is not None else set())
    text = text.rstrip(" %")
    out = {text} | (_coarser(text) if own else set())
    for sep in ".,-":
        out |= {s.replace(sep, "_") for s in out}
    out |= {s.replace(",", "") for s in out}
    dropped = {s.replace(".", "") for s in out if "." in s}
    out |= {s for s in dropped if s.startswith("0") or _significant(re.sub(r"\D", "", s.split("e")[0])) >= 4}
    if re.fullmatch(r"\d+", text) and int(text) in WORD_OF:
        out |= {WORD_OF[int(text)], f"{WORD_OF[int(text)]}fold"}
    return out


def distinctive(printed: str) -> bool:
    """Rule 1: a figure that may appear in no test id at all (see the module's docstring)."""
    text = printed.strip().rstrip(" %")
    if _is_word(text):
        return False
    if "." in text or "e" in text.lower():
        return True
    digits = text.replace(",", "")
    return _significant(digits) >= 3 and int(digits) not in SETUP_SIZES


def _pattern(spelling: str, own: bool = False) -> re.Pattern:
    """A spelling as a whole number (or whole words): not inside a longer run of digits, nor
    inside a longer word.  Rule 1 also keeps out digits joined to it by a separator ("1_91" is
    not in "1_91_2"); rule 2 reads a separator between two of a test's own figures as one
    ("90" and "10" are both in "split_is_90_10")."""
    if spelling[0].isalpha():
        return re.compile(rf"(?<![a-z0-9]){re.escape(spelling)}(?![a-z0-9])")
    if own:
        return re.compile(rf"(?<!\d){re.escape(spelling)}(?!\d)")
    return re.compile(rf"(?<!\d)(?<!\d[._,]){re.escape(spelling)}(?!\d)(?![._,]\d)")


PATTERNS = {fid: [_pattern(s) for s in sorted(spellings(f.printed))] for fid, f in {**FIGURES, **READ}.items()}
OWN_PATTERNS = {fid: [_pattern(s, own=True) for s in sorted(spellings(f.printed, own=True))]
                for fid, f in FIGURES.items()}
# figure IDs, claim IDs, and a figure ID's name without its section where it has digits
# ("map_tired_1_14"; not "four_times", whose word rule 2 must still see): longest first
_NAMES = sorted({*FIGURES, *READ, *registry.CLAIMS,
                 *(n for f in [*FIGURES, *READ] if re.search(r"\d", n := f.split(".", 1)[1]))},
                key=len, reverse=True)
_IDS = re.compile("|".join(rf"(?<![a-z0-9_]){re.escape(n.lower())}(?![a-z0-9_])" for n in _NAMES))


def offences(nodeid: str, own: list[str]) -> list[str]:
    """The figure IDs an id types: rule 1 for every figure, rule 2 for the test's own."""
    name = _IDS.sub("#", nodeid.split("::", 1)[-1].lower())
    found = [fid for fid in own if fid in OWN_PATTERNS and any(p.search(name) for p in OWN_PATTERNS[fid])]
    for fid, patterns in PATTERNS.items():
        f = FIGURES.get(fid) or READ[fid]
        if fid not in found and distinctive(f.printed) and any(p.search(name) for p in patterns):
            found.append(fid)
    return found


def _named(found: list[str], own: list[str]) -> str:
    """The figures an id types, its own first; others that print the same number as one."""
    by_printed: dict[str, list[str]] = {}
    for fid in found:
        by_printed.setdefault((FIGURES.get(fid) or READ[fid]).printed, []).append(fid)
    out = []
    for printed, fids in by_printed.items():
        mine = [f for f in fids if f in own]
        shown = mine or fids[:2]
        more = f" and {len(fids) - len(shown)} more printing it" if len(fids) > len(shown) and not mine else ""
        out.append(f"{', '.join(shown)}{more} ({printed!r})")
    return "; ".join(out)


def test_no_collected_test_id_carries_a_printed_figure(collected_suite):
    # the whole suite, every tier, as pytest collects it (tests/collected.py: in this process)
    assert collected_suite.ret == 0, collected_suite.out[-3000:] + collected_suite.err[-3000:]
    items = [(nodeid, sorted(figures)) for nodeid, (_, figures) in collected_suite.items.items()]
    assert len(items) > 500 and any("claims/test_params.py::" in n for n, _ in items)   # every tier, both dirs
    bad = [f"  {nodeid}: {_named(found, own)}" for nodeid, own in items if (found := offences(nodeid, own))]
    assert not bad, ("test ids that type the chapter's figures (name the test for what it checks; "
                     "its figures are its figure marks):\n" + "\n".join(bad))


CASES = {
    "digits as printed, no separators": ("claims/test_corpus.py::test_corpus_has_1115394_characters", [], {"corpus.characters"}),
    "thousands as underscores": ("claims/test_corpus.py::test_corpus_has_1_115_394_characters", [], {"corpus.characters"}),
    "thousands as commas": ("claims/test_params.py::test_total_is_124,439,808", [], {"params.total"}),
    "a percentage, point as underscore": ("claims/test_winograd.py::test_uniform_lands_at_27_9_percent", [],
                                          {"winograd.hardened_uniform"}),
    "a decimal in a param id": ("claims/test_norm.py::test_profile[prenorm first block 0.0498]", [], {"norm.grad_pre_first"}),
    "a decimal after a dash": ("claims/test_cost.py::test_exponent[last ratio-3.91]", [],
                               {"cost.memory_last_ratio", "cost.mb_x4_8192"}),
    "inside a longer number": ("claims/test_x.py::test_a[11_91]", [], set()),
    "followed by more digits": ("claims/test_x.py::test_a[1_91_2]", [], set()),
    "point dropped, another number": ("docs/x.md:191:python x", [], set()),
    "point dropped, leading zero": ("claims/test_x.py::test_a_00498", [], {"norm.grad_pre_first"}),
    "a setup size": ("claims/test_x.py::test_a[16384-cpu]", [], set()),
    "a setup size, width": ("claims/test_x.py::test_a[d=768]", [], set()),
    "a setup size, own figure": ("claims/test_x.py::test_layernorm_costs_768", ["ladder.layernorm_params"],
                                 {"ladder.layernorm_params"}),
    "a small integer": ("claims/test_x.py::test_a[seed 4]", [], set()),
    "a small integer, own figure": ("claims/test_x.py::test_converges_on_4", ["cost.converges_on_4"],
                                    {"cost.converges_on_4"}),
    "two own figures joined": ("claims/test_x.py::test_split_is_90_10", ["corpus.split_train", "corpus.split_held_out"],
                               {"corpus.split_train", "corpus.split_held_out"}),
    "a word, own figure": ("claims/test_x.py::test_seven_rows_in_ten", ["scale.frozen_seven"], {"scale.frozen_seven"}),
    "a word's digits, own figure": ("claims/test_x.py::test_a_7_rows", ["scale.frozen_seven"], {"scale.frozen_seven"}),
    "a word with fold, own figure": ("claims/test_x.py::test_grows_tenfold", ["cost.projections_x8"],
                                     {"cost.projections_x8"}),
    "two words, own figure": ("claims/test_x.py::test_mlp_share[two thirds]", ["ladder.mlp_share"], {"ladder.mlp_share"}),
    "rounded, own figure": ("claims/test_x.py::test_a[post-norm ends at ~308]", ["norm.postnorm"], {"norm.postnorm"}),
    "rounded to a setup size, own figure": ("claims/test_x.py::test_score_variance_is_d[d=64]", ["scale.var_64"], set()),
    "rounded, not own": ("claims/test_x.py::test_a[post-norm ends at ~308]", [], set()),
    "a longer word": ("claims/test_x.py::test_one_block_seventh", ["scale.frozen_seven"], set()),
    "a figure ID": ("claims/test_x.py::test_a[params.blocks_12]", ["params.blocks_12"], set()),
    "a figure ID's name": ("claims/test_x.py::test_a[map_tired_1_14]", [], set()),
    "a claim ID": ("claims/test_x.py::test_a[ladder.four_heads]", ["ladder.gain_four_heads"], set()),
}


@pytest.mark.parametrize("nodeid,own,expected", CASES.values(), ids=CASES)
def test_the_rule_finds_a_figure_in_any_spelling_and_only_a_whole_one(nodeid, own, expected):
    assert set(offences(nodeid, own)) == expected
