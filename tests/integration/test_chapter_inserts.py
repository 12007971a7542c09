"""The chapter view's math and inserts, without a browser (the engine's
textcheck/report/views/chapter_view/mathml.py and inserts.py, this chapter's places in
claims/report/chapter_cut.py): formulas typeset safely and never cut by a mark, every table the chapter
introduces and does not print placed after its paragraph with our data, and chapter.md carrying
the tables as Markdown tables, the plots as relative image links and the math as TeX.  The same
page in Chromium: tests/acceptance/test_chapter_view.py."""
import itertools
import re
from pathlib import Path

import pytest

from claims.chapter import CHAPTER
from claims.chapter_figures import FIGURES
from claims.report import tables
from claims.report.chapter_cut import FORMULAS, PLACES
from claims.report.cli import chapter_view
from fixtures.results import RESULTS_DIR
from textcheck.merging import committed_only
from textcheck.report.assembly.chapter_view import formulas, places
from textcheck.report.assembly.chapter_view.text import Block, Mark, Quote, blocks
from textcheck.report.assembly.details import with_details
from textcheck.report.assembly.merged import figure_row
from textcheck.report.views.chapter_view import inserts, marks, mathml
from textcheck.save import load_verdicts

ROW = figure_row({"id": "x.tiny", "claim": "x.claim", "printed": "1.8", "label": "holds", "verdict": "holds",
                  "measured": 1.79e-7, "tolerance": 0.1, "seeds": 1, "source": "fresh run", "measured_on": "cpu",
                  "timestamp": "2026-01-01T00:00:00+00:00", "reason": ""})
ROW = with_details([ROW])[0]                       # what the model computes of a row (textcheck/report/assembly/details.py)


def test_a_mark_inside_a_formula_wraps_the_whole_formula_once():
    text = "An error of $1.8 \\times 10^{-7}$ on outputs."
    at = text.index("1.8")
    b = Block(0, len(text), "p")
    math = formulas.spans(text, [b])
    [m] = formulas.widen([Mark(at, at + 3, ROW)], math)
    assert (m.start, m.end) == math[0]                          # widened to the whole formula
    html = marks.render_span(text, 0, len(text), [m], [], mathml.render)
    assert html.count("<math") == 1 and html.count("class='fig ") == 1 and "$" not in html
    mark = html[html.index("<a class='fig"):html.index("</a>")]
    assert "<math" in mark and "<mn>1.8</mn>" in mark           # the mark holds the formula, whole


def test_a_quote_that_ends_inside_a_formula_is_widened_too():
    text = "It is $a + b$ here."
    q = Quote(0, text.index("+"), ("c.x",))
    [w] = formulas.widen([q], formulas.spans(text, [Block(0, len(text), "p")]))
    assert w.end == text.index("$ here") + 1


def test_math_is_mathml_and_a_string_from_a_file_cannot_open_html():
    out = mathml.render("a $\\text{<script>x</script>} & y$ b $x \\href{javascript:alert(1)}{y}$")
    assert "<script" not in out and "&lt;script&gt;" in out and "javascript" not in out.split("alttext")[0]
    assert out.count("<math") == 2 and "href=" not in out
    assert mathml.render("costs $5 and $10, or \\$3") == "costs $5 and $10, or $3"   # prices stay text
    assert "display=\"block\"" in mathml.render("$$x^2$$")


def test_code_blocks_are_never_math(chapter_text):
    bs = blocks(chapter_text)
    spans = formulas.spans(chapter_text, bs)
    assert len(spans) >= 50
    assert not [s for s in spans for b in bs if b.kind == "pre" and b.start <= s[0] < b.end]


def test_every_place_is_in_one_prose_paragraph(chapter_text):
    bs = blocks(chapter_text)
    assert places.unplaced(chapter_text, bs, PLACES) == []
    for p in PLACES:
        assert chapter_text.count(p.phrase) == 1, p.phrase


