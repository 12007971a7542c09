"""A suggested sentence stands in the chapter view where the chapter's own stood, so it reads as
the chapter's prose: each measured number at the precision the chapter prints that claim's
figures (37.69, not 37.6912; 95.0 %, not 95.01 %), a number word where the chapter wrote one
("about six times", not "5.762 times"), and no None or nan."""
import re

import pytest

from claims.chapter import CHAPTER
from claims.chapter_figures import FIGURES
from data.paths import PROJECT_ROOT
from textcheck import Figure
from textcheck.decide import MORE_RUNS, ONE_RUN
from textcheck.evidence import load as load_figures
from textcheck.formats import like, like_mean
from textcheck.merging import committed_only
from textcheck.save import load_verdicts


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
    merged = committed_only(CHAPTER, load_verdicts(CHAPTER, PROJECT_ROOT / "results" / "verdicts.json"))
    return errata.build(merged, PROJECT_ROOT / "results", tmp_path_factory.mktemp("report"))


def test_every_suggested_number_is_at_the_chapters_precision(entries, chapter_text):
    checked = 0
    for e in entries:
        text = e["suggested"]
        assert "None" not in text and "nan" not in text, (e["id"], text)
        printed = [f.printed for f in CHAPTER.figures_of(e["id"]).values() if any(ch.isdigit() for ch in f.printed)]
        most = max((decimals(p.rstrip(" %")) for p in printed), default=2)
        for m in Figure.NUMBER.finditer(text):
            n = m.group()
            if n in chapter_text:            # the chapter's own setup (1000 steps, $d_k = 32$, 0.99)
                continue
            checked += 1
            assert decimals(n) <= most, (f"{e['id']}: {n} has {decimals(n)} decimals; the chapter prints this "
                                         f"claim's figures with at most {most}: {text}")
    # the suggestions are edits of the refuted numbers alone (claims/report/patch.py), each printed
    # once at its spread's precision: far fewer than the per-seed lists they replace
    assert checked >= 5


def test_a_number_the_chapter_wrote_as_a_word_is_rewritten_only_where_its_figure_is_refuted(entries):
    # the twelve-block sentence ("eight times worse"): rewritten where its figure is refuted, and
    # then at its spread's precision; an underspecified figure would ask for the choice instead
    assert FIGURES["norm.eight_times"].printed == "eight"
    committed = {r.key: r.verdict for r in load_figures(CHAPTER, PROJECT_ROOT / "results" / "figures.json")}
    norm = {e["id"]: e for e in entries if e["id"] == "norm.postnorm_diverges"}
    assert norm
    (e,) = norm.values()
    eight = [x for x in e["edits"] if "eight" in x.quote]
    if committed["norm.eight_times"] == "refuted":
        assert eight and "eight" not in eight[0].text
    else:
        assert not eight


def _replaced(chapter_text: str, quote: str) -> tuple[int, int]:
    """Where the sentence a suggested one replaces stands: the chapter's sentence (or table line)
    around its quote."""
    at = chapter_text.find(quote)
    start = max(chapter_text.rfind(". ", 0, at) + 2, chapter_text.rfind("\n", 0, at) + 1)
    ends = [e for e in (chapter_text.find(". ", at + len(quote)), chapter_text.find("\n", at + len(quote))) if e >= 0]
    return start, min(ends, default=len(chapter_text))


def test_no_suggested_sentence_changes_a_figure_that_holds_or_is_undecided(entries, chapter_text):
    # Errata that stay true (issue 43 item 4): a suggested sentence replaces the chapter's; a figure
    # of that sentence that holds keeps the chapter's number (any other number contradicts a claim
    # that holds), and an undecided one gets no new number (it needs more seeds, not a correction).
    from textcheck.merging import figure_rows
    merged = committed_only(CHAPTER, load_verdicts(CHAPTER, PROJECT_ROOT / "results" / "verdicts.json"))
    verdict = {r["id"]: r["verdict"] for r in figure_rows(CHAPTER, merged["claims"])}
    checked, bad = 0, []
    for e in entries:
        if not e["suggested"] or not e["quote"] or e["quote"] not in chapter_text:
            continue
        start, end = _replaced(chapter_text, e["quote"])
        for fid, f in FIGURES.items():
            if verdict.get(fid) not in ("holds", "undecided") or not any(ch.isdigit() for ch in f.printed):
                continue
            if chapter_text.count(f.anchor) == 1 and start <= f.span(chapter_text)[0] < end:
                checked += 1
                if not re.search(rf"(?<![\d.]){re.escape(f.printed)}(?![\d])", e["suggested"]):
                    bad.append(f"{e['id']}: {fid} {verdict[fid]} at {f.printed}, not in: {e['suggested']}")
    assert not bad, "\n".join(bad)
    assert checked >= 1


def test_errata_of_one_chapter_sentence_suggest_one_sentence(entries):
    by_quote: dict[str, set] = {}
    for e in entries:
        if e["quote"] and e["suggested"]:
            by_quote.setdefault(e["quote"], set()).add(e["suggested"])
    assert {q: s for q, s in by_quote.items() if len(s) > 1} == {}


def test_an_undecided_claim_gets_a_note_of_its_kind_and_no_suggested_sentence(entries):
    merged = committed_only(CHAPTER, load_verdicts(CHAPTER, PROJECT_ROOT / "results" / "verdicts.json"))
    undecided = {c["id"] for c in merged["claims"] if c["verdict"] == "undecided"}
    notes = {e["id"]: e for e in entries if e.get("needs_seeds")}
    assert undecided and undecided <= set(notes)
    assert all(not notes[cid]["suggested"] and notes[cid]["cause"].startswith((MORE_RUNS, ONE_RUN))
               for cid in undecided)


def test_an_undecided_note_says_whether_more_runs_could_settle_it():
    """Rule version 3: an undecided figure whose single runs vary more than its distance from its
    null is "one run cannot show it", and asks for no more seeds; otherwise more runs could."""
    from claims.report.errata import seeds_step_cause

    def cause(n, reason=""):
        return seeds_step_cause([{"records": [{"seeds": n}], "reason": reason}])
    assert cause(3).startswith(MORE_RUNS) and "on 3 seeds" in cause(3)
    one = cause(10, f"undecided ({ONE_RUN}): cannot tell 0.06 from a uniform row's weight 0.067")
    assert one.startswith(ONE_RUN) and "would not settle it" in one
    assert cause(5, f"undecided ({MORE_RUNS}): ...; undecided ({ONE_RUN}): ...").startswith(MORE_RUNS)


def test_the_map_errata_count_the_models_that_show_the_sentence_with_each_models_row(entries):
    """The chapter prints one model's attention map; ours are ten models.  The map errata say how
    many of them show what the sentence says (k of 10), and each model's heaviest word."""
    by_id = {e["id"]: e for e in entries}
    for claim, says in (("winograd.block1_first_noun", ["block 1's heaviest word is the first noun"]),
                        ("winograd.block2_routing", ["for every crosser adjective", "for every crossed adjective"])):
        cause = by_id[claim]["cause"]
        for what in says:
            assert re.search(rf"\b\d+ of 10 models: [^;]*{re.escape(what)}", cause), (claim, cause[:300])
        assert all(f"seed {i} " in cause for i in range(10)), (claim, cause[:300])
