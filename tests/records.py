"""Records as the code that keeps them writes them, for tests that plant evidence.

A run record's key is the one its config and training version give (fixtures/run_codec.py
record_key), since every reader refuses a record whose key does not match (an edited config or
key).  A run record is typed (textcheck/records.py RunRecord): a test plants its JSON object
(`recorded`) in a file as a hand would, or types it through the one decoder (`run_record`) to write it
as the code that keeps the records does.  A figure record is typed (textcheck/records.py FigureRecord): a test that edits one as a
hand would edits its JSON object (`figure_objects`, the codec's own encoding) and either types it
again through the one validator (`figure`) or, where the edit is what the reader must refuse,
writes the objects as they are (`figures_text`).  A committed claim is typed too (ClaimVerdict,
its tests TestOutcomes): a test that plants one builds it from its JSON objects (`committed`)."""
import json
from dataclasses import asdict

from fixtures.recipes import RECIPES
from fixtures.run_codec import decode, record_key
from fixtures.train import TRAINING_VERSION
from textcheck import evidence
from textcheck.records import ClaimVerdict, FigureRecord, RunRecord, TestOutcome, check


def recorded(rec: dict) -> dict:
    """`rec` with what ties it to its recipe: its config (today's recipe of its name and seed, unless
    the test gives one), the training version, and the key they give."""
    rec = dict(rec)
    rec.setdefault("config", RECIPES[rec["recipe"]].with_seed(rec["seed"]).to_dict())
    rec.setdefault("training_version", TRAINING_VERSION)
    rec["key"] = record_key(rec)
    return rec


def run_record(rec: dict) -> RunRecord:
    """`rec` completed as `recorded` completes it, then checked and typed by the one decoder
    (fixtures/run_codec.py decode): a run record as training hands one to a save."""
    return decode(recorded(rec), "a test's run record")


def figure(obj: dict) -> FigureRecord:
    """A figure record from its JSON object, checked and typed by the one validator."""
    return check(FigureRecord, obj, "a test's figure record")


def figure_objects(records: list[FigureRecord]) -> list[dict]:
    """Figure records as a hand would write them into results/figures.json: every value a number
    (no run reference), what its test showed in full, each a new object a test may edit."""
    return [{k: v for k, v in asdict(r).items() if v is not None or k not in ("reading", "shown")} for r in records]


def figures_text(objects: list[dict]) -> str:
    """A results/figures.json of JSON objects as a hand left them (a forged rule input, a malformed
    value): what the reader must refuse, written without the codec that would never write it."""
    return json.dumps({"schema": evidence.SCHEMA, "records": objects}, indent=1)


def committed(claim: dict) -> ClaimVerdict:
    """A committed claim (as results/verdicts.json's codec gives it) from its ID, verdict and its
    tests' JSON objects, each test checked and typed by the one validator."""
    return ClaimVerdict(claim["id"], claim["verdict"],
                        [check(TestOutcome, t, f"a test's committed claim {claim['id']}") for t in claim["tests"]])
