"""The report model (report.py `Report`, `assemble`, `Parts`) and its data: the merged report typed
(merged.py), the claim table (claim_rows.py), the badges (badges.py), plots and tables
(tables_plots.py), since when each verdict stands (since.py), each mark's details (details.py) and
the text cut for the chapter view (chapter_view/).  Imports no view."""
