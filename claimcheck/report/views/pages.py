"""The report's page templates (templates/: index.html, table.html), autoescaped whatever their
name: every value a page shows is text of the report model, escaped by the template, never by
hand.  The filters the templates use: `css` (a verdict as a CSS class) and an erratum's heads."""
from __future__ import annotations

from functools import cache

import jinja2

from claimcheck.report.views.errata import figures_head, suggested_head


@cache
def environment() -> jinja2.Environment:
    """The report's templates, autoescaped whatever their name; a name the model does not have is
    an error (StrictUndefined), never an empty cell."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("claimcheck.report.views", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.filters.update(css=lambda kind: str(kind).replace(" ", "-"), figures_head=figures_head,
                       suggested_head=suggested_head)
    return env
