"""report/chapter.html: the text itself with every asserted figure marked where it is printed, by
colour and symbol (legend.py), our measurement on hover or focus, a link to its row in index.html;
each asserting sentence barred by its claims' worst verdict (marks.py); each refuted sentence the
errata quote marked, its suggestion after its paragraph; the math as MathML (mathml.py), our tables
and plots in place (inserts.py), the contents and each section's marker, the keys, permalinks and
print stylesheet (chrome.py).  Handed the model alone.  Imports no torch.
"""
from __future__ import annotations

from markupsafe import Markup

from textcheck.report.assembly.chapter_view.contents import Contents, section_anchor
from textcheck.report.assembly.tables_plots import data_uri
from textcheck.report.views.chapter_view import chrome, inserts, marks, mathml
from textcheck.report.views.chapter_view.legend import SYMBOL, legend
from textcheck.report.views.pages import environment, macros
from textcheck.report.views.wording import (
    SMOKE,
    accounting_line,
    author_todo,
    figures_line,
    sentences_line,
    suggestion,
)

CSS = """body{font-family:Georgia,serif;max-width:52em;margin:2em auto;padding:0 1em;line-height:1.55;color:#222}
header{font-family:sans-serif;font-size:14px;border-bottom:1px solid #ccc;margin-bottom:1.5em;padding-bottom:1em}
header h1{font-size:20px}img.badge{margin:2px}
pre{background:#f6f6f6;padding:.6em;overflow-x:auto;font-size:13px;line-height:1.4}
main p,main pre{position:relative}
aside.suggested{font-family:sans-serif;font-size:14px;background:#fff8e1;border-left:4px solid #c62828;padding:.5em .8em;margin:.5em 0 1.2em}
.legend span{margin-right:1.2em}
""" + marks.CSS + inserts.CSS + chrome.CSS
# the figures' counts the header gives, each also a data- attribute
COUNTED = ("holds", "refuted", "underspecified", "undecided", "fails", "not run", "stale", "device-specific")


def _suggested_html(claims: tuple[str, ...], entries: dict, shown: dict[str, str]) -> str:
    """The suggested sentence of each refuted claim quoted here; one several claims share is
    written once, and pointed to after that (`shown`: sentence -> the claim it was written for)."""
    parts, parts_of = [], macros("chapter_parts.html")
    for cid in claims:
        text = suggestion(entries[cid])
        if text in shown:
            body = parts_of.suggested_before(shown[text])
        else:
            shown[text] = cid
            body = Markup("Suggested: ") + Markup(mathml.render(text))    # escaped there, its math typeset
        parts.append(str(parts_of.suggested(cid, body)))
    return "".join(parts)


def _body(r, starts: dict[int, str]) -> list[str]:
    """The chapter's blocks in order, each with its marks, then what follows it: the suggested
    sentences of the refuted ones it holds, our tables and plots (`starts`: the sections' markers)."""
    cut, rows = r.cut, {f.id: f for f in r.figures}
    ref = lambda fid, text: marks.ref_html(rows[fid], text) if fid in rows else text      # text: escaped by the grid
    placed = inserts.Inserts({t.key: t for t in r.tables}, r.plots_by_stem)
    in_report, by_id = {c.id for c in r.claims}, {e.id: e for e in r.errata}
    body, shown = [], {}
    for b in cut.blocks:
        body.append(starts.get(b.start, ""))               # a section's marker
        if b.kind == "pre":
            body.append(f"<pre>{marks.render_span(cut.text, b.start, b.end, cut.marks, cut.quotes)}</pre>")
        else:
            inner = marks.prose_html(cut.text, b.start, b.end, cut.marks, cut.quotes, cut.asserting,
                                     in_report, mathml.render)
            body.append(f"<h1>{inner}</h1>" if b.kind == "title" else f"<p>{inner}</p>")
        body += [_suggested_html(q.claims, by_id, shown) for q in cut.quotes if b.start <= q.start < b.end]
        body += inserts.html_after(cut.places.get(b.start, []), placed, ref)
    return body


def _contents(contents: Contents) -> tuple[str, dict[int, str]]:
    """<nav id="toc">: each section a link to its anchor with its marks per verdict (symbol and
    count, in the legend's order; each count also a data- attribute) and the sections within it;
    and each section's marker, by the start of the block it goes before."""
    items, secs, subs, parts_of = [], contents.sections, contents.within, macros("chapter_parts.html")
    ends = [s.start for s in secs[1:]] + [float("inf")]           # each section runs to the next one's start
    for s, c, end in zip(secs, contents.counts, ends):
        order = sorted(c.items(), key=lambda kv: list(SYMBOL).index(kv[0]))
        items.append({"anchor": s.anchor, "title": s.title, "counts": sorted(c.items()),
                      "tally": [(k, SYMBOL[k], n) for k, n in order],
                      "within": [x for x in subs if s.start <= x.block < end]})
    starts: dict[int, str] = {}
    for s in secs + subs:
        starts[s.block] = starts.get(s.block, "") + str(parts_of.section_start(s))
    return str(parts_of.toc(items)), starts


def render_html(r, svgs: dict[str, str]) -> str:
    """The page from templates/chapter.html, autoescaped; the blocks and the contents come in as HTML."""
    toc, starts = _contents(r.cut.contents)
    fs = r.figure_summary                                                  # a smoke run's, from its file
    badges = [{"label": b.label, "uri": data_uri(svgs[b.name].encode(), "image/svg+xml")}
              for b in r.badges if b.name in svgs]
    return environment().get_template("chapter.html").render(
        r=r, project=r.project, css=Markup(CSS), smoke=SMOKE, badges=badges, legend=list(legend(r.device).items()),
        todo=author_todo(r.todo), symbols=SYMBOL, figure_counts=[(k, fs.get(k, 0)) for k in COUNTED], figures_line=figures_line(fs),
        accounting=accounting_line(r.accounting, r.figure_summary), sentences=sentences_line(r.sentences),
        toc=Markup(toc), body=Markup("\n".join(_body(r, starts))), keys_hint=Markup(chrome.KEYS_HINT),
        script=Markup(chrome.JS))


def render_not_built(r, templates: str = "") -> str:
    """chapter-not-built.html, where the model has no cut: why, and each section's anchor with its
    claims' verdicts (a link to a section still lands); `templates`: the text's package whose
    templates/ may give its own page."""
    shown = [{"anchor": section_anchor(s.key), "title": s.title, "holds": s.holds, "size": s.size, "claims": s.claims}
             for s in r.sections]
    return environment(templates or None).get_template("chapter_not_built.html").render(
        sections=shown, why=r.chapter_missing.strip(), project=r.project)
