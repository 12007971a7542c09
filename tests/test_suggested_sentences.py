"""A suggested sentence stands in the chapter view where the chapter's own stood, so it reads as
the chapter's prose: each measured number at the precision the chapter prints that claim's
figures (37.69, not 37.6912; 95.0 %, not 95.01 %), a number word where the chapter wrote one
("about six times", not "5.762 times"), and no None or nan."""
import re

import pytest

from claims.chapter_figures import FIGURES, NUMBER, of_claim
from claims.formats import like, like_mean
from claims.save import load_verdicts
from claims.verdicts import committed_only
from data.paths import PROJECT_ROOT


def test_like_writes_a_value_as_the_chapter_prints_its_figure():
    assert like(37.6912, "37.82") == "37.69"
    assert like(2.317, "2.3") == "2.3"
    assert like(0.9501, "99.9 %") == "95.0 %"
    assert like(0.994, "100 %") == "99 %"
    assert like(5.762, "eight") == "six"
    assert like(186.6, "5147") == "187"
    assert like(124_439_000, "124,439,808") == "124,439,000"
    assert like_mean([], "37.82") == "not measured" and like(float("nan"), "1.0") == "not measured"


def decimals(number: str) -> int:
    digits = number.replace(",", "")
    return len(digits.split(".")[1]) if "." in digits and "e" not in digits else 0


@pytest.fixture(scope="module")
def entries(chapter_text, tmp_path_factory):
    from claims.report import errata
    merged = committed_only(load_verdicts(PROJECT_ROOT / "results" / "verdicts.json"))
    return errata.build(merged, PROJECT_ROOT / "results", tmp_path_factory.mktemp("report"))


def test_every_suggested_number_is_at_the_chapters_precision(entries, chapter_text):
    checked = 0
    for e in entries:
        text = e["suggested"]
        assert "None" not in text and "nan" not in text, (e["id"], text)
        printed = [f.printed for f in of_claim(e["id"]).values() if any(ch.isdigit() for ch in f.printed)]
        most = max((decimals(p.rstrip(" %")) for p in printed), default=2)
        for m in NUMBER.finditer(text):
            n = m.group()
            if n in chapter_text:            # the chapter's own setup (1000 steps, $d_k = 32$, 0.99)
                continue
            checked += 1
            assert decimals(n) <= most, (f"{e['id']}: {n} has {decimals(n)} decimals; the chapter prints this "
                                         f"claim's figures with at most {most}: {text}")
    assert checked > 20


def test_a_number_the_chapter_wrote_as_a_word_is_suggested_as_a_word(entries):
    norm = next(e for e in entries if e["id"] == "norm.postnorm_diverges")
    assert re.search(r"about (two|three|four|five|six|seven|eight|nine|ten) times worse", norm["suggested"])
    assert FIGURES["norm.eight_times"].printed == "eight"
