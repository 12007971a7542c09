"""The text's bookkeeping: every figure's anchor is in the text once, every number of the text is
a figure or declared with its reason, every sentence asserts its claims or says why it asserts none."""
import pytest

from claimcheck import accounting, sentences
from claimcheck.figures import located, printed_in_anchor
from examples.running_mean.chapter import CHAPTER

pytestmark = pytest.mark.fast


def test_every_figure_is_anchored_once_with_its_printed_number(chapter_text):
    for f in CHAPTER.figures.values():
        assert located(chapter_text, f) >= 0 and printed_in_anchor(f), f.id


def test_every_number_is_a_figure_or_declared(chapter_text):
    missing = [n.context(chapter_text) for n in accounting.numbers(chapter_text, CHAPTER) if not n.kind]
    assert not missing, "\n".join(missing)


def test_every_sentence_is_accounted_for(chapter_text):
    assert sentences.problems(chapter_text, CHAPTER.sentences, CHAPTER.claims) == []


def test_every_claim_is_asserted_by_a_sentence(chapter_text):
    asserted = {c for a in sentences.accounted(chapter_text, CHAPTER.sentences) for c in a.claims}
    assert asserted == set(CHAPTER.claims)
