"""The badges drawn as SVG (anybadge, made locally), with shields.io's palette."""
from __future__ import annotations

from textcheck.report.assembly.badges import Badge

HEX = {"brightgreen": "#4c1", "green": "#97ca00", "yellowgreen": "#a4a61d", "yellow": "#dfb317",
       "orange": "#fe7d37", "red": "#e05d44", "lightgrey": "#9f9f9f"}    # shields.io's palette


def svgs(badges: list[Badge]) -> dict[str, str]:
    """Each badge's SVG by name, made once per render: anybadge numbers its masks per process, so
    the files and the pages that inline them show the very same text."""
    import anybadge
    return {b.name: anybadge.Badge(label=b.label, value=b.value, default_color=HEX[b.color]).badge_svg_text
            for b in badges}
