"""The report's page templates (templates/; a text's own views may add theirs) and their two
environments: the HTML pages' autoescaped, the Markdown pages' writing every value by md_line or by
the filter a template names, the one caller of escape.py's helpers."""
from __future__ import annotations

from functools import cache

import jinja2

from textcheck.report.views.escape import md, md_code, md_fence, md_line, md_prose_with_math
from textcheck.report.views.wording import figures_head, suggested_head


@cache
def environment(package: str | None = None) -> jinja2.Environment:
    """The templates, autoescaped whatever their name; a name the model lacks is an error, never an
    empty cell.  `package`: a text's package whose templates/ are found before the engine's."""
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
    """The Markdown templates: what autoescaping is to the HTML pages, `finalize` is here: every
    value is written by md_line unless it is Written; where a value is not a table cell, a filter
    writes it: `code` (md_code), `prose` (md), `fence` (md_fence), `prose_with_math`."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("textcheck.report.views", "templates"), autoescape=False,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True, finalize=_md_cell)
    env.filters.update(code=lambda text: Written(md_code(text)), prose=lambda text: Written(md(text)),
                       fence=lambda text: Written(md_fence(text)),
                       prose_with_math=lambda text: Written(md_prose_with_math(text)),
                       figures_head=figures_head, suggested_head=suggested_head)
    return env


def macros(name: str):
    """The macros of a template: chapter_parts.html's autoescaped, a Markdown one's by md_line."""
    return (markdown_environment() if name.endswith(".md") else environment()).get_template(name).module
