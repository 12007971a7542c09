"""Project-wide pytest setup: the claim contract (claims/plugin.py) and the fixtures that hand
trained models to tests, with their options (fixtures/plugin.py)."""
pytest_plugins = ["fixtures.plugin", "claims.plugin"]
