"""Project-wide pytest setup: the claim contract (claims/plugin.py) and the fixtures that hand
trained models to tests, with their options (fixtures/plugin.py)."""
import pytest

pytest_plugins = ["fixtures.plugin", "claims.plugin"]


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """Under xdist (`-n N`), tests that share a trained model share a worker: `--dist loadgroup`
    unless another --dist was asked for.  Set here rather than in addopts, so that a run with
    `-p no:xdist` still parses its command line."""
    if config.pluginmanager.hasplugin("xdist") and getattr(config.option, "dist", "no") == "no" \
            and getattr(config.option, "numprocesses", None):
        config.option.dist = "loadgroup"
