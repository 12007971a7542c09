"""The chapter view's Markdown: report/chapter.md, the chapter with each asserted figure marked in
bold with its verdict's symbol and a footnote with our measurement, so that it renders on a forge
(the HTML view and what both share: claims/report/chapter.py).  Imports no torch.
"""
from __future__ import annotations

import re
from pathlib import Path

from claims.report import chapter_inserts, chapter_math
from claims.report.chapter import (
    LEGEND,
    SYMBOL,
    _details,
    blocks,
    header_counts,
    kind_of,
    marks,
    quotes,
    suggestion,
)
from claims.report.markdown import accounting_text, md, md_code, md_fence, md_line
from claims.verdicts import is_smoke

MD_ESCAPE = re.compile(r"(\\*)([\[\]<>*`|])")


def _md_text(text: str) -> str:
    """Prose for a forge's Markdown: the chapter's brackets, angle brackets and stars escaped,
    its $...$ math left as math; a backslash before one of them escaped too, so that it cannot
    undo the escape (a string from a file: a "\\<" would open HTML)."""
    return MD_ESCAPE.sub(lambda m: 2 * m.group(1) + "\\" + m.group(2), text)


def _note_id(fid: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "-", fid)


def _note(row: dict) -> str:
    kind = kind_of(row)
    return (f"[^{_note_id(row['id'])}]: {SYMBOL[kind]} **{md(row['label'])}** ({md(row['id'])}, claim "
            f"{md_code(row['claim'])}). "
            + "; ".join(f"{k}: {md(v)}" for k, v in _details(row)[2:]).replace("\n", " ").replace("|", "/"))


def _header(report: dict, chapter: str) -> list[str]:
    counts = header_counts(report, chapter)
    fs = counts["figures"]
    return ["# The chapter, checked in place", "",
             *([("**Smoke scale**: every trained recipe ran a handful of steps; these marks say nothing about "
                "the chapter."), ""] if is_smoke(report) else []),
             md(f"Claims: {counts['claims']}. Figures: {fs.get('holds', 0)} hold, {fs.get('refuted', 0)} "
                f"refuted, {fs.get('not run', 0)} not run ({fs.get('device-specific', 0)} device-specific), "
                f"of {fs.get('total', 0)}."),
             "", md(f"{accounting_text(counts['accounting'], fs)}."), "",
             "Each marked figure carries its verdict's symbol and a footnote with our measurement: "
             + ", ".join(f"{SYMBOL[k]} {v}" for k, v in LEGEND.items()) + ". A refuted sentence is followed by "
             "the suggested one. The report with every row: index.html; the errata: errata.md.", "", "---", ""]


def render_markdown(chapter: str, report: dict, entries: list[dict], inserts: chapter_inserts.Inserts | None = None,
                    report_dir: Path | None = None) -> str:
    # a mark that cuts a formula covers it whole, its TeX kept for the forge (chapter_math.widen)
    ms = chapter_math.widen(marks(chapter, report), chapter_math.spans(chapter, blocks(chapter)))
    places = chapter_inserts.placed(chapter, blocks(chapter)) if inserts is not None else {}
    ref = lambda fid, text: (f"**{md_line(text)}** {SYMBOL[kind_of(rows[fid])]}[^{_note_id(fid)}]" if fid in rows
                             else md_line(text))
    rows = {r["id"]: r for r in report.get("figures", [])}
    qs, unplaced = quotes(chapter, entries)
    by_id = {e["id"]: e for e in entries}
    lines = _header(report, chapter)
    notes, shown = [], {}
    for b in blocks(chapter):
        inside = [m for m in ms if b.start <= m.start < b.end]
        if b.kind == "pre":
            lines += [md_fence(chapter[b.start:b.end]), ""]
            if inside:
                lines += ["Printed above: " + ", ".join(f"{md(m.row['printed'])} {SYMBOL[kind_of(m.row)]}"
                                                         f"[^{_note_id(m.row['id'])}]" for m in inside), ""]
        else:
            out, at = [], b.start
            for m in inside:
                out.append(_md_text(chapter[at:m.start]))
                shown_text = m.row["printed"] if "$" not in chapter[m.start:m.end] else chapter[m.start:m.end]
                out.append(f"**{_md_text(shown_text)}**{SYMBOL[kind_of(m.row)]}[^{_note_id(m.row['id'])}]")
                at = m.end
            out.append(_md_text(chapter[at:b.end]))
            lines += [("# " if b.kind == "title" else "") + "".join(out), ""]
        notes += [_note(m.row) for m in inside]
        for q in qs:
            if b.start <= q.start < b.end:
                for cid in q.claims:
                    text = suggestion(by_id[cid])
                    said = (f"the sentence suggested for {md_code(shown[text])}, above" if text in shown
                            else _md_text(text))
                    shown.setdefault(text, cid)
                    lines += [f"> **Refuted** ({md_code(cid)}): \"{_md_text(chapter[q.start:q.end])}\"  ",
                              f"> **Suggested:** {said}", ""]
        if inserts is not None:             # our tables and plots, in place (claims/report/chapter_inserts.py)
            lines += chapter_inserts.md_after(places.get(b.start, []), inserts, report_dir or Path("."), ref)
    if unplaced:
        lines += ["---", "", "Refuted claims whose erratum quotes no sentence of the text:", ""]
        lines += [f"- {md_code(e['id'])}: {_md_text(e.get('suggested') or e['statement'])}"
                  for e in unplaced] + [""]
    return "\n".join(lines + ["---", ""] + notes) + "\n"
