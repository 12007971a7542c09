"""The chapter view, a rendering of the report model's cut (textcheck/report/assembly/chapter_view/):
the text with every asserted figure marked by its verdict, as chapter.html (html.py) and chapter.md
(markdown.py).  Written by textcheck/report/publish.py write_chapter."""
