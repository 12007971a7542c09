"""Project-wide pytest setup: the claim contract (claims/plugin.py) and the fixtures that hand
trained models to tests, with their options (fixtures/plugin.py)."""
import pytest

from data.paths import CheckoutError, require_checkout

pytest_plugins = ["fixtures.plugin", "fixtures.xdist_groups", "claims.plugin"]


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """Under xdist (`-n N`), tests that share a trained model share a worker: `--dist loadgroup`
    unless another --dist was asked for, scheduled by fixtures/xdist_groups.py (which does not rely
    on xdist's node-ID suffix, lost on pytest 9.2).  Set here rather than in addopts, so that a run
    with `-p no:xdist` still parses its command line."""
    if config.pluginmanager.hasplugin("xdist") and getattr(config.option, "dist", "no") == "no" \
            and getattr(config.option, "numprocesses", None):
        config.option.dist = "loadgroup"


@pytest.fixture(scope="session")
def chapter_explainers() -> tuple:
    """fixtures/plugin.py chapter_text's: an altered chapter names each figure anchor and each
    declaration it breaks (claims/accounting.py EXPLAINERS), handed down from the claims layer."""
    from claims.accounting import EXPLAINERS
    return EXPLAINERS


def pytest_configure(config):
    """The tests read and write the checkout's results/, report/ and .cache/ (data/paths.py): a
    $ATTENTION_CLAIMS_ROOT that is not a checkout stops the run here, naming the variable and the
    path, instead of every test that needs results/ skipping for want of them."""
    try:
        require_checkout("pytest")
    except CheckoutError as e:
        raise pytest.UsageError(str(e)) from None
