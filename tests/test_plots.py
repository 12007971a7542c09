"""The report's plots draw from committed results, including partial ones (some recipes or
seeds not trained yet)."""
import json

import pytest
from records import recorded

from claims.report import plots
from fixtures import recipes, results


def _run(name, seed, val, group_recipes):
    r = next(r for r in group_recipes if r.name == name).with_seed(seed)
    return recorded({"recipe": name, "seed": seed, "config": r.to_dict(), "val_ppl": val,
                     "train_ppl": val / 2, "date": "2026-11-29T00:00:00+00:00",
                     "curve": [[s, 6.0 - s / 500] for s in range(0, 1000, 100)]})


@pytest.fixture
def results_dir(tmp_path, monkeypatch):
    d = tmp_path / "results"
    d.mkdir()
    monkeypatch.setattr(results, "RESULTS_DIR", d)
    return d


def _write(d, group, runs):
    (d / f"{group}.json").write_text(json.dumps({"group": group, "runs": runs}))


def test_no_results_draw_nothing(results_dir, tmp_path):
    assert plots.norm_plot(tmp_path) is None
    assert plots.scale_plot(tmp_path) is None
    assert plots.ladder_plot(tmp_path) is None


def test_norm_plot_draws_the_runs_there_are(results_dir, tmp_path):
    _write(results_dir, "norm", [_run("prenorm", s, 38 + s, recipes.NORM) for s in range(2)]
           + [_run("postnorm", 0, 300, recipes.NORM)])
    png = plots.norm_plot(tmp_path)
    assert png.name == "norm.png" and png.stat().st_size > 10_000


def test_ladder_and_scale_plots_are_drawn(results_dir, tmp_path):
    _write(results_dir, "ladder", [_run("baseline", 0, 60, recipes.LADDER), _run("layernorm", 0, 38, recipes.LADDER)])
    _write(results_dir, "scale", [_run("scale256_undivided", 0, 70, recipes.SCALE),
                                  _run("scale256_divided", 0, 55, recipes.SCALE)])
    assert plots.ladder_plot(tmp_path).stat().st_size > 10_000
    assert plots.scale_plot(tmp_path).stat().st_size > 10_000
