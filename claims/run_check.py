"""A trained figure record against the run records it names (issue 46, findings 2 and 3).

A record of a trained measurement names the runs it came from (`runs`, never empty); each must be
in results/<group>.json under its recipe, seed and cache key, and where its values are run metrics
(perplexity, accuracy) each seed's value is one run's metric, or the difference or ratio of two
runs' same metric, at that seed.  Values measured from the weights after training (attention
statistics, maps, perplexity at other windows) are not in the run records: for those the runs must
exist.  Pure (standard library only): `python -m claims.rederive` runs it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from claims.record_runs import Rests, rests_on
from claims.seed_steps import DECLARED_SEEDS, SEEDS_ON_RECORD

if TYPE_CHECKING:
    from textcheck.records import FigureRecord, RunRecord
    from textcheck.run_refs import RunIndex

# measurements taken from a trained model: a record of one names the runs it came from
TRAINED = frozenset({"perplexity", "perplexity_at_window", "softmax_stats", "softmax_stats_at_init", "softmax_gradients",
                     "attention_curve", "position_rows", "position_probe", "winograd_accuracy", "winograd_answers",
                     "winograd_attention", "winograd_ablation", "winograd_head_ablation", "held_out_curve"})

# measurements whose per-seed values are run metrics: (metric names a value may be)
METRICS = {"perplexity": ("val_ppl", "train_ppl"), "winograd_accuracy": ("accuracy", "wrong_noun")}

# the run metrics a measurement's per-seed value is written as a reference to where it equals one
# (textcheck/run_refs.py refer: stored once): the run metrics above, and a perplexity evaluated at
# the window the run was trained and scored at (the positions runs at 64: the same evaluation of
# the same weights, so the same number; at 128 and 256 a value of its own).  Unlike METRICS, not
# every value of such a measurement must be one.
REFERABLE = {**METRICS, "perplexity_at_window": ("val_ppl",)}
TABLE = "claims/record_runs.py RECORD_RUNS"


def metric(run: RunRecord, name: str):
    """A run's metric by name (a number), or None: under its `metrics`."""
    v = run.metrics.get(name)
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _kind(rec: FigureRecord) -> str:
    return str(rec.measurement).partition("/")[0]


def check(rec: FigureRecord, runs: RunIndex) -> list[str]:
    """What disagrees between one figure record and the run records (lines naming both); [].
    `runs`: the engine's one index of the run records (textcheck/run_refs.py), each file read once."""
    kind = _kind(rec)
    if kind not in TRAINED:
        return []
    if not rec.runs:
        return [f"{rec.key}: a {kind} record names no runs (field 'runs'): nothing shows it was trained"]
    out, found = [], []
    for i, r in enumerate(rec.runs):
        try:
            run = runs.table(r.group).get((r.recipe, r.seed, r.key))
        except ValueError as e:
            out.append(f"{rec.key}: runs[{i}]: {e}")
            continue
        if run is None:
            out.append(f"{rec.key}: runs[{i}] ({r.group} {r.recipe} seed {r.seed} "
                       f"key {r.key}) is not in results/{r.group}.json")
        else:
            found.append(run)
    values = rec.measured.get("values") if isinstance(rec.measured, dict) else None
    out += _design(rec, found, values)
    if not out:
        out += [line for line, exempt in short_of_record(rec, runs) if not exempt]
    if not out and kind in METRICS and isinstance(values, list):
        out = _metrics(rec, kind, found, values)
    return out or _positions(rec, found)


def _metrics(rec: FigureRecord, kind: str, found: list, values: list) -> list[str]:
    """Each seed's value against its runs' metrics: one of them, or their difference or ratio (in
    the order RECORD_RUNS declares, where it declares a combination: finding 7)."""
    declared = rests_on(rec.key)
    combine = declared.combine if declared else None
    out = []
    for seed, v in zip(sorted({run.seed for run in found}), values):
        at = [run for run in found if run.seed == seed]
        options = set()
        for name in METRICS[kind]:
            if combine:
                op, a_recipe, b_recipe = combine
                a_ms = [m for run in at if run.recipe == a_recipe and (m := metric(run, name)) is not None]
                b_ms = [m for run in at if run.recipe == b_recipe and (m := metric(run, name)) is not None]
                options.update(a - b if op == "-" else a / b for a in a_ms for b in b_ms if op == "-" or b)
                continue
            ms = [m for m in (metric(run, name) for run in at) if m is not None]
            options.update(ms)
            options.update(a - b for a in ms for b in ms)
            options.update(a / b for a in ms for b in ms if b)
        if not any(_close(v, o) for o in options if isinstance(v, (int, float))):
            files = ", ".join(sorted({f"results/{r.group}.json" for r in rec.runs}))
            out.append(f"{rec.key}: seed {seed}'s value {v!r} in results/figures.json is no metric of its runs "
                       f"in {files} ("
                       + ", ".join(f"{run.recipe} {name} {metric(run, name)!r}" for run in at
                                   for name in METRICS[kind] if metric(run, name) is not None) + ")")
    return out


