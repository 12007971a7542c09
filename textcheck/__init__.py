"""textcheck: a text's quantitative claims as pytest tests, and the report of which still hold.

The engine knows no text of its own.  A text's package builds one `Chapter` (textcheck/chapter.py:
its text and checksum, figures, reads, claims and sections, declared numbers and words, sentences,
rule inputs, measurements' versions, places, errata, tables, plots and timed figures) and hands it
to the engine through one entry: the pytest hook `pytest_textcheck_chapter(config)` (declared in
textcheck/hooks.py, implemented by the project's conftest.py), and, for a command, as the first
argument of its `main`.  Every function here that needs the text's tables takes the Chapter as an
argument.  The engine imports no package of a text (an import-linter `forbidden` contract).

The public face: the names a text needs to define itself, check its bookkeeping, decide a figure
in a test, run the engine's commands from its own, read and write its evidence and give its
report's parts, exported here and
imported from here alone by a text (the example's packages and this chapter's alike: one
import-linter contract in pyproject.toml forbids them every other module of the engine).  Each is
loaded on first use (PEP 562), so that importing the engine costs nothing until a name is asked for.
"""
from importlib import import_module

_WHERE = {
    "Chapter": "textcheck.chapter", "Claim": "textcheck.chapter",         # a text, and each of its claims
    "DECIDED": "textcheck.vocabulary",                                      # the verdicts that decide a claim
    "Figure": "textcheck.figures",                                          # a printed figure
    "Declared": "textcheck.declared",                                       # a number that is no figure, and why
    "Sentence": "textcheck.sentences",                                      # a sentence, and the claims it asserts or why none
    "Anchor": "textcheck.anchors", "AnchorList": "textcheck.anchors",     # a quote of the text, and a list of them
    "headings": "textcheck.report.assembly.chapter_view.contents",                 # the chapter view's headings, as anchors
    "Spec": "textcheck.specs",                                              # a figure's rule inputs
    "DeclaredReading": "textcheck.readings",  # a reading of an open choice, declared before it is measured
    "RunRecord": "textcheck.records", "RunRecords": "textcheck.chapter",  # a trained run's record, and a text's
    "TextReport": "textcheck.commands",                                     # a text's own parts of its report
    "Place": "textcheck.report.assembly.chapter_view.places",               # where its chapter view shows one of ours
    "Table": "textcheck.report.assembly.tables_plots", "Source": "textcheck.report.assembly.tables_plots",  # a table of its
    "command": "textcheck.text_command",          # the engine's rederive or convert, run by a text's own command module
    "bookkeeping": "textcheck.text_checks",                                 # is every number and sentence accounted for
    "rules": "textcheck.decide",              # the decision rule, pure functions a test calls: rules.within(...)
    "printing": "textcheck.formats",          # how a value prints: a figure's seeds (printing.over_seeds), mean ± sd
    "evidence_store": "textcheck.store",      # the one reader of JSON evidence, a text's own files' too, and the save lock
    "saving": "textcheck.save",               # a run's verdicts and evidence, or a text's own files, saved into results/
    # the committed evidence as a text's own command reads it: read once, or read where its re-derivation accepts it all
    "read_evidence": "textcheck.rederive", "accepted_evidence": "textcheck.rederive",
    "record_key": "textcheck.verdicts",       # the key a test's record is committed under
}
_NAMES = {"headings": "anchor_list", "read_evidence": "committed", "accepted_evidence": "accepted"}
_MODULES = {"rules", "printing", "evidence_store", "saving"}    # a name that is a module of the engine, handed over whole
__all__ = [
    "DECIDED",
    "Anchor",
    "AnchorList",
    "Chapter",
    "Claim",
    "Declared",
    "DeclaredReading",
    "Figure",
    "Place",
    "RunRecord",
    "RunRecords",
    "Sentence",
    "Source",
    "Spec",
    "Table",
    "TextReport",
    "accepted_evidence",
    "bookkeeping",
    "command",
    "evidence_store",
    "headings",
    "printing",
    "read_evidence",
    "record_key",
    "rules",
    "saving",
]


assert sorted(__all__) == sorted(_WHERE)


def __getattr__(name: str):
    if name in _MODULES:
        return import_module(_WHERE[name])
    if name in _WHERE:
        return getattr(import_module(_WHERE[name]), _NAMES.get(name, name))
    raise AttributeError(f"module 'textcheck' has no attribute {name!r}")
