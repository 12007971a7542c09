"""Rule version 3 on planted values (docs/figure-rule.md): its quantiles and tests come from
scipy.stats at the degrees of freedom the seeds give, never from a hand-coded 2."""
from __future__ import annotations

import math
import statistics

import pytest
from scipy import stats

from textcheck import decide

pytestmark = pytest.mark.fast


def _with_t(t: float, n: int) -> list[float]:
    """n paired differences whose one-sample t statistic is exactly t (mean t * sd / sqrt(n))."""
    base = [(-1) ** i * (1 + i % 3) for i in range(n)]
    m, sd = statistics.mean(base), statistics.stdev(base)
    z = [(x - m) / sd for x in base]                    # mean 0, sd 1
    return [x + t / math.sqrt(n) for x in z]


def test_an_ordering_at_2_03_standard_errors_on_5_seeds_is_undecided():
    a = _with_t(2.03, 5)
    verdict, why = decide.paired("planted", ">", a, [0.0] * 5)
    assert verdict == "undecided", why
    assert "t(4) = 2.03" in why and "p = 0.11" in why            # Student's t at 4 degrees of freedom


def test_an_ordering_holds_or_is_refuted_only_when_significant_at_its_degrees_of_freedom():
    for n in (3, 5, 10):
        edge = float(stats.t.ppf(0.975, n - 1))
        assert decide.paired("p", ">", _with_t(edge * 1.01, n), [0.0] * n)[0] == "holds"
        assert decide.paired("p", ">", _with_t(edge * 0.99, n), [0.0] * n)[0] == "undecided"
        assert decide.paired("p", ">", _with_t(-edge * 1.01, n), [0.0] * n)[0] == "refuted"
    assert decide.paired("p", "<", [1.0, 1.0, 1.0], [2.0, 2.0, 2.0])[0] == "holds"      # no spread: the sign
    assert decide.paired("p", "<", [1.0, 1.0, 1.0], [1.0, 1.0, 1.0])[0] == "undecided"


def test_a_figure_2_5_sd_away_on_3_seeds_holds_unless_its_interval_reaches_the_null():
    values = [10.0, 11.0, 12.0]                                  # mean 11, sd 1
    stated = 11.0 + 2.5
    assert decide.trained(values, stated, 0.05).verdict == "holds"   # t(2) 4.30 sqrt(4/3) = 4.97 sd
    d = decide.trained(values, stated, 0.05, null=7.0, null_what="no gain")
    assert d.verdict == "undecided" and d.kind == decide.MORE_RUNS, d.why    # 7 lies 4 sd away: inside
    assert decide.trained(values, stated, 0.05, null=0.0).verdict == "holds"
    assert decide.trained(values, 11.0 + 5.5, 0.05).verdict == "refuted"


def test_the_prediction_interval_is_t_sd_sqrt_one_plus_one_over_n_plus_rounding():
    values = [1.0, 2.0, 3.0, 4.0, 5.0]
    half = float(stats.t.ppf(0.975, 4)) * statistics.stdev(values) * math.sqrt(1 + 1 / 5)
    assert decide.trained(values, 3.0, 0.5).tolerance == pytest.approx(half + 0.5)


def test_a_figure_whose_spread_covers_its_null_at_every_n_is_one_run_cannot_show_it():
    # a map cell: 0.10 on average over ten models, spread 0.3, against a uniform row's 0.067
    values = [0.5, -0.2, 0.4, -0.1, 0.3, 0.0, 0.2, -0.3, 0.6, -0.4]
    d = decide.trained(values, 0.06, 0.005, null=0.067, null_what="a uniform row's weight")
    assert d.verdict == "undecided" and d.kind == decide.ONE_RUN and decide.ONE_RUN in d.why
    far = decide.trained([5.0, 6.0, 4.0], 5.0, 0.05, null=0.0, null_what="no gain")
    assert far.verdict == "holds" and far.kind is None


def test_a_rate_every_seed_of_which_agrees_still_has_one_runs_binomial_noise():
    d = decide.rate([1.0, 1.0, 1.0], 0.995, 96, 0.0005)
    assert d.verdict == "holds" and d.tolerance > 0.01            # sqrt(1/96)/sqrt(96) scaled by t
    # 80 % on three seeds could be 100 % on a fourth (t(2) widens one run's 4-point binomial sd
    # to 20 points); on ten seeds it could not
    assert decide.rate([0.8, 0.81, 0.79], 1.0, 96, 0.0005).verdict == "holds"
    assert decide.rate([0.8, 0.81, 0.79, 0.8, 0.8, 0.81, 0.79, 0.8, 0.8, 0.8], 1.0, 96, 0.0005).verdict == "refuted"


def test_no_hand_coded_two_is_left_in_the_rule():
    import inspect
    src = inspect.getsource(decide)
    assert "MARGIN_SE" not in src and "2 * sd" not in src and "2 * drift" not in src


def test_the_paired_t_test_is_scipys_public_one_bit_for_bit():
    """decide.ttest_1samp calls scipy's computation without its wrapper for axes and NaN policies:
    the same t and p, to the last bit, as the public stats.ttest_1samp (a scipy upgrade that
    changes either shows here)."""
    import random
    rng = random.Random(58)
    cases = [[0.1, 0.2, 0.35, 0.4, 0.3], [-1.0, 2.0, 0.5], [1e-9, 2e-9, -3e-9, 5e-9], [250.0, 251.5, 249.75, 250.125]]
    cases += [[rng.gauss(rng.uniform(-5, 5), rng.uniform(1e-6, 10)) for _ in range(rng.randint(2, 12))]
              for _ in range(300)]
    for d in cases:
        public = stats.ttest_1samp(d, 0.0)
        assert tuple(map(repr, decide.ttest_1samp(d))) == (repr(float(public.statistic)), repr(float(public.pvalue))), d


def test_the_t_quantile_is_scipy_stats_one():
    """decide.t_quantile calls scipy.special.stdtrit, the function stats.t.ppf computes it by: the
    same quantile, to the last bit, at every n a claim is decided on."""
    for n in range(2, 101):
        assert repr(decide.t_quantile(n)) == repr(float(stats.t.ppf(1 - decide.LEVEL / 2, n - 1))), n
