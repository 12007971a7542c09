"""What both HTML pages (index.html, chapter.html) show alike, written once: the badges inlined,
the smoke banner, and a verdict as a CSS class (a plot is encoded once for both by the model,
claimcheck/report/model/parts.py Plot)."""
from __future__ import annotations

import html

from claimcheck.report.model.parts import data_uri
from claimcheck.report.views.wording import SMOKE


def badge_imgs(badges, svgs: dict[str, str]) -> str:
    """The report's badges (claimcheck/report/model/badges.py), overall first, each its SVG inlined
    (one not drawn, as for the chapter view alone, is left out)."""
    return " ".join(f"<img class='badge' alt='{html.escape(b.label)}' "
                    f"src='{data_uri(svgs[b.name].encode(), 'image/svg+xml')}'>" for b in badges if b.name in svgs)


def smoke_html(smoke: bool) -> str:
    return f"<p id='smoke'><b>Smoke scale</b>: {html.escape(SMOKE)}</p>" if smoke else ""


def css_class(kind: str) -> str:
    """A verdict or a kind of mark as a CSS class: "not run" -> "not-run"."""
    return html.escape(kind.replace(" ", "-"))
