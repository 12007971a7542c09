"""The report runs on its declared dependencies (pyproject.toml: the JSON, the registry,
matplotlib and the chapter's text): `python -m claims.report`, and the site built from it,
render every page with torch and pytest unimportable, as on a machine that has only the
project's runtime dependencies installed."""
import subprocess
import sys

from data.paths import PROJECT_ROOT as ROOT

# torch and pytest made unimportable by a finder that refuses them (not by None in sys.modules, which
# libraries that look for an already imported torch, scipy's array API among them, read as imported)
BLOCK = ("import sys\n"
         "class _Refused:\n"
         "    def find_spec(self, name, path=None, target=None):\n"
         "        if name.partition('.')[0] in ('torch', 'pytest', '_pytest'):\n"
         "            raise ImportError(f'import of {name} halted; None in sys.modules')\n"
         "sys.meta_path.insert(0, _Refused())\n")


def _run_blocked(module: str, *args: str) -> subprocess.CompletedProcess:
    code = BLOCK + f"import runpy\nsys.argv = [{module!r}, *{list(args)!r}]\nrunpy.run_module({module!r}, run_name='__main__')\n"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False,
                          timeout=300)


def test_the_report_renders_without_torch_or_pytest():
    out = ROOT / "report" / "no-torch-no-pytest"
    r = _run_blocked("claims.report", "--report-dir", str(out))
    assert r.returncode == 0, r.stderr[-3000:]
    for page in ("claims.md", "index.html", "chapter.html", "chapter.md", "errata.md", "tables.md"):
        assert (out / page).stat().st_size > 0, page
    assert "halted; None in sys.modules" not in r.stderr


def test_the_block_is_real():
    """The probe above would pass vacuously if the block did nothing: importing torch under it fails."""
    r = subprocess.run([sys.executable, "-c", BLOCK + "import torch"], capture_output=True, text=True, check=False)
    assert r.returncode != 0 and "halted" in r.stderr


def test_the_site_builds_without_torch_or_pytest(tmp_path):
    """The workflow's site job installs the runtime dependencies alone (no torch, no pytest)."""
    run = ROOT / "report" / "site-no-torch-no-pytest"
    run.mkdir(parents=True, exist_ok=True)
    r = _run_blocked("claims.report.publish", str(run), str(tmp_path / "site"))
    assert r.returncode == 0, r.stderr[-3000:]
    assert (tmp_path / "site" / "chapter.html").stat().st_size > 0
