"""The chapter view in Chromium, as a reader sees its math and what it adds in place
(textcheck/report/views/chapter_view/mathml.py, inserts.py): no `$` delimiter left in the prose, every
formula a <math> with a box; every table the chapter introduces and does not print shown right
after its paragraph, labelled as ours with its seeds, date and device; every plot an inline
data: image beside its paragraph; each table cell restating a printed figure a secondary mark
linking to that figure's one mark.  Screenshots kept in report/chapter-math/.  The same files
without a browser: tests/integration/test_chapter_inserts.py."""
import json
import re
import shutil
import urllib.parse
from pathlib import Path

import inproc
import pytest
from chromium import BROWSER, WHY_NONE, probe, screenshot

from claims.chapter_figures import FIGURES
from claims.report.chapter_cut import PLACES
from textcheck.report.assembly.chapter_view import formulas
from textcheck.report.assembly.chapter_view.text import blocks as chapter_text_blocks

ROOT = Path(__file__).resolve().parent.parent.parent
OUT = ROOT / "report" / "chapter-math"          # a report directory of its own: its screenshots stay there

pytestmark = [pytest.mark.skipif(BROWSER is None, reason=WHY_NONE), pytest.mark.xdist_group("chromium")]


@pytest.fixture(scope="module")
def built(chapter_text):
    """The committed verdicts rendered alone (no training, no fast run: seconds)."""
    shutil.rmtree(OUT, ignore_errors=True)
    r = inproc.report(f"--report-dir={OUT}")                   # in this process (tests/inproc.py)
    assert r.returncode == 0, r.stderr
    return OUT


# Run after load: the math and the inserts as laid out, onto <body> (URI-encoded JSON).
PROBE = r"""<script>
window.addEventListener('load', () => setTimeout(() => {
  const b = document.body, main = document.querySelector('main');
  const put = (k, v) => b.setAttribute('data-' + k, encodeURIComponent(JSON.stringify(v)));
  const maths = [...main.querySelectorAll('math')];
  const prose = main.cloneNode(true);
  prose.querySelectorAll('pre, code, math, .tip').forEach(e => e.remove());
  const textOf = p => { const c = p.cloneNode(true); c.querySelectorAll('.tip, .sym').forEach(e => e.remove());
                        return c.textContent.replace(/\s+/g, ' '); };
  const before = f => { let p = f.previousElementSibling;
                        while (p && p.matches('aside.suggested, figure.ours')) p = p.previousElementSibling; return p; };
  put('math', {count: maths.length, dollars: (prose.textContent.match(/\$/g) || []).length,
               empty: maths.filter(m => { const r = m.getBoundingClientRect(); return !(r.width > 0 && r.height > 0); }).length,
               inMarks: main.querySelectorAll('a.fig math').length});
  put('inserts', [...main.querySelectorAll('figure.ours')].map(f => {
    const p = before(f), img = f.querySelector('img'), r = f.getBoundingClientRect();
    return {kind: f.classList.contains('ours-plot') ? 'plot' : 'table', key: f.dataset.table ?? f.dataset.plot,
            after: p && p.tagName === 'P' ? textOf(p) : '', caption: f.querySelector('figcaption').textContent,
            parent: f.parentElement.tagName, box: [r.width, r.height], rows: f.querySelectorAll('tbody tr').length,
            img: img ? {src: img.src.slice(0, 22), natural: img.naturalWidth, width: img.getBoundingClientRect().width} : null};
  }));
  put('refs', [...main.querySelectorAll('a.figref[data-ref]')].map(r => {
    const m = document.getElementById(r.getAttribute('href').slice(1));
    return [r.dataset.ref, !!m && m.matches('a.fig[data-figure]') && m.dataset.figure === r.dataset.ref
            && m.dataset.verdict === r.dataset.verdict];
  }));
  put('marks', main.querySelectorAll('a.fig[data-figure]').length);
}, 100));</script></body>"""


@pytest.fixture(scope="module")
def seen(built):
    body = probe(built / "chapter.html", PROBE, built / "chrome-profile")
    return {k: json.loads(urllib.parse.unquote(v)) for k, v in body.items() if k in ("math", "inserts", "refs", "marks")}


