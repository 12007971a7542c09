"""Every view of the report written into the report directory: merged.json, claims.md, the badges
(their SVGs and shields.io endpoint JSONs), tables.md, errata.md, the text's own views (this
project's chapter view) and index.html.  Each view reads the model alone; the badges' SVGs are
drawn once and shown by the files and the pages alike.  Also which committed badges a fresh render
would change."""
from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

from claimcheck.files import atomic_write
from claimcheck.report.model.badges import Badge
from claimcheck.report.views import badges, errata, tables
from claimcheck.report.views.html import render_html
from claimcheck.report.views.markdown import render_markdown

View = Callable[..., object]          # (the report model, the report directory, the badges' SVGs) -> files


def write(r, out: Path, views: Sequence[View] = ()) -> None:
    """`r`: the report model (claimcheck/report/model/report.py Report); `views`: the text's own
    views, each written after the engine's files and before index.html."""
    atomic_write(out / "merged.json", json.dumps(r.merged, indent=1, default=str))
    (out / "claims.md").write_text(render_markdown(r))
    svgs = badges.svgs(r.badges)
    write_badges(r.badges, svgs, out / "badges")
    (out / "tables.md").write_text(tables.render(r.tables))
    (out / "errata.md").write_text(errata.render(r.errata, r.errata_home))
    for view in views:
        view(r, out, svgs)
    (out / "index.html").write_text(render_html(r, svgs))


def write_badges(badges: list[Badge], svg: dict[str, str], out: Path) -> None:
    """The SVGs and their endpoint JSONs into `out`; no badges (a smoke run): no folder."""
    if not badges:
        shutil.rmtree(out, ignore_errors=True)
        return
    out.mkdir(parents=True, exist_ok=True)
    for b in badges:
        (out / f"{b.name}.svg").write_text(svg[b.name])
        (out / f"{b.name}.json").write_text(json.dumps({"schemaVersion": 1, "label": b.label,
                                                        "message": b.value, "color": b.color}))




def badge_drift(fresh: Path, committed: Path) -> list[str]:
    """Badges that differ between a fresh render and the committed ones (both directions)."""
    names = {p.name for p in fresh.glob("*.svg")} | {p.name for p in fresh.glob("*.json")}
    names |= {p.name for p in committed.glob("*.svg")} | {p.name for p in committed.glob("*.json")}
    return sorted(n for n in names if not (fresh / n).exists() or not (committed / n).exists()
                  or (fresh / n).read_bytes() != (committed / n).read_bytes())
