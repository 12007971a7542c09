"""The text's bookkeeping, checked by the engine (textcheck.bookkeeping): every figure's anchor is
in the text once with its printed number, every number of the text is a figure or declared with
its reason, every sentence asserts its claims or says why it asserts none, every claim is asserted."""
import pytest

from examples.running_mean.chapter import CHAPTER
from textcheck import bookkeeping

pytestmark = pytest.mark.fast


@pytest.mark.parametrize("kind", ["figures", "numbers", "sentences", "claims"])
def test_the_text_is_accounted_for(kind, chapter_text):
    problems = bookkeeping(CHAPTER, chapter_text)[kind]
    assert not problems, "\n".join(problems)
