"""A run trained again under its committed key (fixtures/results.py merged_text): where it
reproduces the committed record (every metric within float summation order, times aside) the
committed record stays, so that what was decided from it stays decided; where it differs, it
replaces it, and the records decided from the old run fail the run check until measured again."""
from records import run_record

from fixtures import results
from fixtures.recipes import RECIPES

# the key is the config's own, whatever is written here
RUN = {"recipe": "positions_learned", "seed": 0, "key": "k", "date": "2026-12-04T21:32:49+00:00",
       "config": RECIPES["positions_learned"].to_dict(),
       "metrics": {"val_ppl": 37.541206250140775, "train_ppl": 19.938036361387603, "train_seconds": 451.33,
                   "held_out_curve": [[150, 115.55744669602429], [300, 75.47543503459266]]}}


def _again(**metrics) -> dict:
    return dict(RUN, date="2026-12-07T11:53:58+00:00", metrics={**RUN["metrics"], **metrics})


def _committed(tmp_path):
    results.merge("positions", [run_record(dict(RUN))], tmp_path)
    return results.path_of("positions", tmp_path).read_bytes()


def test_a_retrained_run_that_reproduces_its_record_leaves_the_committed_record(tmp_path):
    before = _committed(tmp_path)
    # measured 2026-12-07: the same weights evaluated again, 2e-7 apart; its own time; a field the
    # committed record predates
    again = _again(val_ppl=37.541197873052376, train_seconds=598.22, final_train_loss=2.97,
                   held_out_curve=[[150, 115.55744669602429], [300, 75.47543503459266 * (1 + 3e-7)]])
    results.merge("positions", [run_record(again)], tmp_path)
    assert results.path_of("positions", tmp_path).read_bytes() == before


def test_a_retrained_run_that_differs_replaces_the_committed_record(tmp_path):
    _committed(tmp_path)
    for changed in ({"val_ppl": 37.5413}, {"held_out_curve": [[150, 115.56], [300, 75.47543503459266]]},
                    {"held_out_curve": [[150, 115.55744669602429]]}):
        results.merge("positions", [run_record(_again(**changed))], tmp_path)
        [run] = results.load("positions", tmp_path)
        assert run.date == "2026-12-07T11:53:58+00:00", changed
        results.merge("positions", [run_record(dict(RUN))], tmp_path)       # the committed one back


def test_another_seed_is_another_run(tmp_path):
    _committed(tmp_path)
    results.merge("positions", [run_record(dict(_again(), seed=1))], tmp_path)
    assert [(r.seed, r.date) for r in results.load("positions", tmp_path)] == [
        (0, RUN["date"]), (1, "2026-12-07T11:53:58+00:00")]


def test_a_run_that_reproduces_its_record_takes_the_records_figures(tmp_path):
    """What is measured from a cached run that reproduces its committed record refers to that
    record's metrics, never to a second copy 2e-7 away (fixtures/engine.py as_on_record)."""
    from fixtures.engine import as_on_record
    from fixtures.train import TrainResult
    _committed(tmp_path)
    recipe = RECIPES["positions_learned"].with_seed(0)
    key = results.load("positions", tmp_path)[0].key
    for val_ppl, expected in ((37.541197873052376, RUN["metrics"]["val_ppl"]), (37.6, 37.6)):
        result = TrainResult(model=None, metrics={**RUN["metrics"], "val_ppl": val_ppl, "train_seconds": 598.22})
        result.meta = {"key": key, "created": "2026-12-07T11:53:58+00:00"}
        as_on_record("positions", recipe, result, tmp_path)
        assert result.metrics["val_ppl"] == expected and result.metrics["train_seconds"] == 598.22
