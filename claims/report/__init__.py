"""Render the claim report (`python -m claims.report`), one job per module:

- cli.py: the command; merges a fresh run with the committed verdicts and writes report/;
- markdown.py, html.py, badges.py: report/claims.md, report/index.html, the badges;
- readme.py: the generated blocks of README.md and docs/claims.md;
- tables.py: the chapter's tables beside ours; errata/: a cause and a sentence per refuted claim,
  by chapter section; plots.py: the plots of the committed runs.

The merge policy is claims/verdicts.py's (merge, committed_only) and claims/save.py's (what a
--save-results keeps).  Imports no torch.
"""
from claims.report.cli import main
from claims.report.readme import readme_report, readme_table, weakened
from claims.verdicts import committed_only

__all__ = ["committed_only", "main", "readme_report", "readme_table", "weakened"]
