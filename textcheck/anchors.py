"""One anchor index per text: where every quote of every list stands, whether it stands once,
and one report of every quote an altered text breaks.

A text is quoted by several lists (its figures and reads, its declared numbers and words, its
sentences; a report's places, formulas, headings and errata quotes): each entry of each list is
an `Anchor`, the verbatim quote with the list's name and the entry's ID.  `index_of(text)` is the
one `AnchorIndex` of a text, built once and asked by every lookup: it finds each quote once
(memoised) and has ONE behaviour for a quote that is not there or is there twice, whatever the
list: `AnchorError` (a ValueError) naming the list, the ID and the quote.  No list takes a "first
occurrence": every quote of every list stands exactly once in its text.  `problems(lists)` and
`stale_report(lists)` name every missing or doubled quote of every list at once (what an altered
text's error lists).  Knows no text of its own.  Pure: no pytest.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any


@dataclass(frozen=True)
class Anchor:
    """A verbatim quote of a text and what quotes it: the list's name and the entry's ID there."""
    quote: str
    list: str            # "figures", "reads", "declared", "sentences", "places", ...
    id: str              # the entry's ID in that list (a figure ID; else its position, "#12")

    def __str__(self) -> str:
        return f"{self.list} {self.id}"

    def located(self, text: str) -> int:
        """Where the quote stands in `text`, by the text's one anchor index (`index_of`);
        AnchorError where it is missing or doubled."""
        return index_of(text).locate(self)


@dataclass(frozen=True)
class AnchorList:
    """A named list of a text's quotes, each an Anchor of this list."""
    name: str
    anchors: tuple[Anchor, ...]

    @classmethod
    def of(cls, name: str, entries: Iterable[Any], quote: Callable[[Any], str] = lambda e: e.anchor,
           ident: Callable[[int, Any], str] = lambda i, e: f"#{i}") -> AnchorList:
        """A list of quotes from a table's entries: each entry's quote (its `.anchor`) and its ID (its
        position in the list, `#0`, unless `ident` reads one); an entry with no quote quotes nothing."""
        return cls(name, tuple(Anchor(quote(e), name, ident(i, e)) for i, e in enumerate(entries) if quote(e)))


@dataclass(frozen=True)
class Problem:
    """A quote that does not stand exactly once in the text: `found` times."""
    anchor: Anchor
    found: int

    def __str__(self) -> str:
        where = "not in" if self.found == 0 else f"not unique in (found {self.found} times)"
        return f"{self.anchor}: the anchor {self.anchor.quote!r} is {where} the chapter"

    def line(self) -> str:
        """One line of an altered text's report: `  figures norm.prenorm: anchor '...' not found`."""
        said = "not found" if self.found == 0 else f"found {self.found} times"
        return f"  {self.anchor}: anchor {self.anchor.quote!r} {said}"


class AnchorError(ValueError):
    """The one error for a quote that is missing from its text or stands there twice; names the
    list, the ID and the quote of each (`problems`)."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class AnchorIndex:
    """Where each quote stands in one text (every occurrence, overlapping ones too), found once."""

    def __init__(self, text: str):
        self.text = text
        self._at: dict[str, tuple[int, ...]] = {}

    def positions(self, quote: str) -> tuple[int, ...]:
        """Every place the quote starts in the text, in order (memoised: each quote searched once)."""
        if quote not in self._at:
            out, at = [], self.text.find(quote)
            while at >= 0 and quote:
                out.append(at)
                at = self.text.find(quote, at + 1)
            self._at[quote] = tuple(out)
        return self._at[quote]

    def problem(self, anchor: Anchor) -> Problem | None:
        n = len(self.positions(anchor.quote))
        return None if n == 1 else Problem(anchor, n)

    def locate(self, anchor: Anchor) -> int:
        """Where the quote stands, once; AnchorError if it is missing or doubled."""
        p = self.problem(anchor)
        if p is not None:
            raise AnchorError([p])
        return self.positions(anchor.quote)[0]

    def span(self, anchor: Anchor) -> tuple[int, int]:
        at = self.locate(anchor)
        return at, at + len(anchor.quote)

    def problems(self, lists: Iterable[AnchorList]) -> list[Problem]:
        """Every missing or doubled quote of every list, at once, in the lists' order."""
        return [p for lst in lists for a in lst.anchors if (p := self.problem(a)) is not None]

    def stale_report(self, lists: Iterable[AnchorList]) -> list[str]:
        """One line per quote an altered text breaks, of every list (`Problem.line`)."""
        return [p.line() for p in self.problems(lists)]

    def check(self, lists: Iterable[AnchorList]) -> None:
        """Raises one AnchorError naming every missing or doubled quote of every list."""
        found = self.problems(lists)
        if found:
            raise AnchorError(found)


@lru_cache(maxsize=8)
def index_of(text: str) -> AnchorIndex:
    """The one index of a text: the same object for the same text, however often it is asked."""
    return AnchorIndex(text)
