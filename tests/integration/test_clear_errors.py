"""Clear errors, never tracebacks (issue 36, finding 9): an unreadable chapter path, a wrong
$ATTENTION_CLAIMS_ROOT, a run without xdist, and evidence of the wrong shape in the errata.

Each names what is wrong and where: the path, the variable, the file, the claim, the test, the field."""
import copy
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from claims.chapter import CHAPTER
from data import chapter
from fixtures.results import EvidenceError

ROOT = Path(__file__).resolve().parent.parent.parent


def _env(**extra) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("PYTEST_XDIST_WORKER", None)
    env.update(extra)
    return env


# ---------------------------------------------------------------- (a) an unreadable chapter path

READERS = ("chapter_path", "load_chapter", "chapter_or_none")

# Each reader, in a process of its own (a reader that opened a FIFO would block for ever: the
# timeout below fails the test instead), prints `reader: ExceptionClass: message` on one line.
PROBE = """
import sys
from data import chapter
for name in sys.argv[1:]:
    try:
        print(name, "returned", repr(getattr(chapter, name)()))
    except Exception as e:
        print(name + ":", type(e).__name__ + ":", str(e).replace("\\n", " "))
"""


def _unreadable(kind: str, tmp_path: Path) -> tuple[Path, str]:
    """A path that cannot be the chapter's file, and the words that must say why."""
    if kind == "a directory":
        return tmp_path, "is a directory"
    if kind == "/dev/null":
        return Path("/dev/null"), "is a character device"
    if kind == "a FIFO":
        os.mkfifo(tmp_path / "chapter.fifo")
        return tmp_path / "chapter.fifo", "is a FIFO"
    if kind == "a 2 GB sparse file":
        with open(tmp_path / "huge.txt", "wb") as f:
            f.truncate(2 << 30)
        return tmp_path / "huge.txt", f"{2 << 30:,} bytes"
    if kind == "an empty file":
        (tmp_path / "empty.txt").write_bytes(b"")
        return tmp_path / "empty.txt", "is empty"
    if kind == "a file it may not read":
        if os.geteuid() == 0:
            pytest.skip("root reads any file")
        (tmp_path / "locked.txt").write_text("x" * 100)
        (tmp_path / "locked.txt").chmod(0)
        return tmp_path / "locked.txt", "cannot be read"
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["a directory", "/dev/null", "a FIFO", "a 2 GB sparse file", "an empty file",
                                  "a file it may not read"])
def test_an_unreadable_chapter_path_is_one_clear_error_in_every_reader(tmp_path, kind):
    """Every reader of data/chapter.py refuses the path with ChapterUnreadable, naming the path,
    the variable that gave it and what is wrong; a FIFO is refused without being opened, and an
    explicit path that cannot be read is an error, not an absent chapter (chapter_or_none raises)."""
    path, why = _unreadable(kind, tmp_path)
    r = subprocess.run([sys.executable, "-c", PROBE, *READERS], cwd=tmp_path, capture_output=True, text=True,
                       timeout=60, env=_env(ATTENTION_CLAIMS_CHAPTER=str(path)), check=False)
    assert r.returncode == 0, r.stderr
    lines = dict(line.split(": ", 1) for line in r.stdout.splitlines())
    assert set(lines) == set(READERS), r.stdout
    for reader, said in lines.items():
        assert said.startswith("ChapterUnreadable: "), f"{reader}: {said}"
        assert str(path) in said and chapter.ENV_VAR in said and why in said, f"{reader}: {said}"
    assert len(set(lines.values())) == 1, "every reader says the same"
    if kind == "a 2 GB sparse file":
        assert f"{chapter.MAX_BYTES:,}-byte cap" in lines["load_chapter"]


def test_an_unreadable_chapter_is_still_a_chapter_error_that_is_not_missing(tmp_path, monkeypatch):
    """ChapterUnreadable is a ChapterAltered (something is there, and it is not the chapter), so
    whatever already refuses an altered chapter refuses it too; never ChapterMissing (a skip)."""
    monkeypatch.setenv(chapter.ENV_VAR, str(tmp_path))
    assert issubclass(chapter.ChapterUnreadable, chapter.ChapterAltered)
    assert not issubclass(chapter.ChapterUnreadable, chapter.ChapterMissing)
    with pytest.raises(chapter.ChapterUnreadable, match="not a regular file"):
        chapter.chapter_or_none()


# ---------------------------------------------------------------- (b) a wrong ATTENTION_CLAIMS_ROOT

def test_a_wrong_project_root_is_a_usage_error_naming_the_variable_and_the_path(tmp_path):
    not_a_checkout = tmp_path / "elsewhere"
    not_a_checkout.mkdir()
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "claims/test_corpus.py",
                        "--report-dir", str(tmp_path / "report")], cwd=ROOT, capture_output=True, text=True,
                       timeout=300, env=_env(ATTENTION_CLAIMS_ROOT=str(not_a_checkout)), check=False)
    assert r.returncode == pytest.ExitCode.USAGE_ERROR, r.stdout + r.stderr
    assert "ATTENTION_CLAIMS_ROOT" in r.stderr and str(not_a_checkout) in r.stderr, r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert not (tmp_path / "report" / "claims.json").exists()          # stopped before anything ran


# ---------------------------------------------------------------- (c) a run without xdist

