"""The report's plots draw their data (claims/report/plot_data.py, read from committed results,
including partial ones: some recipes or seeds not trained yet) and compute nothing of their own."""
import json
import math
import struct
from pathlib import Path

import pytest
from records import recorded

from claims.chapter import CHAPTER
from claims.chapter_figures import FIGURES, LADDER_ROW_FIGURE
from claims.report import plot_data, plots
from claims.report.evidence import Runs
from fixtures import recipes, results
from fixtures.evidence import EvidenceWriter
from textcheck.save import save_run

ROOT = Path(__file__).resolve().parent.parent.parent


def _run(name, seed, val, group_recipes):
    r = next(r for r in group_recipes if r.name == name).with_seed(seed)
    return recorded({"recipe": name, "seed": seed, "config": r.to_dict(),
                     "metrics": {"val_ppl": val, "train_ppl": val / 2}, "date": "2026-11-29T00:00:00+00:00",
                     "curve": [[s, 6.0 - s / 500] for s in range(0, 1000, 100)]})


@pytest.fixture
def results_dir(tmp_path, monkeypatch):
    d = tmp_path / "results"
    d.mkdir()
    monkeypatch.setattr(results, "RESULTS_DIR", d)
    return d


def _write(d, group, runs):
    (d / f"{group}.json").write_text(json.dumps({"group": group, "runs": runs}))


def _data(d=None) -> plot_data.PlotData:
    """The plots' data, as the command reads it: from results/ (or `d`) through the evidence's reader."""
    return plot_data.plot_data(Runs(d if d is not None else results.RESULTS_DIR))


def test_no_results_draw_nothing(results_dir, tmp_path):
    data = _data(results_dir)
    assert data == plot_data.PlotData(None, None, None)
    assert plots.norm_plot(data.norm, tmp_path) is None
    assert plots.scale_plot(data.scale, tmp_path) is None
    assert plots.ladder_plot(data.ladder, tmp_path) is None
    assert plots.draw(data, tmp_path) == []


def test_norm_plot_draws_the_runs_there_are(results_dir, tmp_path):
    _write(results_dir, "norm", [_run("prenorm", s, 38 + s, recipes.NORM) for s in range(2)]
           + [_run("postnorm", 0, 300, recipes.NORM)])
    png = plots.norm_plot(_data(results_dir).norm, tmp_path)
    assert png.name == "norm.png" and png.stat().st_size > 10_000


def test_ladder_and_scale_plots_are_drawn(results_dir, tmp_path):
    _write(results_dir, "ladder", [_run("baseline", 0, 60, recipes.LADDER), _run("layernorm", 0, 38, recipes.LADDER)])
    _write(results_dir, "scale", [_run("scale256_undivided", 0, 70, recipes.SCALE),
                                  _run("scale256_divided", 0, 55, recipes.SCALE)])
    data = _data(results_dir)
    assert plots.ladder_plot(data.ladder, tmp_path).stat().st_size > 10_000
    assert plots.scale_plot(data.scale, tmp_path).stat().st_size > 10_000


def test_the_plots_data_holds_every_number_they_show(results_dir):
    """Each seed's value and their mean, the chapter's mark (its figure ID and value) on a row the
    chapter quotes, and the norm curves in the unit drawn (a held-out perplexity as its log)."""
    _write(results_dir, "ladder", [_run("baseline", s, 60 + s, recipes.LADDER) for s in range(2)]
           + [_run("average", 0, 300, recipes.LADDER)])
    prenorm = _run("prenorm", 0, 40, recipes.NORM)
    norm_run = recorded(dict(prenorm, metrics={**prenorm["metrics"], "held_out_curve": [[100, 90.0], [200, 50.0]]}))
    _write(results_dir, "norm", [norm_run])
    data = _data(results_dir)
    baseline, average = data.ladder.rows
    assert (baseline.name, baseline.seeds) == ("baseline", plot_data.Seeds(0, (60, 61), 60.5))
    assert baseline.mark == plot_data.Mark("ladder.baseline", FIGURES["ladder.baseline"].value, "the chapter")
    assert (average.seeds.x, average.mark, average.mean_text) == (1, None, "300.0")
    prenorm = next(r for r in data.norm.runs if r.name == "prenorm")
    (seed,) = prenorm.seeds
    assert seed.end_step == 900 and seed.end_loss == pytest.approx(math.log(40))
    assert seed.held_out == ((100, pytest.approx(math.log(90.0))), (200, pytest.approx(math.log(50.0))))
    assert [r.seeds for r in data.norm.runs if r.name != "prenorm"] == [(), (), ()]
    assert data.scale is None                   # no undivided run: the plot is not drawn


