"""The errata of the chapter's section: Pre- and post-norm, and the gradient profile at initialisation."""
from __future__ import annotations

import statistics

from claims import registry
from claims.chapter_figures import FIGURES
from claims.readings_declared import standing
from claims.report.errata.facts import Erratum, Facts, figure_edit, per_seed
from claims.report.errata.held_out import best_ppl, split_of, subset_bias
from claims.report.errata.spread import Edit, between, edit, mean_sd, num
from fixtures.setup import GRAD_READINGS, PRENORM_STOP_AT, PRENORM_STOPPED
from textcheck import printing, rules


def _norm_levels(f: Facts) -> str:
    pre, prew = f.per_run("norm", "prenorm"), f.per_run("norm", "prenorm_warmup")
    pw, post = f.per_run("norm", "postnorm_warmup"), f.per_run("norm", "postnorm")
    c = registry.figures("norm")
    return (f"every twelve-block run that trains overfits as the chapter states the setup (1000 steps of batch 64 "
            f"over 0.9 M training tokens, no dropout): pre-norm ends at {printing.over_seeds(pre)} held-out against "
            f"{printing.over_seeds(f.per_run('norm', 'prenorm', 'train_ppl'))} on training text; with warmup {printing.over_seeds(prew)} against "
            f"{printing.over_seeds(f.per_run('norm', 'prenorm_warmup', 'train_ppl'))}; post-norm with warmup {printing.over_seeds(pw)} against "
            f"{printing.over_seeds(f.per_run('norm', 'postnorm_warmup', 'train_ppl'))}. Post-norm without warmup stays on the "
            f"unigram plateau, {printing.over_seeds(post)}, which the chapter's {c['postnorm']} matches. The chapter's {c['prenorm']}, "
            f"{c['prenorm_warmup']} and {c['postnorm_warmup']} are where one block ends in its own ladder "
            f"({registry.FIGURE_VALUES['ladder.layernorm_val']}; ours {printing.over_seeds(f.per_run('ladder', 'layernorm'))})"
            + _norm_curves(f))


def _best(f: Facts, recipe: str) -> list[dict]:
    return [b for b in f.per_run("norm", recipe, "best_held_out") if b]


def _norm_curves(f: Facts) -> str:
    """What the held-out curves show, where runs recorded them."""
    stated = registry.figures("norm")
    best = _norm_best_clause(f)
    if not best:
        return ""
    stopped = _stopped(f)
    stop = ("" if not stopped else
            f". Pre-norm stopped at step {PRENORM_STOP_AT} and evaluated on the full held-out split reaches "
            f"{mean_sd(stopped)} ({len(stopped)} seed{'s' if len(stopped) > 1 else ''}), against the chapter's "
            f"{stated['prenorm']}; " + standing("best held-out step", f.per_run("errata", PRENORM_STOPPED, "date")))
    return (". The held-out curves put the chapter's figures on the way down: " + best
            + ", and then climb to the final figures as the runs overfit" + stop)


def _norm_readings(f: Facts) -> list[str]:
    """Each run's best held-out checkpoint beside the chapter's figure: was it an early-stopped one?"""
    stated = registry.figures("norm")
    out = []
    for r in ("prenorm", "prenorm_warmup", "postnorm_warmup", "postnorm"):
        best = [b for b in f.per_run("norm", r, "best_held_out") if b]
        if not best:
            out.append(f"best held-out checkpoint of {r}: not yet measured (its runs on record predate the held-out "
                       f"curve; `python -m fixtures norm --only {r} --seeds 3` records it)")
            continue
        values = [best_ppl(b) for b in best]
        verdict = _reading_verdict(values, stated[r], "the chapter's final figure")
        out.append(f"best held-out checkpoint of {r} (perplexity on {split_of(best)}): "
                   + ", ".join(f"{best_ppl(b):.2f} at step {b['step']}" for b in best)
                   + f" ({len(best)} seed{'s' if len(best) > 1 else ''}), against the chapter's final "
                   f"{stated[r]}: {statistics.mean(values) - stated[r]:+.2f}; {verdict}"
                   + (subset_bias(f, r) if any("val_ppl" not in b for b in best) else ""))
    return out + _stopped_reading(f)


