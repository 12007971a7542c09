"""The errata of the chapter's section: Dividing by sqrt(d_k): the runaway."""
from __future__ import annotations

import statistics

from claims import registry
from claims.report.errata.facts import Erratum, Facts, figures_edit, pct, per_seed
from claims.report.errata.spread import Edit, edit, k_of_n, mean_sd, num
from textcheck import printing, rules

RUNAWAY_WIDE = "scale.runaway: a model 1024 wide throughout"


def _runaway_wide(f: Facts) -> str:
    """The reading "d_k = 1024 means a model 1024 wide" (fixtures/recipes.py READINGS), beside the
    chapter's runaway figures (claims/registry.py)."""
    label = "a model 1024 wide throughout, one head of 1024 (instead of a 1024 head on the 128-wide model)"
    r = f.readings.get(RUNAWAY_WIDE)
    if not r or not r.get("undivided", {}).get("score_sd"):
        return (f"{label}: not yet measured (`python -m fixtures errata --only runaway_wide_undivided --seeds 1`, "
                "~45 CPU-minutes a run, then `pytest claims/test_readings.py -m slow --device cpu -k runaway`)")
    u, d, c = r["undivided"], r.get("divided", {}), registry.figures("scale")
    n = len(u["score_sd"])
    divided = (f"divided score sd {printing.over_seeds(d['score_sd'])} ({c['divided_sd']})" if d.get("score_sd") else
               "the divided head not trained in this width (`runaway_wide_divided`)")
    return (f"{label}, {n} seed{'s' if n > 1 else ''}: undivided score sd {printing.over_seeds(u['score_sd'])} after training (the "
            f"chapter: {c['runaway_sd']}), rows with > 0.99 on one token {pct(u['frozen'])} "
            f"({100 * c['runaway_frozen']:.1f} %), entropy {printing.over_seeds(u['entropy'])} ({c['runaway_entropy']}); {divided}"
            + ("" if n >= rules.MIN_SEEDS else f"; fewer than {rules.MIN_SEEDS} seeds: no verdict under the figure rule"))


def _runaway_cause(f: Facts) -> str:
    """Where the runaway's size comes from, once the wide reading is measured: the chapter's figures
    against the head trained in the 128-wide model and in the model 1024 wide throughout."""
    narrow = per_seed(f, "scale.runaway_sd")
    init = per_seed(f, "scale.runaway_init_sd")
    frozen = per_seed(f, "scale.runaway_frozen")
    divided = per_seed(f, "scale.divided_sd")
    r = f.readings.get(RUNAWAY_WIDE) or {}
    wide, wide_div = r.get("undivided", {}), r.get("divided", {})
    if not (narrow and init and wide.get("score_sd")):
        return ""
    c = registry.figures("scale")
    n, w, stated = statistics.mean(narrow), statistics.mean(wide["score_sd"]), c["runaway_sd"]
    cause = (f"how far the undivided scores run depends on the model's width, which the chapter leaves open: from "
             f"{printing.mean_of(init)} at initialisation ({printing.mean_of(wide.get('init_score_sd'))} in the wide model) the 1024 head "
             f"on the 128-wide model (our primary reading: every model of the chapter is 128 wide) reaches {printing.over_seeds(narrow)}, "
             f"{n / statistics.mean(init):.0f}-fold, with {pct(frozen)} of rows frozen; the same head in a model "
             f"1024 wide throughout reaches {printing.over_seeds(wide['score_sd'])}, {w / n:.1f} times as far, with "
             f"{pct(wide['frozen'])} of rows frozen (the chapter: {stated} and {100 * c['runaway_frozen']:.1f} %)")
    if wide_div.get("score_sd") and divided:
        lo, hi = sorted((statistics.mean(wide_div["score_sd"]), statistics.mean(divided)))
        where = ("between the two, so neither width reproduces it" if lo < c["divided_sd"] < hi else
                 "outside both")
        cause += (f"; the divided head sits at {printing.over_seeds(wide_div['score_sd'])} in the wide model and {printing.over_seeds(divided)} in the "
                  f"128-wide one, and the chapter's {c['divided_sd']} lies {where}")
    return cause


