"""Every string that comes from a file (a run's claims.json, the names of plots and badges in the
report directory) is escaped in every page, and cannot open HTML in the Markdown outputs.

Planted markup (a script, and breakouts from single- and double-quoted attributes) goes through
`python -m claims.report` twice: a fresh run merged with the committed verdicts, and a smoke run,
which is rendered as its claims.json says (statements, sections, verdicts, counts, figure rows).
In headless Chromium no planted script runs (where `.ci/run` installs it; elsewhere that test
skips); in the files the planted strings appear only escaped."""
import json
import re
import shutil
from pathlib import Path

import inproc
import pytest
from chromium import BROWSER, WHY_NONE, probe
from html_tags import Tags

from claims import registry
from claims.chapter import CHAPTER
from textcheck.merging import build_report
from textcheck.report.views.chapter_view.chrome import JS as READING_AIDS

ROOT = Path(__file__).resolve().parent.parent.parent
pytestmark = pytest.mark.xdist_group("chromium")      # one browser at a time (tests/acceptance/test_chapter_view.py)
PWN = "document.body.dataset.pwned=1"                       # what every planted script would do
IMG = f"<img src=x onerror={PWN}>"
SCRIPT = f"<script>{PWN}</script>"
# a script, breakouts from '...' and "..." attributes, and what ends a Markdown code span or escapes
PLANT = f"`|\\{SCRIPT}'>{IMG}\">{IMG}&lt;b&gt;"
PLOTS = [f"{IMG}.png", f"'>{IMG}.png"]                       # file names hold no "/"
BADGE = f"'>{IMG}.svg"
PAGES = ("index.html", "chapter.html")
# the one script a page may hold: the chapter view's own (its keys and permalinks), as written in
# textcheck/report/views/chapter_view/chrome.py; nothing from a file is in it
OWN_SCRIPTS = {"chapter.html": [READING_AIDS]}
MARKDOWN = ("claims.md", "chapter.md", "errata.md", "tables.md")


def _test(file: str, claim: str, outcome: str, figures: list[str], **fields) -> dict:
    return {"nodeid": f"claims/{file}::test_planted[{PLANT}]", "outcome": outcome, "reason": PLANT,
            "records": [{"figure": PLANT, "stated": PLANT, "measured": PLANT, "tolerance": PLANT}],
            "tier": "fast", "device": "cpu", "figures": figures, "seconds": 0.0, "claims": [claim], **fields}


def _claims_json(smoke: bool) -> dict:
    """A run's claim report whose tests carry the planted strings in every field a page shows."""
    records = [{"figure": PLANT, "stated": PLANT, "measured": {PLANT: PLANT}, "tolerance": PLANT,
                "device": PLANT}]
    results = {"undecided": _test("test_corpus.py", "corpus.chars", PLANT, ["corpus.characters"], records=records,
                                  tier=PLANT, device=PLANT),
               "refuted": _test("test_scale.py", "scale.runaway", "refuted", [])}
    meta = {"timestamp": "2999-01-01T00:00:00+00:00", "source": PLANT, "torch": PLANT, "python": PLANT,
            "scale": "smoke" if smoke else "chapter", "commit": PLANT}
    report = build_report(CHAPTER, results, set(registry.CLAIMS), meta)
    if smoke:                   # rendered as it is: every field of the file reaches the pages
        first = report["claims"][0]
        first.update(statement=PLANT, section=PLANT, verdict=PLANT, reason=PLANT, stated=PLANT)
        report["claims"].append(dict(first, id=PLANT, verdict="refuted", tests=[]))   # an erratum, no quote
        report["summary"]["holds"] = PLANT
        counts = ("holds", "refuted", "not run", "device-specific")
        report["figure_summary"].update(dict.fromkeys(counts, PLANT))
        row = next(r for r in report["figures"] if r["id"] == "corpus.characters")
        row.update(label=PLANT, printed=PLANT, claim=PLANT, reason=PLANT, source=PLANT, measured_on=PLANT,
                   test=PLANT, verdict="refuted")
    return report


def _build(out: Path, smoke: bool) -> Path:
    shutil.rmtree(out, ignore_errors=True)
    (out / "badges").mkdir(parents=True)
    (out / "claims.json").write_text(json.dumps(_claims_json(smoke), indent=1))
    png = next(iter(sorted((ROOT / "results").glob("*.png"))), None)
    for name in PLOTS:
        (out / name).write_bytes(png.read_bytes() if png else b"\x89PNG\r\n\x1a\n")
    (out / "badges" / BADGE).write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    r = inproc.report(f"--report-dir={out}")                   # in this process (tests/inproc.py)
    assert r.returncode == 0, r.stderr[-3000:]
    return out


@pytest.fixture(scope="module", params=["fresh", "smoke"])
def built(request, tmp_path_factory):
    return _build(tmp_path_factory.mktemp("escaping") / request.param, request.param == "smoke")


