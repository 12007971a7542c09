"""Where the sequential rule has taken each trained claim (docs/figure-rule.md, "More seeds, one
sequential rule"): a claim undecided on 3 seeds is measured on 5, still undecided on 10, and
committed as undecided there.  Seeds are only added (0, 1, 2, then 3, 4, ...), never chosen, and
every test of a listed claim runs on the step's seeds (ClaimFixture.seeds), figures and orderings
alike, so each verdict is the rule on every seed run.  A step is only ever raised; the committed
evidence of a listed claim rests on at least its step's seeds (tests/integration/test_record_rules.py).
"""

SEED_STEPS_REACHED: dict[str, int] = {
    # 2026-12-02: "the run without it is very slightly ahead", 0.51 +- 0.48 over 3 seeds (1.8 SE);
    # seeds 3 and 4 of `layernorm` and `scale32_undivided` trained 2026-12-03
    "scale.no_effect_at_32": 5,
    # 2026-12-03: "more capacity, better on what it has seen, worse on what it has not": the held-out
    # side at 1.8 SE over 3 seeds; seeds 3 and 4 of `two_blocks` (and of `layernorm`) trained 2026-12-03
    "depth.two_blocks_overfit": 5,
    # 2026-12-02: "RoPE degrades more gracefully": at 128 tokens 0.67 SE over 3 seeds; seeds 3 and 4
    # of rope, learned and sinusoidal trained 2026-12-03, and seeds 0 to 2 again (their weights,
    # which the curves at 128 and 256 are measured from, were not cached); 2026-12-04: at 128 tokens
    # 1.43 SE over 5 seeds, still undecided; seeds 5 to 9 of rope, learned and sinusoidal trained
    # 2026-12-04, and seeds 0 to 4 (and alibi's 0 to 2) again, their weights not cached (each run
    # reproduces its earlier record to 5e-7 relative): every positions figure measured again on them
    "positions.rope_degrades": 10,
}
