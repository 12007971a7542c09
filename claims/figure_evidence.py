"""The committed evidence keyed by figure: results/figures.json (stub)."""
