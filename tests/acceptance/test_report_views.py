"""The report's views (textcheck/report/views/, the chapter view's among them, and this chapter's own): they render
the report model and compute nothing of their own (no mean, sum, count or ratio: the model holds
every value a page shows), and every string of the model, planted markup in an erratum, a figure
row, a record or a table cell, comes out escaped on every page (index.html from its autoescaped
template, chapter.html, and the Markdown pages)."""
from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest
from html_tags import Tags

from claims.chapter import CHAPTER
from claims.report import parts
from textcheck.merging import committed_only
from textcheck.report.assembly.tables_plots import Plot
from textcheck.report.views.chapter_view.chrome import JS as READING_AIDS
from textcheck.save import load_verdicts

ROOT = Path(__file__).resolve().parents[2]
ENGINE_VIEWS = sorted((ROOT / "textcheck" / "report" / "views").rglob("*.py"))      # the chapter view's too
TEMPLATES = sorted(p for p in (ROOT / "textcheck" / "report" / "views" / "templates").iterdir()
                   if p.suffix in (".html", ".md"))
# this chapter's own view modules: the site (the chapter view and the page where it was not built are
# the engine's; its cut, marks' data and since-when are the model's) and the plots, drawn from their
# data (claims/report/plot_data.py)
CHAPTER_VIEWS = [ROOT / "claims" / "report" / "site.py", ROOT / "claims" / "report" / "plots.py"]
STATISTICS = {"sum", "len", "round", "mean", "fmean", "median", "stdev", "pstdev", "variance", "Counter", "divmod",
              "over_seeds", "like_mean", "mean_of", "cell"}      # the last: a figure over seeds as its mean and sd
MODULES = {"statistics", "math", "numpy"}


def _computes(path: Path, division: bool) -> list[str]:
    """What a view module computes: a statistic's function or module named, a division (not in a
    module that joins paths)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Name) and node.id in STATISTICS:
            found.append(f"{path.name}:{node.lineno}: {node.id}")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in ("printing", "rules") and node.attr in STATISTICS:    # the engine's, by its face
            found.append(f"{path.name}:{node.lineno}: {node.value.id}.{node.attr}")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            found += [f"{path.name}:{node.lineno}: import {n}" for n in names if n and n.split(".")[0] in MODULES]
        elif division and isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) \
                and not isinstance(node.left, ast.Constant | ast.JoinedStr):
            found.append(f"{path.name}:{node.lineno}: a division")
    return found


def test_no_view_computes_a_statistic():
    """The engine's views: no statistic, no count, no division; this chapter's views (which write
    files, joining paths with /): no statistic nor count."""
    assert ENGINE_VIEWS and all(p.exists() for p in CHAPTER_VIEWS)
    found = [f for p in ENGINE_VIEWS for f in _computes(p, division=True)]
    found += [f for p in CHAPTER_VIEWS for f in _computes(p, division=False)]
    assert found == []


def test_no_template_computes_a_statistic():
    """A template shows the model's values: no filter that counts or sums, no arithmetic."""
    assert TEMPLATES
    for t in TEMPLATES:
        expressions = " ".join(" ".join(m) for m in re.findall(r"\{\{-?(.*?)-?\}\}|\{%-?(.*?)-?%\}", t.read_text(),
                                                                re.DOTALL))
        assert not re.search(r"\|\s*(length|count|sum|max|min|round|float|int)\b|[\w)\]]\s*[-+*/%]\s*[\w(]", expressions), t.name


def test_the_engine_views_import_the_model_alone():
    """An engine view imports the model and its sibling views alone: nothing that reads evidence,
    decides or formats a value (also an import-linter contract, pyproject.toml)."""
    for p in ENGINE_VIEWS:
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("textcheck"):
                assert node.module.startswith(("textcheck.report.assembly", "textcheck.report.views")), \
                    (p.name, node.module)


# the one place a Markdown page's values are escaped: its templates' environment, whose finalize
# writes every value by md_line and whose filters write a code span, prose, a code block or the
# chapter's prose with math (besides escape.py, which defines the helpers)
ESCAPE = ROOT / "textcheck" / "report" / "views" / "escape.py"
MD_HELPERS = {"md", "md_line", "md_code", "md_fence", "md_prose_with_math"}
MD_ESCAPE_HOME = {ROOT / "textcheck" / "report" / "views" / "pages.py": {"import", "_md_cell", "markdown_environment"}}


