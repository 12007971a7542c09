"""The errata of the chapter's section: Positions past the trained length: RoPE and ALiBi."""
from __future__ import annotations

from claims import registry
from claims.chapter_figures import FIGURES
from claims.report.errata.facts import Erratum, Facts, figures_edit
from claims.report.errata.spread import Edit, edit, num
from textcheck import printing


def _window(f: Facts, T: int) -> list[float]:
    """ALiBi's perplexity per seed at window T, as its figure at 64 recorded it."""
    key = f.figure_row("positions.alibi_64").get("key")
    m = (f.measured("positions.alibi_improves", key, field="per_window") if key else None) or {}
    return m.get(str(T), m.get(T, []))


def _alibi_sentence(f: Facts) -> tuple[Edit, ...]:
    at64, at256 = _window(f, 64), _window(f, 256)
    if not at64:
        return ()
    return (figures_edit(f, "from {positions.alibi_64} to {positions.alibi_256}",
                         {"positions.alibi_64": at64, "positions.alibi_256": at256}),)


def _rope_cause(f: Facts) -> str:
    rows = {T: f.measured("positions.rope_degrades",
                          f"positions.rope_degrades: rope at {T}") or {}
            for T in (128, 256)}
    if not any(rows.values()):
        return ""
    return ("with the threshold the tests state (the no-context baseline, "
            f"{registry.FIGURE_VALUES['ladder.baseline']}: worse than that, a scheme has lost everything the context gave "
            "it) RoPE at 128 is " + ", ".join(rows[128].get("class per seed", []))
            + f" per seed ({printing.over_seeds(rows[128].get('perplexity'))}), and at 256 " + ", ".join(rows[256].get("class per seed", []))
            + f" ({printing.over_seeds(rows[256].get('perplexity'))}); it degrades far less than the learned table or sinusoids "
            "(that ordering holds), but not gracefully by this threshold at four times the trained length")


_LESS = "positions.rope_degrades: rope: worse at 256, by less than learned and sinusoidal"


def _rope_sentence(f: Facts) -> tuple[Edit, ...]:
    """The sentence from the measurements: RoPE's perplexity past the trained length against the
    no-context baseline, each clause only where its test decides it, and what it says no more than
    the test found (refuted: worse than the baseline; holds: still below it)."""
    rows = {T: f.measured("positions.rope_degrades", f"positions.rope_degrades: rope at {T}") or {} for T in (128, 256)}
    if not all(rows[T].get("perplexity") for T in rows):
        return ()
    outcome = {t.get("key"): t["outcome"] for t in f.claims.get("positions.rope_degrades", {}).get("tests", [])}
    # a length whose comparison is undecided gets no number: it needs more seeds, not a correction
    decided = {T: outcome.get(f"positions.rope_degrades: rope at {T}") for T in rows}
    decided = {T: o for T, o in decided.items() if o in ("holds", "refuted")}
    if not decided:
        return ()
    baseline = FIGURES["ladder.baseline"].printed
    nums = {f"p{T}": num(rows[T]["perplexity"]) for T in decided}
    at = " and ".join(f"{{p{T}}} at {T} tokens" for T in decided)
    lost = [T for T, o in decided.items() if o == "refuted"]
    return (edit("It degrades, but it degrades.",
                 f"It degrades: past the trained length it reads {at}, against the no-context {baseline}"
                 + (f", so by {min(lost)} tokens it has lost what the context gave it" if lost else "")
                 + (", though less than the learned table and sinusoids" if outcome.get(_LESS) == "holds" else "")
                 + ".", cites=(*map(str, decided), baseline), **nums),)


_STACK = "positions.prefix_orderings_stack: two blocks, no positions"


def _moved(f: Facts) -> tuple[dict, dict]:
    """The stack's measurement and, recorded beside it, the one-layer reading's."""
    record = f.record("positions.prefix_orderings_stack", _STACK)
    one = record.get("one_block")
    return (f.measured("positions.prefix_orderings_stack", _STACK) or {}), (one if isinstance(one, dict) else {})


def _prefix_cause(f: Facts) -> str:
    two, one = _moved(f)
    if not two or not one:
        return ""
    return ("true of one attention layer, not of the model: in a stack, block 2 at position t reads block 1's outputs "
            "at earlier positions, and each of those is a function of its own prefix, so reordering the prefix moves "
            f"the logits at t by up to {two['max |logit difference| at t']:.3g} (logits up to "
            f"{two['logit scale (max |logit|)']:.2f}; two blocks, no positions, at initialisation), against "
            f"{one['max |logit difference| at t']:.1g} with one block")


def _prefix_sentence(f: Facts) -> tuple[Edit, ...]:
    """The sentence from the measurements: what reordering a prefix moves, in one layer and in the stack."""
    two, one = _moved(f)
    if not two or not one:
        return ()
    return (edit("but within a prefix all orderings are alike",
                 "and within a prefix all orderings are alike to one layer, but not to a stack: reordering a prefix "
                 "moves a stack's logits at t by up to {d}, because each earlier position saw a different one",
                 d=num([float(f"{two['max |logit difference| at t']:.2g}")])),)


ERRATA: dict[str, Erratum] = {
    "positions.prefix_orderings_stack": Erratum(
        quote="but within a prefix all orderings are alike",
        cause=_prefix_cause,
        readings=lambda f: ([(f"one layer (one block): every ordering alike to "
                              f"{_moved(f)[1]['max |logit difference| at t']:.1g}: the sentence holds of a "
                              "single attention layer")] if _moved(f)[1] else []),
        suggested=_prefix_sentence),
    "positions.alibi_improves": Erratum(
        figure="positions.alibi_256",
        cause=lambda f: ("ALiBi does improve as the window grows (the ordering and the level at 64 hold), by less: "
                         f"{printing.over_seeds(_window(f, 64))} at 64, "
                         f"{printing.over_seeds(_window(f, 128))} at 128, "
                         f"{printing.over_seeds(_window(f, 256))} at 256"),
        readings=lambda f: [("none tried: the primary reading already uses the slopes of the paper the chapter cites "
                             "(its note 10; 2^(-8k/h) for head k of h), and the readings' budget of 2 CPU-hours went "
                             "to the runaway and the Winograd task")],
        suggested=_alibi_sentence),
    "positions.rope_degrades": Erratum(
        quote="It degrades, but it degrades.",
        cause=_rope_cause,
        suggested=_rope_sentence),
}
