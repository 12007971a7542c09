"""The regenerated ladder table carries every ladder row the chapter quotes, with its figure."""
from claims.chapter_figures import FIGURES, LADDER_ROW_FIGURE
from claims.report.evidence import Facts
from claims.report.tables import _ladder_table
from fixtures.results import RESULTS_DIR
from fixtures.setup import LADDER_ROWS


def test_every_quoted_ladder_row_is_in_the_table_with_its_figure():
    assert set(LADDER_ROW_FIGURE) <= set(LADDER_ROWS) and set(LADDER_ROW_FIGURE.values()) <= set(FIGURES)
    table = _ladder_table(Facts({}, RESULTS_DIR))
    marked = {fid: table.rows[r][c] for (r, c), fid in table.figures.items()}
    assert marked == {fid: FIGURES[fid].value for fid in LADDER_ROW_FIGURE.values()}
