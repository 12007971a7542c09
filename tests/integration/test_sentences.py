"""Every sentence of the chapter is accounted for (textcheck/sentences.py, claims/sentence_table.py):
the claim IDs it asserts, or the reason it asserts nothing."""
import pytest

from claims.registry import CLAIMS
from claims.sentence_table import SENTENCES
from textcheck import sentences


def test_every_sentence_is_accounted_for_once(chapter_text):
    problems = sentences.problems(chapter_text, SENTENCES, CLAIMS)
    assert not problems, "sentences of the chapter:\n" + "\n".join(problems)


def test_every_claim_is_asserted_by_a_sentence(chapter_text):
    asserted = {c for a in sentences.accounted(chapter_text, SENTENCES) for c in a.claims}
    assert sorted(set(CLAIMS) - asserted) == []


def test_a_new_sentence_is_named_with_its_line(chapter_text):
    text = chapter_text.replace("Score, mask, normalise, mix.", "Score, mask, normalise, mix. A new claim appears.")
    missing = [p for p in sentences.problems(text, SENTENCES, CLAIMS) if p.startswith("not accounted for")]
    assert missing == [f"not accounted for: line {text[:text.find('A new claim')].count(chr(10)) + 1}: 'A new claim appears.'"]


def test_a_broken_anchor_is_named(chapter_text):
    text = chapter_text.replace("Score, mask, normalise, mix.", "Score, mask, mix.")
    with pytest.raises(ValueError, match="not in the chapter"):
        sentences.accounted(text, [sentences.Sentence("Score, mask, normalise", reason="rhetoric")])
    assert any("Score, mask, normalise" in line for line in sentences.stale_sentences(text, SENTENCES)) == any(
        "Score, mask, normalise" in s.anchor for s in SENTENCES)


def test_the_counts_add_up(chapter_text):
    c = sentences.counts(chapter_text, SENTENCES)
    assert sum(c["by kind"].values()) == c["units"] == c["sentences"] + c["blocks"]
    assert set(c["by kind"]) <= {"asserts", *sentences.SENTENCE_REASONS}


def test_a_sentence_printing_a_figure_asserts_its_claim(chapter_text):
    from claims.chapter_figures import FIGURES
    acc = sentences.accounted(chapter_text, SENTENCES)
    missing = []
    for f in FIGURES.values():
        at = f.span(chapter_text)[0]
        a = next(a for a in acc if a.unit.start <= at < a.unit.end)
        if not a.unit.block and f.claim not in a.claims:
            missing.append(f"{f.id} ({f.claim}) in {a.unit.context(chapter_text)}")
    assert not missing, "sentences that print a figure but do not assert its claim:\n" + "\n".join(missing)


def test_every_asserting_sentence_is_reviewed_against_its_falsifier():
    """The falsification review (claims/falsification.py, from docs/falsifiers-blind.md) covers every
    sentence that asserts claims, once, by its anchor; each review is tested, weakly tested or
    untested, and a tested or weakly tested one names the test that runs it."""
    from claims.falsification import REVIEWS
    from claims.sentence_table import SENTENCES
    asserting = [s.anchor for s in SENTENCES if s.claims]
    reviewed = [r.anchor for r in REVIEWS]
    assert len(reviewed) == len(set(reviewed))
    assert sorted(set(asserting) - set(reviewed)) == []
    assert set(reviewed) <= {s.anchor for s in SENTENCES}
    for r in REVIEWS:
        assert r.status in ("tested", "weakly tested", "untested"), r.anchor
        assert r.falsifier and r.why, r.anchor
        assert (r.status == "untested") == (not r.test), r.anchor


def test_an_asserting_sentence_has_a_test_or_a_declared_reason():
    """A sentence the review finds asserting without a test is one the sentence table declares as
    asserting nothing: the accounting counts it (Chapter.strength), and its declared reason is
    there for a reader to dispute; a sentence with claim IDs has at least one test carrying one."""
    from pathlib import Path

    from claims.falsification import REVIEWS
    from claims.sentence_table import SENTENCES
    by_anchor = {s.anchor: s for s in SENTENCES}
    for r in REVIEWS:
        if r.status == "untested":
            assert not by_anchor[r.anchor].claims and by_anchor[r.anchor].reason, r.anchor
    root = Path(__file__).resolve().parents[2]
    named = {r.test.split("::")[0] for r in REVIEWS if r.test}
    assert sorted(t for t in named if not (root / t).exists()) == []


def test_a_sentence_declared_rhetoric_says_why():
    """'Rhetoric' alone is no reason a reader can check (issue 56): each such declaration says what
    the sentence does instead (announces, points at, judges), and where the claim it leads to is."""
    from claims.sentence_table import SENTENCES
    bare = [s.anchor for s in SENTENCES if not s.claims and s.reason == "rhetoric" and not s.why]
    assert bare == [], f"sentences declared rhetoric without a why: {bare}"
