"""Fixtures shared by the claim tests: the corpus and its tokens, built once per session."""
import pytest


@pytest.fixture(scope="session")
def corpus_text() -> str:
    from data import load_corpus
    return load_corpus()


@pytest.fixture(scope="session")
def corpus_tokens():
    from data import load_tokens
    return load_tokens()
