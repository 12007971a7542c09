"""The chapter view's key to its marks: each verdict's symbol (so that a mark reads without colour),
what the legend says of it, and its colours (a figure's mark, a sentence's bar), shared by
chapter.html and chapter.md."""
from __future__ import annotations

# a verdict's symbol, so that a mark reads without colour
SYMBOL = {"holds": "✓", "refuted": "✗", "underspecified": "◐", "undecided": "?", "fails": "‼", "stale": "↻",
          "not run": "○", "device-specific": "◇", "not encoded": "∅"}
LEGEND = {"holds": "holds", "refuted": "refuted (the chapter's figure is contradicted by our measurement)",
          "underspecified": ("underspecified (the chapter leaves a choice open: its primary reading refutes the "
                             "figure, a reading declared before measuring reproduces it; the chapter should say which)"),
          "undecided": ("undecided (needs more seeds: our measurement cannot tell the chapter's figure from the "
                        "null it contrasts it with, or an ordering is not significant at 5 %)"),
          "fails": "fails (a broken test)", "stale": "stale (decided under an older rule)",
          "not run": "not run here", "device-specific": "not run: device-specific (a figure of the text's own "
                                                         "device; ours is a reading beside it)"}


def legend(device: str = "") -> dict[str, str]:
    """LEGEND, its device-specific entry naming the text's device where the text names one."""
    if not device:
        return LEGEND
    return dict(LEGEND, **{"device-specific": f"not run: device-specific (a figure of the chapter's {device}; "
                                                 "ours is a reading beside it)"})
# each kind's colour: a figure's mark (its background, its border), a sentence's bar
COLOURS = {"holds": ("#dff3e1", "#2e7d32"), "refuted": ("#fde2c8", "#c62828"), "fails": ("#f8c9c9", "#8e0000"),
           "underspecified": ("#fff3c4", "#b26a00"), "undecided": ("#f1f1d8", "#827717"),
           "stale": ("#ece3f5", "#6a1b9a"), "not-run": ("#eee", "#999"), "device-specific": ("#e3eef9", "#1565c0"),
           "not-encoded": ("#f4f4f4", "#bbb")}
