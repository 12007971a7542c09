"""The badges: an overall one and one per section, as data (`Badge`, part of the report model),
then as SVG (anybadge, made locally) with a shields.io endpoint JSON beside each; and which
committed badges a fresh render would change."""
from __future__ import annotations

import json
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from claimcheck.verdicts import DECIDED

BADGE_COLORS = [(1.0, "brightgreen"), (0.8, "green"), (0.6, "yellowgreen"), (0.4, "yellow"),
                (0.2, "orange"), (0.0, "red")]

HEX = {"brightgreen": "#4c1", "green": "#97ca00", "yellowgreen": "#a4a61d", "yellow": "#dfb317",
       "orange": "#fe7d37", "red": "#e05d44", "lightgrey": "#9f9f9f"}    # shields.io's palette


@dataclass(frozen=True)
class Badge:
    name: str         # "overall" or a section's key: the file's stem
    label: str
    value: str        # "12/20 hold": holds among all the claims
    color: str        # a key of HEX


def _color(share: float) -> str:
    return next(c for limit, c in BADGE_COLORS if share >= limit)


def badge(name: str, counts: dict[str, int]) -> Badge:
    """`counts`: claims per verdict.  "hold" counts holds among all the claims; grey with none
    decided, red with one failing."""
    holds, total = counts.get("holds", 0), sum(counts.values())
    color = _color(holds / total) if any(counts.get(v) for v in DECIDED) else "lightgrey"
    if counts.get("fails"):
        color = "red"
    # undecided and underspecified claims said apart from refuted ones, never counted as holding
    open_ = "".join(f", {counts[v]} {v}" for v in ("underspecified", "undecided") if counts.get(v))
    return Badge(name, "claims" if name == "overall" else f"claims: {name}", f"{holds}/{total} hold{open_}", color)


def badge_data(sections) -> list[Badge]:
    """The overall badge, then one per section (claims/report/claim_rows.py Section, its claims
    per verdict as the model counted them), in order."""
    overall = sum((Counter(s.counts) for s in sections), Counter())
    return [badge("overall", dict(overall))] + [badge(s.key, s.counts) for s in sections]


def svgs(badges: list[Badge]) -> dict[str, str]:
    """Each badge's SVG by name, made once per render: anybadge numbers its masks per process, so
    the files and the pages that inline them show the very same text."""
    import anybadge
    return {b.name: anybadge.Badge(label=b.label, value=b.value, default_color=HEX[b.color]).badge_svg_text
            for b in badges}


def write(badges: list[Badge], svg: dict[str, str], out: Path) -> None:
    """The SVGs and their endpoint JSONs into `out`; no badges (a smoke run): no folder."""
    if not badges:
        shutil.rmtree(out, ignore_errors=True)
        return
    out.mkdir(parents=True, exist_ok=True)
    for b in badges:
        (out / f"{b.name}.svg").write_text(svg[b.name])
        (out / f"{b.name}.json").write_text(json.dumps({"schemaVersion": 1, "label": b.label,
                                                        "message": b.value, "color": b.color}))


def badge_drift(fresh: Path, committed: Path) -> list[str]:
    """Badges that differ between a fresh render and the committed ones (both directions)."""
    names = {p.name for p in fresh.glob("*.svg")} | {p.name for p in fresh.glob("*.json")}
    names |= {p.name for p in committed.glob("*.svg")} | {p.name for p in committed.glob("*.json")}
    return sorted(n for n in names if not (fresh / n).exists() or not (committed / n).exists()
                  or (fresh / n).read_bytes() != (committed / n).read_bytes())
