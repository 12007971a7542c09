"""The chapter view: report/chapter.html and report/chapter.md, the chapter itself with every
asserted figure marked where it is printed.

Built by `python -m claims.report` from the chapter's text (data/chapter.py), the merged report's
figure rows (claims/verdicts.py figure_rows: each of claims/chapter_figures.py's figures with its
verdict, found by figure ID) and the errata.  Each mark shows its verdict by colour and by a
symbol (readable without colour), our measurement on hover or focus, and links to its figure row
in index.html; each refuted sentence the errata quote is marked, with the suggested sentence
after its paragraph and a link to its erratum.  The header gives the verdict counts, the badges
and the accounting of every number in the chapter (claims/accounting.py).  The Markdown version
puts the marks as footnotes, so it renders on a forge.  Imports no torch.
"""
from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass
from pathlib import Path

from claims import accounting
from claims.chapter_figures import FIGURES, span
from claims.formats import cell, over_seeds
from claims.report.markdown import accounting_text, md, md_code, md_fence
from claims.verdicts import is_smoke, summary_text

# a verdict's symbol, so that a mark reads without colour
SYMBOL = {"holds": "✓", "refuted": "✗", "fails": "‼", "stale": "↻", "not run": "○", "device-specific": "◇"}
LEGEND = {"holds": "holds", "refuted": "refuted (the chapter's figure is contradicted by our measurement)",
          "fails": "fails (a broken test)", "stale": "stale (decided under an older rule)",
          "not run": "not run here", "device-specific": "not run: device-specific (a figure of the chapter's "
                                                         "CUDA laptop card; ours is a reading beside it)"}


def kind_of(row: dict) -> str:
    """The mark's kind: its verdict, or "device-specific" for a reading of a CUDA figure."""
    return "device-specific" if row["label"] == "not run: device-specific" else row["verdict"]


@dataclass(frozen=True)
class Block:
    start: int
    end: int
    kind: str          # "title", "p" (prose) or "pre" (code, output, a printed table)


def blocks(chapter: str) -> list[Block]:
    """The chapter's paragraphs, code blocks and printed tables, in order (blank-line separated)."""
    out, at = [], 0
    for i, text in enumerate(chapter.split("\n\n")):
        start, end = at, at + len(text)
        at = end + 2
        if not text.strip():
            continue
        single = "\n" not in text.strip("\n")
        # one line of prose, not code or output: "   # a comment", "2.98e-08", the "{adj}" template
        prose = single and "   " not in text and " " in text.strip() and "{adj}" not in text
        out.append(Block(start, end, "title" if i == 0 else "p" if prose else "pre"))
    return out


@dataclass(frozen=True)
class Mark:
    start: int
    end: int
    row: dict          # the figure's row of the merged report


@dataclass(frozen=True)
class Quote:
    start: int
    end: int
    claims: tuple[str, ...]      # the refuted claims whose erratum quotes this sentence


def marks(chapter: str, report: dict) -> list[Mark]:
    rows = {r["id"]: r for r in report.get("figures", [])}
    out = []
    for fid, f in FIGURES.items():
        if fid in rows:
            a, b = span(chapter, f)
            out.append(Mark(a, b, rows[fid]))
    return sorted(out, key=lambda m: m.start)


def quotes(chapter: str, entries: list[dict]) -> tuple[list[Quote], list[dict]]:
    """The refuted sentences the errata quote, where the chapter prints them (overlapping quotes
    merged into one), and the entries whose quote is not in the text (listed in the header)."""
    found, unplaced = [], []
    for e in entries:
        at = chapter.find(e["quote"]) if e.get("quote") else -1
        if at < 0:
            unplaced.append(e)
        else:
            found.append((at, at + len(e["quote"]), e["id"]))
    merged: list[list] = []
    for a, b, cid in sorted(found):
        if merged and a < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
            merged[-1][2].append(cid)
        else:
            merged.append([a, b, [cid]])
    return [Quote(a, b, tuple(c)) for a, b, c in merged], unplaced


