"""The chapter view (claims/report/chapter.py): report/chapter.html and chapter.md, the chapter
with every asserted figure marked where it is printed.  Checked on the files, and as a reader
sees it in headless Chromium (where `.ci/run` installs it; elsewhere that test skips)."""
import collections
import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from chromium import BROWSER, WHY_NONE, probe, screenshot

from claims.chapter_figures import FIGURES

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "report" / "chapter-view"          # a report directory: its screenshot stays there


@pytest.fixture(scope="module")
def built(chapter_text):
    shutil.rmtree(OUT, ignore_errors=True)
    r = subprocess.run([sys.executable, "-m", "pytest", "-m", "fast", "-q", "-p", "no:cacheprovider",
                        "claims/test_mask.py", "claims/test_params.py", f"--report-dir={OUT}"],
                       cwd=ROOT, capture_output=True, check=False, text=True)
    assert r.returncode == 0, r.stdout[-2000:]
    r = subprocess.run([sys.executable, "-m", "claims.report", f"--report-dir={OUT}"], cwd=ROOT,
                       capture_output=True, check=False, text=True)
    assert r.returncode == 0, r.stderr
    return OUT


class Marks(HTMLParser):
    """The marks (a.fig), the ids and the links of a page."""

    def __init__(self):
        super().__init__()
        self.marks, self.ids, self.hrefs, self.suggested = [], set(), [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and "fig" in (a.get("class") or "").split() and a.get("data-figure"):
            self.marks.append(a)
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])
        if tag == "aside" and "suggested" in (a.get("class") or ""):
            self.suggested.append(a["data-claim"])


def parse(path: Path) -> Marks:
    p = Marks()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def test_every_figure_is_marked_once_with_its_verdict(built):
    merged = json.loads((built / "merged.json").read_text())
    page = parse(built / "chapter.html")
    marked = collections.Counter(m["data-figure"] for m in page.marks)
    assert set(marked) == set(FIGURES) and set(marked.values()) == {1}
    rows = {r["id"]: r for r in merged["figures"]}
    assert all(m["data-verdict"] == rows[m["data-figure"]]["verdict"] for m in page.marks)
    assert collections.Counter(m["data-verdict"] for m in page.marks) == collections.Counter(
        r["verdict"] for r in merged["figures"])


def test_every_link_of_the_chapter_view_lands_on_a_row_of_the_report(built):
    index, page = parse(built / "index.html"), parse(built / "chapter.html")
    targets = [h.split("#", 1)[1] for h in page.hrefs if h.startswith("index.html#")]
    assert len(targets) >= len(FIGURES)
    assert not [t for t in targets if t not in index.ids]
    inside = [h[1:] for h in page.hrefs if h.startswith("#")]
    assert not [t for t in inside if t not in page.ids]
    assert "chapter.html" in index.hrefs


def test_every_placed_refuted_sentence_has_its_suggestion(built, chapter_text):
    merged = json.loads((built / "merged.json").read_text())
    page = parse(built / "chapter.html")
    from claims.report import errata
    quoted = {e["id"] for e in errata.build(merged, ROOT / "results", built)
              if e["quote"] and e["quote"] in chapter_text}
    assert quoted and set(page.suggested) == quoted


def test_no_none_or_nan_and_the_header_states_the_counts(built):
    html = (built / "chapter.html").read_text()
    text = re.sub(r"<[^>]+>", " ", html)
    assert not re.search(r"\b(None|nan|NaN|undefined)\b", text)
    merged = json.loads((built / "merged.json").read_text())
    fs = merged["figure_summary"]
    assert f"Figures: {fs['holds']} hold, {fs['refuted']}" in " ".join(text.split())
    assert "numbers in the chapter" in text


def test_the_markdown_view_has_a_footnote_per_figure(built):
    md = (built / "chapter.md").read_text()
    notes = re.findall(r"^\[\^([A-Za-z0-9_-]+)\]:", md, re.MULTILINE)
    assert len(notes) == len(set(notes)) == len(FIGURES)
    refs = set(re.findall(r"\[\^([A-Za-z0-9_-]+)\](?!:)", md))
    assert refs == set(notes)
    assert "None" not in md and " nan" not in md


