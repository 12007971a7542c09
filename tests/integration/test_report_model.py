"""The report model (textcheck/report/assembly/, built for this chapter by claims/report/parts.py; issue 35 item 1): one render computes each part of
the report once (the committed verdicts read, the figure rows, the accountings, the errata, the
tables, the chapter cut), every view is a rendering of it, no renderer reads another one's output,
and no module of the report is over 250 lines nor any function over 60."""
from __future__ import annotations

import ast
import collections
import json
import sys
from pathlib import Path

import pytest

from claims import registry
from claims.chapter import CHAPTER
from textcheck.report.assembly.chapter_view.sentences import Asserting, asserting, claim_kind
from textcheck.report.assembly.merged import claim_of
from textcheck.report.assembly.tables_plots import Table

ROOT = Path(__file__).resolve().parent.parent.parent
REPORT = ROOT / "claims" / "report"


def _count(monkeypatch, counts: collections.Counter, owner, name: str, label: str) -> None:
    """Count the calls of owner.name, wherever a loaded module of the project holds it by name."""
    original = getattr(owner, name)

    def counted(*args, **kwargs):
        counts[label] += 1
        return original(*args, **kwargs)
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").split(".")[0] in ("safeio", "textcheck", "claims", "data", "fixtures") \
                and getattr(module, name, None) is original:
            monkeypatch.setattr(module, name, counted)


def _count_group_parses(monkeypatch, parts) -> collections.Counter:
    """Count each results/<group>.json parsed (fixtures/results.py load) while the report model is
    built: the plots the command draws before it (claims/report/plots.py) are not the model's."""
    from fixtures import results
    parses: collections.Counter = collections.Counter()
    load, build, building = results.load, parts.build, []

    def counted_load(group, *args, **kwargs):
        if building:
            parses[group] += 1
        return load(group, *args, **kwargs)

    def counted_build(*args, **kwargs):
        building.append(True)
        try:
            return build(*args, **kwargs)
        finally:
            building.pop()
    monkeypatch.setattr(results, "load", counted_load)
    monkeypatch.setattr(parts, "build", counted_build)
    return parses


def _fresh_run() -> dict:
    """A run's claims.json that ran no test: every claim not run, merged with the committed verdicts."""
    from textcheck.merging import build_report
    return build_report(CHAPTER, {}, set(registry.CLAIMS), {"timestamp": "2999-01-01T00:00:00+00:00", "source": "fresh"})


@pytest.mark.parametrize("fresh", [False, True], ids=["committed-only", "fresh"])
def test_a_render_computes_each_part_of_the_report_once(tmp_path, monkeypatch, fresh):
    import anybadge

    from claims.report import cli, errata, evidence, parts, tables
    from data.chapter import chapter_or_none
    from textcheck import accounting, merging, rederive, save, sentences
    from textcheck import evidence as figure_evidence
    from textcheck.report.assembly.chapter_view import text as chapter_text
    if fresh:
        (tmp_path / "claims.json").write_text(json.dumps(_fresh_run()))
    counts: collections.Counter = collections.Counter()
    for owner, name in [(rederive, "committed"), (save, "load_verdicts"), (figure_evidence, "load"),
                        (merging, "figure_rows"), (merging, "merge"),
                        (merging, "committed_only"), (accounting, "accounting"), (sentences, "accounted"),
                        (errata, "build"), (tables, "data"), (chapter_text, "blocks")]:
        _count(monkeypatch, counts, owner, name, f"{owner.__name__.rsplit('.', 1)[-1]}.{name}")
    parses = _count_group_parses(monkeypatch, parts)
    read_bytes, png_reads = Path.read_bytes, collections.Counter()
    monkeypatch.setattr(Path, "read_bytes", lambda self: (png_reads.update([self.name] if self.suffix == ".png"
                                                                           else []), read_bytes(self))[1])
    facts_init, badge_init = evidence.Facts.__init__, anybadge.Badge.__init__
    monkeypatch.setattr(evidence.Facts, "__init__", lambda self, *a, **k: (counts.update(["Facts"]),
                                                                           facts_init(self, *a, **k))[1])
    monkeypatch.setattr(anybadge.Badge, "__init__", lambda self, *a, **k: (counts.update(["badge"]),
                                                                           badge_init(self, *a, **k))[1])
    assert cli.main([f"--report-dir={tmp_path}"]) == 0
    text, _ = chapter_or_none()
    sections = len(dict.fromkeys(c.section for c in registry.CLAIMS.values()))
    with_text = 1 if text is not None else 0
    # the committed evidence read once (results/figures.json and verdicts.json), for the refusals,
    # the model and the patched chapter alike
    assert counts == {"rederive.committed": 1, "evidence.load": 1, "merging.figure_rows": 1,
                      "merging.merge" if fresh else "merging.committed_only": 1, "accounting.accounting": with_text,
                      "sentences.accounted": with_text, "text.blocks": with_text, "errata.build": 1,
                      "tables.data": 1, "Facts": 1, "badge": 1 + sections}, counts
    # each results/<group>.json the model reads is parsed once (by the one Facts, for the errata and
    # the tables alike)
    assert {"ladder", "norm", "scale", "winograd", "errata"} <= set(parses), parses
    assert parses == {g: 1 for g in parses}, parses
    # each plot read and encoded once, for index.html and chapter.html alike
    assert png_reads and set(png_reads.values()) == {1}, png_reads
    # and every view was written from it
    for name in ("merged.json", "claims.md", "index.html", "tables.md", "errata.md", "badges/overall.svg"):
        assert (tmp_path / name).is_file(), name
    assert (tmp_path / ("chapter.html" if text is not None else "chapter-not-built.html")).is_file()


