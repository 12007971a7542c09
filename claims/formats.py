"""How the report writes a measurement over seeds: one notation for every table, erratum and page
(the test's own reasons use claims/figures.py describe, the same numbers in words)."""
from __future__ import annotations

import statistics


def mean_sd(values, unit: str = "", per_seed: bool = False) -> str:
    """'mean ± sd (n)' (or with the per-seed values) of the numbers among `values`; 'not measured'."""
    values = [v for v in (values or []) if isinstance(v, (int, float))]
    if not values:
        return "not measured"
    if len(values) == 1:
        return f"{values[0]:.4g}{unit}"
    tail = ", ".join(f"{v:.4g}" for v in values) if per_seed else str(len(values))
    return f"{statistics.mean(values):.4g}{unit} ± {statistics.stdev(values):.2g} ({tail})"
