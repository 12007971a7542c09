"""The engine on a text it was not written for (examples/running_mean/), through its public face
and its commands alone, with this chapter's packages unimportable (chapter_unimportable.py)."""
import dataclasses
import json
import shutil

import pytest

import textcheck
from examples.running_mean.chapter import CHAPTER
from safeio.folders import link_in
from safeio.locks import lock_wait_seconds
from textcheck.commands import main
from textcheck.store import EvidenceError, read_json

pytestmark = pytest.mark.fast


def test_this_chapters_packages_cannot_be_imported_here():
    for name in ("claims", "fixtures", "data", "model"):
        with pytest.raises(ImportError, match="unimportable in the engine's tests"):
            __import__(name)


def test_the_public_faces_names_are_each_loaded_on_first_use():
    assert len(textcheck.__all__) == 26
    for name in textcheck.__all__:
        assert getattr(textcheck, name) is not None, name


@pytest.mark.parametrize("kind", ["figures", "numbers", "sentences", "claims"])
def test_the_examples_bookkeeping_is_complete(kind):
    text, why = CHAPTER.text_or_none()
    assert text is not None, why
    assert textcheck.bookkeeping(CHAPTER, text)[kind] == []


def test_the_rederivation_agrees_with_the_examples_committed_verdicts(capsys):
    assert main(["rederive", "--text", "examples.running_mean.chapter"]) == 0
    assert "agrees with the figure records" in capsys.readouterr().out


def test_the_conversion_finds_every_record_of_the_example_decided_under_todays_rules(capsys):
    assert main(["convert", "--text", "examples.running_mean.chapter", "--check"]) == 0
    assert "every record decided under today's rules" in capsys.readouterr().out


def test_the_engines_rederive_and_convert_show_their_own_options(capsys):
    for command, option in (("convert", "--check"), ("rederive", "--evidence")):
        with pytest.raises(SystemExit) as e:
            main([command, "--text", "examples.running_mean.chapter", "--help"])
        assert e.value.code == 0 and option in capsys.readouterr().out


def test_a_texts_own_command_module_runs_the_engines_command_under_its_own_name(capsys):
    assert textcheck.command(CHAPTER, "rederive", [], prog="python -m running_mean.rederive") == 0
    with pytest.raises(SystemExit):
        textcheck.command(CHAPTER, "convert", ["--bogus"], prog="python -m running_mean.convert")
    assert "usage: python -m running_mean.convert" in capsys.readouterr().err
    with pytest.raises(ValueError, match="runs rederive and convert"):
        textcheck.command(CHAPTER, "report")


def test_the_report_of_the_committed_verdicts_is_written_with_its_chapter_view(tmp_path, capsys):
    assert main(["report", "--text", "examples.running_mean.chapter", f"--report-dir={tmp_path}"]) == 0
    assert {"claims.md", "index.html", "chapter.html", "chapter.md", "errata.md"} <= {p.name for p in tmp_path.iterdir()}
    assert "(committed verdicts only)" in capsys.readouterr().out


def test_a_save_of_a_bad_run_report_is_a_named_error(tmp_path, capsys):
    (tmp_path / "claims.json").write_text('{"claims": [')
    assert main(["save", "--text", "examples.running_mean.chapter", f"--report-dir={tmp_path}"]) == 2
    assert "claims.json: not valid JSON" in capsys.readouterr().err


def test_a_text_without_a_chapter_is_named():
    with pytest.raises(SystemExit, match="holds no Chapter named CHAPTER"):
        main(["rederive", "--text", "examples.running_mean.tables"])


def test_the_store_refuses_a_key_twice_links_and_an_endless_wait(tmp_path, monkeypatch):
    (tmp_path / "f.json").write_text('{"a": 1, "a": 2}')
    with pytest.raises(EvidenceError, match="the key 'a' stands twice"):
        read_json(tmp_path / "f.json")
    (tmp_path / "badges").symlink_to(CHAPTER.root)
    assert link_in(tmp_path).startswith("badges -> ")
    monkeypatch.setenv("ATTENTION_CLAIMS_LOCK_WAIT", "inf")
    with pytest.raises(Exception, match="not a number of seconds from 0 to 86400"):
        lock_wait_seconds()


def test_a_run_of_the_examples_tests_is_reported_and_its_refuted_figure_named(pytester, tmp_path):
    shutil.copy(CHAPTER.root / "test_running_mean.py", pytester.path / "test_running_mean.py")
    pytester.makeini("[pytest]\n")
    result = pytester.runpytest_inprocess("-p", "textcheck.plugin", "-p", "examples.running_mean.chapter",
                                          "-m", "fast", f"--report-dir={tmp_path}", "-p", "no:cacheprovider")
    assert result.ret == 0
    report = json.loads((tmp_path / "claims.json").read_text())
    assert {c["id"]: c["verdict"] for c in report["claims"]}["mean.squares"] == "refuted"


def test_a_number_declared_for_a_reason_there_is_not_is_named():
    text, why = CHAPTER.text_or_none()
    assert text is not None, why
    bad = dataclasses.replace(CHAPTER, declared=[*CHAPTER.declared[1:],
                                                 dataclasses.replace(CHAPTER.declared[0], reason="derived")])
    (line,) = textcheck.bookkeeping(bad, text)["numbers"]
    assert CHAPTER.declared[0].anchor in line and "'derived'" in line and "not a number" in line
