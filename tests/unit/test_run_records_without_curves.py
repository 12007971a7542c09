"""The run index's reader of results/<group>.json (fixtures/results.py load_file_metrics): every
record as load_file reads it but its training curve, which it leaves unparsed where the file is
in the layout a save writes, and a file in any other layout read whole (and refused as a whole
read refuses it)."""
import dataclasses
import json

import pytest

from fixtures import results
from textcheck.store import EvidenceError


def _without_curve(run):
    return dataclasses.replace(run, curve=[])


@pytest.mark.parametrize("group", [g for g in results.RUN_GROUPS if results.path_of(g).exists()])
def test_each_committed_file_reads_as_load_file_reads_it_but_the_curves(group, tmp_path):
    path = tmp_path / f"{group}.json"
    path.write_bytes(results.path_of(group).read_bytes())     # a copy: nothing cached under its name
    fast = results.load_file_metrics(path, group)
    assert (str(path.resolve()), group, "metrics") in results._LOADED        # read without its curves
    full = results._load_file(path, group)
    assert [_without_curve(r) for r in fast] == [_without_curve(r) for r in full]
    assert [repr(r.metrics) for r in fast] == [repr(r.metrics) for r in full]   # final_train_loss as the curve gives it
    assert [r.curve for r in fast] == [r.curve[-1:] for r in full]


def _one_run(tmp_path, curve, indent=1):
    run = json.loads(results.path_of("mask").read_text())["runs"][0]
    path = tmp_path / "mask.json"
    path.write_text(json.dumps({"group": "mask", "runs": [{**run, "curve": curve}]}, indent=indent))
    return path


def test_a_file_in_another_layout_is_read_whole(tmp_path):
    path = _one_run(tmp_path, [[0, 7.0], [10, 6.5]], indent=None)
    (run,) = results.load_file_metrics(path, "mask")
    assert run.curve == [[0, 7.0], [10, 6.5]] and run.metrics["final_train_loss"] == 6.5


@pytest.mark.parametrize("curve", [[[0, "7.0"]], [[0, 7.0, 1]], [[0, True]], [{"step": 0}]])
def test_a_curve_that_is_no_list_of_step_loss_pairs_is_refused_as_a_whole_read_refuses_it(tmp_path, curve):
    path = _one_run(tmp_path, curve)
    with pytest.raises(EvidenceError, match="curve"):
        results.load_file_metrics(path, "mask")


def test_a_file_read_whole_already_is_not_read_again(tmp_path):
    path = _one_run(tmp_path, [[0, 7.0], [10, 6.5]])
    full = results.load_file(path, "mask")
    assert results.load_file_metrics(path, "mask")[0] is full[0]
