"""The published site (the `site` and `deploy` jobs of .github/workflows/claims.yml): a rendered
report assembled into a folder a visitor opens (build), every link in it checked (broken_links); the
command is claims/report/publish.py.  Nothing in the repository names the site's address.  Without
the chapter text the report renders chapter-not-built.html instead of the chapter view (the
engine's page, in this chapter's template: claims/report/templates/), published as chapter.html: it
says why and still holds every section's anchor.
"""
from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

CHAPTER_VIEW = "chapter.html"
# External links a page of the site may carry (a prefix each); anything else is reported.
EXTERNAL: tuple[str, ...] = ()
# What of a rendered report the site publishes (no run records, manifest or locks).
PUBLISHED = {".html", ".md", ".png", ".svg", ".json", ".txt"}
PLACEHOLDER = "chapter-not-built.html"
UNPUBLISHED = {"manifest.json", "claims.json", PLACEHOLDER}


def build(report_dir: Path, site_dir: Path) -> list[Path]:
    """The site from a rendered report: its pages, plots, badges and merged verdicts, and
    chapter.html (or the page saying why it was not built)."""
    report_dir, site_dir = Path(report_dir), Path(site_dir)
    if not (report_dir / "index.html").is_file() or not (report_dir / "merged.json").is_file():
        raise SystemExit(f"{report_dir}: no rendered report (index.html, merged.json): run "
                         f"`python -m claims.report --report-dir {report_dir}` first")
    if site_dir.exists() and any(site_dir.iterdir()):
        raise SystemExit(f"{site_dir}: not empty; the site is assembled into a new folder")
    site_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for sub in (".", "badges"):
        for p in sorted((report_dir / sub).glob("*")):
            if p.is_file() and not p.is_symlink() and p.suffix in PUBLISHED and p.name not in UNPUBLISHED:
                (site_dir / sub).mkdir(exist_ok=True)
                written.append(Path(shutil.copyfile(p, site_dir / sub / p.name)))
    if not (site_dir / CHAPTER_VIEW).exists():
        if not (report_dir / PLACEHOLDER).is_file():
            raise SystemExit(f"{report_dir}: neither {CHAPTER_VIEW} nor {PLACEHOLDER}: render it again with "
                             f"`python -m claims.report --report-dir {report_dir}`")
        written.append(Path(shutil.copyfile(report_dir / PLACEHOLDER, site_dir / CHAPTER_VIEW)))
    return written


class _Links(HTMLParser):
    """The ids of a page and the links it makes (href, src), with the line of each."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[int, str]] = []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k == "id" or (k == "name" and tag == "a"):
                self.ids.add(v or "")
            elif k in ("href", "src") and v is not None:
                self.links.append((self.getpos()[0], v))


def _parse(page: Path) -> _Links:
    p = _Links()
    p.feed(page.read_text(encoding="utf-8"))
    p.close()
    return p


def resolve(site_dir: Path, page: Path, link: str, parsed: dict[Path, _Links]) -> str | None:
    """Why `link` on `page` of the site leads nowhere, or None when it resolves: a data: URI, an
    expected external link (EXTERNAL), a file of the site, an #id of the page it names."""
    if link.startswith("data:") or any(link.startswith(e) for e in EXTERNAL):
        return None
    parts = urlsplit(link)
    if parts.scheme or parts.netloc:
        return "an external link the site does not expect (claims/report/site.py EXTERNAL)"
    target = (page.parent / unquote(parts.path)).resolve() if parts.path else page.resolve()
    root = site_dir.resolve()
    if root not in (target, *target.parents):
        return "outside the site"
    if not target.is_file():
        return "no such file in the site"
    if parts.fragment:
        if target.suffix != ".html":
            return "a fragment of a page that is not HTML"
        if target not in parsed:
            parsed[target] = _parse(target)
        if unquote(parts.fragment) not in parsed[target].ids:
            return f"no id {unquote(parts.fragment)!r} in {target.relative_to(root)}"
    return None


def broken_links(site_dir: Path) -> list[str]:
    """Every link of every HTML page of the site that leads nowhere, as "page:line: link (why)"."""
    site_dir = Path(site_dir)
    parsed = {p.resolve(): _parse(p) for p in sorted(site_dir.rglob("*.html"))}
    out = []
    for page, links in list(parsed.items()):
        for line, link in links.links:
            why = resolve(site_dir, page, link, parsed)
            if why:
                out.append(f"{page.relative_to(site_dir.resolve())}:{line}: {link[:120]} ({why})")
    return out
