"""The engine's walks of a text, on small texts of their own (no text of any project): numbers, in
digits and words (textcheck/accounting.py), sentences and blocks (textcheck/sentences.py), quotes
(textcheck/anchors.py), and a figure's printed number from its anchor (textcheck/figures.py).
Moved from this chapter's bookkeeping checks (claims/bookkeeping/), which check its text with them."""
import pytest

from textcheck import Anchor, AnchorList, Figure, accounting, sentences
from textcheck.anchors import AnchorIndex

pytestmark = pytest.mark.fast


def test_number_words_are_walked_as_one_number_each():
    text = "seven to ten times, one hundredth, two thirds, ten thousand cores, twice, a doubling, twenty-one, zero"
    assert [t for _, _, t, word in accounting.walk(text) if word] == [
        "seven to ten", "one hundredth", "two thirds", "ten thousand", "twice", "doubling", "twenty-one", "zero"]


@pytest.mark.parametrize("text, expected", [
    ("Vaswani et al. say this. It holds.", ["Vaswani et al. say this.", "It holds."]),
    ("It is 0.96 at every width. Then 1.8 e-7 again.", ["It is 0.96 at every width.", "Then 1.8 e-7 again."]),
    ("A footnote.\u2078 Twelve blocks.", ["A footnote.\u2078", "Twelve blocks."]),
    ('It says "to keep it." Which is true.', ['It says "to keep it."', "Which is true."]),
    (r"keep a vector $\mathbf{h}$ and update it. Fixed size.", [r"keep a vector $\mathbf{h}$ and update it.", "Fixed size."]),
], ids=["et al.", "decimals", "a footnote mark", "a closing quote", "LaTeX braces"])
def test_the_walk_cuts_sentences_where_the_chapter_ends_them(text, expected):
    assert [u.text for u in sentences.units(text)] == expected


def test_listings_and_tables_are_kept_whole():
    text = "In code:\n\nclass A:\n    x = 1\n\n    def f(self):\n        return 2\n\nScore, mix."
    us = sentences.units(text)
    assert [(u.text, u.block) for u in us] == [("In code:", False), ("class A:\n    x = 1\n\n    def f(self):\n        return 2", True),
                                               ("Score, mix.", False)]


def test_a_template_with_slots_is_a_block():
    us = sentences.units("Train it.\n\nthe {x} did not cross the {y} .\n\nScore it.")
    assert [(u.text, u.block) for u in us] == [("Train it.", False), ("the {x} did not cross the {y} .", True),
                                               ("Score it.", False)]


def test_a_quote_twice_and_a_quote_missing_are_both_reported():
    lists = [AnchorList("a", (Anchor("twice", "a", "x"), Anchor("once", "a", "y"))),
             AnchorList("b", (Anchor("absent", "b", "z"),))]
    found = AnchorIndex("twice, once and twice").problems(lists)
    assert [(p.anchor.id, p.found) for p in found] == [("x", 2), ("z", 0)]


def test_a_figure_derives_its_printed_number_from_its_anchor():
    assert Figure("x", "c", anchor="a baseline of 59.71").printed == "59.71"
    assert Figure("x", "c", anchor="held-out referent accuracy  91.7 %").printed == "91.7 %"
    assert Figure("x", "c", anchor="is one hundredth").printed == "one hundredth"
    assert Figure("x", "c", anchor="Two thirds").value == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="ends with no number"):
        Figure("x", "c", anchor="and nothing saturates today")
