"""Headless Chromium for the report's browser tests (test_report_page.py, test_chapter_view.py):
find it, load a page with a probe script that writes what a reader sees onto <body>, read that
back, and take a screenshot.  `.ci/run` installs Chromium where it can (root, apt)."""
import re
import shutil
import subprocess
from pathlib import Path

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
WHY_NONE = ("no Chromium installed: `.ci/run` installs it where it runs as root with apt "
            "(apt-get install -y chromium); elsewhere install it to run this test")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


def _flags(profile: Path) -> list[str]:
    return [*FLAGS, f"--user-data-dir={profile}"]


def probe(page: Path, script: str, profile: Path) -> dict[str, str]:
    """Load `page` with `script` (a <script> ending in </body>) in place of its </body>; return
    the data-* attributes the script set on <body>."""
    probed = page.with_name(page.stem + "-probe.html")
    probed.write_text(page.read_text(encoding="utf-8").replace("</body>", script), encoding="utf-8")
    dom = subprocess.run([BROWSER, *_flags(profile), "--virtual-time-budget=5000", "--dump-dom", probed.as_uri()],
                         capture_output=True, check=False, text=True, timeout=120).stdout
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', dom.split("<body", 1)[1].split(">", 1)[0]))


def screenshot(page: Path, shot: Path, profile: Path, size: str = "1200,1600") -> Path:
    subprocess.run([BROWSER, *_flags(profile), f"--screenshot={shot}", f"--window-size={size}",
                    "--virtual-time-budget=3000", page.as_uri()], capture_output=True, check=False, timeout=120)
    return shot
