"""The fifth round of fault findings (issue 59): writes never follow a link out of a command's own
folder, the lock wait is a finite number or a named error, and a key that stands twice in one JSON
object is an error.  Each test names its finding; the commands are called in-process where the
test is not about the process boundary, and nothing of the checkout is written."""
import hashlib
import json
import os
from pathlib import Path

import pytest

from claims.report.cli import main as report_main
from safeio.folders import link_in, not_its_own_folder
from safeio.locks import lock_wait_seconds
from textcheck.commands import main as engine_main
from textcheck.store import EvidenceError, read_json

ROOT = Path(__file__).resolve().parent.parent.parent
pytest_plugins = ["pytester"]


def _digests(*paths: Path) -> dict:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


@pytest.fixture
def linked(tmp_path) -> Path:
    """A report folder whose claims.md and index.html are links to README.md and whose badges/ is a
    link to the committed badges (finding 3)."""
    out = tmp_path / "report"
    out.mkdir()
    (out / "claims.md").symlink_to(ROOT / "README.md")
    (out / "index.html").symlink_to(ROOT / "README.md")
    (out / "badges").symlink_to(ROOT / "results" / "badges")
    return out


def test_3_a_report_folder_holding_links_is_refused_and_nothing_is_written(linked, capsys):
    before = _digests(ROOT / "README.md", *sorted((ROOT / "results" / "badges").iterdir()))
    assert report_main([f"--report-dir={linked}"]) == 2
    assert "holds a link" in capsys.readouterr().err
    assert engine_main(["report", "--text", "examples.running_mean.chapter", f"--report-dir={linked}"]) == 2
    assert "holds a link (badges -> " in capsys.readouterr().err
    assert _digests(ROOT / "README.md", *sorted((ROOT / "results" / "badges").iterdir())) == before


def test_3_a_folder_that_is_a_link_or_holds_one_deep_down_is_named(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert link_in(tmp_path) is None
    (tmp_path / "a" / "b" / "x.svg").symlink_to(ROOT / "README.md")
    assert link_in(tmp_path) == f"a/b/x.svg -> {ROOT / 'README.md'}"
    (tmp_path / "l").symlink_to(tmp_path / "a")
    assert link_in(tmp_path / "l").startswith("l -> ")


def test_3_the_examples_report_refuses_a_committed_folder(capsys):
    results = ROOT / "examples" / "running_mean" / "results"
    before = _digests(*sorted(results.iterdir()))
    assert engine_main(["report", "--text", "examples.running_mean.chapter", f"--report-dir={results}"]) == 2
    assert "committed to git" in capsys.readouterr().err
    assert _digests(*sorted(results.iterdir())) == before
    assert not_its_own_folder(ROOT, ROOT) == "that is the checkout's root"


def test_3_a_run_into_a_report_folder_holding_links_is_refused_before_it_runs(linked, pytester):
    pytester.makeini("[pytest]\n")
    result = pytester.runpytest_inprocess("-p", "textcheck.plugin", "-p", "examples.running_mean.chapter",
                                          f"--report-dir={linked}", "--collect-only")
    assert result.ret == 4 and "holds a link" in "\n".join(result.errlines)


@pytest.mark.parametrize("wait", ["nan", "inf", "-inf", "1e400", "-1", "86401"])
def test_the_lock_wait_is_a_finite_number_or_a_named_error(wait, monkeypatch):
    from safeio.files import SaveError
    monkeypatch.setenv("ATTENTION_CLAIMS_LOCK_WAIT", wait)
    with pytest.raises(SaveError, match=r"ATTENTION_CLAIMS_LOCK_WAIT=.*not a number of seconds from 0 to 86400"):
        lock_wait_seconds()


def test_the_rederivation_names_an_endless_lock_wait_and_exits_2(monkeypatch, capsys):
    from claims.rederive import main
    monkeypatch.setenv("ATTENTION_CLAIMS_LOCK_WAIT", "nan")
    assert main([]) == 2
    assert "ATTENTION_CLAIMS_LOCK_WAIT='nan'" in capsys.readouterr().err


def test_a_key_twice_in_one_object_is_an_error_naming_the_file_and_the_key(tmp_path):
    path = tmp_path / "figures.json"
    path.write_text('{"records": [{"claim": "a", "claim": "b"}]}')
    with pytest.raises(EvidenceError, match=r"figures\.json: the key 'claim' stands twice in one object"):
        read_json(path, "figure evidence")
    path.write_text(json.dumps({"records": [{"claim": "a"}]}))
    assert read_json(path) == {"records": [{"claim": "a"}]}


def test_the_committed_files_hold_no_key_twice():
    for path in sorted((ROOT / "results").glob("*.json")) + sorted((ROOT / "examples").rglob("results/*.json")):
        read_json(path)             # raises, naming the file and the key
    assert os.path.exists(ROOT / "results" / "figures.json")


@pytest.mark.parametrize("folder", ["a-file", "x" * 300])
def test_a_report_folder_that_is_a_file_or_an_unusable_name_is_a_named_error(folder, tmp_path, capsys):
    (tmp_path / "a-file").write_text("")
    assert report_main([f"--report-dir={tmp_path / folder}"]) == 2
    assert engine_main(["report", "--text", "examples.running_mean.chapter", f"--report-dir={tmp_path / folder}"]) == 2
    err = capsys.readouterr().err
    assert err.count("that is a file, not a folder" if folder == "a-file" else "cannot be used (File name too long)") == 2


def test_a_claim_id_with_a_newline_is_named_quoted(pytester):
    pytester.makeini("[pytest]\n")
    result = pytester.runpytest_inprocess("-p", "textcheck.plugin", "-p", "examples.running_mean.chapter",
                                          "--claim", "mean.squares\nx", "--collect-only")
    assert result.ret == 4 and "--claim 'mean.squares\\nx': no such ID" in "\n".join(result.errlines)
