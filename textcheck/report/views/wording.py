"""What every view of the report says in the same words, as plain text each renderer escapes."""
from __future__ import annotations

from dataclasses import dataclass

from textcheck.report.assembly.merged import Accounting, Counts, Entry, SentenceCounts, Todo, typed

SMOKE = ("every trained recipe ran a handful of steps; these verdicts check that the tests run, and say "
         "nothing about the chapter.")

# an underspecified claim's erratum asks for the choice, never for new numbers
_FIGURES_HEAD = {False: "Refuted figures:", True: "Underspecified figures:"}
_UNDECIDED_HEAD = "Undecided figures (needs more seeds):"
_SUGGESTED_HEAD = {False: "Suggested sentence", True: "The chapter should say"}

# how a kind of the sentence walk (textcheck/sentences.py Accounted.kind) is named where it is not a reason
_UNACCOUNTED = {"unaccounted": "not accounted for", "ambiguous": "accounted for twice"}


@dataclass(frozen=True)
class Kinds:
    """A count of a text's numbers or sentences by kind, as the wording names two of its kinds: the
    asserted figures' numbers, the sentences that assert claims (the others are said by reason)."""
    figure: int | None = None
    asserts: int | None = None


def _by_reason(by_kind: dict[str, int], leave_out: tuple[str, ...]) -> str:
    rest = sorted(((k, v) for k, v in by_kind.items() if k not in leave_out), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{_UNACCOUNTED.get(k, k)} {v}" for k, v in rest) or "none"


# the figures' verdicts in the order and words every view states them (a count by verdict name)
_FIGURE_WORDS = (("holds", "hold"), ("refuted", "refuted"), ("underspecified", "underspecified"),
                 ("undecided", "undecided"), ("fails", "fail"), ("stale", "stale"), ("not run", "not run"))


def figure_counts(fs: dict) -> str:
    """The asserted figures by verdict (the figure summary, textcheck/verdicts.py): the one wording of
    them, in every view's header and in the accounting alike."""
    return (", ".join(f"{fs.get(k, 0)} {w}" for k, w in _FIGURE_WORDS)
            + f", of which {Counts.of(fs).device_specific} device-specific readings")


def figures_line(fs: dict) -> str:
    """The header's sentence of the figures' verdicts (chapter.html, chapter.md)."""
    return f"Figures: {figure_counts(fs)} (of {Counts.of(fs).total or 0})."


def accounting_line(acc: Accounting, fs: dict) -> str:
    """The numbers of the text, digits and words apart (textcheck/accounting.py), with the asserted
    figures' verdicts (the figure summary); or why they are not accounted (no text)."""
    if acc.numbers is None:
        return "The numbers of the chapter are not accounted here: " + (acc.not_built or "no chapter text")
    text = (f"The chapter's numbers: {acc.figures} asserted figures ({figure_counts(fs)}); {acc.numbers} numbers in "
            f"digits: {_in_figures(acc.by_kind)}")
    if acc.words is not None:           # the walk of number words (issue 34); an older accounting has none
        text += f"; {acc.words} numbers in words: {_in_figures(acc.words_by_kind or {})}"
    return text + "."


def _in_figures(by_kind: dict[str, int]) -> str:
    return f"{typed(Kinds, by_kind).figure or 0} in the asserted figures, the others by reason: {_by_reason(by_kind, ('figure',))}"


def sentences_line(counts: SentenceCounts) -> str:
    """The text's sentences (textcheck/sentences.py): how many assert claims, the rest by the
    reason declared for them, and its blocks (listings, printed tables and output, the title)."""
    if counts.sentences is None:
        return "The sentences of the chapter are not accounted here: " + (counts.not_built or "no chapter text")
    said = counts.sentences_by_kind
    text = (f"The chapter's sentences: {counts.sentences}, of which {typed(Kinds, said).asserts or 0} assert claims"
            + (f" ({counts.weakly_tested} weakly tested, {counts.untested} asserting without a test, by the "
               "falsification review)" if counts.weakly_tested is not None else "")
            + f"; the others by reason: {_by_reason(said, ('asserts',))}")
    return text + (f". Its blocks (listings, printed tables and output, the title): {counts.blocks}, by reason: "
                   f"{_by_reason(counts.blocks_by_kind, ())}.")


def suggestion(entry: Entry) -> str:
    """An erratum's suggested sentence, or why there is none yet."""
    return entry.suggested or "no suggested sentence yet: " + (entry.cause or "not yet diagnosed")


def figures_head(e: Entry) -> str:
    """The head of an erratum's list of figures (errata.md, index.html): refuted, underspecified or
    undecided."""
    return _UNDECIDED_HEAD if e.needs_seeds else _FIGURES_HEAD[bool(e.underspecified)]


def suggested_head(e: Entry) -> str:
    """The head of an erratum's suggested sentence (an underspecified claim's asks for the choice)."""
    return _SUGGESTED_HEAD[bool(e.underspecified)]


def author_todo(todo: Todo) -> str:
    """What the text's author has to do, in words (the report model's `todo`)."""
    e, c, m, o = todo.edits, todo.choices, todo.more_runs, todo.one_run
    return (f"For the author: {e} sentence{'s' if e != 1 else ''} or table line{'s' if e != 1 else ''} to change "
            f"(chapter.patch), {c} choice{'s' if c != 1 else ''} to state, {m} figure{'s' if m != 1 else ''} that "
            f"need{'s' if m == 1 else ''} more runs, and {o} that one run cannot show (no more seeds asked).")
