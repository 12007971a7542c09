"""The chapter view: report/chapter.html (report/chapter.md: chapter_md.py), the chapter itself
with every asserted figure marked where it is printed, a rendering of the report model
(claimcheck/report/model/report.py, built by claims/report/model.py: the chapter cut once, chapter_cut.py; the figure rows; the errata; our
tables and plots; the counts and the accountings).

Each figure's mark shows its verdict by colour and by a symbol (readable without colour), our
measurement on hover or focus, and links to its figure row in index.html; each sentence that
asserts claims carries a bar coloured by its claims' worst verdict and links to each claim's row
(chapter_marks.py); each refuted sentence the errata quote is marked, with the suggested sentence
after its paragraph and a link to its erratum.  The header gives the verdict counts, the badges
and the accountings of the chapter's numbers and sentences.  The math is typeset as MathML
(chapter_math.py); our regenerated tables and the plots sit in place (chapter_inserts.py).  The
reading aids: the contents (chapter_toc.py), keys to the refuted figures, permalinks and the print
stylesheet (chapter_page.py), and since when each verdict has stood (chapter_since.py).  Imports
no torch.
"""
from __future__ import annotations

import html
from pathlib import Path

from markupsafe import Markup

from claimcheck.report.model.parts import data_uri
from claimcheck.report.views.pages import environment
from claimcheck.report.views.wording import SMOKE, accounting_line, figures_line, sentences_line, suggestion
from claims.report import (
    chapter_inserts,
    chapter_marks,
    chapter_math,
    chapter_md,
    chapter_page,
    chapter_toc,
    model,
    site,
)
from claims.report.chapter_marks import LEGEND, SYMBOL

CSS = """body{font-family:Georgia,serif;max-width:52em;margin:2em auto;padding:0 1em;line-height:1.55;color:#222}
header{font-family:sans-serif;font-size:14px;border-bottom:1px solid #ccc;margin-bottom:1.5em;padding-bottom:1em}
header h1{font-size:20px}img.badge{margin:2px}
pre{background:#f6f6f6;padding:.6em;overflow-x:auto;font-size:13px;line-height:1.4}
main p,main pre{position:relative}
aside.suggested{font-family:sans-serif;font-size:14px;background:#fff8e1;border-left:4px solid #c62828;padding:.5em .8em;margin:.5em 0 1.2em}
.legend span{margin-right:1.2em}
""" + chapter_marks.CSS + chapter_inserts.CSS + chapter_page.CSS
PROJECT = "attention-claims"
# the figures' counts the header gives, each also a data- attribute
COUNTED = ("holds", "refuted", "underspecified", "undecided", "fails", "not run", "stale", "device-specific")


def _parts():
    """The macros of templates/chapter_parts.html."""
    return environment("claims.report").get_template("chapter_parts.html").module


def _suggested_html(claims: tuple[str, ...], entries: dict[str, dict], shown: dict[str, str]) -> str:
    """The suggested sentence of each refuted claim quoted here; one several claims share is
    written once, and pointed to after that (`shown`: sentence -> the claim it was written for)."""
    parts, macros = [], _parts()
    for cid in claims:
        text = suggestion(entries[cid])
        if text in shown:
            body = macros.suggested_before(shown[text])
        else:
            shown[text] = cid
            body = Markup("Suggested: ") + Markup(chapter_math.render(text))    # escaped there, its math typeset
        parts.append(str(macros.suggested(cid, body)))
    return "".join(parts)


def _body(r, starts: dict[int, str]) -> list[str]:
    """The chapter's blocks in order, each with its marks, then what follows it: the suggested
    sentences of the refuted ones it holds, our tables and plots (`starts`: the sections' markers)."""
    cut, rows = r.chapter, {f["id"]: f for f in r.figures}
    ref = lambda fid, text: chapter_marks.ref_html(rows[fid], text) if fid in rows else html.escape(text)
    inserts = chapter_inserts.Inserts({t.key: t for t in r.tables}, r.plots_by_stem)
    in_report, by_id = {c["id"] for c in r.claims}, {e["id"]: e for e in r.errata}
    body, shown = [], {}
    for b in cut.blocks:
        body.append(starts.get(b.start, ""))               # a section's marker (claims/report/chapter_toc.py)
        if b.kind == "pre":
            body.append(f"<pre>{chapter_marks.render_span(cut.text, b.start, b.end, cut.marks, cut.quotes)}</pre>")
        else:
            inner = chapter_marks.prose_html(cut.text, b.start, b.end, cut.marks, cut.quotes, cut.asserting,
                                             in_report, chapter_math.render)
            body.append(f"<h1>{inner}</h1>" if b.kind == "title" else f"<p>{inner}</p>")
        body += [_suggested_html(q.claims, by_id, shown) for q in cut.quotes if b.start <= q.start < b.end]
        body += chapter_inserts.html_after(cut.places.get(b.start, []), inserts, ref)
    return body


def render_html(r, svgs: dict[str, str]) -> str:
    """`r`: the report model (claimcheck/report/model/report.py Report), with the chapter; `svgs`:
    its badges'.  The page from templates/chapter.html, autoescaped; the chapter's blocks with
    their marks (`_body`) and the contents come in as HTML."""
    toc, starts = chapter_toc.render(r.chapter.contents, SYMBOL)
    fs = r.figure_summary                                                  # a smoke run's, from its file
    badges = [{"label": b.label, "uri": data_uri(svgs[b.name].encode(), "image/svg+xml")}
              for b in r.badges if b.name in svgs]
    return environment("claims.report").get_template("chapter.html").render(
        r=r, project=PROJECT, css=Markup(CSS), smoke=SMOKE, badges=badges, legend=list(LEGEND.items()),
        symbols=SYMBOL, figure_counts=[(k, fs.get(k, 0)) for k in COUNTED], figures_line=figures_line(fs),
        accounting=accounting_line(r.accounting, r.figure_summary), sentences=sentences_line(r.sentences),
        toc=Markup(toc), body=Markup("\n".join(_body(r, starts))), keys_hint=Markup(chapter_page.KEYS_HINT),
        script=Markup(chapter_page.JS))


def write(r, out: Path, svgs: dict[str, str]) -> list[Path]:
    """report/chapter.html and chapter.md; without the chapter neither, and why: in
    chapter-not-built.txt, and in chapter-not-built.html, which the site publishes as its
    chapter.html (claims/report/site.py: every section a README badge links to, still there)."""
    for name in ("chapter-not-built.txt", site.PLACEHOLDER, "chapter.html", "chapter.md"):
        (out / name).unlink(missing_ok=True)
    if r.chapter is None:
        (out / "chapter-not-built.txt").write_text(f"The chapter view was not built: {r.chapter_missing}\n")
        (out / site.PLACEHOLDER).write_text(site.placeholder(r.sections, r.chapter_missing), encoding="utf-8")
        return []
    (out / "chapter.html").write_text(render_html(r, svgs), encoding="utf-8")
    (out / "chapter.md").write_text(chapter_md.render_markdown(r, out), encoding="utf-8")
    return [out / "chapter.html", out / "chapter.md"]


def build(out: Path, chapter: str | None, why_absent: str, merged: dict, entries: list[dict]) -> list[Path]:
    """The chapter view alone, from merged verdicts and their errata (benchmarks/chapter_view.py):
    the report model, then its two renderings of the chapter, no badges."""
    return write(model.assemble(merged, out, chapter, why_absent, entries=entries), out, {})