def _details(row: dict) -> list[tuple[str, str]]:
    """What a reader sees on hover or focus: the chapter's figure, ours, the tolerance, the source."""
    src = ", ".join(str(x) for x in (row.get("source"), row.get("measured_on"), str(row.get("timestamp") or "")[:10])
                    if x and x != "None")
    measured = row.get("measured")
    if row["printed"].endswith("%") and isinstance(measured, dict) and measured.get("per seed"):
        ours = over_seeds([100 * v for v in measured["per seed"]], " %")      # as the chapter writes it
    else:
        ours = cell(measured) or "not measured"
    out = [("figure", f"{row['id']} (claim {row['claim']})"), ("verdict", row["label"]),
           ("the chapter", row["printed"]), ("ours", ours),
           ("tolerance", cell(row.get("tolerance")) or "-"), ("seeds", str(row.get("seeds") or "-")),
           ("source", src or "-")]
    if row.get("reason") and row["verdict"] != "holds":
        out.append(("why", row["reason"]))
    return [(k, v if len(v) <= 400 else v[:397] + "...") for k, v in out]


def _anchor(fid: str) -> str:
    return f"fig-{fid}"


# ------------------------------------------------------------------------------------------ HTML

CSS = """body{font-family:Georgia,serif;max-width:52em;margin:2em auto;padding:0 1em;line-height:1.55;color:#222}
header{font-family:sans-serif;font-size:14px;border-bottom:1px solid #ccc;margin-bottom:1.5em;padding-bottom:1em}
header h1{font-size:20px}img.badge{margin:2px}
pre{background:#f6f6f6;padding:.6em;overflow-x:auto;font-size:13px;line-height:1.4}
main p,main pre{position:relative}
a.fig{text-decoration:none;color:inherit;border-bottom:2px solid;padding:0 1px;border-radius:2px}
a.fig .sym{font-size:.75em;vertical-align:super;margin-left:1px;font-family:sans-serif}
a.fig.holds{background:#dff3e1;border-color:#2e7d32}a.fig.holds .sym{color:#2e7d32}
a.fig.refuted{background:#fde2c8;border-color:#c62828}a.fig.refuted .sym{color:#c62828}
a.fig.fails{background:#f8c9c9;border-color:#8e0000}a.fig.stale{background:#ece3f5;border-color:#6a1b9a}
a.fig.not-run{background:#eee;border-color:#999}a.fig.device-specific{background:#e3eef9;border-color:#1565c0;border-bottom-style:dashed}
a.fig .tip{display:none;position:absolute;z-index:10;left:1em;margin-top:1.7em;width:30em;max-width:90%;background:#fff;border:1px solid #888;
box-shadow:0 2px 8px rgba(0,0,0,.25);padding:.5em;font:12px/1.4 sans-serif;white-space:normal;color:#222}
a.fig:hover .tip,a.fig:focus .tip{display:block}a.fig .tip b{display:inline-block;min-width:6em}
pre a.fig .tip{white-space:normal}
span.refuted-sentence{text-decoration:underline wavy #c62828;text-decoration-skip-ink:none}
aside.suggested{font-family:sans-serif;font-size:14px;background:#fff8e1;border-left:4px solid #c62828;padding:.5em .8em;margin:.5em 0 1.2em}
.legend span{margin-right:1.2em}"""


def _mark_html(m: Mark, text: str) -> str:
    row, kind = m.row, kind_of(m.row)
    tip = "".join(f"<b>{html.escape(k)}:</b> {html.escape(v)}<br>" for k, v in _details(row))
    cls, anchor = html.escape(kind.replace(" ", "-")), html.escape(_anchor(row["id"]))
    return (f"<a class='fig {cls}' id='{anchor}' href='index.html#{anchor}' "
            f"data-figure='{html.escape(row['id'])}' data-verdict='{html.escape(row['verdict'])}' "
            f"data-kind='{cls}' aria-label='{html.escape(row['printed'])}: {html.escape(row['label'])}'>"
            f"{html.escape(text)}<span class='sym' aria-hidden='true'>{SYMBOL[kind]}</span>"
            f"<span class='tip' role='tooltip'>{tip}</span></a>")


