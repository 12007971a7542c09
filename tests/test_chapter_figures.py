"""The chapter's figures (claims/chapter_figures.py) are the chapter's: every anchor is found once
in its text with the printed number inside it, and the registry's values are parsed from them."""
import pytest

from claims import chapter_figures, registry
from claims.chapter_figures import FIGURES, Figure, located, printed_in_anchor


@pytest.mark.parametrize("figure", FIGURES.values(), ids=lambda f: f.id)
def test_every_anchor_is_in_the_chapter_once_and_holds_the_printed_number(figure, chapter_text):
    assert located(chapter_text, figure) >= 0, f"{figure.id}: anchor {figure.anchor!r} is not in the chapter"
    assert printed_in_anchor(figure), f"{figure.id}: {figure.printed!r} is not in its anchor"
    assert figure.claim in registry.CLAIMS


def test_values_and_roundings_come_from_the_printed_digits():
    cases = {"37.82": (37.82, 0.005), "99.9 %": (0.999, 0.0005), "100 %": (1.0, 0.005), "5147": (5147, 0.5),
             "0.0498": (0.0498, 0.00005), "ten": (10, 0.5), "nothing": (0, 0.5)}
    for printed, (value, rounding) in cases.items():
        f = Figure("x", "corpus.chars", printed, printed)
        assert f.value == value and f.rounding == pytest.approx(rounding)


def test_the_registry_reads_its_figures_from_the_table():
    assert registry.FIGURES["norm.prenorm"] == FIGURES["norm.prenorm"].value == 37.82
    assert registry.CHAPTER_PEAK_MB[8192] == 4300.1
    assert set(registry.FIGURES) == set(FIGURES)


def test_an_anchor_twice_in_the_text_is_refused():
    f = FIGURES["norm.prenorm"]
    with pytest.raises(ValueError, match="not unique"):
        chapter_figures.located(f.anchor + " ... " + f.anchor, f)
