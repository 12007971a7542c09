"""The engine's shared words, on its lowest floor (it imports nothing of the engine): the verdicts,
their ladder, and the names every layer reads a test or a record by.

stale: decided under an older version of its rule, or measured under an older version of its
measurement (textcheck/versions.py); never a plain holds/refuted.  undecided: the measurement cannot
tell the chapter's figure from the null it contrasts it with, or an ordering is not significant at
5 % (docs/figure-rule.md); underspecified: the primary reading refutes the figure and a reading
declared before it was measured reproduces it (docs/choices.md).  Neither is a holds; a refuted
figure outweighs both.
"""
CLAIM_VERDICTS = ("holds", "refuted", "underspecified", "undecided", "fails", "stale", "not run", "not encoded")
DECIDED = ("holds", "refuted", "underspecified", "undecided", "fails")
# The verdict ladder, most severe first: a test's outcome is the most severe of its records', a
# claim's or a figure's the most severe of its decided tests' (a broken test outweighs all, a
# refuted figure outweighs one that cannot be told from its null).  The one ordering of verdicts.
LADDER = ("fails", "refuted", "underspecified", "undecided", "holds", "not run")
SEVERITY = {v: len(LADDER) - 1 - i for i, v in enumerate(LADDER)}
FIGURE_VERDICTS = LADDER[1:5]        # what a figure record can hold: decided, and never "fails" (a bug)
STALE_HIDES = ("holds", "undecided", "underspecified")   # what a claim cannot be with a figure stale
NOT_MEASURED = STALE_HIDES           # ... nor with a figure record missing (textcheck/verdict_file.py)
COMMITTED_TIERS = ("gpu", "slow")    # the evidence committed to results/: trained, and minutes of CPU
SMOKE_SOURCE = "smoke run"           # a --smoke run's source: its verdicts are labelled and never saved
READING = "not run: device-specific"  # a measurement shown beside the text's figure (textcheck/rule.py)
SEPARATOR = " & "                    # between the keys of a test of several records


def most_severe(verdicts, default: str = "holds") -> str:
    """The highest rung of the ladder any of `verdicts` reaches (`default` for none)."""
    return max(verdicts, key=SEVERITY.__getitem__, default=default)
