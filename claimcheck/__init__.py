"""claimcheck: a text's quantitative claims as pytest tests, and the report of which still hold.

The engine knows no text of its own.  A text's package builds one `Chapter` (claimcheck/chapter.py:
its text and checksum, figures, reads, claims and sections, declared numbers and words, sentences,
rule inputs, measurements' versions, places, errata, tables, plots and timed figures) and hands it
to the engine through one entry: the pytest hook `pytest_claimcheck_chapter(config)` (declared in
claimcheck/hooks.py, implemented by the project's conftest.py), and, for a command, as the first
argument of its `main`.  Every function here that needs the text's tables takes the Chapter as an
argument.  The engine imports no package of a text (an import-linter `forbidden` contract).

The public face: the names a text needs to define itself, check its bookkeeping and give its
report's parts, exported here and imported from here alone by a text (the example's packages:
an import-linter contract in pyproject.toml).  Each is loaded on first use (PEP 562), so that
importing the engine costs nothing until a name is asked for.
"""
from importlib import import_module

_WHERE = {
    "Chapter": "claimcheck.chapter", "Claim": "claimcheck.chapter",         # a text, and each of its claims
    "Figure": "claimcheck.figures",                                          # a printed figure
    "Declared": "claimcheck.declared",                                       # a number that is no figure, and why
    "Sentence": "claimcheck.sentences", "SENTENCE_REASONS": "claimcheck.sentences",
    "Anchor": "claimcheck.anchors", "AnchorList": "claimcheck.anchors",     # a quote of the text, and a list of them
    "headings": "claimcheck.report.model.chapter.contents",                 # the chapter view's headings, as anchors
    "Spec": "claimcheck.specs",                                              # a figure's rule inputs
    "TextReport": "claimcheck.commands",                                     # a text's own parts of its report
    "bookkeeping": "claimcheck.text_checks",                                 # is every number and sentence accounted for
}
_NAMES = {"headings": "anchor_list"}
__all__ = ["SENTENCE_REASONS", "Anchor", "AnchorList", "Chapter", "Claim", "Declared", "Figure", "Sentence", "Spec",
           "TextReport", "bookkeeping", "headings"]


assert sorted(__all__) == sorted(_WHERE)


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(import_module(_WHERE[name]), _NAMES.get(name, name))
    raise AttributeError(f"module 'claimcheck' has no attribute {name!r}")
