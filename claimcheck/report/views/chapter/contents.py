"""The chapter view's table of contents in HTML (its data: claimcheck/report/model/chapter/contents.py):
the text's sections, each a link to its anchor with its marks per verdict, and each section's
marker before the block it starts at."""
from __future__ import annotations

import html

from claimcheck.report.model.chapter.contents import Contents, Section


def toc_html(contents: Contents, symbols: dict[str, str]) -> str:
    """<nav id="toc">: each section a link to its anchor, with its marks per verdict (symbol and
    count, as the contents counted them; each count also in a data-<kind> attribute), and the
    sections within it."""
    items, secs, subs = [], contents.sections, contents.within
    ends = [s.start for s in secs[1:]] + [float("inf")]           # each section runs to the next one's start
    for s, c, end in zip(secs, contents.counts, ends):
        inner = "".join(f"<li data-within='{html.escape(x.anchor)}'><a href='#{html.escape(x.anchor)}'>"
                        f"{html.escape(x.title)}</a></li>" for x in subs if s.start <= x.block < end)
        data = "".join(f" data-{html.escape(k.replace(' ', '-'))}='{n}'" for k, n in sorted(c.items()))
        tally = " ".join(f"<span class='n {html.escape(k.replace(' ', '-'))}' title='{html.escape(k)}'>"
                         f"{symbols[k]}&#8239;{n}</span>" for k, n in sorted(c.items(), key=lambda kv: list(symbols)
                                                                              .index(kv[0])))
        items.append(f"<li data-section='{html.escape(s.anchor)}'{data}><a href='#{html.escape(s.anchor)}'>"
                     f"{html.escape(s.title)}</a> <span class='tally'>{tally or 'no figures'}</span>"
                     + (f"<ul class='within'>{inner}</ul>" if inner else "") + "</li>")
    return f"<nav id='toc' aria-label='Contents'><b>Contents</b> (figures per verdict)<ol>{''.join(items)}</ol></nav>"


def anchors_html(secs: list[Section]) -> dict[int, str]:
    """{block start: the section's marker}, put before that block: a small label of ours, not the
    text, with a link back to the contents."""
    out: dict[int, str] = {}
    for s in secs:
        out[s.block] = out.get(s.block, "") + (
            f"<div class='sec-start{' within' if s.within else ''}' id='{html.escape(s.anchor)}'>"
            f"§ {html.escape(s.title)} <a href='#toc' title='back to the contents'>↑</a></div>")
    return out


def render(contents: Contents, symbols: dict[str, str]) -> tuple[str, dict[int, str]]:
    """The contents for the header, and each section's marker by the block it goes before."""
    return toc_html(contents, symbols), anchors_html(contents.sections + contents.within)
