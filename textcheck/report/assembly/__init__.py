"""The report model (report.py: `Report`, `assemble`, `Parts`), the one part of the report that reads
and computes: the claim table (claim_rows.py), the badges as data (badges.py), the plots and tables
as data (parts.py), since when each verdict stands (since.py) and what each figure's mark shows
(details.py), and the text cut for the chapter view (chapter_view/).  Imports no view."""
