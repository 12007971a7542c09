"""The report's page templates (templates/: index.html, table.html, the chapter view's chapter.html
and chapter_parts.html; a text's own views may add theirs, in its package's templates/), autoescaped whatever their name: every
value a page shows is text of the report model, escaped by the template, never by hand.  The filters the templates use: `css` (a verdict as a CSS class) and an erratum's heads.
The Markdown pages' templates (templates/claims.md, errata.md, tables.md, table.md, grid.md, the
chapter view's chapter_parts.md) have an environment of their own (markdown_environment), which
writes every value by md_line, or by the filter a template names: the one place a Markdown page's
text is escaped (escape.py's helpers are called here alone)."""
from __future__ import annotations

from functools import cache

import jinja2

from textcheck.report.views.escape import md, md_code, md_fence, md_line, md_prose_with_math
from textcheck.report.views.wording import figures_head, suggested_head


@cache
def environment(package: str | None = None) -> jinja2.Environment:
    """The report's templates, autoescaped whatever their name; a name the model does not have is
    an error (StrictUndefined), never an empty cell.  `package`: a text's package whose own views
    have templates (its templates/ folder), found before the engine's."""
    engine = jinja2.PackageLoader("textcheck.report.views", "templates")
    loader = jinja2.ChoiceLoader([jinja2.PackageLoader(package, "templates"), engine]) if package else engine
    env = jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.filters.update(css=lambda kind: str(kind).replace(" ", "-"), figures_head=figures_head,
                       suggested_head=suggested_head)
    return env


class Written(str):
    """Markdown already written (a code span, a mark): the Markdown templates put it in as it is."""


def _md_cell(value) -> str:
    return value if isinstance(value, Written) else md_line(value)


@cache
def markdown_environment() -> jinja2.Environment:
    """The report's Markdown templates (templates/*.md): what autoescaping is to the HTML pages,
    `finalize` is here -- every value a template puts in is written by md_line (its <, > and &
    as entities, its pipes escaped, on one line), unless it is Written.  Where a value is not a
    table cell, a filter writes it instead: `code` a code span (md_code), `prose` text whose pipes
    and line breaks stay (md), `fence` a code block (md_fence), `prose_with_math` chapter.md's
    prose, backslash-escaped so that a forge still typesets its $...$ (md_prose_with_math).  A
    template that shows another's output includes it (an include is not a value: no finalize)."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("textcheck.report.views", "templates"), autoescape=False,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True, finalize=_md_cell)
    env.filters.update(code=lambda text: Written(md_code(text)), prose=lambda text: Written(md(text)),
                       fence=lambda text: Written(md_fence(text)),
                       prose_with_math=lambda text: Written(md_prose_with_math(text)),
                       figures_head=figures_head, suggested_head=suggested_head)
    return env
