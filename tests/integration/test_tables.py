"""report/tables.md: every table the chapter prints or describes, built from the committed
evidence (results/) with nothing typed, and the runaway's reading beside its figures."""
import json

from claims.chapter import CHAPTER
from claims.report import table_data, tables
from claims.report.errata.scale import RUNAWAY_WIDE
from claims.report.evidence import Facts
from fixtures.results import RESULTS_DIR
from textcheck.merging import committed_only, figure_rows
from textcheck.report.views import tables as views
from textcheck.save import load_verdicts

# The tables the errata issue lists, by a word of each title (claims/report/tables.py data).
LISTED = ["Var(q·k)", "A row of 64 scores", "The softmax Jacobian", "The sqrt(d_k) ablation",
          "The runaway statistics", "The ladder", "GPT-2 small", "Pre-norm vs post-norm",
          "The gradient profile", "Positions", "The cost of one attention layer", "Winograd",
          "The two attention maps"]


def _committed():
    return committed_only(CHAPTER, load_verdicts(CHAPTER, RESULTS_DIR / "verdicts.json"))


def test_every_listed_table_is_built_from_the_committed_evidence():
    built = tables.data(_committed(), RESULTS_DIR)
    titles = [t.title for t in built]
    for word in LISTED:
        assert any(t.startswith(word) for t in titles), f"no table {word!r} in {titles}"
    body = {t.title: views.table_md(t) for t in built}
    ladder = next(md for t, md in body.items() if t.startswith("The ladder"))
    # the ladder's rows come from results/ladder.json: one row per trained recipe, our column filled
    assert ladder.count("\n| ") >= 10 and "± " in ladder
    rendered = views.render(built)
    assert rendered.startswith("# ") and "not a verdict" in rendered   # the runaway reading is committed


def test_the_runaway_reading_sits_beside_the_verdicts_figures(tmp_path):
    merged = {"claims": [{"id": "scale.runaway", "tests": [
        {"nodeid": "t[undivided score sd after training]", "outcome": "refuted", "figures": ["scale.runaway_sd"],
         "records": [{"figure": "undivided score sd after training ~5147", "measured": {"per seed": [150.0, 210.0]}}]}]}]}
    merged["figures"] = figure_rows(CHAPTER, merged["claims"])        # as the engine merges a report
    assert tables._runaway_wide_rows(Facts(merged, tmp_path)) == []      # nothing measured: no table
    reading = {"undivided": {"score_sd": [3600.0, 3800.0], "init_score_sd": [21.0]}, "divided": {}}
    (tmp_path / "readings.json").write_text(json.dumps({RUNAWAY_WIDE: reading}))
    rows = {r[0]: r for r in tables._runaway_wide_rows(Facts(merged, tmp_path))}
    assert rows["undivided score sd after training"][1:] == [5147, "180.00 ± 42.43 (2 seeds)", "3700 ± 141.42 (2 seeds)"]
    assert rows["undivided score sd at init"][3] == "21.00 (1 seed)"
    assert rows["divided score sd after training"][2:] == ["not measured", "not measured"]


def test_the_cost_figures_the_tests_state_are_the_chapters_printed_table(chapter_text):
    """The cost claims read their figures from the figure table (claims/chapter_figures.py); the
    chapter's table, parsed from its text by the report, must say the same."""
    from claims.chapter_figures import FIGURES
    from claims.registry import CHAPTER_PEAK_MB
    printed = table_data.chapter_cost_table(chapter_text)
    assert CHAPTER_PEAK_MB == {n: row["peak MB"] for n, row in printed.items()}
    assert {n: row["attn MB"] for n, row in printed.items()} == {n: FIGURES[f"cost.matrix_mb_{n}"].value for n in printed}
    assert all(float(printed[n]["ms x4"]) == FIGURES[f"cost.ms_x4_{n}"].value for n in printed if n > 128)
    assert float(printed[8192]["MB x4"]) == FIGURES["cost.memory_last_ratio"].value
    assert round(printed[8192]["projections ms"] / printed[1024]["projections ms"]) == FIGURES["cost.projections_x8"].value


def test_the_stopped_readings_step_is_where_the_committed_curve_of_seed_0_bottoms():
    """claims/registry.py PRENORM_STOP_AT is a recipe setting (a cache key needs a fixed number),
    chosen from a measurement: it must still be the best step of pre-norm seed 0 on record."""
    from fixtures import results
    from fixtures.setup import PRENORM_STOP_AT
    seed0 = [r for r in results.by_recipe("norm", RESULTS_DIR)["prenorm"] if r.seed == 0]
    assert seed0 and seed0[0].metrics["best_held_out"]["step"] == PRENORM_STOP_AT
