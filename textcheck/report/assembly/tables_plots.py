"""A plot (read and encoded once per render) and a table regenerated beside the text's, as the
report model holds them; a text's package builds its tables and draws its plots' files."""
from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textcheck.formats import cell


def data_uri(data: bytes, mime: str) -> str:
    """Bytes as a data: URI: each page stays one file, readable from file://."""
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


@dataclass(frozen=True)
class Plot:
    """A plot of the report (textcheck/report/assembly/report.py): its file (chapter.md links it) and its
    data: URI (index.html and chapter.html show it), the file read and encoded once per render."""
    path: Path
    uri: str

    @classmethod
    def read(cls, path: Path) -> Plot:
        return cls(path, data_uri(path.read_bytes(), "image/png"))

    @property
    def stem(self) -> str:
        return self.path.stem

    @property
    def name(self) -> str:
        return self.path.name



@dataclass(frozen=True)
class Source:
    """One piece of the evidence a table is built from: a run (its `seed`) or a claim's verdict
    (its `seeds`), its date and device, and its file."""
    file: str
    seed: int | None = None
    seeds: int | None = None
    date: Any = None
    device: str | None = None


@dataclass(frozen=True)
class Provenance:
    """What ours is, in words: the seeds, the dates, the devices and the files of its evidence."""
    seeds: str
    date: str
    device: str
    files: str


@dataclass
class Table:
    """One of the chapter's tables, regenerated: as data (header and rows), the chapter's figure
    each cell restates (figures: (row, column) -> figure ID, the cells the chapter quotes in its
    prose), and the evidence it is built from."""
    key: str                    # a stable name: the chapter view places the table by it
    title: str
    header: list[str]
    rows: list[list]
    figures: dict[tuple[int, int], str] = field(default_factory=dict)
    evidence: list[Source] = field(default_factory=list)
    # verbatim text shown before the grid, each (its label, the text): the two printed attention
    # maps, the chapter's and ours; then `grid` labels the grid that follows them
    listings: list[tuple[str, str]] = field(default_factory=list)
    grid: str = ""

    @property
    def cells(self) -> list[list[str]]:
        """The rows as the views show them: each value as a cell's text (textcheck/formats.py cell:
        a figure over seeds as its mean and sd, a number by the precision rule)."""
        return [[cell(v) for v in row] for row in self.rows]

    def provenance(self) -> Provenance:
        ev = self.evidence
        seeds = sorted({e.seed for e in ev if isinstance(e.seed, int)})
        counts = [e.seeds for e in ev if isinstance(e.seeds, int)]
        dates = sorted({str(e.date)[:10] for e in ev if e.date})
        return Provenance(", ".join(map(str, seeds)) if seeds else f"{max(counts)} per figure" if counts else "none",
                          dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}" if dates else "not run",
                          ", ".join(sorted({str(e.device) for e in ev if e.device})) or "none",
                          ", ".join(sorted({str(e.file) for e in ev if e.file})) or "nothing recorded")