def test_every_paragraph_that_introduces_what_it_does_not_print_is_placed(chapter_text):
    """A paragraph ending with a colon and followed by prose introduces a table (placed) or a
    formula (listed in FORMULAS); any other is a table this view would miss."""
    bs = blocks(chapter_text)
    introduced = [chapter_text[a.start:a.end] for a, b in itertools.pairwise(bs)
                  if a.kind == "p" and chapter_text[a.start:a.end].rstrip().endswith(":") and b.kind == "p"]
    tables_ = [p.phrase for p in PLACES if p.kind == "table"]
    for para in introduced:
        assert [t for t in tables_ if t in para] or [f for f in FORMULAS if f in para], para[-80:]
    assert len(introduced) == len(tables_) + len(FORMULAS)


@pytest.fixture(scope="module")
def data():
    return {t.key: t for t in tables.data(committed_only(CHAPTER, load_verdicts(CHAPTER, RESULTS_DIR / "verdicts.json")), RESULTS_DIR)}


def test_each_placed_table_is_built_and_its_marked_cells_restate_their_figures(data):
    for p in PLACES:
        if p.kind == "table" and p.key:
            t = data[p.key]
            assert t.header and t.rows, p.key
            for (i, j), fid in t.figures.items():
                assert fid in FIGURES and t.rows[i][j] == FIGURES[fid].value, (p.key, fid, t.rows[i][j])
    assert {"ladder.baseline", "scale.worth_256", "positions.alibi_64"} <= {
        f for t in data.values() for f in t.figures.values()}


def test_a_trained_table_says_whose_seeds_dates_and_device_it_shows(data):
    p = data["ladder"].provenance()
    # the seeds of its runs: a row the sequential rule took further rests on more of them
    assert re.fullmatch(r"0, 1, 2(, \d+)*", p.seeds) and p.device == "cpu" and re.match(r"\d{4}-\d\d-\d\d", p.date)
    assert p.files == "results/ladder.json"


@pytest.fixture(scope="module")
def rendered(tmp_path_factory, chapter_text):
    out = tmp_path_factory.mktemp("chapter-md")
    merged = committed_only(CHAPTER, load_verdicts(CHAPTER, RESULTS_DIR / "verdicts.json"))
    chapter_view(out, chapter_text, "", merged, [])
    return out


def test_the_markdown_view_has_our_tables_in_place_and_plots_as_relative_links(rendered, chapter_text):
    md = (rendered / "chapter.md").read_text()
    for p in PLACES:
        at = md.find(p.phrase.replace("*", "\\*"))
        assert at >= 0, p.phrase
        after = md[at:]
        if p.kind == "table" and p.key:
            label = after.index("**Ours**, regenerated by this project")
            assert label < after.index("\n\n", after.index("\n| ") + 1)            # its table follows it
            assert re.search(r"^\| .+ \|\n\|(---\|)+\n\| ", after[label:], re.MULTILINE)
        elif p.kind == "plot":
            link = re.search(r"!\[Ours: " + re.escape(p.key) + r"[^\]]*\]\(([^)]+)\)", after)
            assert link and not link.group(1).startswith(("data:", "/")), p.key
            assert (rendered / link.group(1)).resolve().exists(), link.group(1)
    assert "data:image" not in md
    # the math stays TeX for a forge, each formula whole
    for a, b in formulas.spans(chapter_text, blocks(chapter_text)):
        assert chapter_text[a:b] in md, chapter_text[a:b]


def test_the_html_view_has_each_insert_right_after_its_paragraph(rendered):
    page = (rendered / "chapter.html").read_text()
    for p in PLACES:
        at = page.index(p.phrase.replace("'", "&#x27;"))
        nxt = page[page.index("</p>", at):]
        nxt = re.sub(r"^</p>\s*(<aside class='suggested'.*?</aside>\s*)*", "", nxt, flags=re.DOTALL)
        assert nxt.startswith("<figure class='ours"), (p.phrase, nxt[:80])
    assert page.count("<img alt='our plot:") == len({p.key for p in PLACES if p.kind == "plot"})
    assert not re.search(r"<img[^>]+src='(?!data:)", page)              # one file: every image inline


def test_without_inserts_nothing_is_added():
    assert inserts.html_after([], inserts.Inserts({}, {}), lambda f, t: t) == []
    assert inserts.md_after(PLACES[:1], inserts.Inserts({}, {}), Path("."), lambda f, t: t)[0] \
        .startswith("**Ours**: the chapter introduces a table")
