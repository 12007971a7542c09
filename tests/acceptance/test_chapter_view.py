"""The chapter view (the engine's textcheck/report/views/chapter_view/): report/chapter.html and chapter.md, the chapter
with every asserted figure marked where it is printed.  Checked on the files, and as a reader
sees it in headless Chromium (where `.ci/run` installs it; elsewhere that test skips)."""
import collections
import functools
import html as html_module
import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import inproc
import pytest
from chromium import BROWSER, WHY_NONE, probe, screenshot

from claims.chapter_figures import FIGURES

ROOT = Path(__file__).resolve().parent.parent.parent
# one worker: its fixture (tests/acceptance/conftest.py) empties report/chapter-view (two workers building it collide), and two headless Chromiums at once
# on two cores drop screenshots and probes (tests/acceptance/chromium.py: every browser test is in this group)
pytestmark = pytest.mark.xdist_group("chromium")


@pytest.fixture(scope="module")
def built(chapter_text, fast_run_report):
    """A fast run's report with its chapter view (tests/acceptance/conftest.py: the report page's
    tests read the same one)."""
    return fast_run_report


class Marks(HTMLParser):
    """The marks (a.fig), the ids and the links of a page."""

    def __init__(self):
        super().__init__()
        self.marks, self.ids, self.hrefs, self.suggested = [], set(), [], []
        self.in_pre = False

    def handle_endtag(self, tag):
        self.in_pre = self.in_pre and tag != "pre"

    def handle_starttag(self, tag, attrs):
        a = dict(attrs, in_pre=self.in_pre)
        self.in_pre = self.in_pre or tag == "pre"
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
    said = " ".join(html_module.unescape(text).split())
    assert f"Figures: {fs['holds']} hold, {fs['refuted']}" in said
    # the accountings of the report model: numbers in digits and in words apart, and the sentences
    acc, sentences = merged["accounting"], merged["sentences"]
    assert f"{acc['numbers']} numbers in digits" in said and f"{acc['words']} numbers in words" in said
    asserting = sentences["sentences by kind"].get("asserts", 0)
    assert f"The chapter's sentences: {sentences['sentences']}, of which {asserting} assert claims" in said
    for page in ("index.html", "claims.md"):
        assert f"of which {asserting} assert claims" in html_module.unescape((built / page).read_text()), page


def test_the_markdown_view_has_a_footnote_per_figure(built):
    md = (built / "chapter.md").read_text()
    notes = re.findall(r"^\[\^([A-Za-z0-9_-]+)\]:", md, re.MULTILINE)
    assert len(notes) == len(set(notes)) == len(FIGURES)
    refs = set(re.findall(r"\[\^([A-Za-z0-9_-]+)\](?!:)", md))
    assert refs == set(notes)
    assert "None" not in md and " nan" not in md


