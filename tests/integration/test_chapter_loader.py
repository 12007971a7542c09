"""The chapter's text as an input: $ATTENTION_CLAIMS_CHAPTER, then ../shared/chapter.txt; sha256
always; absent means the tests that need it skip and name every place looked."""
import json
import os
from pathlib import Path

import pytest

from data import chapter
from data.chapter import CHAPTER_SHA256, ChapterAltered, ChapterMissing, load_chapter

pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_env_var_is_used_and_checked(tmp_path, monkeypatch, chapter_text):
    copy = tmp_path / "chapter.txt"
    copy.write_text(chapter_text, encoding="utf-8")
    monkeypatch.setenv(chapter.ENV_VAR, str(copy))
    assert load_chapter() == chapter_text


def test_a_missing_chapter_names_every_place_looked(tmp_path, monkeypatch):
    monkeypatch.delenv(chapter.ENV_VAR, raising=False)
    monkeypatch.setattr(chapter, "PROJECT_ROOT", tmp_path / "project")
    with pytest.raises(ChapterMissing) as e:
        load_chapter()
    assert str(tmp_path / "shared" / "chapter.txt") in str(e.value) and chapter.ENV_VAR in str(e.value)


def test_an_altered_chapter_is_an_error_not_a_skip(tmp_path, monkeypatch, chapter_text):
    altered = tmp_path / "chapter.txt"
    altered.write_text(chapter_text.replace("37.82", "37.83").replace("a baseline of 59.71", "a baseline of 60"),
                       encoding="utf-8")
    monkeypatch.setenv(chapter.ENV_VAR, str(altered))
    from claims.chapter import CHAPTER
    with pytest.raises(ChapterAltered, match=CHAPTER_SHA256) as e:
        load_chapter(explain=CHAPTER.explainers())
    # the error names each figure whose anchor no longer matches, and nothing else
    assert "norm.prenorm: anchor" in str(e.value) and "ladder.baseline: anchor" in str(e.value)
    assert "ladder.residual_average_val: anchor" in str(e.value)     # shares the altered anchor
    assert "norm.prenorm_warmup" not in str(e.value)
    with pytest.raises(ChapterAltered, match=CHAPTER_SHA256) as bare:   # importing claims registers nothing
        load_chapter()
    assert "Anchors that no longer match" not in str(bare.value)
    monkeypatch.setenv(chapter.ENV_VAR, str(tmp_path))               # a directory
    with pytest.raises(ChapterAltered, match="not a regular file"):
        load_chapter()


def test_without_the_chapter_a_test_that_needs_it_skips_and_says_where_it_looked(inprocess, monkeypatch):
    pytester = inprocess                # run in this process (tests/conftest.py)
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.setenv(chapter.ENV_VAR, str(pytester.path / "no-chapter.txt"))
    pytester.makepyfile(test_needs="def test_x(chapter_text):\n    assert chapter_text\n")
    result = pytester.runpytest_inprocess("-p", "fixtures.plugin", "-p", "claims.chapter", "-rs", "-p", "no:cacheprovider")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*needs the chapter text*no-chapter.txt: not found*"])


def test_without_the_chapter_the_tables_keep_our_columns_and_say_why_theirs_are_empty(tmp_path, monkeypatch):
    from claims.report import tables
    from textcheck.report.views.tables import table_md
    monkeypatch.setenv(chapter.ENV_VAR, str(tmp_path / "absent.txt"))
    (tmp_path / "cost_cpu.json").write_text(json.dumps({"rows": [
        {"n": 128, "ms": 1.0, "score_mb": 0.5, "peak_mb": 10.0}, {"n": 256, "ms": 2.0, "score_mb": 2.0, "peak_mb": 15.5}]}))
    built = {t.title: table_md(t) for t in tables.data({"claims": []}, tmp_path)}
    cost = next(body for title, body in built.items() if title.startswith("The cost of one attention layer"))
    assert "| 256 |" in cost and "15.5" in cost and "chapter text not found" in cost
    maps = next(body for title, body in built.items() if title.startswith("The two attention maps"))
    assert "chapter text not found" in maps