def _runaway_sentence(f: Facts) -> tuple[Edit, ...]:
    """The runaway's refuted numbers, measured on the chapter's setup (the wide model is a reading,
    shown with the readings, never put into the chapter)."""
    sd, frozen = per_seed(f, "scale.runaway_sd"), per_seed(f, "scale.runaway_frozen")
    init, div, entropy = (per_seed(f, f"scale.{k}") for k in ("runaway_init_sd", "divided_sd", "runaway_entropy"))
    if not (sd and frozen and init):
        return ()
    edits = [figures_edit(f, "goes from {scale.runaway_init_sd} at initialisation to {scale.runaway_sd}, the "
                             "attention entropy falls to {scale.runaway_entropy}, and {scale.runaway_frozen} of rows",
                          {"scale.runaway_init_sd": init, "scale.runaway_sd": sd, "scale.runaway_entropy": entropy,
                           "scale.runaway_frozen": frozen})]
    if div:
        edits.append(figures_edit(f, "score standard deviation of {scale.divided_sd}", {"scale.divided_sd": div}))
    return tuple(edits)


AHEAD = "scale.no_effect_at_32: undivided ahead at d_k = 32"


def _gain_32(f: Facts) -> list[float]:
    """The divided run's advantage at d_k = 32 per seed (its figure, scale.worth_32, holds at nothing)."""
    return (f.figure_measured("scale.worth_32") or {}).get("per seed") or []


def _ahead_cause(f: Facts) -> str:
    gain = _gain_32(f)
    if not gain:
        return ""
    return ("the division is worth nothing (that figure holds), but the run with it, not the one without, is ahead: "
            f"by {mean_sd(gain)} points of perplexity over {len(gain)} seeds, ahead in {k_of_n([g > 0 for g in gain])}")


def _ahead_sentence(f: Facts) -> tuple[Edit, ...]:
    """Which run is ahead, as the paired test over seeds decides it; no sentence where it does not."""
    gain = _gain_32(f)
    if not gain or f.outcome("scale.no_effect_at_32", AHEAD) != "refuted":
        return ()
    return (edit("the run without it is very slightly ahead",
                 "the run with it is very slightly ahead, by {gain} points of perplexity, in {k}", gain=num(gain),
                 k=k_of_n([g > 0 for g in gain])),)


def _biased(f: Facts) -> list[str]:
    """The biased layers whose doubled input does not double their output (claims/test_scale.py)."""
    tests = f.claims.get("scale.softmax_scale_sensitive", {}).get("tests", [])
    return [t["nodeid"].split("[", 1)[1].rstrip("]") for t in tests
            if "with_a_bias" in t["nodeid"] and "[" in t["nodeid"] and t["outcome"] == "refuted"]


ERRATA: dict[str, Erratum] = {
    "scale.softmax_scale_sensitive": Erratum(
        figure="scale.linear_doubles",
        cause=lambda f: (f"a layer with a bias does not double its output: {', '.join(_biased(f))} (the block's W_o and "
                         "MLP carry biases, as the chapter's GPT-2 accounting has them); the head's bias-free "
                         "projections double it exactly" if _biased(f) else ""),
        suggested=lambda f: (Edit("Doubling a linear layer's input doubles its output",
                                  "Doubling a bias-free linear layer's input doubles its output"),) if _biased(f) else ()),
    "scale.runaway": Erratum(
        figure="scale.runaway_sd",
        cause=_runaway_cause,
        readings=lambda f: [_runaway_wide(f)],
        suggested=lambda f: _runaway_sentence(f)),
    "scale.no_effect_at_32": Erratum(
        quote="the run without it is very slightly ahead",  # the refuted part, no figure's anchor
        cause=_ahead_cause, suggested=_ahead_sentence),
}