PERPLEXITY_ROUNDING = 0.005          # the chapter prints perplexities to two decimals (claims/test_norm_trained.py)


def _reading_verdict(values: list[float], stated: float, what: str) -> str:
    """A perplexity reading judged by the figure rule (textcheck/decide.py reading_agrees), in words."""
    agree = rules.reading_agrees(values, stated, PERPLEXITY_ROUNDING)
    n = len(values)
    return (f"{n} seed{'s' if n > 1 else ''}: no verdict under the rule ({rules.MIN_SEEDS} seeds)" if agree is None else
            f"agrees with {what} (an alternative reading: the primary verdict stays)" if agree
            else f"does not agree with {what}")


def _stopped(f: Facts) -> list[float]:
    """The held-out perplexity of each seed of pre-norm stopped at its best step (the errata group)."""
    return [v for v in f.per_run("errata", PRENORM_STOPPED) if isinstance(v, (int, float))]


def _stopped_reading(f: Facts) -> list[str]:
    """Pre-norm stopped at its best held-out step, on the full held-out split (PRENORM_STOPPED)."""
    name, stop = PRENORM_STOPPED, PRENORM_STOP_AT
    stated = registry.FIGURE_VALUES["norm.prenorm"]
    values = _stopped(f)
    if not values:
        return [(f"pre-norm stopped at step {stop}, on the full held-out split: not yet measured "
                f"(`python -m fixtures errata --only {name} --seeds 1`, ~20 CPU-minutes)")]
    # the stopped run should be the first `stop` steps of the 1000-step run: the two curves must agree
    # at every step both probe, exactly or up to float rounding (on this CPU two processes differ in
    # the last bits from the first steps, and twelve blocks amplify that as training goes on)
    same = sorted((a[0], abs(a[1] - b[1]) / b[1]) for c_stop, c_full in zip(
        f.per_run("errata", name, "held_out_curve"), f.per_run("norm", "prenorm", "held_out_curve"))
        if c_stop and c_full for a in c_stop for b in c_full if a[0] == b[0])
    check = ""
    if same:
        (first, rel_first), rel_max = same[0], max(r for _, r in same)
        check = (f"; its held-out curve equals the 1000-step run's at the {len(same)} steps both probe"
                 if rel_max <= 1e-9 else
                 f"; its held-out curve is the 1000-step run's up to float rounding: {rel_first:.1g} apart "
                 f"(relative) at step {first}, drifting to at most {100 * rel_max:.2g} % by step {same[-1][0]} "
                 "as the twelve blocks amplify rounding" if rel_first < 1e-4 else
                 f"; its held-out curve is {100 * rel_first:.2g} % from the 1000-step run's at step {first} "
                 "already, so it is not the same run")
    verdict = (_reading_verdict(values, stated, "the chapter's figure") + "; "
               + standing("best held-out step", f.per_run("errata", PRENORM_STOPPED, "date")))
    best = [b["step"] for b in _best(f, "prenorm")]
    return [(f"pre-norm stopped at step {stop} (where seed 0's held-out curve bottoms: step "
            f"{', '.join(map(str, best)) or 'not recorded'}), on the full held-out split: {printing.over_seeds(values)} "
            f"({len(values)} seed{'s' if len(values) > 1 else ''}), against the chapter's {stated}: "
            f"{statistics.mean(values) - stated:+.2f}; {verdict}{check}")]


def _norm_sentence(f: Facts) -> tuple[Edit, ...]:
    """The twelve-block table's refuted numbers, measured; a figure that is underspecified (the
    best held-out step reproduces it: docs/choices.md) or holds keeps the chapter's, and then
    there is nothing to change: the erratum asks the chapter to state the choice instead."""
    return tuple(figure_edit(f, f"norm.{r}", f.per_run("norm", r))
                 for r in ("prenorm", "prenorm_warmup", "postnorm", "postnorm_warmup"))


