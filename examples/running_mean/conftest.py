"""The example's pytest setup: the claim engine's plugin, handed this text by the one entry."""
pytest_plugins = ["textcheck.plugin", "examples.running_mean.chapter"]
