"""How a string from a file (a run's report, the committed evidence, the registry, the chapter)
is written into Markdown, so that it cannot open HTML nor leave its table cell, code span or code
block.  One home for every Markdown output: claims.md, tables.md, errata.md, chapter.md; called by
the Markdown templates' environment alone (pages.py markdown_environment: its finalize and filters),
never by a view (tests/acceptance/test_report_views.py)."""
from __future__ import annotations

import html
import re


def md(text) -> str:
    """A string as Markdown text: its <, > and & written as entities, so that it cannot open HTML."""
    return html.escape(str(text), quote=False)


def md_line(text) -> str:
    """A string as Markdown text that stays in its table cell or line: escaped (md), its pipes
    escaped and its line breaks made spaces."""
    return re.sub(r"\r\n|\r|\n", " ", md(text)).replace("|", "\\|")


def md_code(text) -> str:
    """A string as a code span (`id`); one a code span cannot hold as it is (a backtick or a
    backslash would end it or its escape early, a pipe or a line break its table cell) is written
    as escaped text instead (md_line)."""
    text = str(text)
    return md_line(text) if re.search(r"[`\\|\r\n]", text) else f"`{text}`"


def md_fence(text: str) -> str:
    """`text` as a fenced code block, its fence longer than any run of backticks in it, so that
    no line of it closes the block early (what follows would be Markdown, HTML and all)."""
    fence = "```"
    while fence in text:                 # the shortest run of three or more that the text does not hold
        fence += "`"
    return f"{fence}\n{text}\n{fence}"


MD_BACKSLASHED = re.compile(r"(\\*)([\[\]<>*`|])")


def md_prose_with_math(text: str) -> str:
    """Prose as Markdown whose $...$ math a forge still typesets (chapter.md): its brackets, angle
    brackets, stars, backticks and pipes backslash-escaped (an entity, as md writes, would show
    inside the math), the math left as it is; a backslash before one of them escaped too, so that
    it cannot undo the escape (a string from a file: a "\\<" would open HTML)."""
    return MD_BACKSLASHED.sub(lambda m: 2 * m.group(1) + "\\" + m.group(2), text)
