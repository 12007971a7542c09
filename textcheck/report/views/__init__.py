"""The report's views: each renders the report model (textcheck/report/assembly/) and computes
nothing of its own (tests/acceptance/test_report_views.py): markdown.py (claims.md), html.py (index.html, from
templates/index.html, autoescaped), errata.py (errata.md), tables.py (tables.md, a table's grid),
badges.py (the badges' SVGs), chapter_view/ (the chapter view: chapter.html and chapter.md, the text
with every asserted figure marked by its verdict); what they say and escape alike: wording.py,
escape.py; the templates' environments: pages.py (the HTML pages' autoescaped, the Markdown
pages', templates/*.md, escaping every value there: no view escapes by hand)."""
