"""Where the sequential rule has taken each trained claim (docs/figure-rule.md, "More seeds, one
sequential rule"): a claim undecided on 3 seeds is measured on 5, still undecided on 10, and
committed as undecided there.  Seeds are only added (0, 1, 2, then 3, 4, ...), never chosen, and
every test of a listed claim runs on the step's seeds (ClaimFixture.seeds), figures and orderings
alike, so each verdict is the rule on every seed run.  A step is only ever raised; the committed
evidence of a listed claim rests on at least its step's seeds (claims/bookkeeping/test_seed_steps.py).
"""

SEED_STEPS_REACHED: dict[str, int] = {
}
