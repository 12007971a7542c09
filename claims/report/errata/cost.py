"""The errata of the chapter's section: What attention costs: the peak memory figures."""
from __future__ import annotations

from claims import registry
from claims.report.errata.facts import Erratum, Facts

MEMORY_FIGURE = {"exponent": "cost.memory_exponent", "last ratio": "cost.memory_last_ratio"}


def _memory(f: Facts, figure: str) -> float | None:
    m = f.figure(MEMORY_FIGURE[figure]).get("measured")
    return m if isinstance(m, (int, float)) else None


def _memory_exponent_cause(f: Facts) -> str:
    slope, last = _memory(f, "exponent"), _memory(f, "last ratio")
    if slope is None or last is None:
        return ""
    return (f"the exponent over the last four rows, {slope:.3f} here, is set by the non-quadratic remainder, which is "
            f"the allocator's (see cost.peak_memory); the last ratio, {last:.3g} here against the chapter's "
            f"{registry.FIGURES['cost.memory_last_ratio']}, "
            + ("holds" if f.figure(MEMORY_FIGURE["last ratio"]).get("verdict") == "holds" else "is refuted too"))


def _peak_memory_cause(f: Facts) -> str:
    """The n x n part of each peak is arithmetic; what differs from the chapter is the remainder."""
    rows = [t["records"][0] for t in f.claims.get("cost.peak_memory", {}).get("tests", []) if t.get("records")]
    diffs = [(r["measured"] - r["stated"]) for r in rows if isinstance(r.get("measured"), (int, float))]
    if not diffs:
        return ""
    return ("the n x n terms are arithmetic and the same on any device (the scores and the weights, 2 x 8 x n^2 x 4 "
            "bytes); the rest is the allocator's, and a CPU profiler's accounting is not a CUDA caching allocator's: "
            f"ours differs from the chapter's by {min(diffs):+.1f} to {max(diffs):+.1f} MB over the "
            f"{len(diffs)} lengths (see the per-length rows)")


ERRATA: dict[str, Erratum] = {
    "cost.peak_memory": Erratum(
        quote="The megabyte columns are allocator byte counts and do not move.",
        cause=_peak_memory_cause,
        suggested=lambda f: "\"The megabyte columns are allocator byte counts and do not move on one device; the "
                            "n x n part of them does not move on any.\""),
    "cost.memory_quadratic": Erratum(
        quote="memory ~ n^1.87",
        cause=_memory_exponent_cause,
        suggested=lambda f: (f"\"memory ~ n^{_memory(f, 'exponent'):.3g}, converging on n^2 as the two n x n "
                             "matrices dominate\"" if _memory(f, "exponent") is not None else "")),
}
