"""A run's best held-out checkpoint as the report reads it: on the full split where the curve
scored the whole split (the twelve-block runs since NORM_HELD_OUT_EVERY), else on the curve's
64-window subset, and the words say which."""
import pytest

from claims.report.errata.norm import best_ppl, split_of

pytestmark = pytest.mark.fast

FULL, SUBSET = {"step": 500, "val_ppl": 37.7}, {"step": 450, "val_ppl_subset": 36.9}


def test_the_full_split_is_read_where_it_was_scored_and_the_subset_otherwise():
    assert best_ppl(FULL) == 37.7 and best_ppl(SUBSET) == 36.9


def test_the_words_name_the_split():
    assert split_of([FULL, FULL]) == "the full held-out split"
    assert split_of([SUBSET]) == "the curve's 64 fixed held-out windows"
    assert "some seeds" in split_of([FULL, SUBSET])
