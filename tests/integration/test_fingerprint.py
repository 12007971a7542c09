"""The cache key is the recipe and TRAINING_VERSION: this test is what makes that safe.

It retrains one tiny recipe per architecture family and compares what training computed
(losses, evaluation, logits on a fixed batch) with tests/data/fingerprints.json within float
tolerance.  An edit that changes training without a version bump fails here, before a stale
cached model can decide a claim.
"""
import json

from fixtures import fingerprint
from fixtures.train import TRAINING_VERSION


def test_training_computes_what_the_stored_fingerprint_says():
    stored = json.loads(fingerprint.STORED.read_text())
    assert stored["training_version"] == TRAINING_VERSION, (
        f"TRAINING_VERSION is {TRAINING_VERSION} but the stored fingerprint is of version "
        f"{stored['training_version']}: store the new one with `python -m fixtures.fingerprint --write`")
    diff = fingerprint.differences(stored, fingerprint.compute())
    assert not diff, ("what training computes changed, but TRAINING_VERSION did not: bump it in "
                      "fixtures/train.py (cached models then retrain) and run `python -m "
                      "fixtures.fingerprint --write`; if the change was not meant to alter training, "
                      "it is a bug:\n" + "\n".join(diff))


def test_the_comparison_catches_a_changed_number_and_passes_float_noise():
    stored = json.loads(fingerprint.STORED.read_text())
    fam = next(iter(stored["families"]))
    noisy = json.loads(json.dumps(stored))
    noisy["families"][fam]["logits"] = [x * (1 + 1e-6) for x in noisy["families"][fam]["logits"]]
    assert fingerprint.differences(stored, noisy) == []
    changed = json.loads(json.dumps(stored))
    changed["families"][fam]["metrics"]["val_ppl"] *= 1.01
    assert fingerprint.differences(stored, changed) == [
        (f"{fam}: metrics.val_ppl stored {stored['families'][fam]['metrics']['val_ppl']:.6g}, "
         f"now {changed['families'][fam]['metrics']['val_ppl']:.6g}")]