def test_without_the_chapter_the_view_is_not_built_and_the_report_says_why(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTENTION_CLAIMS_CHAPTER", str(tmp_path / "nowhere.txt"))     # read where the chapter is loaded
    r = inproc.report(f"--report-dir={tmp_path / 'report'}")
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


# Run after load: every sentence mark as a reader meets it (its span in the chapter, its claims and
# verdict, its bar's width, whether it is laid out, the links after it), URI-encoded onto <body>.
SENTENCES = """<script>
window.addEventListener('load', () => {
  const marks = [...document.querySelectorAll('main span.asserts')].map(s => ({
    start: +s.dataset.start, end: +s.dataset.end, claims: s.dataset.claims.split(' '), verdict: s.dataset.verdict,
    bar: parseFloat(getComputedStyle(s).borderLeftWidth), shown: s.getClientRects().length > 0,
    links: [...s.querySelectorAll(':scope > sup.claims > *')].map(l => [l.getAttribute('href') || '', l.title]),
    figures: s.querySelectorAll('a.fig[data-figure]').length}));
  document.body.setAttribute('data-sentences', encodeURIComponent(JSON.stringify(marks)));
});</script></body>"""


@pytest.mark.skipif(BROWSER is None, reason=WHY_NONE)
def test_every_asserting_sentence_carries_a_mark_with_its_claims_in_chromium(built, chapter_text):
    """Each sentence the sentence table says asserts claims (textcheck/sentences.py) lies in a sentence
    mark that names its claims, shows a bar coloured by their worst verdict (a claim no test
    carries: not encoded), and links each claim to its row in index.html."""
    from urllib.parse import unquote

    from claims.chapter import CHAPTER
    from textcheck.report.assembly.chapter_view.sentences import RANK, claim_kind
    from textcheck.report.assembly.merged import claim_of
    from textcheck.sentences import accounted
    body = probe(built / "chapter.html", SENTENCES, built / "chrome-profile")
    marks = json.loads(unquote(body["sentences"]))
    claims = {c["id"]: claim_of(CHAPTER, c) for c in json.loads((built / "merged.json").read_text())["claims"]}
    index = parse(built / "index.html")
    units = [a for a in accounted(chapter_text, CHAPTER.sentences) if a.kind == "asserts" and not a.unit.block]
    assert units and marks
    for a in units:
        held = [m for m in marks if m["start"] <= a.unit.start and a.unit.end <= m["end"]]
        assert held and set(a.claims) <= set(held[0]["claims"]), a.unit.context(chapter_text)
    for m in marks:
        assert m["shown"] and m["bar"] > 0, m
        assert m["verdict"] == min((claim_kind(claims.get(c)) for c in m["claims"]), key=RANK.index), m
        assert len(m["links"]) == len(m["claims"]), m
        for cid, (href, title) in zip(m["claims"], m["links"]):
            assert title.startswith(f"claim {cid}: {claim_kind(claims.get(cid))}"), (cid, title)
            if cid in claims:
                assert href == f"index.html#claim-{cid}" and f"claim-{cid}" in index.ids, (cid, href)
            else:
                assert href == "", (cid, href)          # no row to link to: marked not encoded
    assert sum(m["figures"] for m in marks) > 0          # the figures' marks sit inside the sentences'


def test_the_chapter_view_nests_its_marks(built):
    """Sentence marks, figure marks, refuted sentences and formulas nest: every element of the page
    closes in the order it opened (a browser would otherwise repair the page its own way)."""
    void = {"meta", "br", "img", "hr", "input", "link", "wbr"}

    class Nesting(HTMLParser):
        def __init__(self):
            super().__init__()
            self.open, self.wrong = [], []

        def handle_starttag(self, tag, attrs):
            if tag not in void:
                self.open.append((tag, self.getpos()))

        def handle_endtag(self, tag):
            if tag in void:
                return
            if not self.open or self.open[-1][0] != tag:
                self.wrong.append((tag, self.getpos(), self.open[-3:]))
            else:
                self.open.pop()
    page = Nesting()
    page.feed((built / "chapter.html").read_text(encoding="utf-8"))
    assert page.wrong == [] and page.open == []


def test_the_chapter_is_cut_into_its_paragraphs_code_and_printed_tables(chapter_text):
    from textcheck.report.assembly.chapter_view.text import blocks
    kinds = {chapter_text[b.start:b.end].split("\n")[0][:30]: b.kind for b in blocks(chapter_text)}
    assert kinds["Attention and the Transformer "] == "title"
    assert kinds["From 1997 to about 2017 the su"] == "p"                 # prose with $\mathbf{x}_t$ in it
    assert kinds["class Head(nn.Module):"] == "pre" and kinds["  tokens   ms total    ms x4  "] == "pre"
    assert kinds["2.9802322387695312e-08"] == "pre" and kinds["the {x} did not cross the {y} "] == "pre"
    assert sum(b.kind == "p" for b in blocks(chapter_text)) > 60


# ------------------------------------------------------------------- the reading aids (issue 35)

def _refuted_in_order(built) -> list[str]:
    return [m["data-figure"] for m in parse(built / "chapter.html").marks if m["data-verdict"] == "refuted"]


def probe_at(page: Path, fragment: str, script: str, profile: Path) -> dict[str, str]:
    """tests/acceptance/chromium.py probe(), with the page loaded at `#fragment`."""
    from chromium import browse
    probed = page.with_name(page.stem + "-probe-hash.html")
    probed.write_text(page.read_text(encoding="utf-8").replace("</body>", script), encoding="utf-8")
    dom = browse(profile, "--virtual-time-budget=5000", "--dump-dom", f"{probed.as_uri()}#{fragment}").stdout
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', dom.split("<body", 1)[1].split(">", 1)[0]))


# Run after load, in order: the contents checked against the marks between its section anchors;
# the keys pressed (KeyboardEvents) through every refuted mark and back; then the print rules
# applied as screen rules, and each kind of mark's borders and colours read.
AIDS = """<script>
window.addEventListener('load', () => {
  const b = document.body, put = (k, v) => b.setAttribute('data-' + k, typeof v === 'string' ? v : JSON.stringify(v).replace(/"/g, "'"));
  const marks = [...document.querySelectorAll('main a.fig[data-figure]')];
  const items = [...document.querySelectorAll('nav#toc li[data-section]')];
  const anchors = items.map(li => document.getElementById(li.dataset.section));
  const kinds = ['holds', 'refuted', 'underspecified', 'undecided', 'fails', 'stale', 'not-run', 'device-specific'];
  const listed = items.map(li => Object.fromEntries(kinds.filter(k => li.dataset[k.replace(/-(.)/g, (_, c) => c.toUpperCase())])
      .map(k => [k, +li.dataset[k.replace(/-(.)/g, (_, c) => c.toUpperCase())]])));
  const between = anchors.map((a, i) => {
    const c = {};
    marks.filter(m => (i === 0 || (a && a.compareDocumentPosition(m) & Node.DOCUMENT_POSITION_FOLLOWING))
                  && (i === anchors.length - 1 || (anchors[i + 1] && anchors[i + 1].compareDocumentPosition(m) & Node.DOCUMENT_POSITION_PRECEDING)))
         .forEach(m => { c[m.dataset.kind] = (c[m.dataset.kind] || 0) + 1; });
    return c;
  });
  put('toc-sections', items.map(li => li.dataset.section));
  put('toc-visible', items.filter(li => li.offsetHeight > 0 && li.querySelector('a').getAttribute('href') === '#' + li.dataset.section).length);
  put('toc-listed', listed);
  put('toc-between', between);
  put('toc-anchors', anchors.filter(a => a).length);
  const hint = document.getElementById('keys');
  put('hint', hint && hint.offsetHeight > 0 ? hint.textContent : '');
  const press = k => (document.activeElement || document.body).dispatchEvent(
      new KeyboardEvent('keydown', {key: k, bubbles: true, cancelable: true}));
  const refuted = marks.filter(m => m.dataset.verdict === 'refuted').length;
  const walk = (key, n) => [...Array(n)].map(() => { press(key);
      const a = document.activeElement, tip = a && a.querySelector && a.querySelector('.tip');
      return (a && a.dataset && a.dataset.figure || '') + (tip && getComputedStyle(tip).display === 'block' ? '' : ' (closed)'); });
  if (document.activeElement) document.activeElement.blur();
  put('keys-next', walk('n', refuted + 1));
  put('keys-previous', walk('p', refuted + 1));
  put('keys-at', (document.getElementById('keys-at') || {}).textContent || '');
  marks.find(m => m.dataset.verdict !== 'refuted').focus();
  const first = marks.find(m => m.dataset.verdict !== 'refuted');
  put('keys-from-mark', [first.dataset.figure, walk('j', 1)[0], walk('k', 1)[0]]);
  const rules = [];
  for (const sheet of document.styleSheets)
    for (const r of sheet.cssRules)
      if (r instanceof CSSMediaRule && [...r.media].includes('print')) rules.push(...[...r.cssRules].map(x => x.cssText));
  put('print-rules', rules.length);
  const st = document.createElement('style');
  st.textContent = rules.join('\\n');
  document.head.appendChild(st);
  const look = {};
  kinds.forEach(k => {
    const m = document.querySelector('header .legend a.fig.' + k), cs = getComputedStyle(m), sym = getComputedStyle(m.querySelector('.sym'));
    look[k] = {border: ['Top', 'Bottom'].map(s => cs['border' + s + 'Style'] + ' ' + cs['border' + s + 'Width']).join(' / ') + ' ' + cs.fontWeight,
               ink: [cs.color, sym.color, cs.backgroundColor].join(' ')};
  });
  put('print-look', look);
  marks[0].focus();
  put('print-tip', getComputedStyle(marks[0].querySelector('.tip')).display);
  put('print-hint', hint ? getComputedStyle(hint).display : 'absent');
});</script></body>"""


@pytest.fixture(scope="module")
def aids(built):
    if BROWSER is None:
        pytest.skip(WHY_NONE)
    body = probe(built / "chapter.html", AIDS, built / "chrome-profile")
    return {k: json.loads(v.replace("'", '"')) if v[:1] in ("[", "{") or v.isdigit() else v for k, v in body.items()}


def test_the_contents_list_every_section_with_its_marks_per_verdict(built, aids, chapter_text):
    """Every section of the chapter (it prints no headings: claims/report/chapter_cut.py declares
    them, each by a phrase of its first paragraph) is listed, links to its place in the text, and
    gives the marks per verdict between its place and the next section's; together, every mark."""
    from claims import registry
    from claims.report.chapter_cut import HEADINGS, WITHIN
    for key, _, phrase in HEADINGS + WITHIN:
        assert chapter_text.count(phrase) == 1, key
        assert not re.search(r"\d", phrase), key                     # no chapter figure in a phrase
    # every claim section has its anchor, listed in the contents (a README badge links to it)
    page = parse(built / "chapter.html")
    claim_anchors = {f"sec-{key}" for key in registry.SECTIONS}
    assert claim_anchors <= page.ids and claim_anchors <= {h[1:] for h in page.hrefs if h.startswith("#")}
    assert aids["toc-sections"] == [f"sec-{key}" for key, _, _ in HEADINGS]
    assert aids["toc-visible"] == aids["toc-anchors"] == len(HEADINGS)
    assert aids["toc-listed"] == aids["toc-between"]
    total = collections.Counter()
    for c in aids["toc-listed"]:
        total.update(c)
    assert total == collections.Counter(m["data-kind"] for m in page.marks)
    assert sum(total.values()) == len(FIGURES)


def test_keys_move_the_focus_across_the_refuted_figures_in_document_order(built, aids):
    """n (or j) focuses the next refuted mark, wrapping around; p (or k) the previous one; each
    focused mark's tooltip is open; the hint says which keys."""
    refuted = _refuted_in_order(built)
    assert len(refuted) > 1
    assert aids["keys-next"] == refuted + refuted[:1]
    assert aids["keys-previous"] == refuted[::-1] + refuted[-1:]
    assert aids["keys-at"] == f"({len(refuted)} of {len(refuted)})"      # back round to the last
    marks = [m["data-figure"] for m in parse(built / "chapter.html").marks]
    start, forward, back = aids["keys-from-mark"]
    assert forward == next(f for f in marks[marks.index(start):] if f in refuted)
    assert back == next((f for f in reversed(marks[:marks.index(forward)]) if f in refuted), refuted[-1])
    assert "n" in aids["hint"] and "p" in aids["hint"] and "refuted" in aids["hint"]


def test_the_print_stylesheet_tells_the_verdicts_apart_without_colour(built, aids):
    """Under the print rules (applied as screen rules: headless Chromium prints to PDF only), each
    kind of mark has its own borders, all black on white; tooltips and the key hint are hidden.
    chapter-print.png: the page with the print rules on, in grey (kept in the report directory)."""
    assert aids["print-rules"] > 5
    look = aids["print-look"]
    assert len({v["border"] for v in look.values()}) == len(look) == 8     # the eight kinds of mark, undecided and underspecified among them
    assert {v["ink"] for v in look.values()} == {"rgb(0, 0, 0) rgb(0, 0, 0) rgba(0, 0, 0, 0)"}
    assert aids["print-tip"] == "none" and aids["print-hint"] == "none"
    page = built / "chapter-print.html"
    page.write_text((built / "chapter.html").read_text().replace("@media print{", "@media all{"))
    shot = screenshot(page, built / "chapter-print.png", built / "chrome-profile")
    assert shot.exists() and shot.stat().st_size > 10_000


HASH = """<script>
window.addEventListener('load', () => {
  const b = document.body, a = document.activeElement, tip = a && a.querySelector && a.querySelector('.tip');
  b.setAttribute('data-loaded-at', a && a.id || '');
  b.setAttribute('data-loaded-tip', tip ? getComputedStyle(tip).display : 'none');
  b.setAttribute('data-loaded-text', tip ? tip.innerText.replace(/\\s+/g, ' ') : '');
  const r = tip && tip.getBoundingClientRect(), seen = r && document.elementFromPoint(r.left + r.width / 2, r.bottom - 4);
  b.setAttribute('data-loaded-seen', seen && tip.contains(seen) ? 'yes' : 'clipped or covered');
  window.addEventListener('hashchange', () => setTimeout(() => {
    const c = document.activeElement, t = c && c.querySelector && c.querySelector('.tip');
    b.setAttribute('data-changed-at', c && c.id || '');
    b.setAttribute('data-changed-tip', t ? getComputedStyle(t).display : 'none');
  }, 50));
  location.hash = '#' + b.dataset.then;
});</script></body>"""


@pytest.mark.skipif(BROWSER is None, reason=WHY_NONE)
def test_a_permalink_opens_its_figures_tooltip_on_load_and_on_hashchange(built):
    """chapter.html#fig-<figure ID> focuses that mark with its tooltip open, on load and when the
    hash changes; the tooltip says since when its verdict has stood (chapter-permalink.png)."""
    refuted = _refuted_in_order(built)
    in_pre = [m["data-figure"] for m in parse(built / "chapter.html").marks if m["in_pre"] and m["data-verdict"] == "refuted"]
    one, other = in_pre[0], refuted[-1]          # a printed table's cell: its tooltip must not be cut off
    script = HASH.replace("b.dataset.then", f"'fig-{other}'")
    body = probe_at(built / "chapter.html", f"fig-{one}", script, built / "chrome-profile")
    assert body["loaded-at"] == f"fig-{one}" and body["loaded-tip"] == "block" and body["loaded-seen"] == "yes"
    assert re.search(r"since: \d{4}-\d\d-\d\d, ", body["loaded-text"]), body["loaded-text"]
    assert body["changed-at"] == f"fig-{other}" and body["changed-tip"] == "block"


@functools.cache                  # figures decided by one test share its timestamp: one pickaxe search each
def _first_commit(timestamp: str) -> str | None:
    """The oldest commit that changed how often results/verdicts.json holds this timestamp (git's
    pickaxe: a check of textcheck/report/assembly/since.py's reading of one `git log -p`)."""
    r = subprocess.run(["git", "-C", str(ROOT), "log", "--format=%h", f'-S"timestamp": "{timestamp}"', "--",
                        "results/verdicts.json"], capture_output=True, text=True, check=False)
    return r.stdout.split()[-1] if r.returncode == 0 and r.stdout.split() else None


class Tips(HTMLParser):
    """Each mark's tooltip text, by figure ID."""

    def __init__(self):
        super().__init__()
        self.tips, self._in, self._depth = {}, None, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("data-figure"):
            self._in = a["data-figure"]
            self.tips[self._in] = ""

    def handle_endtag(self, tag):
        if tag == "a":
            self._in = None

    def handle_data(self, data):
        if self._in:
            self.tips[self._in] += data


def test_each_tooltip_says_since_when_its_verdict_has_stood(built):
    """The date of the evidence that decided it (the deciding test's timestamp) and its commit:
    for committed evidence the commit that added it to results/verdicts.json, for this run's the
    commit the run was made at."""
    merged = json.loads((built / "merged.json").read_text())
    p = Tips()
    p.feed((built / "chapter.html").read_text(encoding="utf-8"))
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=7", "HEAD"], capture_output=True,
                          text=True, check=False).stdout.strip()
    sources = collections.Counter()
    for r in merged["figures"]:
        since = re.search(r"since: (.*)", p.tips[r["id"]], re.DOTALL)
        assert since, r["id"]
        text = since.group(1)
        if not r.get("timestamp"):
            assert text.startswith("no evidence yet"), (r["id"], text)
            continue
        assert text.startswith(r["timestamp"][:10] + ", "), (r["id"], text)
        sources[r["source"]] += 1
        if r["source"] == "committed":
            commit = _first_commit(r["timestamp"])
            assert commit and text.startswith(f"{r['timestamp'][:10]}, the evidence committed in {commit}"), (r["id"], text)
        else:
            assert f"this run (at commit {head})" in text, (r["id"], text)
    assert sources["committed"] and sources["fresh run"]


