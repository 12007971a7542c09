"""The errata of the chapter's section: What attention costs: the peak memory figures."""
from __future__ import annotations

from claims import registry
from claims.chapter_figures import FIGURES
from claims.report.errata.facts import Erratum, Facts, figure_edit
from claims.report.errata.spread import Edit, edit, num
from claims.report.evidence import NUMBER
from textcheck import printing

READ_EXPONENT = f"n^{FIGURES['cost.time_exponent'].printed}"

MEMORY_FIGURE = {"exponent": "cost.memory_exponent", "last ratio": "cost.memory_last_ratio"}


def _memory(f: Facts, which: str) -> float | None:
    return f.figure_measured(MEMORY_FIGURE[which], NUMBER)


def _memory_exponent_cause(f: Facts) -> str:
    slope, last = _memory(f, "exponent"), _memory(f, "last ratio")
    if slope is None or last is None:
        return ""
    return (f"the exponent over the last four rows, {slope:.3f} here, is set by the non-quadratic remainder, which is "
            f"the allocator's (see cost.peak_memory); the last ratio, {last:.3g} here against the chapter's "
            f"{registry.FIGURE_VALUES['cost.memory_last_ratio']}, "
            + ("holds" if f.figure_row(MEMORY_FIGURE["last ratio"]).get("verdict") == "holds" else "is refuted too"))


def _peak_memory_cause(f: Facts) -> str:
    """The n x n part of each peak is arithmetic; what differs from the chapter is the remainder."""
    names = [t["key"] for t in f.claims.get("cost.peak_memory", {}).get("tests", []) if t.get("key")]
    rows = [(f.measured("cost.peak_memory", n, NUMBER), f.measured("cost.peak_memory", n, NUMBER, "stated"))
            for n in names]
    diffs = [measured - stated for measured, stated in rows if measured is not None and stated is not None]
    if not diffs:
        return ""
    return ("the n x n terms are arithmetic and the same on any device (the scores and the weights, 2 x 8 x n^2 x 4 "
            "bytes); the rest is the allocator's, and a CPU profiler's accounting is not a CUDA caching allocator's: "
            f"ours differs from the chapter's by {min(diffs):+.1f} to {max(diffs):+.1f} MB over the "
            f"{len(diffs)} lengths (see the per-length rows)")


def _doublings(f: Facts) -> dict:
    """The time-per-doubling record, wherever it was measured (on CUDA, else on the CPU)."""
    for case, suffix in (("cuda", " (cuda)"), ("cpu", "")):
        name = "cost.converges_on_4" + suffix
        measured = f.measured("cost.time_quadratic", name)
        if measured and f.outcome("cost.time_quadratic", name):
            return dict(f.record("cost.time_quadratic", name), measured=measured, case=case)
    return {}


def _time_doubling_cause(f: Facts) -> str:
    rec = _doublings(f)
    m = rec.get("measured") or {}
    ratios, interval = m.get("ratios") or [], m.get("interval judged") or []
    if len(ratios) < 4 or len(interval) != 2:
        return ""
    last4 = ", ".join(f"x{r:.2f}" for r in ratios[-4:])
    memory = f.figure_row("cost.memory_last_ratio")
    return (f"time per doubling does not settle at 4 on this {rec.get('case')} device: {last4} over the last four "
            f"doublings (the last in [{interval[0]:.2f}, {interval[1]:.2f}] over {m.get('repeats')} timing processes)"
            + _exponents(f) + "; neither device converges on exactly 4. "
            f"Memory does: its last doubling, {printing.cell(memory.get('measured'))}, against the chapter's "
            f"{FIGURES['cost.memory_last_ratio'].printed}")


def _exponents(f: Facts) -> str:
    """Our fitted time exponent (a reading on a device other than the chapter's) beside the chapter's."""
    value = (f.figure_measured("cost.time_exponent") or {}).get("value")
    if not isinstance(value, (int, float)):
        return ""
    side = "above" if value > 2 else "below"
    return (f"; its exponent over those rows is n^{value:.2f} here, {side} 2, and {READ_EXPONENT} on the chapter's "
            "laptop card, below it")


def _time_doubling_sentence(f: Facts) -> tuple[Edit, ...]:
    """Memory converges on 4 (its last ratio holds); time scatters: one range over the last four
    doublings, whose spread sets its precision."""
    ratios = ((_doublings(f).get("measured") or {}).get("ratios") or [])[-4:]
    if len(ratios) < 4:
        return ()
    return (edit("a doubling of $n$ converges on exactly 4 for both time and memory",
                 "a doubling of $n$ converges on 4 for memory, and time per doubling scatters around it, {r} over the "
                 "last four doublings on a CPU", r=num(ratios, how="range")),)


ERRATA: dict[str, Erratum] = {
    "cost.time_quadratic": Erratum(
        figure="cost.converges_on_4",
        cause=_time_doubling_cause, suggested=_time_doubling_sentence),
    "cost.peak_memory": Erratum(
        quote="The megabyte columns are allocator byte counts and do not move.",
        cause=_peak_memory_cause),          # no sentence typed by hand: the cause says what moves
    "cost.memory_quadratic": Erratum(
        figure="cost.memory_exponent",
        cause=_memory_exponent_cause,
        suggested=lambda f: ((figure_edit(f, "cost.memory_exponent", [_memory(f, "exponent")]),)
                             if _memory(f, "exponent") is not None else ())),
}
