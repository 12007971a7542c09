"""The chapter view, a rendering of the report model (its cut: textcheck/report/assembly/chapter_view/):
the text with every asserted figure marked by its verdict.  html.py (chapter.html, from
templates/chapter.html and chapter_parts.html, autoescaped), markdown.py (chapter.md, from
the macros of templates/chapter_parts.md, every value escaped there), marks.py
(the marks placed in the text), legend.py (each verdict's symbol, words and colours), mathml.py
(`$…$` as MathML), contents.py (the contents and the sections' markers), inserts.py (the text's
tables and plots in place), chrome.py (styles, print, the keys, the permalinks).  Written by
textcheck/report/publish.py write_chapter."""
