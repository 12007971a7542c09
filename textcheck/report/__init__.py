"""The claim report, by role: assembly/ (the report model, the one part that reads and computes),
views/ (its renderings, none of which computes) and publish.py (every view written).  A text hands
its Chapter and its own parts (assembly/report.py Parts); the engine imports no text's package."""
