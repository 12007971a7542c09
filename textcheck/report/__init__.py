"""The claim report, by role: assembly/ (the report model, the one part that reads and computes: the merged verdicts,
the claim table, the figure rows, the accountings, the errata, tables and plots a text hands it,
the badges, the text cut for its chapter view and since when each verdict stands), views/
(renderings of the model: claims.md, index.html from its autoescaped template, errata.md,
tables.md, the badges' SVGs, the chapter view chapter.html and chapter.md; none computes) and
publish.py (every view written into the report directory).  A text hands its Chapter and its own parts (assembly/report.py Parts); the engine
imports no text's package.  Imports no torch."""
