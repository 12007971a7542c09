"""The report's views: each renders the report model (textcheck/report/assembly/) and computes
nothing of its own (tests/acceptance/test_report_views.py); every value is escaped by the templates'
environments (pages.py), never by hand."""
