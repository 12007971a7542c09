"""The report as a reader sees it: report/index.html rendered in headless Chromium.

Skipped where no Chromium is installed (Debian: `apt-get install chromium`)."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def built_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    r = subprocess.run([sys.executable, "-m", "pytest", "-m", "fast", "-q", "-p", "no:cacheprovider",
                        "claims/test_mask.py", "claims/test_norm.py", f"--report-dir={out}"],
                       cwd=ROOT, capture_output=True, check=False, text=True)
    assert r.returncode == 0, r.stdout[-2000:]
    # a plot for the page to show
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.plot([1, 2], [1, 4]); plt.savefig(out / "example.png"); plt.close()
    r = subprocess.run([sys.executable, "-m", "claims.report", f"--report-dir={out}"], cwd=ROOT,
                       capture_output=True, check=False, text=True)
    assert r.returncode == 0, r.stderr
    return out


def test_report_files_agree_with_claims_json(built_report):
    merged = json.loads((built_report / "merged.json").read_text())
    s = merged["summary"]
    md = (built_report / "claims.md").read_text()
    assert f"**{s['holds']} hold, {s['refuted']} refuted" in md
    badge = json.loads((built_report / "badges" / "overall.json").read_text())
    assert badge["message"] == f"{s['holds']}/{s['total']} hold"
    assert (built_report / "badges" / "overall.svg").read_text().startswith("<?xml") or \
        "<svg" in (built_report / "badges" / "overall.svg").read_text()
    for section in {c["section"] for c in merged["claims"]}:
        assert (built_report / "badges" / f"{section}.json").exists()
    assert "mask.averaging_matrix" in (built_report / "index.html").read_text()


@pytest.mark.skipif(BROWSER is None, reason="no Chromium installed (apt-get install chromium)")
def test_report_page_renders_with_table_and_images(built_report):
    page = built_report / "index.html"
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run",
             f"--user-data-dir={built_report / 'chrome-profile'}"]
    # The DOM after load, with a script's verdict on every image (complete and non-empty).
    probe = built_report / "probe.html"
    probe.write_text(page.read_text().replace("</body>", """<script>
      window.addEventListener('load', () => {
        const imgs = [...document.images];
        const ok = imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0);
        document.body.setAttribute('data-images', ok ? 'loaded' : 'broken');
        document.body.setAttribute('data-rows', document.querySelectorAll('#claims tr:not(.section)').length);
      });</script></body>"""))
    dom = subprocess.run([BROWSER, *flags, "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()],
                         capture_output=True, check=False, text=True, timeout=120).stdout
    merged = json.loads((built_report / "merged.json").read_text())
    assert 'data-images="loaded"' in dom
    assert f'data-rows="{len(merged["claims"]) + 1}"' in dom
    shot = built_report / "page.png"
    subprocess.run([BROWSER, *flags, f"--screenshot={shot}", "--window-size=1400,2000", page.as_uri()],
                   capture_output=True, check=False, timeout=120)
    assert shot.exists() and shot.stat().st_size > 10_000
