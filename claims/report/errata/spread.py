"""How a suggested sentence prints a measurement, and what it replaces in the chapter.

A suggested sentence goes into the chapter (claims/report/patch.py applies it), so each number in it
must say no more than the evidence does: a mean over seeds is printed with at most two significant
digits of its spread (the usual convention: two where the spread's leading digits are 10 to 35,
one from 36 to 94, so 0.3606 with sd 0.3968 is "0.4", never "0.3606"), a quantity that differs from
model to model as one range ("between 5.8 and 6.0"), a split over seeds as "k of n models"; never
a list of per-seed values.  `Num` is such a number with the values it stands for, so that the patch's
checks (and its test) can judge its precision against its spread; `Edit` is one verbatim span of
the chapter and what stands there instead."""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from textcheck import printing


def supported_decimals(sd: float | None) -> int | None:
    """The decimals a number with spread `sd` may be printed to (negative: rounded to tens,
    hundreds); None where there is no spread to go by (one value, or all equal)."""
    if not sd or not math.isfinite(sd):
        return None
    e = math.floor(math.log10(abs(sd)))
    lead = round(abs(sd) / 10 ** (e - 2))         # the spread's three leading digits, 100..1000
    return 1 - e if lead < 355 else -e


def _fixed(x: float, decimals: int) -> str:
    return f"{x:.{decimals}f}" if decimals >= 0 else f"{round(x, decimals):.0f}"


def _decimals(values: list[float], printed: str) -> int:
    """The spread's decimals, never more than the chapter prints the figure with (its voice)."""
    chapter = len(printed.rstrip(" %").split(".")[1]) if "." in printed else 0
    d = supported_decimals(statistics.stdev(values)) if len(values) > 1 else None
    if d is None:                        # one value or all equal: the chapter's decimals, else two
        return chapter if printed else 2
    return min(d, chapter) if printed else d


def at_precision(values, printed: str = "", percent: bool = False) -> str:
    """The mean of `values` at the precision its spread supports (`printed`: the chapter's figure,
    whose decimals it never exceeds; `percent`: a rate, printed x100 with " %")."""
    v = [100 * x for x in printing.numbers(values)] if percent else printing.numbers(values)
    if not v:
        return "not measured"
    if len(v) == 1 and not printed:      # one value, no spread: a count as it is, else as formats.number
        return (f"{v[0]:.0f}" if float(v[0]).is_integer() else printing.number(v[0])) + (" %" if percent else "")
    return _fixed(statistics.mean(v), _decimals(v, printed)) + (" %" if percent else "")


def mean_sd(values, percent: bool = False) -> str:
    """"0.4 ± 0.4": the mean and its spread over seeds, both at the precision the spread supports."""
    v = [100 * x for x in printing.numbers(values)] if percent else printing.numbers(values)
    if len(v) < 2:
        return at_precision(values, percent=percent)
    d, unit = _decimals(v, ""), " %" if percent else ""
    return f"{_fixed(statistics.mean(v), d)}{unit} ± {_fixed(statistics.stdev(v), d)}{unit}"


def between(values, printed: str = "", percent: bool = False) -> str:
    """Where models differ: one range, "between 5.8 and 6.0", at the precision of their spread."""
    v = [100 * x for x in printing.numbers(values)] if percent else printing.numbers(values)
    if not v:
        return "not measured"
    d, unit = _decimals(v, printed), " %" if percent else ""
    return f"between {_fixed(min(v), d)}{unit} and {_fixed(max(v), d)}{unit}"


def k_of_n(flags, what: str = "models") -> Num:
    """Where seeds split: "7 of 10 models" (a Num of the flags, so that the patch knows it measured)."""
    return Num(tuple(float(bool(x)) for x in flags), how="count", noun=what)


@dataclass(frozen=True)
class Num:
    """A measured number in a suggested sentence: the values it stands for, how it is printed
    ("mean" or "range"), and the chapter figure whose number it replaces ("" for a number the
    chapter does not print); only a refuted figure's number may be replaced."""
    values: tuple[float, ...]
    figure: str = ""
    printed: str = ""            # the chapter's figure as printed: its decimals are the most shown
    percent: bool = False
    how: str = "mean"            # or "range" (where models differ), "count" (where seeds split)
    noun: str = "models"         # what a count counts

    def __str__(self) -> str:
        if self.how == "count":
            return f"{sum(self.values):.0f} of {len(self.values)} {self.noun}"
        show = between if self.how == "range" else at_precision
        return show(self.values, self.printed, self.percent)


def num(values, figure: str = "", printed: str = "", percent: bool = False, how: str = "mean") -> Num:
    return Num(tuple(printing.numbers(values)), figure, printed, percent, how)


@dataclass(frozen=True)
class Edit:
    """One change to the chapter: `quote`, a span found verbatim exactly once, and `text`, what
    stands there instead; `numbers`, the measured numbers printed in it; `cites`, numbers it repeats
    from elsewhere in the chapter (its setup: "at 128 tokens")."""
    quote: str
    text: str
    numbers: tuple[Num, ...] = ()
    cites: tuple[str, ...] = ()


def edit(quote: str, template: str, cites: tuple[str, ...] = (), **nums: Num | str) -> Edit:
    """`template` with each {name} filled by its measured number at the precision it supports (or
    by the chapter's own number, a str, where that figure is not refuted)."""
    return Edit(quote, template.format(**{k: str(v) for k, v in nums.items()}),
                tuple(v for v in nums.values() if isinstance(v, Num)), cites)
