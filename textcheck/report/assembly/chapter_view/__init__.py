"""The chapter view's part of the report model: a text cut once per render (cut.py), pure data, no
HTML: its blocks, figures' marks and quoted sentences (text.py), formulas (formulas.py), asserting
sentences (sentences.py), sections (contents.py) and the places of its tables and plots
(places.py).  Rendered by textcheck/report/views/chapter_view/."""
