"""Render the claim report (`python -m claims.report`), one job per module:

- cli.py: the command: reads the run, draws the plots, saves what --save-results asks for;
- model.py: the report model, computed once per render from the figure table, the committed
  evidence and this run's records: the counts, the claim table (claim_rows.py), the figure rows,
  the accountings of the chapter's numbers and sentences (chapter_sentences.py), the errata
  (errata/), the regenerated tables (tables.py data), the plots, the badges (badges.py), the
  chapter cut for its view (chapter_cut.py) and the README's report;
- render.py: every view of the model into report/: markdown.py (claims.md), html.py
  (index.html), badges.py, tables.py (tables.md), errata/ (errata.md), chapter.py and
  chapter_md.py (the chapter view); readme.py: the generated blocks of README.md and
  docs/claims.md.  What the views say alike: wording.py, page_parts.py, escape.py.

The merge policy is claimcheck/verdicts.py's (merge, committed_only) and claimcheck/save.py's (what a
--save-results keeps).  Imports no torch.
"""
from claims.report.cli import main
from claims.report.readme import readme_report, readme_table, weakened

__all__ = ["main", "readme_report", "readme_table", "weakened"]
