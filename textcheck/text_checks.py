"""A text's bookkeeping, checked the same way for every text: every figure's anchor stands in the
text once with its printed number, every number of the text is a figure or declared with its
reason (one of the reasons there are, textcheck/declared.py), every sentence asserts its claims or
says why it asserts none, and every claim is asserted by a sentence.  A text's tests call
`bookkeeping` (the example's test_text.py, this chapter's claims/bookkeeping/test_bookkeeping.py)."""
from __future__ import annotations

from textcheck import accounting, sentences
from textcheck.chapter import Chapter
from textcheck.declared import NUMBER_REASONS


def bookkeeping(chapter: Chapter, text: str) -> dict[str, list[str]]:
    """{"figures" | "numbers" | "sentences" | "claims": a line per problem}; every list empty when
    the text is accounted for."""
    asserted = {c for a in sentences.accounted(text, chapter.sentences) for c in a.claims}
    return {
        "figures": [f"{f.id}: its anchor is not in the text once with its printed number"
                    for f in chapter.figures.values() if f.located(text) < 0 or not f.printed_in_anchor()],
        "numbers": [n.context(text) for n in accounting.numbers(text, chapter) if not n.kind]
                   + [f"{anchor!r}: declared for {reason!r}, none of the reasons a number is declared for "
                      f"({', '.join(NUMBER_REASONS)})" for anchor, reason in _declared(chapter) if reason not in NUMBER_REASONS],
        "sentences": sentences.problems(text, chapter.sentences, chapter.claims),
        "claims": [f"{c}: no sentence of the text asserts it" for c in sorted(set(chapter.claims) - asserted)]
                  + [f"{c}: asserted by a sentence, but not a claim of the text" for c in sorted(asserted - set(chapter.claims))],
    }


def _declared(chapter: Chapter) -> list[tuple[str, str]]:
    """(anchor or pattern, reason) of every number the text declares."""
    return [(d.anchor, d.reason) for d in chapter.declared] + [(p, r) for p, r, _ in chapter.declared_patterns]
