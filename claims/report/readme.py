"""The generated blocks of README.md (the badges, the summary line) and docs/claims.md (every
claim and its verdict): a function of the committed verdicts and a run's fast claims alone, the
report model's `readme` (the engine's, typed: each claim with its verdict's label and its tests'
readings)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from claims import registry
from data.paths import PROJECT_ROOT
from safeio.files import atomic_write
from textcheck import DECIDED

if TYPE_CHECKING:
    from textcheck.report.assembly.report import Readme

ROOT = PROJECT_ROOT

README_BLOCKS = {"badges": ("README.md", "<!-- badges:start -->", "<!-- badges:end -->"),
                 "summary": ("README.md", "<!-- claims-summary:start -->", "<!-- claims-summary:end -->"),
                 "table": ("docs/claims.md", "<!-- claims-table:start -->", "<!-- claims-table:end -->")}
BADGES = ROOT / "results" / "badges"          # committed: the README shows them, offline too
CLAIMS_PAGE = README_BLOCKS["table"][0]       # where a badge leads: its section of every claim's verdict


def weakened(report: Readme, root: Path) -> list[str]:
    """Claims the committed table (docs/claims.md) shows decided that this report would show not
    run (a run without the fast tier, or without an extra some of its tests need)."""
    shown = {}
    for line in readme_block(root, "table").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].startswith("`"):
            shown[cells[0].strip("`")] = cells[2].split(" (")[0]
    return [c.id for c in report.claims
            if shown.get(c.id) in DECIDED and c.verdict in ("not run", "not encoded")
            and not any(t.reading for t in c.tests)]
    # a claim now read, not decided, off the chapter's device (a test's `reading`: decided, and every
    # figure it measures a device reading) is the rule's verdict, not a weaker run


def readme_table(report: Readme) -> str:
    """The summary, then each section under its own heading, its key (a badge links there: every
    forge spells its anchor alike), with one row per claim."""
    lines = [f"{report.summary_line}."]
    for section in dict.fromkeys(c.section for c in report.claims):
        lines += ["", f"## {section}", "", f"{registry.SECTIONS[section]}.", "",
                  "| claim | the chapter | verdict | source |", "|---|---|---|---|"]
        for c in (c for c in report.claims if c.section == section):
            evidence = ""
            if c.verdict in DECIDED:
                evidence = f"{c.tier}, {c.device}"
                if c.tier in ("gpu", "slow"):
                    evidence += f", {c.seeds} seed(s)"
            lines.append(f"| `{c.id}` | {registry.get(c.id).stated_figure.replace('|', '/')} | {c.label} "
                         f"| {evidence} |")
    return "\n".join(lines)


def readme_badges(report: Readme) -> str:
    """The overall badge and one per section: each the committed image (results/badges/, shown
    offline and on any forge) linking, relatively, to its place in docs/claims.md (the overall one
    to its top, a section's to its heading), which resolves wherever the repository is hosted."""
    sections = list(dict.fromkeys(c.section for c in report.claims))
    return " ".join(f"[![{'claims' if name == 'overall' else 'claims: ' + name}](results/badges/{name}.svg)]"
                    f"({CLAIMS_PAGE}{'' if name == 'overall' else '#' + name})"
                    for name in ["overall", *sections])


def generated(report: Readme) -> dict[str, str]:
    """The body of each generated block (README_BLOCKS) for this report."""
    return {"badges": readme_badges(report), "summary": f"{report.summary_line}.",
            "table": readme_table(report)}


def readme_block(root: Path, which: str = "table") -> str:
    name, start, end = README_BLOCKS[which]
    path = Path(root) / name
    text = path.read_text() if path.exists() else ""
    if start not in text or end not in text:
        return ""
    return text.split(start, 1)[1].split(end, 1)[0].strip()


def rewrite_readme(report: Readme, root: Path) -> bool:
    """Rewrite the generated blocks (the README's badges and summary, docs/claims.md's table)."""
    changed = False
    for which, body in generated(report).items():
        name, start, end = README_BLOCKS[which]
        path = Path(root) / name
        text = path.read_text()
        if start not in text or end not in text:
            raise SystemExit(f"{path}: no {start} ... {end} block to rewrite")
        head, rest = text.split(start, 1)
        _, tail = rest.split(end, 1)
        new = f"{head}{start}\n{body}\n{end}{tail}"
        if new != text:
            atomic_write(path, new)
            changed = True
    return changed


def badge_drift(fresh: Path, committed: Path) -> list[str]:
    """Badges that differ between a fresh render and the committed ones (both directions)."""
    names = {p.name for p in fresh.glob("*.svg")} | {p.name for p in fresh.glob("*.json")}
    names |= {p.name for p in committed.glob("*.svg")} | {p.name for p in committed.glob("*.json")}
    return sorted(n for n in names if not (fresh / n).exists() or not (committed / n).exists()
                  or (fresh / n).read_bytes() != (committed / n).read_bytes())
