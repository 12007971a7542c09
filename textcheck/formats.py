"""How a measurement is written, everywhere: the tests' refutation reasons, the report's cells, the
tables, the errata.  One precision rule (`number`) and one notation for a figure over seeds
(`over_seeds`: "mean ± sd (per seed over n seeds)").  Pure: no torch, no pytest."""
from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

NON_FINITE = {"nan": "not a number", "inf": "infinite", "-inf": "minus infinite"}   # as verdicts.plain spells them


def number(x: float) -> str:
    """A measured value at a precision a reader can compare with the chapter's: whole numbers from
    1000 up (score sds, megabytes), two decimals from 1 to 1000 (perplexities, points), four
    significant digits below 1 (weights, fractions), three below 0.01."""
    if isinstance(x, float) and not math.isfinite(x):
        return NON_FINITE[str(x).lower()]
    a = abs(x)
    if a >= 1000:
        return f"{x:.0f}"
    return f"{x:.3g}" if a and a < 0.01 else f"{x:.4g}" if a < 1 else f"{x:.2f}"


def _digits(centre: float) -> Callable[[float], str]:
    """One precision for a mean, its sd and its seeds: the mean's (two decimals from 1 to 1000)."""
    return (lambda x: f"{x:.2f}") if 1 <= abs(centre) < 1000 else number


def numbers(values) -> list[float]:
    return [float(v) for v in (values or []) if isinstance(v, (int, float)) and not isinstance(v, bool)]


def spread(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the sample standard deviation of `values` (0 for one), exact as the statistics
    module computes them; each list is summarised once per process (a test's display, the rule and
    the words of its verdict read the same values: the re-derivation summarised each list of a
    trained figure four times, a third of its deciding)."""
    key = tuple(map(repr, values))            # 1 and 1.0, 0.0 and -0.0 apart: each summarised as it is
    if key not in _SPREADS:
        mean = statistics.mean(values)
        _SPREADS[key] = mean, (statistics.stdev(values) if len(values) > 1 else 0.0)
    return _SPREADS[key]


_SPREADS: dict[tuple, tuple[float, float]] = {}


def over_seeds(values: Sequence[float], unit: str = "", per_seed: bool = True) -> str:
    """'42.68 ± 1.24 (43.00, 41.31, 43.73 over 3 seeds)' (per_seed=False: '(3 seeds)'); one value
    alone; 'not measured' for none."""
    values = numbers(values)
    if not values:
        return "not measured"
    if len(values) == 1:
        return f"{number(values[0])}{unit}"
    mean, sd = spread(values)
    f = _digits(mean)
    tail = f"{', '.join(f(v) for v in values)} over {len(values)} seeds" if per_seed else f"{len(values)} seeds"
    return f"{f(mean)}{unit} ± {f(sd)} ({tail})"


WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def like(value: float | None, printed: str) -> str:
    """A measured value written as the chapter writes the figure it stands for (a suggested
    sentence reads as the chapter's prose): the printed figure's decimals and its % sign
    ("12.35" for 12.3456 beside "12.34", "95.0 %" beside "98.7 %"), a number word for a word
    ("six" for 5.76 beside "eight"; the sentence says "about")."""
    if value is None or not math.isfinite(value):
        return "not measured"
    text = printed.strip()
    if text.endswith("%"):
        digits = text.rstrip(" %")
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        return f"{100 * value:.{decimals}f} %"
    if not any(ch.isdigit() for ch in text):
        whole = round(value)
        return WORDS[whole] if 0 <= whole < len(WORDS) else f"{whole}"
    digits = text.replace(",", "")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    return f"{value:,.{decimals}f}" if "," in text else f"{value:.{decimals}f}"


def like_mean(values, printed: str) -> str:
    """The mean of `values`, written like the chapter's printed figure (`like`)."""
    values = numbers(values)
    return like(statistics.mean(values), printed) if values else "not measured"


def mean_of(values) -> str:
    """The mean of the numbers among `values`, or 'not measured'."""
    values = numbers(values)
    return number(statistics.mean(values)) if values else "not measured"


SPREAD = ("mean", "sd", "per seed")


def typed(cls, d, **given):
    """The dataclass `cls` from the JSON object `d` (a report's own, already checked or never
    stored): each field its key's value (a key may spell the field's underscores as spaces; None
    where absent), or as `given`.  No check: `check` is the one check of what a file holds."""
    return cls(**{f.name: given[f.name] if f.name in given else d.get(f.name, d.get(f.name.replace("_", " ")))
                  for f in fields(cls)})


@dataclass(frozen=True)
class SeedValues:
    """Measured values as a test shows them (their mean and sd over seeds, the values per seed) or
    as a trained record holds them (`values`), read by name from their object ("per seed": per_seed)."""
    mean: Any = None
    sd: Any = None
    per_seed: Any = None
    values: Any = None

    @classmethod
    def of(cls, x) -> SeedValues:
        return typed(cls, x) if isinstance(x, dict) else cls()


def cell(x, items: int = 8) -> str:
    """Any recorded value as a table cell: a figure over seeds ({"mean", "sd", "per seed"}) in the
    one notation, numbers by the precision rule, mappings and lists item by item."""
    if x is None:
        return ""
    if isinstance(x, str):
        return NON_FINITE.get(x.lower(), x)
    if isinstance(x, (bool, int)):
        return str(x)
    if isinstance(x, float):
        return number(x)
    if isinstance(x, dict) and set(SPREAD) <= set(x) and isinstance(SeedValues.of(x).per_seed, list):
        rest = {k: v for k, v in x.items() if k not in SPREAD}
        return over_seeds(SeedValues.of(x).per_seed) + (f"; {cell(rest, items)}" if rest else "")
    if isinstance(x, dict):
        return "; ".join(f"{k}: {cell(v, items)}" for k, v in x.items())
    if isinstance(x, (list, tuple)):
        return ", ".join(cell(v, items) for v in x[:items]) + (" ..." if len(x) > items else "")
    return str(x)