def test_every_formula_is_typeset_and_no_dollar_is_left_in_the_prose(seen, chapter_text):
    found = formulas.spans(chapter_text, chapter_text_blocks(chapter_text))
    m = seen["math"]
    assert m["count"] >= len(found) >= 50          # the chapter's, and those of the suggested sentences
    assert m["dollars"] == chapter_text.count("\\$") == 0
    assert m["empty"] == 0                            # each drawn: a box of its own


def test_every_introduced_table_is_in_place_and_labelled_as_ours(seen):
    inserts = seen["inserts"]
    for p in PLACES:
        if p.kind != "table":
            continue
        shown = [i for i in inserts if i["kind"] == "table" and i["key"] == p.key and p.phrase in i["after"]]
        assert len(shown) == 1, (p.phrase, [(i["key"], i["after"][-60:]) for i in inserts])
        t = shown[0]
        assert t["parent"] == "MAIN" and t["box"][0] > 0 and t["box"][1] > 0
        assert t["caption"].startswith("Ours")
        if p.key:                                     # ours: its seeds, date and device, or why there are none
            assert ("Seeds: " in t["caption"] and "device: " in t["caption"] and "date: " in t["caption"]) \
                or "not measured in this report" in t["caption"], t["caption"]
            assert t["rows"] >= 1
    ladder = next(i for i in inserts if i["key"] == "ladder" and i["kind"] == "table")
    # the seeds of its runs (a row the sequential rule took further rests on more of them)
    assert re.search(r"Seeds: 0, 1, 2(, \d+)*; device: cpu; date: 20", ladder["caption"]), ladder["caption"]


def test_every_plot_is_an_inline_image_beside_its_paragraph(seen):
    for p in PLACES:
        if p.kind != "plot":
            continue
        shown = [i for i in seen["inserts"] if i["kind"] == "plot" and i["key"] == p.key]
        assert len(shown) == 1 and p.phrase in shown[0]["after"], p.key
        img = shown[0]["img"]
        assert img["src"] == "data:image/png;base64," and img["natural"] > 0 and img["width"] > 0, img


def test_a_cell_restating_a_printed_figure_links_to_its_one_mark(seen):
    assert seen["marks"] == len(FIGURES)              # the marks that count: one per figure, in the text
    refs = seen["refs"]
    assert len(refs) >= 8 and all(ok for _, ok in refs), refs
    assert {"ladder.baseline", "scale.worth_256", "positions.alibi_64"} <= {f for f, _ in refs}


SHOW = """<script>
window.addEventListener('load', () => {
  const first = document.getElementById('%s'), keep = [];
  let p = first.previousElementSibling;
  while (p && p.tagName !== 'P') { keep.unshift(p); p = p.previousElementSibling; }
  keep.unshift(p); keep.push(first);
  for (let n = first.nextElementSibling, i = 0; n && i < %d; n = n.nextElementSibling, i++) keep.push(n);
  document.querySelector('header').remove();
  document.querySelector('main').replaceChildren(...keep);
});</script></body>"""


def test_screenshots_of_the_math_and_the_inserts(built, seen):
    """chapter-inserts.png: the ladder's paragraph, our table and plot; chapter-math.png: the
    paragraphs of the query and the key, typeset; kept in report/chapter-math/."""
    for name, target, more in (("chapter-inserts", "ours-table-ladder", 2), ("chapter-positions", "ours-table-positions", 2)):
        page = built / f"{name}.html"
        page.write_text((built / "chapter.html").read_text().replace("</body>", SHOW % (target, more)))
        shot = screenshot(page, built / f"{name}.png", built / "chrome-profile", size="1100,1500")
        assert shot.exists() and shot.stat().st_size > 10_000
    math = built / "chapter-math.html"
    math.write_text((built / "chapter.html").read_text().replace("</body>", """<script>
window.addEventListener('load', () => {
  const ps = [...document.querySelectorAll('main p')].filter(p => p.querySelector('math')).slice(0, 8);
  document.querySelector('header').remove();
  document.querySelector('main').replaceChildren(...ps);
});</script></body>"""))
    shot = screenshot(math, built / "chapter-math.png", built / "chrome-profile", size="1100,1500")
    assert shot.exists() and shot.stat().st_size > 10_000
