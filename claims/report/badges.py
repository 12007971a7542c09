"""The badges: an overall one and one per section, SVG (anybadge, made locally) and a shields.io
endpoint JSON beside each; and which committed badges a fresh render would change."""
from __future__ import annotations

import json
from pathlib import Path

from claims.verdicts import DECIDED

BADGE_COLORS = [(1.0, "brightgreen"), (0.8, "green"), (0.6, "yellowgreen"), (0.4, "yellow"),
                (0.2, "orange"), (0.0, "red")]


HEX = {"brightgreen": "#4c1", "green": "#97ca00", "yellowgreen": "#a4a61d", "yellow": "#dfb317",
       "orange": "#fe7d37", "red": "#e05d44", "lightgrey": "#9f9f9f"}    # shields.io's palette


def _color(share: float) -> str:
    return next(c for limit, c in BADGE_COLORS if share >= limit)


def badges(report: dict, out: Path) -> list[Path]:
    """An overall badge and one per section: SVG (anybadge, made locally) and a shields.io
    endpoint JSON beside each.  "hold" counts holds among the claims with a verdict."""
    import anybadge
    out.mkdir(parents=True, exist_ok=True)
    groups = {"overall": report["claims"]}
    for c in report["claims"]:
        groups.setdefault(c["section"], []).append(c)
    written = []
    for name, claims in groups.items():
        decided = [c for c in claims if c["verdict"] in DECIDED]
        holds = sum(c["verdict"] == "holds" for c in claims)
        value = f"{holds}/{len(claims)} hold"
        color = _color(holds / len(claims)) if decided else "lightgrey"
        if any(c["verdict"] == "fails" for c in claims):
            color = "red"
        label = "claims" if name == "overall" else f"claims: {name}"
        svg = out / f"{name}.svg"
        anybadge.Badge(label=label, value=value, default_color=HEX[color]).write_badge(str(svg), overwrite=True)
        (out / f"{name}.json").write_text(json.dumps({"schemaVersion": 1, "label": label,
                                                      "message": value, "color": color}))
        written.append(svg)
    return written


def badge_drift(fresh: Path, committed: Path) -> list[str]:
    """Badges that differ between a fresh render and the committed ones (both directions)."""
    names = {p.name for p in fresh.glob("*.svg")} | {p.name for p in fresh.glob("*.json")}
    names |= {p.name for p in committed.glob("*.svg")} | {p.name for p in committed.glob("*.json")}
    return sorted(n for n in names if not (fresh / n).exists() or not (committed / n).exists()
                  or (fresh / n).read_bytes() != (committed / n).read_bytes())
