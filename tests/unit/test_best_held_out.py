"""A run's best held-out checkpoint as the report reads it: on the full split where the curve
scored the whole split (the twelve-block runs since NORM_HELD_OUT_EVERY), else on the curve's
64-window subset, and the words say which."""
import pytest

from claims.report.errata.held_out import best_ppl, split_of

pytestmark = pytest.mark.fast

FULL, SUBSET = {"step": 500, "val_ppl": 37.7}, {"step": 450, "val_ppl_subset": 36.9}


def test_the_full_split_is_read_where_it_was_scored_and_the_subset_otherwise():
    assert best_ppl(FULL) == 37.7 and best_ppl(SUBSET) == 36.9


def test_the_words_name_the_split():
    assert split_of([FULL, FULL]) == "the full held-out split"
    assert split_of([SUBSET]) == "the curve's 64 fixed held-out windows"
    assert "some seeds" in split_of([FULL, SUBSET])


def test_the_norm_tests_read_the_best_step_only_where_every_run_scored_the_full_split():
    from claims.trained import BEST_STEP, best, best_step_reading
    from fixtures.train import TrainResult
    full = [TrainResult(None, metrics={"best_held_out": dict(FULL)}, trained_at=f"2026-12-0{d}T10:00:00+00:00")
            for d in (4, 5, 6)]
    old = [TrainResult(None, metrics={"best_held_out": dict(SUBSET)}, trained_at="2026-12-01T10:00:00+00:00")]
    assert best(full) == [37.7] * 3 and best(old) is None and best(full + old) is None
    # measured when the newest run was trained; none where a run's date is unknown
    assert best_step_reading(best(full), full) == (BEST_STEP, [37.7] * 3, "2026-12-06T10:00:00+00:00")
    assert best_step_reading(best(full), full + [TrainResult(None)]) is None
