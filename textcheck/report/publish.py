"""Every view of the report written into the report directory (merged.json, claims.md, the badges,
tables.md, errata.md, the chapter view, a text's own views, index.html), each from the model alone;
the badges' SVGs are drawn once for the files and the pages alike."""
from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

from safeio.files import atomic_write
from textcheck.report.assembly.badges import Badge
from textcheck.report.views import badges, tables
from textcheck.report.views.chapter_view import html as chapter_html
from textcheck.report.views.chapter_view.markdown import render_markdown as chapter_markdown
from textcheck.report.views.index import render_errata, render_html, render_markdown

View = Callable[..., object]          # (the report model, the report directory, the badges' SVGs) -> files


def write(r, out: Path, views: Sequence[View] = (), templates: str = "") -> None:
    """`views`: the text's own, written after the engine's files and before index.html; `templates`:
    the text's package whose templates/ are found before the engine's (its own pages)."""
    atomic_write(out / "merged.json", json.dumps(r.merged, indent=1, default=str))
    (out / "claims.md").write_text(render_markdown(r))
    svgs = badges.svgs(r.badges)
    write_badges(r.badges, svgs, out / "badges")
    (out / "tables.md").write_text(tables.render(r.tables))
    (out / "errata.md").write_text(render_errata(r.errata, r.errata_home))
    write_chapter(r, out, svgs, templates)
    for view in views:
        view(r, out, svgs)
    (out / "index.html").write_text(render_html(r, svgs))


def write_chapter(r, out: Path, svgs: dict[str, str], templates: str = "") -> list[Path]:
    """chapter.html and chapter.md; without the text neither, and why, in chapter-not-built.txt and
    chapter-not-built.html (each section's anchor with its claims' verdicts, so that a link to a
    section of the chapter view still lands: a site publishes it as chapter.html)."""
    for name in ("chapter-not-built.txt", "chapter-not-built.html", "chapter.html", "chapter.md"):
        (out / name).unlink(missing_ok=True)
    if r.cut is None:
        (out / "chapter-not-built.txt").write_text(f"The chapter view was not built: {r.chapter_missing}\n")
        (out / "chapter-not-built.html").write_text(chapter_html.render_not_built(r, templates), encoding="utf-8")
        return []
    (out / "chapter.html").write_text(chapter_html.render_html(r, svgs), encoding="utf-8")
    (out / "chapter.md").write_text(chapter_markdown(r, out), encoding="utf-8")
    return [out / "chapter.html", out / "chapter.md"]


def write_badges(badges: list[Badge], svg: dict[str, str], out: Path) -> None:
    """The SVGs and their shields.io endpoint JSONs; no badges (a smoke run): no folder."""
    if not badges:
        shutil.rmtree(out, ignore_errors=True)
        return
    out.mkdir(parents=True, exist_ok=True)
    for b in badges:
        (out / f"{b.name}.svg").write_text(svg[b.name])
        (out / f"{b.name}.json").write_text(json.dumps({"schemaVersion": 1, "label": b.label,
                                                        "message": b.value, "color": b.color}))
