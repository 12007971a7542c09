"""A text's math, typeset: each `$...$` (and `$$...$$`) of its prose as MathML in report/chapter.html
(converted by latex2mathml, drawn natively by the browser).  chapter.md keeps the TeX for a forge
that renders it; where the formulas are, and that a mark never cuts one, is the model's
(claimcheck/report/model/chapter/formulas.py).  latex2mathml does not escape what it copies (a
`\\text{<b>}`, an `&`), so its tree is written out here with every text and attribute escaped and
only MathML elements kept.  Imports no torch.
"""
from __future__ import annotations

import html
import re

from latex2mathml.converter import convert_to_element

from claimcheck.report.model.chapter.formulas import ESCAPED_DOLLAR, formulas

# The MathML elements a formula may hold (anything else latex2mathml emits becomes an <mrow>)
ELEMENTS = frozenset(re.split(r"\s+", """math mrow mi mn mo ms mtext mspace msub msup msubsup mfrac msqrt mroot mstyle merror
mpadded mphantom menclose munder mover munderover mtable mtr mtd mlabeledtr mmultiscripts mprescripts none
semantics annotation mfenced maction"""))
# its attributes: presentation only (no href, no event handler, no style)
ATTRIBUTES = frozenset(re.split(r"\s+", """display mathvariant stretchy fence separator lspace rspace columnalign rowalign
columnspacing rowspacing columnlines rowlines frame framespacing width height depth linethickness accent
accentunder movablelimits displaystyle scriptlevel minsize maxsize symmetric largeop form notation open
close separators align equalrows equalcolumns encoding"""))


def _write(el, out: list[str]) -> None:
    tag = el.tag if el.tag in ELEMENTS else "mrow"
    attrs = "".join(f' {k}="{html.escape(str(v))}"' for k, v in el.attrib.items() if k in ATTRIBUTES)
    out.append(f"<{tag}{attrs}>{html.escape(html.unescape(el.text or ''), quote=False)}")
    for child in el:
        _write(child, out)
    out.append(f"</{tag}>" + html.escape(html.unescape(el.tail or ""), quote=False))


def mathml(tex: str, display: bool = False) -> str:
    """One formula as MathML, safe to put in a page: the TeX kept as its alttext; a formula
    latex2mathml cannot read is shown as its TeX, in <code class='tex'>."""
    try:
        root = convert_to_element(tex, display="block" if display else "inline")
    except Exception:                      # noqa: BLE001  (any failure of the converter: show the TeX)
        return f"<code class='tex'>{html.escape(tex)}</code>"
    root.tail = None
    out: list[str] = []
    _write(root, out)
    alt = f' xmlns="http://www.w3.org/1998/Math/MathML" alttext="{html.escape(tex)}"'
    return out[0].replace("<math", "<math" + alt, 1) + "".join(out[1:])


def render(text: str) -> str:
    """Prose as HTML: escaped, each formula as MathML, each `\\$` a dollar."""
    out, at = [], 0
    for m in formulas(text):
        out.append(html.escape(ESCAPED_DOLLAR.sub("$", text[at:m.start()])))
        display = m.group("display") is not None
        out.append(mathml(m.group("display") if display else m.group("inline"), display))
        at = m.end()
    out.append(html.escape(ESCAPED_DOLLAR.sub("$", text[at:])))
    return "".join(out)
