"""This chapter's side of its claim report (`python -m claims.report`): the command (cli.py), its
parts of the engine's report (parts.py REPORT: evidence, errata, tables, and chapter_cut.py's lists),
its plots, the README's blocks, the published site and its links.  Imports no torch.
"""
from claims.report.cli import main
from claims.report.readme import readme_table, weakened

__all__ = ["main", "readme_table", "weakened"]
