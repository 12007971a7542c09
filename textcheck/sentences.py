"""Every sentence of the chapter, accounted for as its numbers are (claims/accounting.py).

The walk: the chapter is cut into paragraphs at blank lines.  A paragraph that is not prose (a
code listing, a printed table or output, the title: more than one line, an indented first line,
or no sentence end) is one unit, a *block*, with the blocks right after it (a listing with blank
lines inside); a prose paragraph is cut into sentences after ".",
"?" or "!" (and any closing quote or footnote mark) where the next word starts a sentence.

Each unit is accounted for by one entry of claims/sentence_table.py: a verbatim anchor, unique
in the chapter and inside that unit, with either the claim IDs it asserts (claims/registry.py)
or a reason it asserts nothing: setup, context, history, rhetoric, cross-reference, code, or a
caption.  claims/bookkeeping/test_bookkeeping.py fails on a unit with no entry, or with two, and names it.
Pure: no torch, no pytest.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from textcheck.anchors import Anchor, AnchorList, index_of


@dataclass(frozen=True)
class Sentence:
    """One entry of a text's sentence table (a text may bring its own type with these fields)."""
    anchor: str                   # verbatim, unique in the text, inside one unit
    claims: tuple[str, ...] = ()  # the claim IDs it asserts
    reason: str = ""              # or why it asserts nothing: a reason of SENTENCE_REASONS
    why: str = ""                 # the reason's detail, where one helps


SENTENCE_REASONS = {
    "setup": "states what was trained or measured, and how; the figures it fixes are declared among the text's numbers",
    "context": "explains, motivates or introduces what a neighbouring sentence asserts",
    "history": "who did what when, outside this chapter's measurements",
    "rhetoric": "a transition, an emphasis or a judgement with nothing to measure",
    "cross-reference": "points to another chapter of the course or to another source",
    "code": "a listing, a printed output or table, or a template, whose figures are anchored cell by cell",
    "caption": "introduces a table or a listing the chapter prints (or omits) right after it",
}

# a sentence ends at . ? or ! (then closing quotes, brackets or footnote marks) before a space
# and a word that can start a sentence; "et al." and decimals never end one
_END = re.compile(r"(?<!\bal)(?<!\be\.g)(?<!\bi\.e)[.?!][\"')\u201d\u2019\u00b9\u00b2\u00b3\u2070-\u2079]*(?=\s+[A-Z$\"\u201c'(\u2018\u2026\d])")
_SENTENCE_END = re.compile(r"[.?!:][\"')\u201d\u2019\u00b9\u00b2\u00b3\u2070-\u2079]*\s*$")


@dataclass(frozen=True)
class Unit:
    start: int
    end: int
    text: str
    block: bool          # a listing, table, output or the title, kept whole

    def context(self, text: str, width: int = 90) -> str:
        line = text.count("\n", 0, self.start) + 1
        shown = self.text if len(self.text) <= width else self.text[:width] + "..."
        return f"line {line}: {shown!r}"


# a template's slot ("a {noun} with {slots}"), never LaTeX's braces ("\\mathbf{h}")
_SLOT = re.compile(r"(?:^|\s)\{[a-z]+\}(?=\s|$)")


def is_prose(paragraph: str) -> bool:
    """A paragraph of sentences: one line, not indented, ending as a sentence ends, and not a
    template with slots; anything else (a listing, a table, an output, the title) is a block."""
    return ("\n" not in paragraph and not paragraph[:1].isspace() and bool(_SENTENCE_END.search(paragraph))
            and not _SLOT.search(paragraph))


