"""The report model's data shapes shared by its views: a plot (read and encoded once per render)
and a table regenerated beside the text's (header and rows, the figures its cells restate, the
evidence it is built from).  A text's package builds its tables and draws its plots' files; the
report model holds them, and the views show them."""
from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path

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



@dataclass
class Table:
    """One of the chapter's tables, regenerated: as data (header and rows), the chapter's figure
    each cell restates (figures: (row, column) -> figure ID, the cells the chapter quotes in its
    prose), and the evidence it is built from (each: seed or seeds, date, device, file)."""
    key: str                    # a stable name: the chapter view places the table by it
    title: str
    header: list[str]
    rows: list[list]
    figures: dict[tuple[int, int], str] = field(default_factory=dict)
    evidence: list[dict] = field(default_factory=list)
    # verbatim text shown before the grid, each (its label, the text): the two printed attention
    # maps, the chapter's and ours; then `grid` labels the grid that follows them
    listings: list[tuple[str, str]] = field(default_factory=list)
    grid: str = ""

    @property
    def cells(self) -> list[list[str]]:
        """The rows as the views show them: each value as a cell's text (textcheck/formats.py cell:
        a figure over seeds as its mean and sd, a number by the precision rule)."""
        return [[cell(v) for v in row] for row in self.rows]

    def provenance(self) -> dict[str, str]:
        """What ours is: the seeds, the dates, the devices and the files of its evidence."""
        ev = self.evidence
        seeds = sorted({e["seed"] for e in ev if isinstance(e.get("seed"), int)})
        counts = [e["seeds"] for e in ev if isinstance(e.get("seeds"), int)]
        dates = sorted({str(e["date"])[:10] for e in ev if e.get("date")})
        return {"seeds": (", ".join(map(str, seeds)) if seeds else f"{max(counts)} per figure" if counts else "none"),
                "date": (dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}" if dates else "not run"),
                "device": ", ".join(sorted({str(e["device"]) for e in ev if e.get("device")})) or "none",
                "from": ", ".join(sorted({str(e["file"]) for e in ev if e.get("file")})) or "nothing recorded"}