def test_without_the_chapter_the_view_is_not_built_and_the_report_says_why(tmp_path):
    env = dict(os.environ, ATTENTION_CLAIMS_CHAPTER=str(tmp_path / "nowhere.txt"))
    r = subprocess.run([sys.executable, "-m", "claims.report", f"--report-dir={tmp_path / 'report'}"], cwd=ROOT,
                       capture_output=True, check=False, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert not (tmp_path / "report" / "chapter.html").exists()
    why = (tmp_path / "report" / "chapter-not-built.txt").read_text()
    assert "nowhere.txt" in why and "The chapter view was not built" in (tmp_path / "report" / "index.html").read_text()


# Run after load: what a reader sees (marks, their verdicts, a tooltip on focus), onto <body>.
PROBE = """<script>
window.addEventListener('load', () => {
  const marks = [...document.querySelectorAll('a.fig[data-figure]')];
  const b = document.body, count = {};
  marks.forEach(m => { count[m.dataset.verdict] = (count[m.dataset.verdict] || 0) + 1; });
  b.setAttribute('data-marks', marks.length);
  b.setAttribute('data-unique', new Set(marks.map(m => m.dataset.figure)).size);
  b.setAttribute('data-counts', JSON.stringify(count).replace(/"/g, "'"));
  b.setAttribute('data-symbols', marks.filter(m => m.querySelector('.sym').textContent.trim()).length);
  const hidden = marks.filter(m => getComputedStyle(m.querySelector('.tip')).display === 'none').length;
  const first = document.querySelector('a.fig.refuted[data-figure]') || marks[0];
  first.focus();
  const tip = first.querySelector('.tip');
  b.setAttribute('data-hidden-before-focus', hidden);
  b.setAttribute('data-tip-on-focus', getComputedStyle(tip).display);
  b.setAttribute('data-tip-text', tip.textContent.includes('ours:') ? 'measured' : 'missing');
  b.setAttribute('data-bad', (document.body.innerText.match(/\\b(None|nan|NaN|undefined)\\b/g) || []).length);
});</script></body>"""


FOCUS = """<script>
window.addEventListener('load', () => {
  const m = document.querySelectorAll('a.fig.refuted[data-figure]')[1];
  const block = m.closest('p, pre');
  document.querySelector('main').replaceChildren(block, block.nextElementSibling);
  m.focus();
});</script></body>"""


@pytest.mark.skipif(BROWSER is None, reason=WHY_NONE)
def test_the_chapter_view_in_chromium(built):
    """Every figure marked once, with a symbol; the marks per verdict are the report's figure rows;
    a mark's tooltip is hidden until focused, then shows our measurement; no None or nan; and a
    screenshot, kept in the report directory (chapter.png, and chapter-focus.png with a tooltip open)."""
    profile = built / "chrome-profile"
    body = probe(built / "chapter.html", PROBE, profile)
    merged = json.loads((built / "merged.json").read_text())
    assert int(body["marks"]) == int(body["unique"]) == int(body["symbols"]) == len(FIGURES)
    assert json.loads(body["counts"].replace("'", '"')) == dict(collections.Counter(r["verdict"] for r in merged["figures"]))
    assert int(body["hidden-before-focus"]) == len(FIGURES)
    assert body["tip-on-focus"] == "block" and body["tip-text"] == "measured"
    assert body["bad"] == "0"
    # the page as it opens, and one refuted figure's paragraph, its suggestion and its tooltip open (focused)
    focused = built / "chapter-focus.html"
    focused.write_text((built / "chapter.html").read_text().replace("</body>", FOCUS))
    for name, page in (("chapter.png", built / "chapter.html"), ("chapter-focus.png", focused)):
        shot = screenshot(page, built / name, profile)
        assert shot.exists() and shot.stat().st_size > 10_000


def test_the_chapter_is_cut_into_its_paragraphs_code_and_printed_tables(chapter_text):
    from claims.report.chapter import blocks
    kinds = {chapter_text[b.start:b.end].split("\n")[0][:30]: b.kind for b in blocks(chapter_text)}
    assert kinds["Attention and the Transformer "] == "title"
    assert kinds["From 1997 to about 2017 the su"] == "p"                 # prose with $\mathbf{x}_t$ in it
    assert kinds["class Head(nn.Module):"] == "pre" and kinds["  tokens   ms total    ms x4  "] == "pre"
    assert kinds["2.9802322387695312e-08"] == "pre" and kinds["the {x} did not cross the {y} "] == "pre"
    assert sum(b.kind == "p" for b in blocks(chapter_text)) > 60