def units(text: str) -> list[Unit]:
    """The chapter's sentences and blocks, in order."""
    out = []
    for m in re.finditer(r"[^\n](?:.|\n(?!\s*\n))*", text):
        para, at = m.group().rstrip(), m.start()
        if not is_prose(para):
            if out and out[-1].block and not text[out[-1].end:at].strip():   # one listing, blank lines inside
                at = out.pop().start
            out.append(Unit(at, m.start() + len(para), text[at:m.start() + len(para)], True))
            continue
        start = 0
        for end in _END.finditer(para):
            out.append(Unit(at + start, at + end.end(), para[start:end.end()], False))
            start = end.end() + (len(para[end.end():]) - len(para[end.end():].lstrip()))
        if start < len(para):
            out.append(Unit(at + start, at + len(para), para[start:], False))
    return out


@dataclass(frozen=True)
class Accounted:
    unit: Unit
    entries: tuple  # exactly one when accounted for

    @property
    def claims(self) -> tuple[str, ...]:
        return tuple(c for e in self.entries for c in e.claims)

    @property
    def kind(self) -> str:
        """"asserts", a reason of SENTENCE_REASONS, "unaccounted", or "ambiguous" (two entries)."""
        if len(self.entries) != 1:
            return "unaccounted" if not self.entries else "ambiguous"
        return "asserts" if self.entries[0].claims else self.entries[0].reason


def accounted(text: str, table) -> list[Accounted]:
    """Every unit of the chapter with the entries of the table whose anchor it holds."""
    us = units(text)
    starts = [u.start for u in us]
    found: dict[int, list[Sentence]] = {}
    index = index_of(text)
    for n, s in enumerate(table):
        at = index.locate(Anchor(s.anchor, "sentences", f"#{n}"))
        i = max(k for k, st in enumerate(starts) if st <= at)
        if at + len(s.anchor) > us[i].end:
            raise ValueError(f"sentence anchor {s.anchor!r} runs past its sentence {us[i].text!r}")
        found.setdefault(i, []).append(s)
    return [Accounted(u, tuple(found.get(i, ()))) for i, u in enumerate(us)]


def problems(text: str, table, known_claims, reasons=SENTENCE_REASONS) -> list[str]:
    """What is wrong with the sentence table, one line each: a unit with no entry or two, an
    unknown claim ID, an unknown reason."""
    out = []
    for a in accounted(text, table):
        if a.kind == "unaccounted":
            out.append(f"not accounted for: {a.unit.context(text)}")
        elif a.kind == "ambiguous":
            out.append(f"accounted for twice: {a.unit.context(text)}")
        for e in a.entries:
            unknown = [c for c in e.claims if c not in known_claims]
            if unknown:
                out.append(f"unknown claim ID(s) {unknown} for {e.anchor!r}")
            if not e.claims and e.reason not in reasons:
                out.append(f"neither claims nor a known reason for {e.anchor!r} (reason {e.reason!r})")
            if e.claims and e.reason:
                out.append(f"both claims and a reason for {e.anchor!r}")
    return out


def counts_of(accounted_units: list[Accounted], strength: Mapping[str, str] | None = None) -> dict:
    """The counts the report states, from one walk: units, sentences and blocks, each by kind
    ("asserts" or a reason), and the units a falsification review finds "weakly tested" or
    "untested" (`strength`: the text's Chapter.strength, by anchor)."""
    def by_kind(units) -> dict[str, int]:
        return dict(Counter(a.kind for a in units))
    said = [a for a in accounted_units if not a.unit.block]
    blocks = [a for a in accounted_units if a.unit.block]
    reviewed = [(strength or {}).get(e.anchor) for a in accounted_units for e in a.entries]
    return {"units": len(accounted_units), "sentences": len(said), "blocks": len(blocks),
            "by kind": by_kind(accounted_units), "sentences by kind": by_kind(said), "blocks by kind": by_kind(blocks),
            "weakly tested": reviewed.count("weakly tested"), "untested": reviewed.count("untested")}


def counts(text: str, table) -> dict:
    """counts_of the chapter's walk."""
    return counts_of(accounted(text, table))


def stale_sentences(text: str, table) -> list[str]:
    """`  sentences #n: anchor '...' not found` for every entry an altered text breaks (the anchor
    index's stale report of the list)."""
    return index_of(text).stale_report([AnchorList.of("sentences", table)])
