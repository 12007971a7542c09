"""The errata as a patch an author can paste: every suggested edit applied to the chapter.

`python -m claims.report` writes `chapter.patch` (a unified diff, a/chapter.txt -> b/chapter.txt)
and `chapter.patched.txt`.  Applying the suggestions is how they are verified: an edit is a
verbatim span of the chapter and what stands there instead, so a span that is not found exactly
once cannot be applied and is an error naming its claim, never skipped.  The rules a suggestion
keeps (docs/figure-rule.md, errata that stay true) are checked here too, on every edit:
  - it changes only the numbers of refuted figures: a figure that holds, is undecided or is
    underspecified keeps the chapter's printed number wherever its span falls inside the edit;
  - every number it adds is a measured one (errata/spread.py `Num`), printed with at most two
    significant digits of its spread; a number the chapter did not print and no measurement backs
    is refused, so nothing is typed into the chapter by hand.
Imports no torch."""
from __future__ import annotations

import difflib
import itertools
import re
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from claims.chapter_figures import FIGURES
from claims.report.errata.spread import Edit, supported_decimals
from textcheck import Figure

if TYPE_CHECKING:
    from textcheck.report.assembly.merged import Entry, FigureRow


class PatchError(ValueError):
    """A suggestion that cannot be applied or breaks a rule: each problem names its claim."""


def figure_verdicts(figure_rows: Sequence[FigureRow]) -> dict[str, str]:
    """Each figure's verdict by its ID (the report model's figure rows)."""
    return {r.id: r.verdict for r in figure_rows}


def _tokens(text: str) -> list[str]:
    return [m.group() for m in Figure.NUMBER.finditer(text)]


def too_precise(token: str, decimals: int | None) -> bool:
    """A printed number shows more digits than `decimals` (spread.py supported_decimals) allows:
    more decimals, or, where the spread is in the tens or hundreds, digits below it not rounded away."""
    digits = token.replace(",", "")
    if decimals is None:
        return False
    if decimals >= 0:
        return (len(digits.split(".")[1]) if "." in digits else 0) > decimals
    return "." in digits or int(digits) % 10 ** -decimals != 0


def inside(text: str, start: int, end: int) -> list[str]:
    """The figures whose printed number stands between start and end of the text."""
    out = []
    for fid, f in FIGURES.items():
        try:
            at = f.span(text)[0]
        except ValueError:                      # an anchor the figure table's own test reports
            continue
        if start <= at < end:
            out.append(fid)
    return out


def problems(text: str, edits: dict[str, list[Edit]], verdict: dict[str, str]) -> list[str]:
    """Every rule an edit breaks, each naming its claim (and figure); [] when all may be applied."""
    out = []
    for cid, those in edits.items():
        for e in those:
            found = text.count(e.quote)
            if found != 1:
                out.append(f"{cid}: its quote {e.quote[:60]!r} is found {found} times in the chapter, not once")
                continue
            start = text.find(e.quote)
            for fid in inside(text, start, start + len(e.quote)):
                v, printed = verdict.get(fid, "not run"), FIGURES[fid].printed
                if v != "refuted" and not re.search(rf"(?<![\w.]){re.escape(printed)}(?![\w]|\.\d)", e.text):
                    out.append(f"{cid}: changes {fid} ({printed}), whose figure {v}; only a refuted number may change")
            allowed = set(_tokens(e.quote))
            for c in e.cites:                   # the chapter's own setup, repeated: it must be the chapter's
                if c not in _tokens(text):
                    out.append(f"{cid}: cites {c} as the chapter's, which the chapter does not print")
                allowed.add(c)
            for n in e.numbers:
                if n.figure and verdict.get(n.figure) != "refuted":
                    out.append(f"{cid}: prints a measured number for {n.figure}, whose figure "
                               f"{verdict.get(n.figure, 'is not run')}; only a refuted number may change")
                shown = _tokens(str(n))
                d = 0 if n.how == "count" else supported_decimals(_sd(n.values, n.percent))
                out += [f"{cid}: prints {t} for {n.figure or 'a measurement'} with more digits than its spread supports"
                        for t in shown if too_precise(t, d)]
                allowed |= set(shown)
            out += [f"{cid}: prints {t}, which is neither the chapter's nor a measured number"
                    for t in _tokens(e.text) if t not in allowed]
    return out


def _sd(values, percent: bool) -> float | None:
    v = [100 * x for x in values] if percent else list(values)
    return statistics.stdev(v) if len(v) > 1 else None


def apply(text: str, edits: dict[str, list[Edit]]) -> str:
    """The chapter with every edit applied (one edit several claims share, once); overlapping
    edits of different text are an error naming both claims."""
    placed: dict[tuple[int, int], tuple[str, Edit]] = {}
    for cid, those in edits.items():
        for e in those:
            start = text.find(e.quote)
            placed.setdefault((start, start + len(e.quote)), (cid, e))
    ordered = sorted(placed.items())
    for ((_, end), (a, ea)), ((start, _), (b, eb)) in itertools.pairwise(ordered):
        if start < end:
            raise PatchError(f"{a} and {b}: their suggested edits overlap ({ea.quote[:40]!r}, {eb.quote[:40]!r})")
    out, at = [], 0
    for (start, end), (_, e) in ordered:
        out += [text[at:start], e.text]
        at = end
    return "".join(out + [text[at:]])


def build(text: str, entries: Sequence[Entry], verdict: dict[str, str]) -> tuple[str, str]:
    """The patched chapter and its unified diff; PatchError naming every problem."""
    edits = {e.id: list(e.edits) for e in entries if e.edits}
    wrong = problems(text, edits, verdict)
    if wrong:
        raise PatchError("the suggested sentences cannot be applied to the chapter:\n  " + "\n  ".join(wrong))
    patched = apply(text, edits)
    diff = difflib.unified_diff(text.splitlines(keepends=True), patched.splitlines(keepends=True),
                                "a/chapter.txt", "b/chapter.txt")
    # the chapter's last line may lack its newline: said so, as diff(1) does, or the patch would not apply
    return patched, "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in diff)


def write(out: Path, text: str, entries: Sequence[Entry], verdict: dict[str, str]) -> list[Path]:
    """chapter.patch and chapter.patched.txt in `out`."""
    patched, diff = build(text, entries, verdict)
    (out / "chapter.patched.txt").write_text(patched, encoding="utf-8")
    (out / "chapter.patch").write_text(diff, encoding="utf-8")
    return [out / "chapter.patch", out / "chapter.patched.txt"]
