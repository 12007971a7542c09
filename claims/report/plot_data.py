"""The data of this chapter's plots (the ladder, scale and norm plots), computed once per render
from the committed runs as the one reader of the evidence reads them (evidence.py Runs): every
number a plot shows, each seed's value and their mean, the chapter's marks, the curves in the units
they are drawn in (log perplexity where the plot shows a loss), and the labels and titles.
plots.py draws them and computes nothing.  Imports no torch and no plotting library."""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from claims.chapter_figures import FIGURES, LADDER_ROW_FIGURE
from claims.registry import figures
from claims.report.evidence import Runs
from fixtures.setup import LADDER_ROWS, WIDE_HEADS
from textcheck import RunRecord

# The ladder's rows the chapter quotes, and the figure each is asserted as, come from the one map
# the tables use too (LADDER_ROW_FIGURE); the other rows the chapter leaves to a table not in the text.
CHAPTER_NORM = figures("norm")
NORM_RUNS = ("prenorm", "prenorm_warmup", "postnorm", "postnorm_warmup")
Curve = tuple[tuple[float, float], ...]          # (step, value) per point, in the unit drawn


@dataclass(frozen=True)
class Seeds:
    """One position of a plot: each seed's value at `x`, and their mean."""
    x: float
    values: tuple[float, ...]
    mean: float


@dataclass(frozen=True)
class Mark:
    """The chapter's figure on a plot: its figure ID (the mark's gid, which the plot's test reads
    back), its value, and the legend's label (on the first mark alone)."""
    figure: str
    value: float
    label: str | None


@dataclass(frozen=True)
class LadderRow:
    name: str
    seeds: Seeds
    mean_text: str                 # the mean as written beside the row
    label: str | None              # the legend's label of the seeds (on the first row alone)
    mark: Mark | None              # the chapter's figure, on the rows it quotes


@dataclass(frozen=True)
class Ladder:
    rows: tuple[LadderRow, ...]
    ylabel: str = "held-out perplexity (log)"
    title: str = "The ladder at the chapter's scale: width 128, context 128, 3000 steps"


@dataclass(frozen=True)
class ScaleLine:
    """The widths of one setup with runs, joined by a line of their means (lines only within one
    setup: d_k = 32 is another number of steps than the wider heads)."""
    widths: tuple[Seeds, ...]
    label: str | None


@dataclass(frozen=True)
class ScaleSeries:
    divided: bool                  # divided by sqrt(d_k), or not
    lines: tuple[ScaleLine, ...]


@dataclass(frozen=True)
class Scale:
    series: tuple[ScaleSeries, ...]
    ticks: tuple[int, ...]
    tick_labels: tuple[str, ...]
    xlabel: str = "head width d_k (32: 3000 steps, batch 64; wider: 1500 steps, batch 32, one head)"
    ylabel: str = "held-out perplexity"
    title: str = "Does dropping the division change the final perplexity?"


@dataclass(frozen=True)
class NormSeed:
    """One seed's run: its training loss, its held-out loss at the end (log of its held-out
    perplexity; the gap to the curve is the overfitting) and, where recorded, its held-out curve."""
    curve: Curve
    end_step: float
    end_loss: float
    held_out: Curve                # empty where the run did not record it
    label: str | None              # the run's legend label (on its first seed alone)


@dataclass(frozen=True)
class NormRun:
    name: str
    seeds: tuple[NormSeed, ...]
    stated: tuple[float, float] | None     # the chapter's loss, at its first seed's last step


@dataclass(frozen=True)
class Norm:
    runs: tuple[NormRun, ...]
    xlabel: str = ("step\n(solid: training loss; dashed: held-out, where recorded; dots at the end: "
                   "held-out loss per seed; stars: the chapter's)")
    ylabel: str = "loss (nats per token)"
    title: str = "Twelve blocks, lr 3e-3: pre- vs post-norm, with and without a 200-step warmup"


@dataclass(frozen=True)
class PlotData:
    """Each plot's data, None where results/ holds none of its runs (the plot is not drawn)."""
    ladder: Ladder | None
    scale: Scale | None
    norm: Norm | None


