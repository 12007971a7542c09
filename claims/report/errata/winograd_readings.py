"""The Winograd errata's readings: where the uniform average's answers go, and the Winograd figures
under each alternative reading of the setup (claims/test_readings.py), beside the chapter's."""
from __future__ import annotations

from collections.abc import Callable

from claims import registry
from claims.chapter_figures import FIGURES
from claims.report.errata.facts import Facts, pct
from fixtures.setup import HELD_OUT_ANSWERS_IN_RUNS, winograd_reading_runs
from textcheck import rules


def answers_of(f: Facts, kind: str, part: str, what: str) -> list[float]:
    """Per seed, the share of the uniform average's answers going to `what` (claims/test_readings.py)."""
    measured = f.readings.get(f"winograd: answers of {kind}", {})
    if part == "held out" and what in HELD_OUT_ANSWERS_IN_RUNS and measured:   # the runs' own, of the seeds measured
        seeds = range(len(measured["held out"]["absent noun"]))
        return f.over_runs([("winograd", f"winograd_{kind}", seeds)], HELD_OUT_ANSWERS_IN_RUNS[what])
    return measured.get(part, {}).get(what, [])


def answers_reading(kind: str, kinds: tuple[str, ...], wrong_noun: bool = False):
    def reading(f: Facts) -> list[str]:
        a = lambda part, what: answers_of(f, kind, part, what)
        answers = ([f"where its answers go ({part}): " + ", ".join(
            f"{what} {pct(a(part, what))}" for what in ("referent", "other noun", "absent noun", "not a noun"))
            for part in ("train", "held out")] if a("held out", "absent noun") else
            [("where its answers go, on training and held-out sentences: not yet measured "
             "(`pytest claims/test_readings.py -m slow`)")])
        return answers + _winograd_readings(kinds, wrong_noun)(f)
    return reading


def _winograd_readings(kinds: tuple[str, ...], wrong_noun: bool = False) -> Callable[[Facts], list[str]]:
    """The accuracies of `kinds` (e.g. "cheatable_uniform") under each alternative reading of the
    Winograd setup (fixtures/recipes.py WINOGRAD_READINGS), read from the runs it was measured on
    (fixtures/setup.py winograd_reading_runs), beside the chapter's figures, each judged by the figure
    rule (textcheck/decide.py rate); a reading that agrees is labelled so and leaves the primary verdict alone."""
    def reading(f: Facts) -> list[str]:
        tried = {k: r for k, r in sorted(f.readings.items())
                 if k.startswith("winograd: ") and not k.startswith("winograd: answers of")}
        if not tried:
            return [("the Winograd figures under another width, split or held-out fraction: not yet measured "
                     "(`pytest claims/test_readings.py -m slow -k winograd_figures`)")]
        out = []
        for label, r in tried.items():
            parts, agree = [], []
            for kind in [k for k in kinds if r.get(k)]:          # readings.json: the items held out per seed
                rates = [("accuracy", f"winograd.{kind}")] + (
                    [("wrong_noun", f"winograd.{kind}_wrong_noun")] if wrong_noun else [])
                for rate, figure in rates:
                    stated = registry.FIGURE_VALUES[figure]
                    values = f.over_runs(winograd_reading_runs(kind, label.removeprefix("winograd: ")), rate)
                    if not values:                                   # its runs are not in results/
                        continue
                    agree.append(rules.rate(values, stated, r[kind]["held_out"],   # the figure rule, seeds included
                                            FIGURES[figure].rounding).holds)
                    parts.append(f"{kind.replace('_', ' ')} {rate.replace('_', ' ')} {pct(values)} "
                                 f"(the chapter: {100 * stated:.1f} %)")
            verdict = ("its runs are not all on record" if not agree
                       else "agrees with the chapter (an alternative reading: the primary verdict stays)" if all(agree)
                       else "moves no figure onto the chapter's" if not any(agree)
                       else f"agrees on {sum(agree)} figure(s) of {len(agree)}")
            out.append(f"{r['what']}: " + (f"{'; '.join(parts)}: " if parts else "") + verdict)
        return out
    return reading


# No Winograd reading was trained for these figures; their causes, where found, are measured on the stated setup.
NO_READINGS = lambda f: [("none tried (the Winograd readings trained cover the uniform average's and the "
                          "cheatable task's accuracies)")]
