"""claimcheck: a text's quantitative claims as pytest tests, and the report of which still hold.

The engine knows no text of its own.  A text's package builds one `Chapter` (claimcheck/chapter.py:
its text and checksum, figures, reads, claims and sections, declared numbers and words, sentences,
rule inputs, measurements' versions, places, errata, tables, plots and timed figures) and hands it
to the engine through one entry: the pytest hook `pytest_claimcheck_chapter(config)` (declared in
claimcheck/hooks.py, implemented by the project's conftest.py), and, for a command, as the first
argument of its `main`.  Every function here that needs the text's tables takes the Chapter as an
argument.  The engine imports no package of a text (an import-linter `forbidden` contract).
"""