def _smoke(run: RunRecord) -> bool:       # a handful of steps: never evidence (fixtures/results.py is_smoke)
    return (run.config or {}).get("scale") == "smoke" or run.metrics.get("scale") == "smoke"


def _seeds_by_recipe(rec: FigureRecord) -> dict[tuple[str, str], set]:
    named: dict[tuple[str, str], set] = {}
    for r in rec.runs:
        named.setdefault((r.group, r.recipe), set()).add(r.seed)
    return named


def _design(rec: FigureRecord, found: list, values) -> list[str]:
    """What the declared design says a trained record rests on, against what it names: one value
    per seed of its runs, every seed the claim is declared on for each recipe (claims/seed_steps.py
    SEEDS_ON_RECORD), and no --smoke run.  The record's own say is never taken."""
    out = [f"{rec.key}: names {run.recipe} seed {run.seed}, a --smoke run's record (a handful of steps): "
           "never evidence" for run in found if _smoke(run)]
    seeds = sorted({r.seed for r in rec.runs})
    if isinstance(values, list) and len(values) != len(seeds):
        out.append(f"{rec.key}: field 'measured.values' holds {len(values)} values, but its runs (field 'runs') are "
                   f"of {len(seeds)} seeds ({', '.join(map(str, seeds))}): one value per seed")
    declared = SEEDS_ON_RECORD.get(rec.claim)
    for (group, recipe), named in sorted(_seeds_by_recipe(rec).items()) if declared else ():
        if len(named) < declared:
            out.append(f"{rec.key}: field 'runs' names {len(named)} seeds of {group} {recipe}, but "
                       f"{rec.claim} is declared on {declared} (claims/seed_steps.py SEEDS_ON_RECORD): "
                       "a record of a subset of its seeds")
    return out


def rests(rec: FigureRecord) -> list[tuple[str, str]]:
    """(field, problem) where a trained record's runs are not those its key rests on (RECORD_RUNS,
    finding 7), or a reference in a place is to another recipe's run.  `rec` as the file holds it."""
    if _kind(rec) not in TRAINED or not rec.runs:        # a record naming no runs: `check` names it
        return []
    declared = rests_on(rec.key)
    if declared is None:
        return [("runs", (f"no runs are declared for {rec.key!r} in {TABLE}: a trained record rests on the "
                         "recipes its test is declared to train, never on the ones it names"))]
    want = ", ".join(f"{g} {n}" for g, n in sorted(declared.recipes))
    out = [(f"runs[{i}]", f"names {r.group} {r.recipe} seed {r.seed}, but {rec.key} rests on {want} ({TABLE})")
           for i, r in enumerate(rec.runs) if (r.group, r.recipe) not in declared.recipes]
    named = {(r.group, r.recipe) for r in rec.runs}
    out += [("runs", f"names no run of {g} {n}, which {rec.key} rests on ({TABLE})")
            for g, n in sorted(declared.recipes) if (g, n) not in named]
    for field, values, (_group, recipe) in _places(rec, declared):
        out += [(f"{field}[{j}]", f"refers to {v['recipe']}'s run, but this place of {rec.key} is {recipe}'s ({TABLE})")
                for j, v in enumerate(values) if isinstance(v, dict) and "recipe" in v and v["recipe"] != recipe]
    return out


def _places(rec: FigureRecord, declared: Rests) -> list[tuple[str, list, tuple[str, str]]]:
    """(field, its values per seed, the (group, recipe) it requires) of each place RECORD_RUNS ties
    to a recipe: the record's `values`, and each side of a comparison it names."""
    measured = rec.measured if isinstance(rec.measured, dict) else {}
    out = []
    if declared.values and isinstance(measured.get("values"), list):
        out.append(("measured.values", measured["values"], tuple(declared.values.split("/", 1))))
    comparisons = measured.get("comparisons") if isinstance(measured.get("comparisons"), dict) else {}
    for label, sides in declared.sides:
        c = comparisons.get(label)
        for side, recipe in zip(("a", "b"), sides):
            if recipe is not None and isinstance(c, dict) and isinstance(c.get(side), list):
                out.append((f"measured.comparisons.{label}.{side}", c[side], tuple(recipe.split("/", 1))))
    return out