def _render_span(chapter: str, start: int, end: int, ms: list[Mark], qs: list[Quote]) -> str:
    """Escaped text of [start, end) with its marks and refuted sentences (quotes hold whole marks)."""
    events = []
    for q in qs:
        if q.start < end and q.end > start:
            events.append((max(q.start, start), 0, "open", q))
            events.append((min(q.end, end), 1, "close", q))
    for m in ms:
        if start <= m.start and m.end <= end:
            events.append((m.start, 2, "mark", m))
    out, at = [], start
    for pos, _, what, obj in sorted(events, key=lambda e: (e[0], e[1])):
        if what == "mark" and pos < at:
            continue                          # inside an earlier mark (never, anchors do not overlap)
        out.append(html.escape(chapter[at:pos]))
        at = pos
        if what == "open":
            out.append(f"<span class='refuted-sentence' data-claims='{html.escape(' '.join(obj.claims))}' "
                       f"title='refuted: {html.escape(', '.join(obj.claims))}'>")
        elif what == "close":
            out.append("</span>")
        else:
            out.append(_mark_html(obj, chapter[obj.start:obj.end]))
            at = obj.end
    out.append(html.escape(chapter[at:end]))
    return "".join(out)


def suggestion(e: dict) -> str:
    return e.get("suggested") or "no suggested sentence yet: " + (e.get("cause") or "not yet diagnosed")


def _suggested_html(q: Quote, entries: dict[str, dict], shown: dict[str, str]) -> str:
    """The suggested sentence of each refuted claim quoted here; one several claims share is
    written once, and pointed to after that (`shown`: sentence -> the claim it was written for)."""
    parts = []
    for cid in q.claims:
        text, c = suggestion(entries[cid]), html.escape(cid)
        if text in shown:
            first = html.escape(shown[text])
            body = f"Suggested: the sentence suggested for <a href='#suggested-{first}'><code>{first}</code></a>."
        else:
            shown[text] = cid
            body = f"Suggested: {html.escape(text)}"
        parts.append(f"<aside class='suggested' id='suggested-{c}' data-claim='{c}'><b>Refuted: <code>{c}</code>.</b> "
                     f"{body} <a href='index.html#erratum-{c}'>the erratum</a></aside>")
    return "".join(parts)


def header_counts(report: dict, chapter: str) -> dict:
    fs = report.get("figure_summary") or {}
    acc = accounting.accounting(chapter)
    return {"claims": summary_text(report["summary"]), "figures": fs, "accounting": acc}


def render_html(chapter: str, report: dict, entries: list[dict], badge_dir: Path | None = None) -> str:
    ms = marks(chapter, report)
    qs, unplaced = quotes(chapter, entries)
    by_id = {e["id"]: e for e in entries}
    counts = header_counts(report, chapter)
    badges = " ".join(
        f"<img class='badge' alt='{html.escape(p.stem)}' "
        f"src='data:image/svg+xml;base64,{base64.b64encode(p.read_bytes()).decode()}'>"
        for p in sorted((badge_dir or Path("/nonexistent")).glob("*.svg"), key=lambda p: (p.stem != "overall", p.stem)))
    legend = "".join(f"<span><a class='fig {k.replace(' ', '-')}'>&#8201;<span class='sym'>{SYMBOL[k]}</span></a> "
                     f"{html.escape(v)}</span>" for k, v in LEGEND.items())
    body, shown = [], {}
    for b in blocks(chapter):
        inner = _render_span(chapter, b.start, b.end, ms, qs)
        if b.kind == "title":
            body.append(f"<h1>{inner}</h1>")
        elif b.kind == "pre":
            body.append(f"<pre>{inner}</pre>")
        else:
            body.append(f"<p>{inner}</p>")
        body += [_suggested_html(q, by_id, shown) for q in qs if b.start <= q.start < b.end]
    missing = "".join(f"<li><code>{html.escape(e['id'])}</code>: {html.escape(e.get('suggested') or e['statement'])} "
                      f"<a href='index.html#erratum-{html.escape(e['id'])}'>the erratum</a></li>" for e in unplaced)
    fs = {k: html.escape(str(v)) for k, v in counts["figures"].items()}     # a smoke run's, from its file
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>The chapter, checked in place: attention-claims</title><style>{CSS}</style></head><body>
<header><h1>The chapter, checked in place</h1>
{"<p id='smoke'><b>Smoke scale</b>: every trained recipe ran a handful of steps; these marks check that the tests run, and say nothing about the chapter.</p>" if is_smoke(report) else ""}
<p id="claim-counts">Claims: {html.escape(counts['claims'])}.</p>
<p id="figure-counts" data-holds="{fs.get('holds', 0)}" data-refuted="{fs.get('refuted', 0)}"
 data-fails="{fs.get('fails', 0)}" data-not-run="{fs.get('not run', 0)}" data-stale="{fs.get('stale', 0)}"
 data-device-specific="{fs.get('device-specific', 0)}">Figures: {fs.get('holds', 0)} hold, {fs.get('refuted', 0)}
 refuted, {fs.get('fails', 0)} fail, {fs.get('stale', 0)} stale, {fs.get('not run', 0)} not run (of which
 {fs.get('device-specific', 0)} device-specific), of {fs.get('total', 0)}.</p>
