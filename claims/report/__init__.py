"""Render the claim report (`python -m claims.report`): this chapter's side of it.  The report's
machinery is the engine's, by role (textcheck/report/: assembly/, views/ with their autoescaped
templates, publish.py); what is this chapter's own is here:

- cli.py: the command: reads the run, draws the plots (their data read first, plot_data.py), saves
  what --save-results asks for, builds the model and writes every view (textcheck/report/publish.py,
  with the chapter view);
- parts.py: this chapter's parts of the report model (PARTS: its evidence reader evidence.py, its
  errata errata/, its tables tables.py with table_builders.py and table_data.py, and its chapter
  cut chapter_cut.py: the engine's cut with this chapter's own lists, the places of our tables and
  plots, the formulas and the headings), handed to the engine's model with CHAPTER; readme.py: the
  README's report and the generated blocks of README.md and docs/claims.md;
- the chapter view is the engine's (textcheck/report/views/chapter_view/, its cut and since-when in
  textcheck/report/assembly/), handed the model;
- plot_data.py, the plots' data (every number, mark and label they show, read through evidence.py's
  reader of the runs), and plots.py, the view that draws it and computes nothing; site.py and publish.py (the published site, and
  the page it shows where the chapter view was not built), links.py (the links of README.md and
  docs/).

The merge policy is textcheck/verdicts.py's (merge, committed_only) and textcheck/save.py's (what a
--save-results keeps).  Imports no torch.
"""
from claims.report.cli import main
from claims.report.readme import readme_report, readme_table, weakened

__all__ = ["main", "readme_report", "readme_table", "weakened"]
