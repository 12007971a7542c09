"""Every number the chapter prints is accounted for (textcheck/accounting.py, the declarations: claims/accounting.py): the anchor of an
asserted figure, a number a test reads, or declared with its reason."""
import pytest

from claims.accounting import DECLARED
from claims.chapter import CHAPTER
from claims.chapter_figures import FIGURES, Figure
from claims.number_words import DECLARED_WORDS
from textcheck import Declared, accounting
from textcheck.declared import NUMBER_REASONS


def test_every_number_in_the_chapter_is_a_figure_or_has_a_reason(chapter_text):
    unaccounted = [n.context(chapter_text) for n in accounting.numbers(chapter_text, CHAPTER) if not n.kind]
    assert not unaccounted, "numbers of the chapter with neither a figure nor a reason:\n" + "\n".join(unaccounted)


def test_every_declaration_is_in_the_chapter_once_with_a_known_reason(chapter_text):
    for d in DECLARED + DECLARED_WORDS:
        assert chapter_text.count(d.anchor) == 1, d.anchor
        assert d.reason in NUMBER_REASONS and d.why, d


def test_a_new_number_in_the_text_is_named_with_its_context(chapter_text):
    text = chapter_text.replace("Score, mask, normalise, mix.", "Score, mask, normalise, mix, 42 times.")
    missing = [n for n in accounting.numbers(text, CHAPTER) if not n.kind]
    assert [n.text for n in missing] == ["42"]
    assert "mix, [42] times" in missing[0].context(text)


def test_the_accounting_counts_add_up(chapter_text):
    a = accounting.accounting(chapter_text, CHAPTER)
    assert sum(a["by kind"].values()) == a["numbers"] and "unaccounted" not in a["by kind"]
    assert sum(a["words by kind"].values()) == a["words"] and "unaccounted" not in a["words by kind"]
    # every figure is one walked number, in digits or in words
    assert a["by kind"]["figure"] + a["words by kind"]["figure"] == a["figures"]


@pytest.mark.parametrize("d", [d for d in DECLARED + DECLARED_WORDS if d.reason == "repeat"], ids=lambda d: d.repeats)
def test_every_repeat_names_a_figure_with_the_same_value(d):
    # The restated number, as a plain number: what the declaration says it is, else the anchor's
    # only (or first) number.  Equal to the figure within the restatement's own rounding.
    inside = [t for _, _, t, _ in accounting.walk(d.anchor)]
    assert d.printed or len(inside) == 1, f"{d.anchor!r} holds {inside}: say which one it restates (printed=)"
    printed = d.printed or inside[0]
    assert d.repeats in FIGURES, f"{d.anchor!r}: a repeat must name the figure it restates"
    repeat, entry = Figure("repeat", "", printed, printed), FIGURES[d.repeats]
    assert abs(repeat.value - entry.value) <= repeat.rounding + 1e-12 * abs(entry.value), \
        f"{d.anchor!r} restates {printed}, but {d.repeats} is {entry.printed}"


def test_a_repeat_of_another_value_is_caught():
    d = Declared("and 9 for", "repeat", "", repeats="ladder.gain_four_heads")
    with pytest.raises(AssertionError, match="ladder.gain_four_heads is 3"):
        test_every_repeat_names_a_figure_with_the_same_value(d)


def test_no_number_is_declared_derived():
    # a number derived from other printed numbers reports a result: a figure with a test
    assert "derived" not in NUMBER_REASONS and not [d for d in DECLARED + DECLARED_WORDS if d.reason == "derived"]


def test_a_broken_declaration_is_named(chapter_text):
    text = chapter_text.replace("throttles from 1,785 MHz", "throttles from 1,800 MHz")
    assert any("1,785 MHz" in line for line in accounting.stale_declarations(text, CHAPTER))
    with pytest.raises(ValueError, match="not in the chapter"):
        accounting.numbers(text, CHAPTER)
