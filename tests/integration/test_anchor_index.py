"""The one anchor index (textcheck/anchors.py): one index per text, through which every list of
this chapter's quotes is located (`anchor_lists` below: figures, reads,
declared numbers and words, sentences, setup numbers, places, formulas, headings, errata); one
error, naming the list, the ID and the quote, for a quote that is missing or doubled, whichever
list it is in; a stale report of every problem at once; no quote of this chapter in the engine;
a figure's printed number derived from its anchor; an erratum that names a figure's ID rather
than retyping its anchor."""
import ast
import re
from pathlib import Path

import pytest

from claims import chapter_setup
from claims.chapter import CHAPTER
from claims.chapter_figures import FIGURES
from claims.chapter_reads import READ
from claims.report.chapter_cut import FORMULAS, HEADINGS, PLACES, WITHIN
from claims.report.errata import ERRATA
from textcheck import Anchor, AnchorList, accounting, sentences
from textcheck.anchors import AnchorError, AnchorIndex, index_of
from textcheck.figures import printed_of
from textcheck.report.assembly.chapter_view import contents, places
from textcheck.report.assembly.chapter_view.text import blocks, quotes
from textcheck.report.assembly.merged import entry

ROOT = Path(__file__).resolve().parent.parent.parent


def anchor_lists() -> tuple[AnchorList, ...]:
    """Every list of quotes of this chapter: the Chapter's, its view's and its errata's."""
    errata = AnchorList("errata", tuple(Anchor(e.quote, "errata", cid) for cid, e in ERRATA.items()))
    formulas = AnchorList("formulas", tuple(Anchor(f, "formulas", f"#{i}") for i, f in enumerate(FORMULAS)))
    return (*CHAPTER.anchor_lists(), places.anchor_list(PLACES), formulas, contents.anchor_list(HEADINGS, WITHIN),
            errata)


LISTS = {lst.name: lst for lst in anchor_lists()}
JOINER = "\u2060"          # a word joiner: invisible, and breaks any quote it is put inside


def _missing(text: str, a: Anchor) -> str:
    at = text.index(a.quote) + len(a.quote) // 2
    return text[:at] + JOINER + text[at:]


def _doubled(text: str, a: Anchor) -> str:
    return text + "\n\n" + a.quote.strip("\n") if a.quote.strip("\n") == a.quote else text + a.quote


# the lists a list's lookup reads besides its own (the accounting places figures and reads first)
READ_TOO = {"declared": ("figures", "reads")}


def _alone(text: str, name: str, alter) -> tuple[Anchor, str]:
    """An anchor of the list whose alteration breaks it alone of the quotes its lookup reads (so
    the lookup meets it first), and the altered text."""
    read = [LISTS[n] for n in (*READ_TOO.get(name, ()), name)]
    for a in LISTS[name].anchors:
        altered = alter(text, a)
        if [p.anchor for p in AnchorIndex(altered).problems(read)] == [a]:
            return a, altered
    raise AssertionError(f"no anchor of {name} can be broken alone")


def _lookup(name: str, anchor: Anchor):
    """The list's own lookup, the one its users call (each through the index)."""
    def headings(text):
        starts = [b.start for b in blocks(text)]
        contents.sections(text, starts, HEADINGS, CHAPTER.sections)
        contents.sections(text, starts, WITHIN, CHAPTER.sections, within=True)
    return {
        "figures": lambda text: FIGURES[anchor.id].located(text),
        "reads": lambda text: READ[anchor.id].located(text),
        "declared": lambda text: accounting.numbers(text, CHAPTER),
        "sentences": lambda text: sentences.accounted(text, CHAPTER.sentences),
        "setup": lambda text: chapter_setup.sentence(text, chapter_setup.SETUP_BY_ID[anchor.id]),
        "places": lambda text: places.placed(text, blocks(text), PLACES),
        "formulas": lambda text: index_of(text).check([LISTS["places"], LISTS["formulas"]]),
        "headings": headings,
        "errata": lambda text: quotes(text, [entry({"id": anchor.id, "quote": anchor.quote})]),
    }[name]


def test_every_list_of_quotes_is_indexed():
    assert set(LISTS) == {"figures", "reads", "declared", "sentences", "setup", "places", "formulas", "headings",
                          "errata"}
    assert all(lst.anchors for lst in LISTS.values())


