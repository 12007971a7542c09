"""Run records as training writes them, for tests that plant evidence: a record's key is the one
its config and training version give (fixtures/results.py record_key), since every reader refuses
a record whose key does not match (an edited config or key)."""
from fixtures import results
from fixtures.recipes import RECIPES
from fixtures.train import TRAINING_VERSION


def recorded(rec: dict) -> dict:
    """`rec` with what ties it to its recipe: its config (today's recipe of its name and seed, unless
    the test gives one), the training version, and the key they give."""
    rec = dict(rec)
    rec.setdefault("config", RECIPES[rec["recipe"]].with_seed(rec["seed"]).to_dict())
    rec.setdefault("training_version", TRAINING_VERSION)
    rec["key"] = results.record_key(rec)
    return rec