def _page(built: Path, name: str) -> Path:
    page = built / name
    if not page.exists():           # no chapter text: index.html says why, and is checked alone
        pytest.skip(f"{name} not built: " + (built / "chapter-not-built.txt").read_text().strip())
    return page


@pytest.mark.parametrize("name", PAGES)
def test_planted_strings_are_escaped_in_every_page(built, name):
    text = _page(built, name).read_text(encoding="utf-8")
    parser = Tags()
    parser.feed(text)
    own = OWN_SCRIPTS.get(name, [])
    assert [a for t, a in parser.tags if t == "script"] == [{"id": "reading-aids"}] * len(own)
    assert re.findall(r"<script\b.*?</script>", text, re.DOTALL) == own
    assert [(t, a) for t, attrs in parser.tags for a in attrs if a.startswith("on")] == []
    assert [a for t, a in parser.tags if t == "img" and a.get("src") == "x"] == []
    assert SCRIPT not in text and IMG not in text
    # the planted strings are there, as text a reader sees
    assert "&lt;script&gt;" in text and "&lt;img src=x onerror=" in text


@pytest.mark.parametrize("name", MARKDOWN)
def test_planted_strings_cannot_open_html_in_the_markdown(built, name):
    """Markdown renders raw HTML: a "<" from a file is written as an entity (or backslash-escaped
    in the chapter's prose), also where a backtick or a backslash of the file would end a code
    span or an escape early."""
    path = built / name
    if name == "chapter.md":
        path = _page(built, name)
    text = path.read_text(encoding="utf-8")
    assert _opened(text) == []
    assert "&lt;script&gt;" in text or "\\<script\\>" in text     # the planted strings are there


def _opened(markdown: str) -> list[str]:
    """The tags a Markdown text opens outside its fenced code blocks: a "<" unless an odd run of
    backslashes escapes it (an even one escapes itself)."""
    outside_code = re.sub(r"^(`{3,})[^\n]*\n.*?^\1\s*$", "", markdown, flags=re.MULTILINE | re.DOTALL)
    tags = re.finditer(r"(\\*)<\s*/?\s*(script|img)\b[^\n]{0,20}", outside_code, re.IGNORECASE)
    return [m.group(0) for m in tags if len(m.group(1)) % 2 == 0]


def test_a_code_block_from_a_file_cannot_close_its_fence(tmp_path):
    """tables.md shows results/winograd_attention.txt in a code block: a fence inside the file
    does not end it early (what followed would be Markdown, and open HTML)."""
    from claims.report import tables
    from textcheck.report.views.tables import render, table_html
    (tmp_path / "winograd_attention.txt").write_text(f"a map\n```\n{SCRIPT}\n````\n{IMG}")
    built = tables.data({"claims": []}, tmp_path, "")
    markdown = render(built)
    assert SCRIPT in markdown and _opened(markdown) == []
    page = "".join(table_html(t) for t in built)
    assert SCRIPT not in page and "&lt;script&gt;" in page


def test_chapter_prose_keeps_its_math_and_cannot_open_html_in_markdown():
    """chapter.md's prose (textcheck/report/views/escape.py md_prose_with_math): Markdown's structure and
    HTML backslash-escaped, $...$ math left for the forge, and a backslash from the file cannot
    undo an escape."""
    from textcheck.report.views.escape import md_prose_with_math
    assert md_prose_with_math("$a_{i} < b$ [x] *y*") == "$a_{i} \\< b$ \\[x\\] \\*y\\*"
    said = md_prose_with_math(f"\\{SCRIPT} `a|b`")
    assert _opened(said) == [] and "\\\\\\<script\\>" in said and "\\`a\\|b\\`" in said


# Run after load: whether a planted script ran, and the scripts and event handlers on the page.
PROBE = """<script>
window.addEventListener('load', () => setTimeout(() => {
  const b = document.body;
  const handlers = [...document.querySelectorAll('*')]
    .filter(e => [...e.attributes].some(a => /^on/i.test(a.name)));
  b.setAttribute('data-probed', 'yes');
  b.setAttribute('data-ran', b.dataset.pwned ? 'yes' : 'no');
  b.setAttribute('data-scripts', [...document.scripts].filter(s => s.id !== 'reading-aids').length - 1);
  b.setAttribute('data-handlers', handlers.length);
}, 200));</script></body>"""


@pytest.mark.skipif(BROWSER is None, reason=WHY_NONE)
@pytest.mark.parametrize("name", PAGES)
def test_no_planted_script_runs_in_chromium(built, name):
    page = _page(built, name)
    body = probe(page, PROBE, built / "chrome-profile")
    assert body.get("probed") == "yes", body
    assert "pwned" not in body and body["ran"] == "no", body
    assert body["scripts"] == "0" and body["handlers"] == "0", body