def test_the_ladder_plot_marks_every_row_the_chapter_quotes():
    """Drawn from the committed runs: every row of LADDER_ROW_FIGURE (the map the ladder table uses
    too) carries the chapter's mark, its figure ID as the mark's gid, at the row's tick and the
    figure's value; no other row carries one."""
    fig = plots.ladder_figure(_data().ladder)
    ax = fig.axes[0]
    rows = {t.get_text(): t.get_position()[0] for t in ax.get_xticklabels()}
    marks = {c.get_gid(): tuple(c.get_offsets()[0]) for c in ax.collections if c.get_gid()}
    assert set(LADDER_ROW_FIGURE) <= set(rows), "a quoted row with no committed runs"
    assert marks == {fid: (rows[name], FIGURES[fid].value) for name, fid in LADDER_ROW_FIGURE.items()}
    assert [t.get_text() for t in ax.get_legend().get_texts()].count("the chapter") == 1


def _png_software(png: bytes) -> str:
    """The Software text of a PNG (matplotlib writes its version there)."""
    i = 8
    while i < len(png):
        n, kind = struct.unpack(">I4s", png[i:i + 8])
        if kind == b"tEXt":
            key, _, text = png[i + 8:i + 8 + n].partition(b"\0")
            if key == b"Software":
                return text.decode("latin-1")
        i += 12 + n
    return ""


@pytest.mark.parametrize("plot", ["ladder", "scale", "norm"])
def test_a_committed_plot_is_its_committed_runs_drawn(plot, tmp_path):
    """results/<plot>.png is what the plotter draws from the committed runs today: a plot the code
    no longer draws so (a renamed figure ID, a lost mark) fails here, not in the next save.  The
    bytes depend on matplotlib's version, which the PNG records: compared only under that version."""
    committed = (results.RESULTS_DIR / f"{plot}.png").read_bytes()
    import matplotlib
    if f"version{matplotlib.__version__}," not in _png_software(committed):
        pytest.skip(f"results/{plot}.png was drawn by {_png_software(committed)!r}; "
                    f"this is matplotlib {matplotlib.__version__}")
    drawn = getattr(plots, f"{plot}_plot")(getattr(_data(), plot), tmp_path)
    assert drawn.read_bytes() == committed, (f"results/{plot}.png is not its committed runs drawn today: save it "
                                             "again (`pytest -m fast && python -m claims.report --save-results`)")


def test_a_save_of_a_run_that_changes_nothing_leaves_the_committed_plot_unwritten(results_dir, tmp_path):
    """A plain run's save carries the report's plots (drawn from the committed runs) into results/:
    the same bytes are not written again (not even renamed over the old file)."""
    (results_dir / "ladder.json").write_bytes((ROOT / "results" / "ladder.json").read_bytes())
    plots.ladder_plot(_data(results_dir).ladder, results_dir)
    before = (results_dir / "ladder.png").stat()
    run = EvidenceWriter(tmp_path / "run", results_dir=results_dir)
    plots.ladder_plot(_data(results_dir).ladder, run.root)
    run.add("ladder.png")
    lines = save_run(CHAPTER, {"meta": {}, "claims": []}, run, results_dir)
    after = (results_dir / "ladder.png").stat()
    assert "ladder.png: unchanged" in lines, lines
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