def test_one_index_per_text(chapter_text):
    index = index_of(chapter_text)
    assert index_of(chapter_text) is index
    assert index_of("".join(list(chapter_text))) is index       # the same text, another string object
    assert index_of(chapter_text + " ") is not index
    # a quote is searched once: the index keeps where it stands
    a = LISTS["figures"].anchors[0]
    assert index.positions(a.quote) is index.positions(a.quote)


def test_the_chapter_holds_every_quote_of_every_list_once(chapter_text):
    assert index_of(chapter_text).stale_report(LISTS.values()) == []


@pytest.mark.parametrize("name", sorted(LISTS))
@pytest.mark.parametrize("alter, said", [(_missing, "is not in the chapter"), (_doubled, "is not unique in")],
                         ids=["missing", "doubled"])
def test_a_missing_or_doubled_quote_is_one_error_naming_list_id_and_quote(name, alter, said, chapter_text):
    anchor, altered = _alone(chapter_text, name, alter)
    with pytest.raises(AnchorError) as e:
        _lookup(name, anchor)(altered)
    assert [p.anchor for p in e.value.problems] == [anchor]
    assert f"{name} {anchor.id}: the anchor {anchor.quote!r} {said}" in str(e.value)
    assert isinstance(e.value, ValueError)


def test_the_stale_report_lists_every_problem_of_every_list_at_once(chapter_text):
    broken = {}
    text = chapter_text
    for name in ("figures", "declared", "sentences", "errata", "headings"):
        a, _ = _alone(chapter_text, name, _missing)
        text, broken[name] = _missing(text, a), a
    problems = index_of(text).problems(LISTS.values())
    assert set(broken.values()) <= {p.anchor for p in problems}
    report = "\n".join(index_of(text).stale_report(LISTS.values()))
    for name, a in broken.items():
        assert f"  {name} {a.id}: anchor {a.quote!r} not found" in report
    with pytest.raises(AnchorError) as e:
        index_of(text).check(LISTS.values())
    assert len(e.value.problems) == len(problems)
    # an altered chapter's load error names every broken quote of the Chapter's lists, all at once
    lines = [line for explain in CHAPTER.explainers() for line in explain(text)]
    assert {n for n in ("figures", "declared", "sentences") if any(f"  {n} {broken[n].id}:" in x for x in lines)} \
        == {"figures", "declared", "sentences"}


def test_the_engine_holds_no_quote_of_this_chapter():
    """No module of textcheck/ holds a quote of any of this chapter's lists (one of two words or
    more, eight characters at least: a lone number or word is no quote)."""
    quotes = {a.quote.strip() for lst in LISTS.values() for a in lst.anchors}
    quotes = {q for q in quotes if len(q) >= 8 and re.search(r"\s", q)}
    assert len(quotes) > 400
    found = [f"{p.relative_to(ROOT)}: {q!r}" for p in sorted((ROOT / "textcheck").rglob("*.py"))
             for q in quotes if q in p.read_text(encoding="utf-8")]
    assert not found, "\n".join(found)


def test_a_printed_number_is_typed_only_where_its_anchor_does_not_end_with_it():
    """The figure table stores a printed number once: derived from its anchor (the anchor's last
    number), typed (`printed=`) only where the figure is another number of its anchor."""
    trees = [ast.parse((ROOT / "claims" / f).read_text(encoding="utf-8")) for f in ("chapter_figures.py", "chapter_reads.py")]
    typed = [k.value.value for tree in trees for n in ast.walk(tree) if isinstance(n, ast.Call)
             for k in n.keywords if k.arg == "printed" and isinstance(k.value, ast.Constant)]
    other = [f for f in [*FIGURES.values(), *READ.values()] if printed_of(f.anchor) != f.printed]
    assert sorted(typed) == sorted(f.printed for f in other)
    assert len(other) < 25 < len(FIGURES)
    assert all(f.printed in f.anchor for f in other)


def test_an_erratum_names_a_figure_instead_of_retyping_its_anchor():
    anchors = {f.anchor: f.id for f in FIGURES.values()}
    src = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "claims" / "report" / "errata").glob("*.py"))
    # a quoted sentence holding a figure's anchor retypes it too: the erratum names the figure
    retyped = [f"{cid}: quote= retypes the anchor of {fid}" for cid, e in ERRATA.items() if not e.figure
               for anchor, fid in anchors.items() if anchor in e.quote]
    assert not retyped, "\n".join(retyped)
    named = {cid: e.figure for cid, e in ERRATA.items() if e.figure}
    assert named and all(ERRATA[cid].quote == FIGURES[fid].anchor for cid, fid in named.items())
    assert all(f'figure="{fid}"' in src for fid in named.values())
