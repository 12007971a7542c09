"""The report as a reader sees it: report/index.html rendered in headless Chromium.

`.ci/run` installs Chromium where it can (root, apt); elsewhere the browser test skips, saying why."""
import json
from pathlib import Path

import pytest
from chromium import BROWSER, WHY_NONE, probe, screenshot

from textcheck.verdicts import summary_text

ROOT = Path(__file__).resolve().parent.parent.parent
pytestmark = pytest.mark.xdist_group("chromium")      # one browser at a time (tests/acceptance/test_chapter_view.py)


@pytest.fixture(scope="module")
def built_report(fast_run_report):
    """A fast run's report, with a plot for the page to show (tests/acceptance/conftest.py: the
    chapter view's tests read the same one)."""
    return fast_run_report


def test_report_files_agree_with_claims_json(built_report):
    merged = json.loads((built_report / "merged.json").read_text())
    s = merged["summary"]
    md = (built_report / "claims.md").read_text()
    assert f"**{s['holds']} hold, {s['refuted']} refuted" in md
    badge = json.loads((built_report / "badges" / "overall.json").read_text())
    open_ = "".join(f", {s[v]} {v}" for v in ("underspecified", "undecided") if s.get(v))   # said apart from refuted
    assert badge["message"] == f"{s['holds']}/{s['total']} hold{open_}"
    assert (built_report / "badges" / "overall.svg").read_text().startswith("<?xml") or \
        "<svg" in (built_report / "badges" / "overall.svg").read_text()
    for section in {c["section"] for c in merged["claims"]}:
        assert (built_report / "badges" / f"{section}.json").exists()
    assert "mask.averaging_matrix" in (built_report / "index.html").read_text()


# Run in the page after load: what a reader sees, written onto <body> for --dump-dom to carry.
PROBE = """<script>
window.addEventListener('load', () => {
  const imgs = [...document.images];
  const rows = [...document.querySelectorAll('#claims tr')].slice(1).filter(r => !r.classList.contains('section'));
  const figureCells = rows.flatMap(r => [...r.cells].slice(1, 4).map(c => c.textContent.trim()));
  const b = document.body;
  b.setAttribute('data-images', imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0) ? 'loaded' : 'broken');
  b.setAttribute('data-badges', document.querySelectorAll('img.badge').length);
  b.setAttribute('data-claim-rows', rows.filter(r => !r.classList.contains('figure')).length);
  b.setAttribute('data-figure-rows', rows.filter(r => r.classList.contains('figure')).length);
  b.setAttribute('data-bad-cells', figureCells.filter(t => /\\b(None|nan|NaN|undefined)\\b/.test(t)).length);
  b.setAttribute('data-summary', document.getElementById('summary').textContent.replace(/\\s+/g, ' ').trim());
});</script></body>"""


@pytest.mark.skipif(BROWSER is None, reason=WHY_NONE)
def test_report_page_shows_what_the_report_says(built_report):
    """The DOM Chromium renders: a row per claim and per figure, the merged report's counts,
    every badge and plot loaded, no None or nan where a figure belongs; and a screenshot."""
    page, profile = built_report / "index.html", built_report / "chrome-profile"
    body = probe(page, PROBE, profile)
    merged = json.loads((built_report / "merged.json").read_text())
    s = merged["summary"]
    assert body["images"] == "loaded"
    assert int(body["badges"]) == 1 + len({c["section"] for c in merged["claims"]})
    assert int(body["claim-rows"]) == len(merged["claims"])
    assert int(body["figure-rows"]) == sum(len(c["tests"]) for c in merged["claims"])
    assert body["bad-cells"] == "0"
    assert body["summary"].startswith(summary_text(s))
    shot = screenshot(page, built_report / "page.png", profile, "1400,2000")     # kept in the report directory
    assert shot.exists() and shot.stat().st_size > 10_000
