"""The links of the project's Markdown pages (README.md, docs/): each must lead somewhere wherever the
repository is hosted, forked or cloned, so a link into the project is relative to the checkout: a
file of it, and an #anchor that a heading (or an id) of the page it names gives, spelled as a forge
spells it (`anchors`).  An absolute link to the project's own hosting (a *.github.io site, a
github.com repository of this name) names one owner, a placeholder until someone knows the real
one, and is dead on every fork: refused.  Links outside the project are left as they are.

Checked by tests/docs/test_docs.py on every page, and for README.md by the site's publish
(claims/report/publish.py), beside the site's own links (claims/report/site.py).
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

FENCE = re.compile(r"^```.*?^```[ \t]*$", re.DOTALL | re.MULTILINE)
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)
LINK = re.compile(r"\]\(([^)\s]+)\)")                 # [text](target) and ![alt](image)
HTML_ID = re.compile(r"""<[a-z][^>]*?\b(?:id|name)=["']([^"']+)["']""")
PROJECT = "attention-claims"


def prose(text: str) -> str:
    """The page with its fenced code blanked (a `](` inside an example is not a link), its lines kept."""
    return FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub (and GitLab, for these headings) writes it: the text of its links,
    lower-cased, with what is not a letter, a digit, `_`, `-` or a space dropped, each space a `-`."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every #anchor a Markdown page gives: its headings' slugs (a repeated one numbered -1, -2, as
    GitHub does) and the ids of its HTML elements."""
    seen: dict[str, int] = {}
    out = set(HTML_ID.findall(text))
    for m in HEADING.finditer(prose(text)):
        s = slug(m.group(1))
        out.add(s if s not in seen else f"{s}-{seen[s]}")
        seen[s] = seen.get(s, 0) + 1
    return out


def owner_named(link: str) -> bool:
    """True for an absolute link to the project's own hosting: a GitHub Pages site, or a forge's
    repository of this project's name."""
    parts = urlsplit(link)
    host = (parts.hostname or "").lower()
    repo = parts.path.strip("/").split("/")[1:2]
    return host.endswith(".github.io") or (host in ("github.com", "gitlab.com") and repo == [PROJECT])


def problems(page: Path, root: Path) -> list[str]:
    """Every link of the Markdown `page` that leads nowhere from a checkout at `root`, as
    "page:line: link (why)"."""
    page, root = Path(page), Path(root).resolve()
    text = page.read_text(encoding="utf-8")
    body = prose(text)
    name = page.resolve().relative_to(root) if root in page.resolve().parents else page
    out = []
    for m in LINK.finditer(body):
        link = m.group(1)
        why = _why(page, root, link, text)
        if why:
            out.append(f"{name}:{body.count(chr(10), 0, m.start()) + 1}: {link} ({why})")
    return out


def _why(page: Path, root: Path, link: str, text: str) -> str | None:
    parts = urlsplit(link)
    if parts.scheme or parts.netloc:
        if owner_named(link):
            return ("an absolute link to the project's own hosting names one owner and is dead on any fork "
                    "or mirror: link relatively into the repository")
        return None
    if not parts.path:                                   # #anchor of this page
        return None if unquote(parts.fragment) in anchors(text) else f"no #{parts.fragment} on this page"
    target = (page.parent / unquote(parts.path)).resolve()
    if root not in (target, *target.parents):
        return "outside the checkout"
    if not target.exists():
        return "no such file in the checkout"
    if parts.fragment and target.suffix == ".md" and \
            unquote(parts.fragment) not in anchors(target.read_text(encoding="utf-8")):
        return f"no heading or id #{parts.fragment} in {target.relative_to(root)}"
    return None
