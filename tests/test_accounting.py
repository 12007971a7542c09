"""Every number the chapter prints is accounted for (claims/accounting.py): the anchor of an
asserted figure, a number a test reads, or declared with its reason."""
import pytest

from claims import accounting
from claims.accounting import DECLARED, REASONS, numbers
from claims.chapter_figures import FIGURES, WORDS


def test_every_number_in_the_chapter_is_a_figure_or_has_a_reason(chapter_text):
    unaccounted = [n.context(chapter_text) for n in numbers(chapter_text) if not n.kind]
    assert not unaccounted, "numbers of the chapter with neither a figure nor a reason:\n" + "\n".join(unaccounted)


def test_every_declaration_is_in_the_chapter_once_with_a_known_reason(chapter_text):
    for d in DECLARED:
        assert chapter_text.count(d.anchor) == 1, d.anchor
        assert d.reason in REASONS and d.why, d


def test_a_new_number_in_the_text_is_named_with_its_context(chapter_text):
    text = chapter_text.replace("Score, mask, normalise, mix.", "Score, mask, normalise, mix, 42 times.")
    missing = [n for n in numbers(text) if not n.kind]
    assert [n.text for n in missing] == ["42"]
    assert "mix, [42] times" in missing[0].context(text)


def test_the_accounting_counts_add_up(chapter_text):
    a = accounting.accounting(chapter_text)
    assert sum(a["by kind"].values()) == a["numbers"] and "unaccounted" not in a["by kind"]
    assert a["by kind"]["figure"] + sum(f.printed.lower() in WORDS for f in FIGURES.values()) == a["figures"]


def test_a_broken_declaration_is_named(chapter_text):
    text = chapter_text.replace("throttles from 1,785 MHz", "throttles from 1,800 MHz")
    assert any("1,785 MHz" in line for line in accounting.stale_declarations(text))
    with pytest.raises(ValueError, match="not in the chapter"):
        numbers(text)
