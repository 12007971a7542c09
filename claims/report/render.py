"""Every view of the report, rendered from its model (claims/report/model.py) into the report
directory: merged.json, claims.md, the badges, tables.md, errata.md, the chapter view
(chapter.html and chapter.md, or why it was not built) and index.html.  Each view reads the
model alone; the badges' SVGs are drawn once and shown by the files and both pages alike."""
from __future__ import annotations

import json
from pathlib import Path

from claimcheck.files import atomic_write
from claims.report import badges, chapter, errata, tables
from claims.report.html import render_html
from claims.report.markdown import render_markdown


def write(r, out: Path) -> None:
    """`r`: the report model (claims/report/model.py Report)."""
    atomic_write(out / "merged.json", json.dumps(r.merged, indent=1, default=str))
    (out / "claims.md").write_text(render_markdown(r))
    svgs = badges.svgs(r.badges)
    badges.write(r.badges, svgs, out / "badges")
    (out / "tables.md").write_text(tables.render(r.tables))
    (out / "errata.md").write_text(errata.render(r.errata))
    chapter.write(r, out, svgs)
    (out / "index.html").write_text(render_html(r, svgs))
