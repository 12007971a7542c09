"""The gradient profile at initialisation is committed evidence (results/grad_profile.json,
fixtures/grad_profile.py): the fast tier decides norm.grad_profile from it and measures nothing
when nothing changed; the slow tier (and CI's smoke run of it) measures it again and fails where
the committed values are not what this code measures."""
import json

import pytest

from data import split
from fixtures import grad_profile
from fixtures.results import RESULTS_DIR
from textcheck.store import EvidenceError


@pytest.fixture(scope="module")
def train():
    from data import load_tokens
    return split(load_tokens())[0]


@pytest.mark.slow
def test_the_committed_profile_is_what_this_code_measures(train):
    theirs = grad_profile.committed(train, RESULTS_DIR)
    assert theirs is not None, ("results/grad_profile.json is missing, or of another measurement version or other "
                                "tokens: `python -m fixtures.grad_profile --write` commits it")
    lines = grad_profile.differences(grad_profile.measure_all(train), theirs)
    assert not lines, "the committed gradient profile is not what this code measures:\n" + "\n".join(lines)


def test_the_fast_tier_reads_the_committed_profile_and_measures_nothing(train, monkeypatch):
    def measure(*_a, **_k):
        raise AssertionError("measured, although the committed profile is this measurement's")
    monkeypatch.setattr(grad_profile, "block_grad_norms", measure)
    stored = grad_profile.committed(train, RESULTS_DIR)
    assert stored is not None and [len(stored[n]) for n in grad_profile.NORMS] == [4, 4]


def test_a_profile_of_another_version_or_other_tokens_is_not_used(train, tmp_path):
    data = json.loads((RESULTS_DIR / grad_profile.EVIDENCE).read_text())
    for field, value in (("measurement", "grad_profile/0"), ("train", "uint16:3:abc")):
        (tmp_path / grad_profile.EVIDENCE).write_text(json.dumps(dict(data, **{field: value})))
        assert grad_profile.committed(train, tmp_path) is None


def test_a_malformed_committed_profile_is_an_error_naming_the_file_and_field(train, tmp_path):
    data = json.loads((RESULTS_DIR / grad_profile.EVIDENCE).read_text())
    data["profiles"]["post"][2] = data["profiles"]["post"][2][:11]
    (tmp_path / grad_profile.EVIDENCE).write_text(json.dumps(data))
    with pytest.raises(EvidenceError, match=r"grad_profile\.json: field 'profiles\.post'"):
        grad_profile.committed(train, tmp_path)
    (tmp_path / grad_profile.EVIDENCE).write_text("{")
    with pytest.raises(EvidenceError, match="grad_profile.json"):
        grad_profile.committed(train, tmp_path)


def test_a_changed_profile_is_named_block_by_block():
    ours = {n: [[1.0] * 12 for _ in range(4)] for n in grad_profile.NORMS}
    theirs = json.loads(json.dumps(ours))
    theirs["pre"][1][11] = 1.01
    assert grad_profile.differences(ours, theirs) == ["pre-norm seed 1 block 12: 1.0 here, 1.01 committed"]
