"""What both HTML pages (index.html, chapter.html) show alike, written once: the badges inlined,
the smoke banner, an image as a data: URI (each page stays one file, readable from file://; a
plot encoded once for both, `Plot`), and a verdict as a CSS class."""
from __future__ import annotations

import base64
import html
from dataclasses import dataclass
from pathlib import Path

from claims.report.wording import SMOKE


def data_uri(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


@dataclass(frozen=True)
class Plot:
    """A plot of the report (claims/report/model.py): its file (chapter.md links it) and its
    data: URI (index.html and chapter.html show it), the file read and encoded once per render."""
    path: Path
    uri: str

    @classmethod
    def read(cls, path: Path) -> Plot:
        return cls(path, data_uri(path.read_bytes(), "image/png"))

    @property
    def stem(self) -> str:
        return self.path.stem

    @property
    def name(self) -> str:
        return self.path.name


def badge_imgs(badges, svgs: dict[str, str]) -> str:
    """The report's badges (claims/report/badges.py), overall first, each its SVG inlined (one
    not drawn, as for the chapter view alone, is left out)."""
    return " ".join(f"<img class='badge' alt='{html.escape(b.label)}' "
                    f"src='{data_uri(svgs[b.name].encode(), 'image/svg+xml')}'>" for b in badges if b.name in svgs)


def smoke_html(smoke: bool) -> str:
    return f"<p id='smoke'><b>Smoke scale</b>: {html.escape(SMOKE)}</p>" if smoke else ""


def css_class(kind: str) -> str:
    """A verdict or a kind of mark as a CSS class: "not run" -> "not-run"."""
    return html.escape(kind.replace(" ", "-"))
