"""What every view of the report says in the same words: the smoke banner, the figures' verdicts,
the accounting of the chapter's numbers (in digits and in words) and of its sentences, an
erratum's heads and suggestion.  Plain text: each renderer
escapes it for its page (claims.md, index.html, chapter.html, chapter.md)."""
from __future__ import annotations

SMOKE = ("every trained recipe ran a handful of steps; these verdicts check that the tests run, and say "
         "nothing about the chapter.")

# an underspecified claim's erratum asks for the choice, never for new numbers
_FIGURES_HEAD = {False: "Refuted figures:", True: "Underspecified figures:"}
_UNDECIDED_HEAD = "Undecided figures (needs more seeds):"
_SUGGESTED_HEAD = {False: "Suggested sentence", True: "The chapter should say"}

# how a kind of the sentence walk (textcheck/sentences.py Accounted.kind) is named where it is not a reason
_UNACCOUNTED = {"unaccounted": "not accounted for", "ambiguous": "accounted for twice"}


def _by_reason(by_kind: dict[str, int], leave_out: tuple[str, ...]) -> str:
    rest = sorted(((k, v) for k, v in by_kind.items() if k not in leave_out), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{_UNACCOUNTED.get(k, k)} {v}" for k, v in rest) or "none"


def figure_counts(fs: dict) -> str:
    """The asserted figures by verdict (the figure summary, textcheck/verdicts.py): the one wording of
    them, in every view's header and in the accounting alike."""
    return (f"{fs.get('holds', 0)} hold, {fs.get('refuted', 0)} refuted, {fs.get('underspecified', 0)} underspecified, "
            f"{fs.get('undecided', 0)} undecided, {fs.get('fails', 0)} fail, "
            f"{fs.get('stale', 0)} stale, {fs.get('not run', 0)} not run, of which {fs.get('device-specific', 0)} "
            "device-specific readings")


def figures_line(fs: dict) -> str:
    """The header's sentence of the figures' verdicts (chapter.html, chapter.md)."""
    return f"Figures: {figure_counts(fs)} (of {fs.get('total', 0)})."


def accounting_text(acc: dict, fs: dict) -> str:
    """The numbers of the chapter, digits and words apart (claims/accounting.py accounting), with
    the asserted figures' verdicts (the figure summary)."""
    figures = f"{acc['figures']} asserted figures ({figure_counts(fs)})"
    digits = acc["by kind"]
    text = (f"The chapter's numbers: {figures}; {acc['numbers']} numbers in digits: {digits.get('figure', 0)} in the "
            f"asserted figures, the others by reason: {_by_reason(digits, ('figure',))}")
    if "words" in acc:                  # the walk of number words (issue 34); an older accounting has none
        words = acc.get("words by kind") or {}
        text += (f"; {acc['words']} numbers in words: {words.get('figure', 0)} in the asserted figures, the "
                 f"others by reason: {_by_reason(words, ('figure',))}")
    return text


def accounting_line(acc: dict, fs: dict) -> str:
    """The accounting as a view states it, or why there is none (no chapter text)."""
    if "numbers" not in acc:
        return "The numbers of the chapter are not accounted here: " + (acc.get("not built") or "no chapter text")
    return accounting_text(acc, fs) + "."


def sentences_line(counts: dict) -> str:
    """The chapter's sentences (textcheck/sentences.py): how many assert claims, the rest by the
    reason declared for them, and its blocks (listings, printed tables and output, the title)."""
    if "sentences" not in counts:
        return "The sentences of the chapter are not accounted here: " + (counts.get("not built") or "no chapter text")
    said = counts["sentences by kind"]
    text = (f"The chapter's sentences: {counts['sentences']}, of which {said.get('asserts', 0)} assert claims"
            + (f" ({counts['weakly tested']} weakly tested, {counts['untested']} asserting without a test, by the "
               "falsification review)" if "weakly tested" in counts else "")
            + f"; the others by reason: {_by_reason(said, ('asserts',))}")
    return text + (f". Its blocks (listings, printed tables and output, the title): {counts['blocks']}, by reason: "
                   f"{_by_reason(counts['blocks by kind'], ())}.")


def suggestion(entry: dict) -> str:
    """An erratum's suggested sentence, or why there is none yet."""
    return entry.get("suggested") or "no suggested sentence yet: " + (entry.get("cause") or "not yet diagnosed")


def figures_head(e: dict) -> str:
    """The head of an erratum's list of figures (errata.md, index.html): refuted, underspecified or
    undecided."""
    return _UNDECIDED_HEAD if e.get("needs_seeds") else _FIGURES_HEAD[bool(e.get("underspecified"))]


def suggested_head(e: dict) -> str:
    """The head of an erratum's suggested sentence (an underspecified claim's asks for the choice)."""
    return _SUGGESTED_HEAD[bool(e.get("underspecified"))]


def author_todo(todo: dict) -> str:
    """What the chapter's author has to do, in words (the report model's `todo`)."""
    e, c, m, o = (todo.get(k, 0) for k in ("edits", "choices", "more runs", "one run"))
    return (f"For the author: {e} sentence{'s' if e != 1 else ''} or table line{'s' if e != 1 else ''} to change "
            f"(chapter.patch), {c} choice{'s' if c != 1 else ''} to state, {m} figure{'s' if m != 1 else ''} that "
            f"need{'s' if m == 1 else ''} more runs, and {o} that one run cannot show (no more seeds asked).")
