"""Headless Chromium for the report's browser tests (test_report_page.py, test_chapter_view.py):
find it, load a page with a probe script that writes what a reader sees onto <body>, read that
back, and take a screenshot.  `.ci/run` installs Chromium where it can (root, apt)."""
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
WHY_NONE = ("no Chromium installed: `.ci/run` installs it where it runs as root with apt "
            "(apt-get install -y chromium); elsewhere install it to run this test")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


def browse(profile: Path, *args: str, timeout: int = 120) -> subprocess.CompletedProcess:
    """One Chromium run with `args`, in a profile of its own under `profile`, removed afterwards:
    a profile is one browser's (its SingletonLock makes a second run on it abort, which a lock left
    behind by an earlier run, or a recycled pid, would cause at random)."""
    Path(profile).mkdir(parents=True, exist_ok=True)
    own = tempfile.mkdtemp(prefix="run-", dir=profile)
    try:
        return subprocess.run([BROWSER, *FLAGS, f"--user-data-dir={own}", *args], capture_output=True, check=False,
                              text=True, timeout=timeout)
    finally:
        shutil.rmtree(own, ignore_errors=True)


def probe(page: Path, script: str, profile: Path) -> dict[str, str]:
    """Load `page` with `script` (a <script> ending in </body>) in place of its </body>; return
    the data-* attributes the script set on <body>."""
    probed = page.with_name(page.stem + "-probe.html")
    probed.write_text(page.read_text(encoding="utf-8").replace("</body>", script), encoding="utf-8")
    dom = browse(profile, "--virtual-time-budget=5000", "--dump-dom", probed.as_uri()).stdout
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', dom.split("<body", 1)[1].split(">", 1)[0]))


def screenshot(page: Path, shot: Path, profile: Path, size: str = "1200,1600") -> Path:
    browse(profile, f"--screenshot={shot}", f"--window-size={size}", "--virtual-time-budget=3000", page.as_uri())
    return shot