def _gap(f: Facts, a: str, b: str) -> list[float]:
    """Held-out points recipe `a` ends above recipe `b`, paired by seed."""
    return [x - y for x, y in zip(f.per_run("norm", a), f.per_run("norm", b))]


def _matches_sentence(f: Facts) -> tuple[Edit, ...]:
    """"post-norm with warmup matches pre-norm exactly", by the measured gap, where the difference the
    tests derive from the table (postnorm_warmup - prenorm_warmup) is refuted."""
    gap = _gap(f, "prenorm_warmup", "postnorm_warmup")
    if f.claims.get("norm.warmup_rescues_postnorm", {}).get("verdict") != "refuted" or len(gap) < 2:
        return ()
    return (edit("post-norm with warmup matches pre-norm exactly",
                 "post-norm with warmup ends {d} points below pre-norm with warmup", d=num(gap)),)


def _need_sentence(f: Facts) -> tuple[Edit, ...]:
    """"moving the LayerNorm removes the need for it", by the measured gap, where prenorm - prenorm_warmup is refuted."""
    gap = _gap(f, "prenorm", "prenorm_warmup")
    if f.claims.get("norm.prenorm_needs_no_warmup", {}).get("verdict") != "refuted" or len(gap) < 2:
        return ()
    return (edit("and moving the LayerNorm removes the need for it",
                 "and moving the LayerNorm does not remove it here: pre-norm without warmup ends {d} points "
                 "above pre-norm with it", d=num(gap)),)


def _norm_best_clause(f: Facts) -> str:
    """Where the runs stand at their best held-out checkpoint: one range per recipe over its seeds
    (never a list of per-seed values), at the precision their spread supports."""
    names = {"prenorm": "pre-norm", "prenorm_warmup": "pre-norm with warmup", "postnorm_warmup": "post-norm with warmup"}
    parts = [f"{names[r]} {between([best_ppl(b) for b in best])} (steps {min(b['step'] for b in best)} to "
             f"{max(b['step'] for b in best)})" for r in names if (best := _best(f, r))]
    every = [b for r in names for b in _best(f, r)]
    return f"at their best held-out checkpoint (on {split_of(every)}): " + ", ".join(parts) if parts else ""


def _grad(f: Facts, label: str, norm: str, what: str):
    r = f.readings.get(f"norm.grad_profile: {label}", {}).get(norm, {})
    return r.get(what)


CHAPTER_GRAD = registry.GRAD_PROFILE     # (first block, last block, last/first) by scheme


def _grad_reading(f: Facts, label: str) -> str:
    """One alternative reading of the gradient profile, with whether it reproduces the chapter's
    ratios under the figure rule (rounding 0.005 + 2 sd over seeds)."""
    if f"norm.grad_profile: {label}" not in f.readings:
        return f"{label}: not yet measured (`pytest claims/test_readings.py -m slow`)"
    parts, agree = [], []
    for norm in ("pre", "post"):
        ratio = _grad(f, label, norm, "ratio")
        agree.append(rules.reading_agrees(ratio, CHAPTER_GRAD[norm][2], 0.005) is True)   # printed to two decimals
        parts.append(f"{norm}-norm block 1 {printing.over_seeds(_grad(f, label, norm, 'first'))}, block 12 "
                     f"{printing.over_seeds(_grad(f, label, norm, 'last'))}, ratio {printing.over_seeds(ratio)} (the chapter: "
                     f"{CHAPTER_GRAD[norm][0]}, {CHAPTER_GRAD[norm][1]}, {CHAPTER_GRAD[norm][2]})")
    verdict = ("reproduces both ratios (an alternative reading: the primary verdict stays)" if all(agree)
               else "reproduces neither ratio" if not any(agree) else "reproduces one ratio of two")
    return f"{label}: {'; '.join(parts)}: {verdict}"