def _positions(rec: FigureRecord, found: list) -> list[str]:
    """Each value in a place RECORD_RUNS ties to a recipe against that recipe's runs, seed by seed:
    one of its run metrics, never another recipe's that the record also names."""
    declared, kind = rests_on(rec.key), _kind(rec)
    if declared is None or kind not in REFERABLE:
        return []
    seeds = sorted({run.seed for run in found})
    out = []
    for field, values, (group, recipe) in _places(rec, declared):
        for seed, v in zip(seeds, values):
            own = [m for run in found if (run.recipe, run.seed) == (recipe, seed)
                   for name in REFERABLE[kind] for m in [metric(run, name)] if m is not None]
            if own and isinstance(v, (int, float)) and not any(_close(v, m) for m in own):
                out.append(f"{rec.key}: field '{field}': seed {seed}'s value {v!r} is no metric of {group} {recipe} "
                           f"seed {seed} ({', '.join(repr(m) for m in own)}), the recipe this place rests on "
                           f"({TABLE})")
    return out


# The committed records that name fewer seeds than their runs had on record when they were decided
# (issue 59, finding 11: the rule below, entered 2026-12-07), each exempt only as committed: its
# date and the seeds it leaves out.  Measured again (a save dates it anew) it must name them all;
# nothing may be added here (tests/integration/test_faults_round7.py checks every entry is still
# short, so the list only shrinks).  What each would decide on every seed: docs/evidence.md.
SHORT_OF_RECORD: dict[str, tuple[str, tuple[int, ...]]] = {
    'positions.sinusoid_no_extrapolation: sinusoidal at 128': ('2026-12-04T23:21:05+00:00', (3, 4, 5, 6, 7, 8, 9)),
    'positions.sinusoid_no_extrapolation: sinusoidal at 256': ('2026-12-04T23:21:05+00:00', (3, 4, 5, 6, 7, 8, 9)),
    'positions.sinusoid_no_extrapolation: sinusoidal: 64 < 128 < 256': ('2026-12-04T23:21:05+00:00', (3, 4, 5, 6, 7, 8, 9)),
}


def short_of_record(rec: FigureRecord, runs: RunIndex) -> list[tuple[str, bool]]:
    """(line, exempt) for each set of a trained record's runs named on the same seeds (its recipes
    compared seed by seed) that leaves out a seed every one of those recipes had on record when the
    record was decided (a run of the group's file, no --smoke run, committed to results/ no later
    than the record's date: its `recorded`, else its training date), up to its group's declared
    count (claims/seed_steps.py DECLARED_SEEDS): a record cut to a subset of its seeds.  `exempt`:
    listed in SHORT_OF_RECORD as committed."""
    paired: dict[frozenset, list] = {}
    for recipe, seeds in sorted(_seeds_by_recipe(rec).items()):
        paired.setdefault(frozenset(seeds), []).append(recipe)
    out = []
    for seeds, recipes in paired.items():
        try:
            on_record = []
            for group, recipe in recipes:
                table = runs.table(group)
                # by the record's date, or by its own runs' where they were recorded after it (a run
                # trained again under its key): what was on record beside the runs it names
                by = max([str(rec.date or "")] + [str(table[(r.recipe, r.seed, r.key)].date or "") for r in rec.runs
                                                  if (r.group, r.recipe) == (group, recipe)
                                                  and (r.recipe, r.seed, r.key) in table])
                # a run it names recorded after it was decided (trained again under its key): the
                # record's date no longer says what was on record beside it, so every seed counts (a
                # record cut to the runs retrained first would otherwise pass)
                again = not by or (bool(rec.date) and by > str(rec.date))
                # on record: committed to results/ (`recorded`) by then, else by its training date (a
                # seed trained before a record was decided but committed after it is never held
                # against it); a date unknown: counted, as a run on record
                on_record.append({s for (name, s, _key), run in table.items() if name == recipe and not _smoke(run)
                                  and (again or str(run.recorded or run.date or "") <= by)})
        except ValueError:
            continue                        # a file not there or refused: the run check names it
        cap = min(DECLARED_SEEDS.get(group, 10 ** 6) for group, _ in recipes)
        missing = sorted(set(sorted(set.intersection(*on_record))[:cap]) - seeds)
        if missing:
            what = ", ".join(f"{g} {n}" for g, n in recipes)
            exempt = SHORT_OF_RECORD.get(rec.key) == (rec.date, tuple(missing))
            out.append(((f"{rec.key}: field 'runs' leaves out seed(s) {', '.join(map(str, missing))} of {what}, on "
                        f"record in results/{recipes[0][0]}.json when it was decided ({rec.date}): a record names "
                        f"every seed of its recipes on record, up to the group's declared {cap} "
                        "(claims/seed_steps.py DECLARED_SEEDS)"), exempt))
    return out