def _git(cwd: Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True, check=True, env=env).stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="no git")
def test_since_when_without_git_before_a_commit_and_in_a_shallow_clone(tmp_path):
    """The commit of committed evidence: the one that added its timestamp; "commit unknown" with no
    history; "not committed yet" for a timestamp saved since; "in or before" in a shallow clone."""
    from textcheck.report.assembly.merged import figure_row
    from textcheck.report.assembly.since import since_rows
    old, new = "2026-01-02T03:04:05+00:00", "2026-02-03T04:05:06+00:00"
    report = {"meta": {}, "figures": [{"id": "a", "timestamp": old, "source": "committed"},
                                      {"id": "b", "timestamp": new, "source": "committed"},
                                      {"id": "c", "timestamp": None, "source": None}]}
    rows = [figure_row(f) for f in report["figures"]]
    since = lambda root: [r.since for r in since_rows(rows, report["meta"], root)]
    assert since(tmp_path)[0] == "2026-01-02, commit unknown (no git history of results/verdicts.json here)"
    repo = tmp_path / "repo"
    (repo / "results").mkdir(parents=True)
    _git(repo, "init", "-q")
    for n in range(2):               # a first commit, then the one that adds the evidence
        (repo / "results" / "verdicts.json").write_text(json.dumps({"tests": [{"timestamp": old}] * n}, indent=1))
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", f"c{n}")
    added = _git(repo, "rev-parse", "--short=7", "HEAD").strip()
    (repo / "results" / "verdicts.json").write_text(json.dumps({"tests": [{"timestamp": old}, {"timestamp": new}]},
                                                               indent=1))
    assert since(repo) == [f"2026-01-02, the evidence committed in {added}", "2026-02-03, saved here, not committed yet",
                           "no evidence yet"]
    _git(tmp_path, "clone", "-q", "--depth", "1", (repo / ".git").as_uri(), "shallow")
    assert since(tmp_path / "shallow")[0] == f"2026-01-02, the evidence committed in or before {added} (a shallow clone)"
