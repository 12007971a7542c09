"""The running-mean text's tables: its figures, claims and sections, its declared numbers and
words, its sentences, its headings for the chapter view and its errata's quotes and causes.  Every figure is anchored in text.txt;
nothing else types one."""
from __future__ import annotations

from textcheck import Claim, Declared, Figure, Sentence, Spec

SECTIONS = {"mean": "The running mean", "noise": "Noise averages out"}
# The chapter view's sections (the text prints no headings): (anchor key, a claim section's key, a
# verbatim phrase of the section's first paragraph, once in the text); its contents list them
HEADINGS = [("mean", "mean", "A running mean keeps two things"), ("noise", "noise", "Noise averages out.")]
# Each refuted claim's erratum: the sentence of the text it corrects (verbatim, once) and its cause;
# the suggested sentence is that quote with our measurement in place of the printed figure (report.py)
ERRATA = {"mean.squares": ("The mean of the squares 1, 4, 9 and 16 is 7.0.",
                           ("the text's arithmetic: the running mean and the batch mean of the squares agree with "
                            "each other, not with the printed figure"))}

FIGURES: dict[str, Figure] = {f.id: f for f in [
    Figure("mean.batch_4", "mean.running_equals_batch", "2.5", "the mean of 1, 2, 3 and 4 is 2.5"),
    Figure("mean.running_4", "mean.running_equals_batch", "2.5", "reach the same 2.5"),
    Figure("mean.hundred", "mean.hundred", "50.5", "from 1 to 100 is 50.5"),
    Figure("mean.squares", "mean.squares", "7.0", "9 and 16 is 7.0"),      # 7.5: refuted on purpose
    Figure("noise.uniform_10000", "noise.uniform", "0.50", "running mean ends at 0.50"),
]}

CLAIMS: dict[str, Claim] = {c.id: c for c in [
    Claim("mean.running_equals_batch", "Four running updates over 1, 2, 3, 4 give their mean, 2.5",
          "2.5 and 2.5"),
    Claim("mean.hundred", "The running mean of 1 to 100 ends at their mean, 50.5", "50.5"),
    Claim("mean.squares", "The mean of the squares 1, 4, 9, 16 is 7.0", "7.0"),
    Claim("noise.uniform", "The running mean of 10,000 uniform draws ends at 0.50 whatever the seed", "0.50",
          kind="statistical", tier="slow"),
]}

DECLARED: list[Declared] = [
    Declared("the mean of 1, 2, 3 and 4", "setup", "the values averaged"),
    Declared("whole numbers from 1 to 100", "setup", "the values averaged"),
    Declared("the squares 1, 4, 9 and 16", "setup", "the values averaged"),
    Declared("Draw 10,000 numbers uniformly between 0 and 1", "setup", "how many draws, and from where"),
    Declared("keeps two things", "context", "what a running mean stores"),
    Declared("nothing is lost", "not a number", "a figure of speech"),
    Declared("four updates", "setup", "one update per value"),
]

S = Sentence
SENTENCES: list[Sentence] = [
    S("The Running Mean", reason="context", why="the title"),
    S("A running mean keeps two things", reason="context", why="what it stores"),
    S("Each new value x moves the mean", reason="setup", why="the update"),
    S("No past value is stored", claims=("mean.running_equals_batch",)),
    S("The same holds at any length.", reason="rhetoric"),
    S("The mean of the whole numbers", claims=("mean.hundred",)),
    S("The mean of the squares", claims=("mean.squares",)),
    S("Noise averages out.", reason="rhetoric"),
    S("Draw 10,000 numbers", claims=("noise.uniform",)),
]

MEASUREMENTS = {"running_mean": (1, "the running mean of a list of values, one update per value"),
                "uniform_running_mean": (1, "the running mean of uniform draws, one seed a run")}


def rule_inputs(key: str) -> Spec:
    """A record key's rule inputs: the figure's value and printed rounding (the trained rule over
    seeds for the noise figure, the printed rounding for the exact ones)."""
    f = FIGURES[key.split(" / ")[0]]
    return Spec("trained" if f.id.startswith("noise.") else "within", f.value, f.rounding)