def test_the_badges_the_pages_inline_are_the_files_written(tmp_path):
    """Drawn once: index.html and chapter.html inline the very SVG the badge files hold."""
    import base64
    import re

    from claims.report import cli
    assert cli.main([f"--report-dir={tmp_path}"]) == 0
    files = {p.read_bytes() for p in (tmp_path / "badges").glob("*.svg")}
    for page in ("index.html", "chapter.html"):
        if not (tmp_path / page).exists():
            continue
        inlined = {base64.b64decode(m) for m in re.findall(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)",
                                                            (tmp_path / page).read_text())}
        assert inlined == files, page


def test_every_view_states_the_figures_verdicts_in_the_same_words(tmp_path):
    """One wording of the figures' verdicts (textcheck/report/views/wording.py figure_counts): chapter.html's
    and chapter.md's headers and the accounting of every view say the same, stale and fails included."""
    import html

    from claims.report import cli
    from textcheck.report.views.wording import figure_counts
    assert cli.main([f"--report-dir={tmp_path}"]) == 0
    merged = json.loads((tmp_path / "merged.json").read_text())
    said, accounted = figure_counts(merged["figure_summary"]), "numbers" in merged["accounting"]
    pages = ["index.html", "claims.md"] + (["chapter.html", "chapter.md"] if (tmp_path / "chapter.html").exists()
                                           else [])
    for page in pages:                  # a chapter view's header, and the accounting where there is one
        expected = page.startswith("chapter") + accounted
        assert html.unescape((tmp_path / page).read_text()).count(said) == expected, page


def test_no_module_of_the_report_is_over_250_lines_and_no_function_over_60():
    long_modules, long_functions = [], []
    for path in sorted([*REPORT.rglob("*.py"), *(ROOT / "textcheck" / "report").rglob("*.py")]):
        source = path.read_text(encoding="utf-8")
        if len(source.splitlines()) > 250:
            long_modules.append(f"{path.relative_to(ROOT)}: {len(source.splitlines())} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno + 1 > 60:
                long_functions.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: "
                                      f"{node.end_lineno - node.lineno + 1} lines")
    assert not long_modules and not long_functions, long_modules + long_functions


def test_a_table_is_rendered_from_its_data_never_from_its_markdown():
    """A cell holding what Markdown would read as structure (a pipe, a fence) stays one cell in the
    HTML, and a listing stays verbatim: index.html's tables are built from the Table, not parsed
    back from tables.md."""
    from textcheck.report.views import tables
    t = Table("k", "a title", ["figure", "ours"], [["a | b", "```"]], listings=[("The chapter", "| x | y |\n```")],
              grid="The cells")
    page = tables.table_html(t)
    assert "<td>a | b</td><td>```</td>" in page
    assert "<pre>| x | y |\n```</pre>" in page and "<p>The cells:</p>" in page
    md = tables.table_md(t)
    assert "| a \\| b | ``` |" in md and "````\n| x | y |\n```\n````" in md


# ------------------------------------------------------------------------ the sentences' marks

class _Unit:
    def __init__(self, start, end, block=False):
        self.start, self.end, self.block = start, end, block


class _Accounted:
    def __init__(self, start, end, claims=(), kind="asserts", block=False):
        self.unit, self.claims, self.kind = _Unit(start, end, block), tuple(claims), kind


def test_a_sentence_mark_holds_every_figure_and_formula_it_cuts_and_shows_its_worst_claim():
    claims = {cid: claim_of(CHAPTER, {"id": cid, "verdict": v, "tests": []})
              for cid, v in (("a.holds", "holds"), ("a.refuted", "refuted"), ("a.not_run", "not run"))}
    walk = [_Accounted(0, 10, ["a.holds"]), _Accounted(11, 20, ["a.refuted", "a.holds"]),
            _Accounted(21, 30, kind="context"), _Accounted(31, 40, ["a.not_run", "unregistered.claim"]),
            _Accounted(41, 50, ["a.holds"], block=True)]
    # a figure's mark from 8 to 12 crosses the first two sentences: they become one mark
    marks = asserting(walk, claims, [(8, 12), (33, 35)])
    assert marks == [Asserting(0, 20, (("a.holds", "holds"), ("a.refuted", "refuted"))),
                     Asserting(31, 40, (("a.not_run", "not run"), ("unregistered.claim", "not encoded")))]
    assert [m.kind for m in marks] == ["refuted", "not encoded"]
    assert claim_kind(None) == "not encoded"