def plot_data(runs: Runs) -> PlotData:
    return PlotData(ladder(runs.group("ladder")), scale(runs.group("scale"), runs.group("ladder")),
                    norm(runs.group("norm")))


def _seeds(x: float, runs: list[RunRecord]) -> Seeds:
    values = tuple(r.metrics.get("val_ppl") for r in runs)
    return Seeds(x, values, statistics.mean(values))


def ladder(runs: dict[str, list[RunRecord]]) -> Ladder | None:
    """The ladder's held-out perplexity per row (every seed, and their mean), with the chapter's
    figure on each row it quotes."""
    names = [name for name in LADDER_ROWS if name in runs]
    rows, marked = [], False
    for i, name in enumerate(names):
        seeds, fid = _seeds(i, runs[name]), LADDER_ROW_FIGURE.get(name)
        mark = None if fid is None else Mark(fid, FIGURES[fid].value, None if marked else "the chapter")
        marked = marked or mark is not None
        rows.append(LadderRow(name, seeds, f"{seeds.mean:.1f}", "measured (each seed)" if i == 0 else None, mark))
    return Ladder(tuple(rows)) if rows else None


def scale(scale_runs: dict[str, list[RunRecord]], ladder_runs: dict[str, list[RunRecord]]) -> Scale | None:
    """Held-out perplexity with and without the sqrt(d_k) division, per head width.  d_k = 32 is
    the 3000-step setup (divided: the ladder's one-block row); 256 and 1024 the shorter run."""
    rows = {(32, True): ladder_runs.get("layernorm", []), (32, False): scale_runs.get("scale32_undivided", [])}
    for d_k in WIDE_HEADS:
        for divide in (True, False):
            rows[(d_k, divide)] = scale_runs.get(f"scale{d_k}_{'divided' if divide else 'undivided'}", [])
    if not any(rows[(d, False)] for d in (32, *WIDE_HEADS)):
        return None
    series = []
    for divide in (True, False):
        label = "divided by sqrt(d_k)" if divide else "undivided"
        # two setups, a line within each; the legend names the series once, on the wider heads' line
        lines = (_scale_line(rows, divide, (32,), None), _scale_line(rows, divide, WIDE_HEADS, label))
        series.append(ScaleSeries(divide, lines))
    ticks = (32, *WIDE_HEADS)
    return Scale(tuple(series), ticks, tuple(str(d) for d in ticks))


def _scale_line(rows: dict[tuple[int, bool], list[RunRecord]], divide: bool, setup: tuple[int, ...],
                label: str | None) -> ScaleLine:
    """The widths of one setup that have runs (a line with none is drawn empty, as the legend's entry)."""
    return ScaleLine(tuple(_seeds(d_k, rows[(d_k, divide)]) for d_k in setup if rows[(d_k, divide)]), label)


def _norm_seed(run: RunRecord, label: str | None) -> NormSeed:
    curve = tuple((s, loss) for s, loss in run.curve)
    held = run.metrics.get("held_out_curve") or []
    return NormSeed(curve, curve[-1][0], math.log(run.metrics.get("val_ppl")),
                    tuple((s, math.log(p)) for s, p in held), label)


def norm(runs: dict[str, list[RunRecord]]) -> Norm | None:
    """The four twelve-block runs (every seed with a training curve), pre/post-norm with and
    without warmup; each run's legend gives its held-out perplexity per seed beside the chapter's."""
    if not runs:
        return None
    shown = []
    for name in NORM_RUNS:
        seeds = [r for r in runs.get(name, []) if r.curve]
        vals = ", ".join(f"{r.metrics.get('val_ppl'):.1f}" for r in seeds)
        label = f"{name}: val {vals} (chapter {CHAPTER_NORM[name]})" if seeds else None
        drawn = tuple(_norm_seed(r, label if i == 0 else None) for i, r in enumerate(seeds))
        stated = (drawn[0].end_step, math.log(CHAPTER_NORM[name])) if drawn else None
        shown.append(NormRun(name, drawn, stated))
    return Norm(tuple(shown))
