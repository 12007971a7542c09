"""The chapter view's data: a text cut once per render (cut.py), pure data, no HTML.  Rendered by
textcheck/report/views/chapter_view/."""
