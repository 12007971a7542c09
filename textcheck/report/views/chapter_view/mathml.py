"""A text's math, typeset: each `$...$` (and `$$...$$`) of its prose as MathML in report/chapter.html
(converted by latex2mathml, drawn natively by the browser).  chapter.md keeps the TeX for a forge
that renders it; where the formulas are, and that a mark never cuts one, is the model's
(textcheck/report/assembly/chapter_view/formulas.py).  latex2mathml does not escape what it copies (a
`\\text{<b>}`, an `&`), so its tree is written out here through markupsafe's Markup.format, which
escapes every text and attribute it is given, and only MathML elements are kept.  Imports no torch.
"""
from __future__ import annotations

import html
import re

from latex2mathml.converter import convert_to_element
from markupsafe import Markup

from textcheck.report.assembly.chapter_view.formulas import ESCAPED_DOLLAR, formulas

# The MathML elements a formula may hold (anything else latex2mathml emits becomes an <mrow>)
ELEMENTS = frozenset(re.split(r"\s+", """math mrow mi mn mo ms mtext mspace msub msup msubsup mfrac msqrt mroot mstyle merror
mpadded mphantom menclose munder mover munderover mtable mtr mtd mlabeledtr mmultiscripts mprescripts none
semantics annotation mfenced maction"""))
# its attributes: presentation only (no href, no event handler, no style)
ATTRIBUTES = frozenset(re.split(r"\s+", """display mathvariant stretchy fence separator lspace rspace columnalign rowalign
columnspacing rowspacing columnlines rowlines frame framespacing width height depth linethickness accent
accentunder movablelimits displaystyle scriptlevel minsize maxsize symmetric largeop form notation open
close separators align equalrows equalcolumns encoding"""))


def _write(el, out: list[Markup], attrs: Markup | None = None) -> None:
    """`el` and its children, appended to `out`; `attrs`: written before the element's own."""
    tag = el.tag if el.tag in ELEMENTS else "mrow"
    attrs = (attrs or Markup("")) + Markup("").join(Markup(' {}="{}"').format(k, str(v)) for k, v in el.attrib.items() if k in ATTRIBUTES)
    # latex2mathml leaves its text entity-escaped: read back to plain text, escaped once by the format
    out.append(Markup("<{}{}>{}").format(tag, attrs, html.unescape(el.text or "")))
    for child in el:
        _write(child, out)
    out.append(Markup("</{}>{}").format(tag, html.unescape(el.tail or "")))


def mathml(tex: str, display: bool = False) -> Markup:
    """One formula as MathML, safe to put in a page: the TeX kept as its alttext; a formula
    latex2mathml cannot read is shown as its TeX, in <code class='tex'>.  Every text and
    attribute is escaped by Markup's format, never by hand."""
    try:
        root = convert_to_element(tex, display="block" if display else "inline")
    except Exception:                      # noqa: BLE001  (any failure of the converter: show the TeX)
        return Markup("<code class='tex'>{}</code>").format(tex)
    root.tail = None
    out: list[Markup] = []
    _write(root, out, Markup(' xmlns="http://www.w3.org/1998/Math/MathML" alttext="{}"').format(tex))
    return Markup("").join(out)


def render(text: str) -> Markup:
    """Prose as HTML: escaped, each formula as MathML, each `\\$` a dollar."""
    out, at = [], 0
    for m in formulas(text):
        out.append(ESCAPED_DOLLAR.sub("$", text[at:m.start()]))      # text: escaped by the join
        display = m.group("display") is not None
        out.append(mathml(m.group("display") if display else m.group("inline"), display))
        at = m.end()
    out.append(ESCAPED_DOLLAR.sub("$", text[at:]))
    return Markup("").join(out)
