"""This chapter's readings declared before they are measured (docs/choices.md): each choice the
chapter leaves open that a verdict depends on, its primary reading and when the alternative was
declared.  What a declared reading does to a verdict (`underspecified`) is the engine's
(textcheck/readings.py).  Pure."""
from __future__ import annotations

from textcheck import DeclaredReading

DECLARED_READINGS: dict[str, DeclaredReading] = {r.name: r for r in [
    DeclaredReading(
        "best held-out step",
        ("norm.prenorm", "norm.prenorm_warmup", "norm.postnorm_warmup", "norm.eight_times",
         # the two differences the tests derive from the table inherit its reading (rule version 3)
         "norm.prenorm_needs_no_warmup: prenorm - prenorm_warmup",
         "norm.warmup_rescues_postnorm: postnorm_warmup - prenorm_warmup"),
        "which checkpoint the twelve-block table scores (the weights after step 1000, or at the best "
        "held-out step)",
        "the weights after step 1000, the run the chapter states",
        "2026-12-03T08:18:56+00:00",
        "Which checkpoint the twelve-block table scores",
        # its first measurement: pre-norm stopped at step 500, seed 0, results/errata.json
        # (prenorm_stopped_500), two days before the declaration, whose step was read off it
        first_measured="2026-12-01T13:23:56+00:00", cites=("8ae72f8448ef3a9d34ea",)),
]}


def standing(name: str, dates) -> str:
    """Whether the declared reading `name`, measured at `dates`, counts, in words (textcheck/readings.py)."""
    return DECLARED_READINGS[name].standing(dates)