def _md_escape_uses(path: Path) -> list[tuple[str, str, int]]:
    """Each use of a Markdown escaping helper (escape.py) in a module, its import too (one under
    another name would hide the uses): (the helper, the function it is in, "import", or "" at the
    module's level; its line)."""
    found = []

    def visit(node: ast.AST, within: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            within = within or node.name                 # a nested function (a filter) is its outer one's
        if isinstance(node, ast.alias) and node.name in MD_HELPERS:
            found.append((node.name, "import", node.lineno))
        elif isinstance(node, ast.Name) and node.id in MD_HELPERS:
            found.append((node.id, within, node.lineno))
        elif isinstance(node, ast.Attribute) and node.attr in MD_HELPERS:
            found.append((node.attr, within, node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child, within)
    visit(ast.parse(path.read_text()), "")
    return found


def test_no_view_escapes_markdown_by_hand():
    """A Markdown page's values are escaped by its templates (templates/*.md, rendered by pages.py
    markdown_environment), as the HTML pages' are by autoescaping: no view module calls md, md_line,
    md_code, md_fence or md_prose_with_math itself, or hands one on, outside that environment's
    finalize and filters."""
    by_hand, home = [], set()
    for p in ENGINE_VIEWS + CHAPTER_VIEWS:
        for helper, within, line in _md_escape_uses(p) if p != ESCAPE else []:
            if within in MD_ESCAPE_HOME.get(p, ()):
                home.add((helper, within))
            else:
                by_hand.append(f"{p.relative_to(ROOT)}:{line} {helper} in {within or 'the module'}")
    assert by_hand == []
    # the scan sees the finalize and each filter: it cannot pass by finding nothing
    assert ("md_line", "_md_cell") in home
    assert {h for h, within in home if within == "markdown_environment"} == MD_HELPERS - {"md_line"}


# ------------------------------------------------------------------------------- planted markup

PWN = "document.body.dataset.pwned=1"
SCRIPT = f"<script>{PWN}</script>"
IMG = f"<img src=x onerror={PWN}>"
PLANT = f"{SCRIPT}'>{IMG}\">{IMG}"


def _planted(out: Path) -> Path:
    """Every view written from a model whose errata, figure rows, records, tables and plot carry
    planted markup."""
    merged = committed_only(CHAPTER, load_verdicts(CHAPTER, ROOT / "results" / "verdicts.json"))
    for row in merged["figures"]:
        row.update(reason=PLANT, measured=PLANT)
    for c in merged["claims"]:
        for t in c.get("tests", []):
            t.update(reason=PLANT, records=[{"figure": PLANT, "stated": PLANT, "measured": PLANT, "tolerance": PLANT}])
    refuted = [c["id"] for c in merged["claims"] if c["verdict"] == "refuted"] + [PLANT]     # the last placed nowhere
    entries = [{"id": cid, "statement": PLANT, "figures": [{"test": PLANT, "reason": PLANT}], "quote": None,
                "cause": PLANT, "readings": [PLANT], "suggested": PLANT, "diagnosed": True} for cid in refuted]
    text, why = CHAPTER.text_or_none()
    r = parts.assemble(merged, out, text, why, entries=entries)
    tables = [dataclasses.replace(t, title=PLANT, header=[PLANT for _ in t.header], listings=[(PLANT, PLANT)],
                                  rows=[[PLANT for _ in row] for row in t.rows], grid=PLANT) for t in r.tables]
    plots = [Plot(out / f"{IMG}.png", "data:image/png;base64,")]
    parts.REPORT.write(dataclasses.replace(r, tables=tables, plots=plots), out)
    return out


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> Path:
    return _planted(tmp_path_factory.mktemp("planted"))


@pytest.mark.parametrize("name", ["index.html", "chapter.html"])
def test_planted_markup_is_escaped_on_every_page(planted, name):
    page = planted / name
    if not page.exists():
        pytest.skip(f"{name} not built: no chapter text")
    text = page.read_text(encoding="utf-8")
    own = [READING_AIDS] if name == "chapter.html" else []
    assert re.findall(r"<script\b.*?</script>", text, re.DOTALL) == own
    assert SCRIPT not in text and IMG not in text
    tags = Tags()
    tags.feed(text)
    assert [(t, a) for t, attrs in tags.tags for a in attrs if a.startswith("on")] == []
    assert [t for t, attrs in tags.tags if t == "img" and attrs.get("src") == "x"] == []
    assert "&lt;script&gt;" in text and "&lt;img src=x onerror=" in text


@pytest.mark.parametrize("name", ["claims.md", "errata.md", "tables.md", "chapter.md"])
def test_planted_markup_cannot_open_html_in_the_markdown(planted, name):
    page = planted / name
    if not page.exists():
        pytest.skip(f"{name} not built: no chapter text")
    text = page.read_text(encoding="utf-8")
    prose = re.sub(r"^(`{3,}).*?^\1$", "", text, flags=re.DOTALL | re.MULTILINE)       # code blocks show it verbatim,
    prose = re.sub(r"(?<!`)`([^`\n]+)`(?!`)", "", prose)                                   # and code spans
    assert re.findall(r"(?<!\\)<(?:script|img)", prose) == []          # as an entity, or backslashed
    assert "&lt;script&gt;" in text or "\\<script\\>" in text


def test_planted_markup_is_escaped_where_the_chapter_view_was_not_built(tmp_path):
    """chapter-not-built.html (the engine's page in this chapter's template): why the text is absent
    comes out as text, and the chapter's own note is there."""
    merged = committed_only(CHAPTER, load_verdicts(CHAPTER, ROOT / "results" / "verdicts.json"))
    parts.REPORT.write(parts.assemble(merged, tmp_path, None, PLANT), tmp_path)
    text = (tmp_path / "chapter-not-built.html").read_text(encoding="utf-8")
    assert "<script" not in text and SCRIPT not in text and IMG not in text
    tags = Tags()
    tags.feed(text)
    assert [(t, a) for t, attrs in tags.tags for a in attrs if a.startswith("on")] == []
    assert "&lt;script&gt;" in text and "&lt;img src=x onerror=" in text
    assert "ATTENTION_CLAIMS_CHAPTER_B64" in text and "id='sec-average'" in text
