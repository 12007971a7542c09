"""The chapter view's table of contents in HTML (its data: textcheck/report/assembly/chapter_view/contents.py):
the text's sections, each a link to its anchor with its marks per verdict, and each section's
marker before the block it starts at."""
from __future__ import annotations

from textcheck.report.assembly.chapter_view.contents import Contents, Section
from textcheck.report.views.pages import environment


def _parts():
    """The contents' macros (templates/chapter_parts.html, autoescaped)."""
    return environment().get_template("chapter_parts.html").module


def toc_html(contents: Contents, symbols: dict[str, str]) -> str:
    """<nav id="toc">: each section a link to its anchor, with its marks per verdict (symbol and
    count, as the contents counted them; each count also in a data-<kind> attribute), and the
    sections within it."""
    items, secs, subs = [], contents.sections, contents.within
    ends = [s.start for s in secs[1:]] + [float("inf")]           # each section runs to the next one's start
    for s, c, end in zip(secs, contents.counts, ends):
        order = sorted(c.items(), key=lambda kv: list(symbols).index(kv[0]))   # the legend's order
        items.append({"anchor": s.anchor, "title": s.title, "counts": sorted(c.items()),
                      "tally": [(k, symbols[k], n) for k, n in order],
                      "within": [x for x in subs if s.start <= x.block < end]})
    return str(_parts().toc(items))


def anchors_html(secs: list[Section]) -> dict[int, str]:
    """{block start: the section's marker}, put before that block: a small label of ours, not the
    text, with a link back to the contents."""
    out: dict[int, str] = {}
    for s in secs:
        out[s.block] = out.get(s.block, "") + str(_parts().section_start(s))
    return out


def render(contents: Contents, symbols: dict[str, str]) -> tuple[str, dict[int, str]]:
    """The contents for the header, and each section's marker by the block it goes before."""
    return toc_html(contents, symbols), anchors_html(contents.sections + contents.within)
