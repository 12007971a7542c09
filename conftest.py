"""Project-wide pytest setup: the claim engine's plugin (textcheck/plugin.py), handed this
chapter by the one entry (claims/chapter.py, loaded below as a plugin), and the fixtures that hand trained
models to tests, with their options (fixtures/plugin.py)."""
import pytest

from data.paths import CheckoutError, require_checkout

# textcheck.plugin: the claim engine; claims.chapter: this chapter, handed to it (the one entry:
# claims/chapter.py answers the engine's hook pytest_textcheck_chapter)
pytest_plugins = ["fixtures.plugin", "fixtures.xdist_groups", "textcheck.plugin", "claims.chapter"]


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """Under xdist (`-n N`), tests that share a trained model share a worker: `--dist loadgroup`
    unless another --dist was asked for, scheduled by fixtures/xdist_groups.py (which does not rely
    on xdist's node-ID suffix, lost on pytest 9.2).  Set here rather than in addopts, so that a run
    with `-p no:xdist` still parses its command line."""
    if config.pluginmanager.hasplugin("xdist") and getattr(config.option, "dist", "no") == "no" \
            and getattr(config.option, "numprocesses", None):
        config.option.dist = "loadgroup"


def pytest_configure(config):
    """The tests read and write the checkout's results/, report/ and .cache/ (data/paths.py): a
    $ATTENTION_CLAIMS_ROOT that is not a checkout stops the run here, naming the variable and the
    path, instead of every test that needs results/ skipping for want of them."""
    try:
        require_checkout("pytest")
    except CheckoutError as e:
        raise pytest.UsageError(str(e)) from None
