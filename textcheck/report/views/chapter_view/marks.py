"""The chapter view's marks in HTML, from the macros of templates/chapter_parts.html, placed in the
text: a figure's mark, a secondary mark in one of our tables, a refuted sentence the errata quote,
and each asserting sentence's bar (its claims' worst verdict, textcheck/report/assembly/chapter_view/
sentences.py RANK) with each claim's link.  Marks nest: a figure's mark lies inside one sentence, a
refuted sentence is cut at a sentence mark's edges, a formula is never cut."""
from __future__ import annotations

from markupsafe import Markup, escape

from textcheck.report.assembly.chapter_view.sentences import Asserting
from textcheck.report.assembly.chapter_view.text import Mark, Quote
from textcheck.report.assembly.merged import FigureRow
from textcheck.report.views.chapter_view.legend import COLOURS, SYMBOL
from textcheck.report.views.pages import macros

CSS = """a.fig,a.figref{text-decoration:none;color:inherit;border-bottom:2px solid;padding:0 1px;border-radius:2px}
a.fig .sym,a.figref .sym{font-size:.75em;vertical-align:super;margin-left:1px;font-family:sans-serif}
a.fig.device-specific{border-bottom-style:dashed}
a.fig .tip{display:none;position:absolute;z-index:10;left:1em;margin-top:1.7em;width:30em;max-width:90%;background:#fff;border:1px solid #888;
box-shadow:0 2px 8px rgba(0,0,0,.25);padding:.5em;font:12px/1.4 sans-serif;white-space:normal;color:#222}
a.fig:hover .tip,a.fig:focus .tip{display:block}a.fig .tip b{display:inline-block;min-width:6em}
pre a.fig .tip{white-space:normal}
span.refuted-sentence{text-decoration:underline wavy #c62828;text-decoration-skip-ink:none}
span.asserts{border-left:3px solid;padding-left:2px}span.asserts.not-encoded{border-left-style:dotted}
sup.claims{font:10px sans-serif;margin-left:1px}sup.claims a,sup.claims span{text-decoration:none;margin-left:1px}
""" + "".join(f"a.fig.{k},a.figref.{k}{{background:{bg};border-color:{fg}}}a.fig.{k} .sym,a.figref.{k} .sym,"
              f"sup.claims .{k}{{color:{fg}}}span.asserts.{k}{{border-left-color:{fg}}}\n"
              for k, (bg, fg) in COLOURS.items())


def mark_html(m: Mark, text: str, render=escape) -> str:
    """A figure's one mark, where the text prints it; its id is its permalink (chrome.py)."""
    row = m.row
    ours = next(v for k, v in row.details if k == "ours")
    return str(macros("chapter_parts.html").mark(row, row.kind, SYMBOL[row.kind], row.details, ours, Markup(render(text))))


def ref_html(row: FigureRow, text: str) -> Markup:
    """A secondary mark in one of our tables: a cell restating a figure, linking to its one mark."""
    return macros("chapter_parts.html").ref(row, row.kind, SYMBOL[row.kind], text)


def render_span(text: str, start: int, end: int, ms: list[Mark], qs: list[Quote], render=escape) -> str:
    """Text of [start, end) with its figures' marks and its refuted sentences (a quote is cut at
    the edges; marks lie whole inside), each piece written by `render`: escaped, or, in prose, with
    its math typeset (mathml.render)."""
    events = []
    for q in qs:
        if q.start < end and q.end > start:
            events.append((max(q.start, start), 0, "open", q))
            events.append((min(q.end, end), 1, "close", q))
    events += [(m.start, 2, "mark", m) for m in ms if start <= m.start and m.end <= end]
    out, at = [], start
    for pos, _, what, obj in sorted(events, key=lambda e: (e[0], e[1])):
        if what == "mark" and pos < at:
            continue                          # inside an earlier mark (never, anchors do not overlap)
        out.append(render(text[at:pos]))
        at = pos
        if what == "open":
            out.append(str(macros("chapter_parts.html").refuted(obj.claims)))
        elif what == "close":
            out.append("</span>")
        else:
            out.append(mark_html(obj, text[obj.start:obj.end], render))
            at = obj.end
    out.append(render(text[at:end]))
    return "".join(out)


def prose_html(text: str, start: int, end: int, ms: list[Mark], qs: list[Quote], sentences: list[Asserting],
               in_report: set[str], render=escape) -> str:
    """A paragraph [start, end): its asserting sentences marked, each with the marks inside it."""
    out, at = [], start
    for s in sentences:
        a, b = max(s.start, start), min(s.end, end)
        if a >= b:
            continue
        out.append(render_span(text, at, a, ms, qs, render))
        inner = Markup(render_span(text, a, b, ms, qs, render))      # the bar, the title, its claims' links
        out.append(str(macros("chapter_parts.html").sentence(s, inner, SYMBOL, in_report)))
        at = b
    out.append(render_span(text, at, end, ms, qs, render))
    return "".join(out)
