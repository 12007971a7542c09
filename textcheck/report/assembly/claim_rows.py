"""The claim table as data, built once per render (textcheck/report/assembly/report.py) and shown by claims.md
and index.html alike: by section, a row per claim (the chapter, ours, the tolerance, the verdict,
the source), then a row per test, that is per figure it checks.  Every cell is plain text (a
recorded value through textcheck/formats.py cell); each renderer escapes it for its page."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from textcheck.formats import cell
from textcheck.verdicts import DECIDED, outcome_label, verdict_label

NOT_RECORDED = "(not recorded)"


@dataclass(frozen=True)
class FigureCheck:
    """One test of a claim: the figure it checks, the chapter's, ours, the tolerance, its outcome."""
    name: str
    stated: str
    measured: str
    tolerance: str
    outcome: str          # its label (textcheck/verdicts.py outcome_label)
    why: str              # the reason, where it does not hold
    source: str
    kind: str             # the outcome's first word, a CSS class: holds, refuted, not-run, stale, ...


@dataclass(frozen=True)
class ClaimRow:
    id: str
    statement: str
    stated: str
    measured: str
    tolerance: str
    verdict: str          # holds, refuted, fails, stale, not run, not encoded
    label: str            # the verdict and what it does not say alone (textcheck/verdicts.py verdict_label)
    why: str              # the reason, where it does not hold
    source: str           # where a decided verdict's evidence comes from
    tests: tuple[FigureCheck, ...]


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    claims: tuple[ClaimRow, ...]
    counts: dict[str, int]           # its claims per verdict, counted once (the badges, the placeholder page)

    @property
    def holds(self) -> int:
        return self.counts.get("holds", 0)

    @property
    def size(self) -> int:
        """How many claims the section has (the views count none)."""
        return len(self.claims)


def figure_name(t: dict) -> str:
    """What a test checks, in the words its record gives (its label, stored as 'figure'), else its test id."""
    rec = t["records"][0] if t.get("records") else {}
    return str(rec.get("figure") or t["nodeid"].split("::", 1)[-1])


def _figure_check(chapter, t: dict) -> FigureCheck:
    rec = t["records"][0] if t.get("records") else {}
    recorded = [cell(rec[k]) if rec.get(k) is not None else NOT_RECORDED for k in ("stated", "measured", "tolerance")]
    outcome = outcome_label(chapter, t)
    return FigureCheck(figure_name(t), *recorded, outcome, (t.get("reason") or "") if outcome != "holds" else "",
                   f"{t.get('source')}: {t.get('tier')}, {t.get('device')}, {str(t.get('timestamp'))[:10]}",
                   outcome.split(":")[0].replace(" ", "-"))


def _claim_row(chapter, c: dict) -> ClaimRow:
    source = ""
    if c["verdict"] in DECIDED:
        source = (f"{c.get('source')}: {c.get('tier')}, {c.get('device')}, seeds {c.get('seeds')}, "
                  f"{str(c.get('timestamp'))[:10]}, torch {c.get('torch')}")
    tests = tuple(_figure_check(chapter, t) for t in sorted(c.get("tests", []), key=lambda t: t["nodeid"]))
    return ClaimRow(c["id"], c["statement"], cell(c["stated"]), cell(c["measured"]), cell(c["tolerance"]),
                    c["verdict"], verdict_label(chapter, c), (c.get("reason") or "") if c["verdict"] != "holds" else "",
                    source, tests)


def claim_table(chapter, claims: list[dict]) -> list[Section]:
    """The merged report's claims by section, in the report's order (`chapter`: the Chapter,
    textcheck/chapter.py: its sections' titles, its claims' labels)."""
    by_section: dict[str, list[dict]] = {}
    for c in claims:
        by_section.setdefault(c["section"], []).append(c)
    return [Section(key, chapter.sections.get(key, key), tuple(_claim_row(chapter, c) for c in cs),
                    dict(Counter(c["verdict"] for c in cs))) for key, cs in by_section.items()]


@dataclass(frozen=True)
class FigureLine:
    """One row of the figure table (index.html), as text: the figure, its claim, the number as
    printed, ours and the tolerance as cells, its verdict's label and kind, its test's name."""
    id: str
    claim: str
    printed: str
    measured: str
    tolerance: str
    label: str
    kind: str             # the label's first word: holds, refuted, not run, ...
    test: str


def figure_lines(figures: list[dict]) -> list[FigureLine]:
    """The figure rows (textcheck/merging.py figure_rows) as the figure table shows them."""
    return [FigureLine(f["id"], f["claim"], f["printed"], cell(f.get("measured")), cell(f.get("tolerance")),
                       f["label"], f["label"].split(":")[0], (f.get("test") or "").split("::")[-1]) for f in figures]