def _grad_cause(f: Facts) -> str:
    """What the readings show together: the range of each ratio over every reading tried."""
    tried = [label for label in GRAD_READINGS if f"norm.grad_profile: {label}" in f.readings]
    if not tried:
        return ""
    ratios = {norm: [statistics.mean(_grad(f, label, norm, "ratio")) for label in tried] for norm in ("pre", "post")}
    primary = {n: per_seed(f, f"norm.grad_{n}_ratio") for n in ("pre", "post")}
    return (f"the profile is set by the initialisation and by what is measured, and under none of the "
            f"{len(tried) + 1} readings tried does pre-norm's gradient grow with depth as the chapter prints: "
            f"PyTorch's default initialisation (the primary reading) gives last/first {printing.mean_of(primary['pre'])} "
            f"(pre-norm) and {printing.mean_of(primary['post'])} (post-norm), flat; the {len(tried)} alternative readings give "
            f"{min(ratios['pre']):.3g} to {max(ratios['pre']):.3g} (pre-norm, the chapter {CHAPTER_GRAD['pre'][2]}) "
            f"and {min(ratios['post']):.3g} to {max(ratios['post']):.3g} (post-norm, the chapter "
            f"{CHAPTER_GRAD['post'][2]}). The chapter "
            "states neither its initialisation nor its definition of a block's gradient norm" + _grad_scale(f))


def _grad_scale(f: Facts) -> str:
    """How far the chapter's absolute figures are from the primary reading's, as factors."""
    factors = []
    for norm, (first, last, _) in CHAPTER_GRAD.items():
        for which, stated in (("first", first), ("last", last)):
            per = per_seed(f, f"norm.grad_{norm}_{which}")
            if per:
                factors.append(statistics.mean(per) / stated)
    if not factors:
        return ""
    return (f", and its four absolute figures are {min(factors):.1f} to {max(factors):.1f} times smaller than "
            "the L2 norms measured here")


def _grad_sentence(f: Facts) -> tuple[Edit, ...]:
    """The gradient table's refuted numbers, measured with PyTorch's default initialisation."""
    def quote(fid: str) -> str:         # the ratio's anchor begins with the last block's number: left out
        return FIGURES[fid].anchor.split("   ", 1)[-1]
    return tuple(figure_edit(f, fid, per_seed(f, fid), quote(fid)) for n in ("pre", "post")
                 for fid in (f"norm.grad_{n}_first", f"norm.grad_{n}_last", f"norm.grad_{n}_ratio"))


ERRATA: dict[str, Erratum] = {
    "norm.prenorm_needs_no_warmup": Erratum(
        figure="norm.prenorm",
        cause=_norm_levels, readings=_norm_readings, suggested=lambda f: (*_norm_sentence(f), *_need_sentence(f))),
    "norm.warmup_rescues_postnorm": Erratum(
        quote="post-norm with warmup matches pre-norm exactly",
        cause=lambda f: _norm_levels(f) + ". With warmup post-norm is rescued from the plateau, and ends better "
                                          "than pre-norm because it overfits less",
        readings=_norm_readings, suggested=lambda f: (*_norm_sentence(f), *_matches_sentence(f))),
    "norm.postnorm_diverges": Erratum(
        figure="norm.eight_times",
        cause=lambda f: (f"post-norm does end at the chapter's {registry.FIGURE_VALUES['norm.postnorm']}; the ratio is "
                         f"smaller because pre-norm ends higher than {registry.FIGURE_VALUES['norm.prenorm']}: "
                         + _norm_levels(f)),
        readings=_norm_readings,
        suggested=lambda f: (*_norm_sentence(f), figure_edit(f, "norm.eight_times", per_seed(f, "norm.eight_times"),
                                                             "Post-norm without warmup is eight"))),
    "norm.grad_profile": Erratum(
        figure="norm.grad_pre_ratio",
        cause=_grad_cause,
        readings=lambda f: [_grad_reading(f, label) for label in GRAD_READINGS],
        suggested=lambda f: _grad_sentence(f)),
}
