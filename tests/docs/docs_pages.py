"""The manual's pages as the docs tests read them (tests/docs/test_docs_numbers.py, tests/docs/test_docs_commands.py):
README.md, docs/*.md and benchmarks/README.md, split into what is code (fenced blocks, indented
blocks, inline code), what is generated (the blocks `python -m claims.report --readme` writes) and
the prose between, in units (a heading, a paragraph, a list item, a table row)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from claims.report.readme import README_BLOCKS

ROOT = Path(__file__).resolve().parent.parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "benchmarks" / "README.md"]

FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
INLINE = re.compile(r"`([^`\n]+)`")
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
LINK_TARGET = re.compile(r"\]\([^)\s]*\)|<https?://[^>\s]*>|https?://\S+")
ITEM = re.compile(r"[ \t]*(?:[-*+]|\d+\.)[ \t]")


def _blank(text: str, start: int, end: int) -> str:
    """text with [start, end) replaced by spaces, its newlines kept: offsets and lines stay put."""
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


@dataclass(frozen=True)
class Unit:
    """A heading, a paragraph, a list item (with its continuation lines) or a table row."""
    kind: str            # "heading", "paragraph", "item", "row"
    start: int           # character offsets in the page
    end: int
    first_line: int      # 1-based


@dataclass
class Page:
    path: Path
    text: str = field(init=False)

    def __post_init__(self):
        self.text = self.path.read_text()

    @property
    def name(self) -> str:
        return str(self.path.relative_to(ROOT))

    def line_of(self, offset: int) -> int:
        return self.text.count("\n", 0, offset) + 1

    @cached_property
    def generated(self) -> list[tuple[int, int]]:
        """The spans of the generated blocks on this page (claims/report/readme.py README_BLOCKS)."""
        spans = []
        for name, start, end in README_BLOCKS.values():
            if (ROOT / name) == self.path and start in self.text and end in self.text:
                a = self.text.index(start)
                spans.append((a, self.text.index(end, a) + len(end)))
        return spans

    @cached_property
    def fenced(self) -> list[tuple[str, int, int, str]]:
        """(language, start, end, body) of every fenced code block."""
        return [(m.group(1), m.start(), m.end(), m.group(2)) for m in FENCE.finditer(self.text)]

    @cached_property
    def indented(self) -> list[tuple[int, int]]:
        """Indented code blocks: a run of lines indented 4 spaces or more after a blank line,
        not inside a list item (whose continuation lines are indented too)."""
        spans, lines, offset, after_blank, in_list = [], self.text.splitlines(keepends=True), 0, True, False
        start = None
        for line in lines:
            if start is not None and not line.startswith("    "):
                spans.append((start, offset))
                start = None
            if start is None and after_blank and not in_list and line.startswith("    ") and line.strip():
                start = offset
            if not line.strip():
                after_blank = True
            else:
                in_list = bool(ITEM.match(line)) or (in_list and not after_blank) or (in_list and line.startswith("  "))
                after_blank = False
            offset += len(line)
        if start is not None:
            spans.append((start, offset))
        return spans

    @cached_property
    def masked(self) -> str:
        """The prose alone: code (fenced, indented, inline), generated blocks, HTML comments and
        link targets blanked out, every offset and line kept."""
        text = self.text
        for a, b in [*self.generated, *((s, e) for _, s, e, _ in self.fenced), *self.indented]:
            text = _blank(text, a, b)
        for pattern in (COMMENT, INLINE, LINK_TARGET):
            for m in list(pattern.finditer(text)):
                text = _blank(text, m.start(), m.end())
        return text

    @cached_property
    def inline_code(self) -> list[tuple[int, str]]:
        """(offset, content) of every inline code span outside code blocks and generated blocks."""
        text = self.text
        for a, b in [*self.generated, *((s, e) for _, s, e, _ in self.fenced), *self.indented]:
            text = _blank(text, a, b)
        return [(m.start(1), m.group(1)) for m in INLINE.finditer(text)]

    @cached_property
    def units(self) -> list[Unit]:
        units, offset, current = [], 0, None
        for number, line in enumerate(self.masked.splitlines(keepends=True), 1):
            stripped = line.strip()
            kind = ("heading" if stripped.startswith("#") else "row" if stripped.startswith("|")
                    else "item" if ITEM.match(line) else None)
            if not stripped or kind:
                if current:
                    units.append(current)
                current = None
            if kind in ("heading", "row"):
                units.append(Unit(kind, offset, offset + len(line), number))
            elif stripped:
                if current is None:
                    current = Unit(kind or "paragraph", offset, offset + len(line), number)
                else:
                    current = Unit(current.kind, current.start, offset + len(line), current.first_line)
            offset += len(line)
        if current:
            units.append(current)
        return units


def pages() -> list[Page]:
    return [Page(p) for p in PAGES]
