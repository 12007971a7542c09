"""This chapter's bookkeeping, checked by the engine as every text's is (textcheck.bookkeeping):
every figure's anchor is in the chapter once with its printed number, every number of the chapter
is a figure, a read or declared with its reason (claims/accounting.py, claims/number_words.py),
every sentence asserts its claims or says why it asserts none (claims/sentence_table.py), and every
claim is asserted by a sentence.  The walks behind it, on this chapter in detail (a new number or
sentence named with its context, the counts, the repeats, the stale declarations), are the
machinery's tests: tests/integration/test_accounting.py, test_sentences.py, test_anchor_index.py."""
import pytest

from claims.chapter import CHAPTER
from textcheck import bookkeeping


@pytest.mark.parametrize("kind", ["figures", "numbers", "sentences", "claims"])
def test_the_chapter_is_accounted_for(kind, chapter_text):
    problems = bookkeeping(CHAPTER, chapter_text)[kind]
    assert not problems, f"{kind} of the chapter not accounted for:\n" + "\n".join(problems)


def test_a_new_number_in_the_text_is_named_with_its_context(chapter_text):
    text = chapter_text.replace("Score, mask, normalise, mix.", "Score, mask, normalise, mix. It runs 42 times.")
    missing = bookkeeping(CHAPTER, text)["numbers"]
    assert len(missing) == 1 and "runs [42] times" in missing[0], missing