def test_the_suite_collects_without_xdist_under_strict_markers(tmp_path):
    """`pytest -p no:xdist` (and --strict-markers, which pyproject asks for): the xdist_group
    marks of the trained tests are registered by the project, not only by xdist."""
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "--strict-markers",
                        "-W", "error::pytest.PytestUnknownMarkWarning", "--co", "-q", "claims/",
                        "--report-dir", str(tmp_path / "report")], cwd=ROOT, capture_output=True, text=True,
                       timeout=300, env=_env(), check=False)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    assert "xdist_group" not in r.stdout + r.stderr


# ---------------------------------------------------------------- (d) evidence of the wrong shape in the errata

@pytest.fixture(scope="module")
def committed(tmp_path_factory):
    """A copy of results/'s evidence (the errata read it; nothing of the project is written) and
    the committed verdicts, merged as the report merges them without a fresh run."""
    from textcheck.merging import committed_only
    from textcheck.save import load_verdicts
    results = tmp_path_factory.mktemp("results")
    for p in (ROOT / "results").glob("*.json"):
        shutil.copy(p, results / p.name)
    return results, committed_only(CHAPTER, load_verdicts(CHAPTER, results / "verdicts.json"))


def _records(merged: dict):
    for ci, c in enumerate(merged["claims"]):
        for ti, t in enumerate(c.get("tests", [])):
            for ri, _ in enumerate(t.get("records", [])):
                yield ci, ti, ri


def test_a_string_where_a_measurement_should_be_is_an_evidence_error_naming_file_claim_test_and_field(
        committed, monkeypatch):
    """Every committed record in turn, its `measured` made a string (every claim refuted, so that
    every erratum is built): the errata either do not read it, or stop with an EvidenceError naming
    results/verdicts.json, the claim, the test and the field; never an AttributeError."""
    from claims.report import errata
    from fixtures import results as run_results
    from textcheck.merging import figure_rows
    results, merged = committed
    groups, by_recipe = {}, run_results.by_recipe         # each group's runs read once for the whole sweep
    monkeypatch.setattr(run_results, "by_recipe", lambda group, d=None, fresh=None: groups.get(group) or
                        groups.setdefault(group, by_recipe(group, d, fresh)))
    m = copy.deepcopy(merged)
    m.pop("figures", None)
    for c in m["claims"]:
        c["verdict"] = "refuted"
    named = []
    for ci, ti, ri in _records(m):
        c, t = m["claims"][ci], m["claims"][ci]["tests"][ti]
        kept, t["records"][ri]["measured"] = t["records"][ri].get("measured"), "oops"
        try:                    # the figure rows as the engine merges them, from the claims as they now are
            errata.build(dict(m, figures=figure_rows(CHAPTER, m["claims"])), results, results.parent / "report")
        except EvidenceError as e:
            said = str(e)
            assert str(results / "verdicts.json") in said and c["id"] in said and "measured" in said, said
            assert t["key"] in said and "'oops'" in said, said
            named.append(c["id"])
        t["records"][ri]["measured"] = kept
    # the reads that ended in an AttributeError or a TypeError before (winograd.block2_routing's
    # erratum reads its records' `weights` since they were measured again under trained/2: the next test)
    assert {"scale.no_effect_at_32", "positions.rope_degrades", "cost.time_quadratic",
            "winograd.block1_first_noun"} <= set(named)


def test_a_fresh_runs_record_of_the_wrong_shape_names_the_runs_claims_json(committed, tmp_path):
    from claims.report import errata
    results, merged = committed
    m = copy.deepcopy(merged)
    c = next(c for c in m["claims"] if c["id"] == "winograd.block2_routing")
    c["verdict"] = "refuted"
    for t in c["tests"]:
        t["source"] = "fresh run"
        for r in t["records"]:
            r["measured"] = r["weights"] = ["a", "list"]
    with pytest.raises(EvidenceError, match="claims.json") as e:
        errata.build(m, results, tmp_path)
    assert str(tmp_path / "claims.json") in str(e.value) and "winograd.block2_routing" in str(e.value)


@pytest.mark.parametrize("text, said", [('{"scale.runaway: a model', "not valid JSON"),
                                        ('["a", "list"]', "an object"),
                                        ('{"scale.runaway: a model 1024 wide throughout": "oops"}',
                                         "scale.runaway: a model 1024 wide throughout")])
def test_a_readings_file_of_the_wrong_shape_is_an_evidence_error_naming_it(tmp_path, text, said):
    from claims.report.evidence import Facts
    (tmp_path / "readings.json").write_text(text)
    with pytest.raises(EvidenceError, match="readings.json") as e:
        Facts({"claims": []}, tmp_path)
    assert said in str(e.value)


@pytest.mark.parametrize("text, said", [('{"rows": [{"n": 128', "not valid JSON"),
                                        ('{"rows": "oops"}', "field 'rows'"),
                                        ('{"rows": [{"n": "128", "ms": 1, "score_mb": 1, "peak_mb": 1}]}', "row 0: field 'n'"),
                                        ('{"rows": [{"n": 128, "ms": "4.9", "score_mb": 1, "peak_mb": 1}]}',
                                         "row 0 (n = 128): field 'ms'")])
def test_a_cost_table_of_the_wrong_shape_is_an_evidence_error_naming_the_row_and_field(tmp_path, text, said):
    """results/cost_cpu.json is read through one checked reader: the cost table never meets a
    KeyError or a string where a number should be."""
    from claims.report.evidence import cost_rows
    (tmp_path / "cost_cpu.json").write_text(text)
    with pytest.raises(EvidenceError, match="cost_cpu.json") as e:
        cost_rows(tmp_path)
    assert said in str(e.value)
    assert cost_rows(tmp_path / "nothing here") == {}