<p id="accounting">{html.escape(accounting_text(counts['accounting'], counts['figures']))}.</p>
<p>{badges}</p><p class="legend">{legend}</p>
<p>Hover over or focus a marked number for our measurement; it links to its row in
<a href="index.html">the report</a>. A wavy underline is a refuted sentence; the suggested one follows its paragraph.</p>
{f"<p>Refuted claims whose erratum quotes no sentence of the text:</p><ul id='unplaced'>{missing}</ul>" if missing else ""}
</header><main>
{chr(10).join(body)}
</main></body></html>
"""


# -------------------------------------------------------------------------------------- Markdown

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


def render_markdown(chapter: str, report: dict, entries: list[dict]) -> str:
    ms = marks(chapter, report)
    qs, unplaced = quotes(chapter, entries)
    by_id = {e["id"]: e for e in entries}
    counts = header_counts(report, chapter)
    fs = counts["figures"]
    lines = ["# The chapter, checked in place", "",
             *([("**Smoke scale**: every trained recipe ran a handful of steps; these marks say nothing about "
                "the chapter."), ""] if is_smoke(report) else []),
             md(f"Claims: {counts['claims']}. Figures: {fs.get('holds', 0)} hold, {fs.get('refuted', 0)} "
                f"refuted, {fs.get('not run', 0)} not run ({fs.get('device-specific', 0)} device-specific), "
                f"of {fs.get('total', 0)}."),
             "", md(f"{accounting_text(counts['accounting'], fs)}."), "",
             "Each marked figure carries its verdict's symbol and a footnote with our measurement: "
             + ", ".join(f"{SYMBOL[k]} {v}" for k, v in LEGEND.items()) + ". A refuted sentence is followed by "
             "the suggested one. The report with every row: index.html; the errata: errata.md.", "", "---", ""]
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
                out.append(f"**{_md_text(m.row['printed'])}**{SYMBOL[kind_of(m.row)]}[^{_note_id(m.row['id'])}]")
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
    if unplaced:
        lines += ["---", "", "Refuted claims whose erratum quotes no sentence of the text:", ""]
        lines += [f"- {md_code(e['id'])}: {_md_text(e.get('suggested') or e['statement'])}"
                  for e in unplaced] + [""]
    return "\n".join(lines + ["---", ""] + notes) + "\n"


def build(out: Path, chapter: str | None, why_absent: str, report: dict, entries: list[dict]) -> list[Path]:
    """Write report/chapter.html and report/chapter.md; without the chapter, write neither and
    say why in report/chapter-not-built.txt (index.html reads it)."""
    missing = out / "chapter-not-built.txt"
    if chapter is None:
        for name in ("chapter.html", "chapter.md"):
            (out / name).unlink(missing_ok=True)
        missing.write_text(f"The chapter view was not built: {why_absent}\n")
        return []
    missing.unlink(missing_ok=True)
    (out / "chapter.html").write_text(render_html(chapter, report, entries, out / "badges"), encoding="utf-8")
    (out / "chapter.md").write_text(render_markdown(chapter, report, entries), encoding="utf-8")
    return [out / "chapter.html", out / "chapter.md"]
