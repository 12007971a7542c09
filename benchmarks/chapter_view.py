"""Time to build the chapter view (report/chapter.html and chapter.md) from the committed
verdicts: the errata it quotes, then the view itself; the best of five, in a warm interpreter.

  python benchmarks/chapter_view.py         # last line: chapter_view_build_seconds=...
"""
import tempfile
import time
from pathlib import Path

from claims.chapter import CHAPTER
from claims.report import errata
from claims.report.cli import chapter_view
from data.chapter import load_chapter
from textcheck.merging import committed_only
from textcheck.save import load_verdicts

ROOT = Path(__file__).resolve().parent.parent

if __name__ == "__main__":
    text = load_chapter(explain=CHAPTER.explainers())
    merged = committed_only(CHAPTER, load_verdicts(CHAPTER, ROOT / "results" / "verdicts.json"))
    best_errata, best_view = float("inf"), float("inf")
    with tempfile.TemporaryDirectory() as out:
        for _ in range(5):
            t0 = time.perf_counter()
            entries = errata.build(merged, ROOT / "results", Path(out))
            t1 = time.perf_counter()
            chapter_view(Path(out), text, "", merged, entries)
            t2 = time.perf_counter()
            best_errata, best_view = min(best_errata, t1 - t0), min(best_view, t2 - t1)
        size = sum((Path(out) / n).stat().st_size for n in ("chapter.html", "chapter.md"))
    print(f"errata: {best_errata:.3f} s; the view: {best_view:.3f} s; {size / 1e3:.0f} kB written")
    print(f"chapter_view_build_seconds={best_errata + best_view:.3f}")
