"""The running-mean text's claims, one test per printed figure (tables.py FIGURES): each records
what the text states beside what we measured, then decides.  mean.squares is refuted on purpose:
the mean of 1, 4, 9 and 16 is 7.5, so that test is a strict xfail whose reason is generated from
the measurement (textcheck/rule.py decide)."""
import random

import pytest

from examples.running_mean.chapter import CHAPTER

FIGURES = CHAPTER.figures


def running_mean(values) -> float:
    """m <- m + (x - m) / n, one update per value; nothing stored but the mean and the count."""
    m = 0.0
    for n, x in enumerate(values, start=1):
        m += (x - m) / n
    return m


def exact(claim, fid: str, measured: float, what: str) -> None:
    stated = FIGURES[fid].value
    claim.record(stated=stated, measured=measured, tolerance="exact", label=fid, measurement="running_mean")
    claim.decide(measured == stated, f"{what} is {measured}, the text prints {FIGURES[fid].printed}")


@pytest.mark.fast
@pytest.mark.claim("mean.running_equals_batch")
@pytest.mark.figure("mean.batch_4")
def test_the_mean_of_one_to_four():
    values = [1, 2, 3, 4]
    assert sum(values) / len(values) == FIGURES["mean.batch_4"].value


@pytest.mark.fast
@pytest.mark.claim("mean.running_equals_batch")
@pytest.mark.figure("mean.running_4")
def test_four_running_updates_reach_the_mean(claim):
    exact(claim, "mean.running_4", running_mean([1, 2, 3, 4]), "the running mean of 1, 2, 3, 4")


@pytest.mark.fast
@pytest.mark.claim("mean.hundred")
@pytest.mark.figure("mean.hundred")
def test_the_running_mean_of_one_to_a_hundred(claim):
    exact(claim, "mean.hundred", running_mean(range(1, 101)), "the running mean of 1 to 100")


@pytest.mark.fast
@pytest.mark.claim("mean.squares")
@pytest.mark.figure("mean.squares")
def test_the_mean_of_four_squares(claim):
    exact(claim, "mean.squares", running_mean([1, 4, 9, 16]), "the running mean of 1, 4, 9, 16")


@pytest.mark.slow
@pytest.mark.claim("noise.uniform")
@pytest.mark.figure("noise.uniform_10000")
def test_the_running_mean_of_uniform_draws(claim):
    f = FIGURES["noise.uniform_10000"]
    draws = [random.Random(seed) for seed in range(3)]                 # one generator a seed
    values = [running_mean(rng.random() for _ in range(10_000)) for rng in draws]
    claim.trained_figure(label=f.id, stated=f.value, values=values, rounding=f.rounding,
                         measurement="uniform_running_mean")
