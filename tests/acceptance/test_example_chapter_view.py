"""The second text's chapter view (`python -m textcheck report --text examples.running_mean.chapter`): the engine's chapter view
(textcheck/report/views/chapter_view/), handed the example's Chapter and its few report parts, renders
its chapter.html and chapter.md as CI does (.ci/run): from its committed results alone, and merged
with a run of its tests.  A figure that holds and the figure refuted on purpose (mean.squares) each
show their verdict where the text prints them, and the refuted sentence its suggested one."""
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLE = ROOT / "examples" / "running_mean"
EXAMPLE_FIGURES = {"mean.batch_4", "mean.running_4", "mean.hundred", "mean.squares", "noise.uniform_10000"}


def _run(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          check=False)


class _Marks(HTMLParser):
    """Each figure's mark in chapter.html: its attributes and the text it marks (symbol and tooltip apart)."""

    def __init__(self):
        super().__init__()
        self.marks, self._at, self._depth = {}, None, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and "fig" in (a.get("class") or "").split() and a.get("data-figure"):
            self._at, self._depth = a["data-figure"], 0
            self.marks[self._at] = dict(a, text="", sym="", tip="")
        elif self._at and tag == "span":
            self._depth += 1
            self._part = "sym" if a.get("class") == "sym" else "tip" if a.get("class") == "tip" else "text"

    def handle_endtag(self, tag):
        if self._at and tag == "span":
            self._depth -= 1
        elif self._at and tag == "a" and self._depth == 0:
            self._at = None

    def handle_data(self, data):
        if self._at:
            self.marks[self._at]["text" if self._depth == 0 else self._part] += data


def _marks(out: Path) -> dict[str, dict]:
    p = _Marks()
    p.feed((out / "chapter.html").read_text(encoding="utf-8"))
    return p.marks


def _render(out: Path) -> str:
    r = _run("-m", "textcheck", "report", "--text", "examples.running_mean.chapter", f"--report-dir={out}")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (out / "chapter.html").is_file() and (out / "chapter.md").is_file()
    return r.stdout


def test_from_its_committed_results_alone_the_committed_figure_holds_in_place(tmp_path):
    said = _render(tmp_path)
    assert "(committed verdicts only)" in said
    marks = _marks(tmp_path)
    assert set(marks) == EXAMPLE_FIGURES                   # every figure marked once, where it is printed
    noise = marks["noise.uniform_10000"]
    assert (noise["data-verdict"], noise["sym"], noise["text"]) == ("holds", "✓", "0.50")
    assert "the evidence committed in" in noise["tip"] or "commit unknown" in noise["tip"]
    # the fast figures are never committed: without a run of its tests they are not run
    assert {marks[f]["data-verdict"] for f in EXAMPLE_FIGURES - {"noise.uniform_10000"}} == {"not run"}


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A run of the example's tests (as .ci/run makes it), then its report."""
    out = tmp_path_factory.mktemp("example-report")
    tests = _run("-m", "pytest", "-c", str(EXAMPLE / "pytest.ini"), str(EXAMPLE), "-p", "no:cacheprovider",
                 "-p", "no:xdist", "-q", f"--report-dir={out}")
    assert tests.returncode == 0, tests.stdout + tests.stderr
    _render(out)
    return out


def test_after_a_run_the_refuted_figure_and_the_holding_ones_show_their_verdicts(run):
    marks = _marks(run)
    squares = marks["mean.squares"]
    assert (squares["data-verdict"], squares["sym"], squares["text"]) == ("refuted", "✗", "7.0")
    assert "fig refuted" in squares["class"] and squares["href"] == "index.html#fig-mean.squares"
    assert "ours:" in squares["tip"] and "7.5" in squares["data-ours"]           # our measurement, on hover
    for fid in ("mean.batch_4", "mean.running_4", "mean.hundred"):
        assert (marks[fid]["data-verdict"], marks[fid]["sym"]) == ("holds", "✓"), fid
    page = (run / "chapter.html").read_text(encoding="utf-8")
    # the contents: the text's two sections (its headings, tables.py HEADINGS), each with its marks
    assert re.search(r"data-section='sec-mean' data-holds='3' data-refuted='1'", page)
    assert re.search(r"data-section='sec-noise' data-holds='1'", page)
    assert "<title>The chapter, checked in place: the running-mean example</title>" in page
    # its erratum (tables.py ERRATA): the refuted sentence underlined, our measurement in the suggested one
    sentence = "The mean of the squares 1, 4, 9 and 16 is "
    assert re.search(r"<span class='refuted-sentence' data-claims='mean\.squares'[^>]*>" + re.escape(sentence), page)
    assert re.search(r"<aside class='suggested' id='suggested-mean\.squares'[^>]*>.*Suggested: "
                     + re.escape(sentence + "7.5."), page)


def test_the_markdown_view_marks_the_same_figures(run):
    md = (run / "chapter.md").read_text(encoding="utf-8")
    assert "is **7.0**✗[^mean-squares]" in md and "ends at **0.50**✓[^noise-uniform_10000]" in md
    assert re.search(r"^\[\^mean-squares\]: ✗ \*\*refuted\*\*", md, re.MULTILINE)
    assert "> **Suggested:** The mean of the squares 1, 4, 9 and 16 is 7.5." in md
