"""Project-wide pytest setup: the claim-report plugin (claims/plugin.py) and its options."""
pytest_plugins = ["claims.plugin"]
