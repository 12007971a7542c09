"""How many seeds each trained group is measured on, declared before its runs (docs/choices.md,
"Seeds per trained group", 2026-12-07): 10 where every recipe of the group trains in under 10
CPU-minutes, else 5; the same for every claim of the group, and never raised because of an
outcome (rule version 3, docs/figure-rule.md).  The sequential steps of rule version 2 (3, then 5,
then 10 seeds while undecided) are retired.

Until a group's declared seeds are all trained its claims are decided on the seeds it has.
`SEEDS_ON_RECORD` names the claims whose tests already run on more seeds than their test's
default (the seeds their groups have on record); no number there is above its group's declared
count (tests/integration/test_record_rules.py).
"""

DECLARED_AT = "2026-12-07T01:29:37+00:00"       # the commit that entered the table in docs/choices.md

DECLARED_SEEDS: dict[str, int] = {
    "ladder": 5,
    "mask": 5,
    "norm": 5,
    "positions": 10,
    "qkv": 5,
    "scale": 5,
    "winograd": 10,
}

SEEDS_ON_RECORD: dict[str, int] = {
    "scale.no_effect_at_32": 5,          # layernorm (ladder) and scale32_undivided (scale): 5 each
    # the scale group's declared 5, every recipe trained 2026-12-07 (seeds 3 and 4 of the 256- and
    # 1024-wide heads); scale.runaway and the soft blend measure the weights of all five (their tests
    # ask for the declared count directly)
    "scale.matters_at_256": 5,
    # the ladder's baseline, residual_average and average on 5, trained 2026-12-07
    "average.residual_matches_baseline": 5,
    "average.worse_than_baseline": 5,
    "ladder.residual_average": 5,
    "average.positions_dont_help": 5,       # average and average_positions on 5, trained 2026-12-07
    "scale.collapse_stable": 5,
    "depth.two_blocks_overfit": 5,       # two_blocks and layernorm (ladder): 5 each
    "positions.rope_degrades": 10,       # rope, learned and sinusoidal (positions): 10 each
}
