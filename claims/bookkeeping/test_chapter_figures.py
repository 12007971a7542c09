"""The chapter's figures (claims/chapter_figures.py) are the chapter's: every anchor is found once
in its text with the printed number inside it, and the registry's values are parsed from them."""
import io
import re
import tokenize
from pathlib import Path

import pytest

from claims import registry
from claims.chapter_figures import FIGURES, Figure
from claims.chapter_reads import READ


@pytest.mark.parametrize("entry", FIGURES.values(), ids=lambda f: f.id)
def test_every_anchor_is_in_the_chapter_once_and_holds_the_printed_number(entry, chapter_text):
    assert entry.located(chapter_text) >= 0, f"{entry.id}: anchor {entry.anchor!r} is not in the chapter"
    assert entry.printed_in_anchor(), f"{entry.id}: {entry.printed!r} is not in its anchor"
    assert entry.claim in registry.CLAIMS


def test_values_and_roundings_come_from_the_printed_digits():
    cases = {"37.82": (37.82, 0.005), "99.9 %": (0.999, 0.0005), "100 %": (1.0, 0.005), "5147": (5147, 0.5),
             "0.0498": (0.0498, 0.00005), "ten": (10, 0.5), "nothing": (0, 0.5), "half": (0.5, 0.0),
             "Two thirds": (2 / 3, 0.0), "1,115,394": (1115394, 0.5), "2.9802322387695312e-08": (2.9802322387695312e-08, 5e-25)}
    for printed, (value, rounding) in cases.items():
        f = Figure("x", "corpus.chars", printed, printed)
        assert f.value == value and f.rounding == pytest.approx(rounding)


def test_the_registry_reads_its_figures_from_the_table():
    assert registry.FIGURE_VALUES["norm.prenorm"] == FIGURES["norm.prenorm"].value == 37.82
    assert registry.CHAPTER_PEAK_MB[8192] == 4300.1
    assert set(registry.FIGURE_VALUES) == set(FIGURES)


def test_an_anchor_twice_in_the_text_is_refused():
    f = FIGURES["norm.prenorm"]
    with pytest.raises(ValueError, match="not unique"):
        f.located(f.anchor + " ... " + f.anchor)


# ---------------------------------------------------------------- no figure typed twice

def _distinctive(f) -> float | None:
    """A figure's value when its digits could only be typed from the chapter: three or more
    significant digits, and not a power of two or a multiple of 128 (those are also widths,
    lengths and counts of the setup: 128, 512, 768, 8192, 16384)."""
    text = f.printed.replace(",", "").rstrip(" %")
    if not re.fullmatch(r"[\d.e+-]+", text) or len(text.split("e")[0].replace(".", "").strip("0")) < 3:
        return None
    v = float(text)
    if v.is_integer() and (int(v) & (int(v) - 1) == 0 or int(v) % 128 == 0):
        return None
    return v


def typed_figures(paths, root: Path | None = None) -> list[str]:
    """`path:line: 37.82 (norm.prenorm)` for each number token, or number inside a string (an
    erratum's verbatim `quote=` excepted: it is checked against the text), that is a chapter figure."""
    values = {}
    for f in [*FIGURES.values(), *READ.values()]:
        v = _distinctive(f)
        if v is not None:
            values.setdefault(v, []).append(f.id)
    found = []
    for path in paths:
        tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline))
        for i, tok in enumerate(tokens):
            if tok.type == tokenize.NUMBER:
                candidates = [tok.string.replace("_", "")]
            elif tok.type == tokenize.STRING and "quote" not in [t.string for t in tokens[max(0, i - 2):i]]:
                candidates = re.findall(r"(?<![\w.])\d[\d,]*(?:\.\d+)?", tok.string)
            else:
                continue
            for c in candidates:
                try:
                    v = float(c.replace(",", ""))
                except ValueError:
                    continue
                if v in values:
                    found.append(f"{path.relative_to(root or ROOT)}:{tok.start[0]}: {c} ({', '.join(values[v])})")
    return found


ROOT = Path(__file__).resolve().parent.parent.parent


def test_no_chapter_figure_is_typed_outside_the_figure_table():
    """The tests, the claim engine (textcheck/), the registry and the report read every chapter figure from
    claims/chapter_figures.py."""
    paths = [*sorted((ROOT / "claims").glob("test_*.py")), *sorted((ROOT / "claims" / "report").rglob("*.py")),
             *sorted((ROOT / "fixtures").glob("*.py")), *sorted((ROOT / "textcheck").glob("*.py")),
             *(ROOT / "claims" / f for f in ("timing.py", "registry.py"))]
    typed = typed_figures(paths)
    assert not typed, "chapter figures typed outside claims/chapter_figures.py:\n" + "\n".join(typed)


def test_the_check_finds_a_typed_figure(tmp_path):
    (tmp_path / "x.py").write_text('STATED = 37.82\nID = "pre-norm ~37.62"\nquote = "at 37.88"\nWIDTH = 128\n')
    found = typed_figures([tmp_path / "x.py"], root=tmp_path)
    assert [line.split(": ", 1)[1] for line in found] == ["37.82 (norm.prenorm)", "37.62 (norm.prenorm_warmup)"]


def test_a_claims_stated_figure_is_filled_in_from_the_table():
    assert registry.get("norm.prenorm_needs_no_warmup").stated_figure == "37.62 vs 37.82"
    for c in registry.CLAIMS.values():
        assert "{" not in c.stated_figure, c.id                    # every placeholder is a figure ID


def test_figure_ids_and_claim_ids_never_collide():
    from claims.registry import CLAIMS
    assert sorted((set(FIGURES) | set(READ)) & set(CLAIMS)) == []


def test_every_cost_table_figure_is_decided_where_its_instrument_says():
    # docs/cost.md "Where a cost figure is decided": one rule, by the instrument that made the
    # figure, for every figure of the cost section alike
    from claims.chapter_figures import COST_INSTRUMENT
    cost = {fid: f for fid, f in FIGURES.items() if f.claim.startswith("cost.")}
    assert sorted(cost) == sorted(COST_INSTRUMENT)
    assert {f.device for fid, f in FIGURES.items() if fid not in cost} == {"any"}
    clock = {fid for fid, i in COST_INSTRUMENT.items() if i == "clock"}
    # every time figure fitted or divided from the ms columns, and "converges on exactly 4", which is
    # about those measured x4 columns (rule version 3: the layer's counts are the theory beside it)
    assert clock == {"cost.time_exponent", "cost.projections_x8", "cost.converges_on_4"}


class _Figures:
    """The figure marks of every test a collection collects."""

    def __init__(self):
        self.seen: set[str] = set()

    def pytest_collection_modifyitems(self, items):
        for item in items:
            for m in item.iter_markers("figure"):
                self.seen.update(m.args)


def test_every_figure_is_asserted_by_a_test(tmp_path):
    # every printed figure is carried by a claim test (a `figure` mark); a figure no test asserts
    # would show as "not run: no test carries it" forever.  claims/ collected in this process (as
    # tests/collected.py does: the test modules already imported are reused), not in a pytest
    # subprocess: what is checked is what the collection carries, not the process that collects it.
    import contextlib
    import os
    figures, was = _Figures(), os.getcwd()
    os.chdir(Path(__file__).resolve().parent.parent.parent)
    try:
        with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()) as err:
            ret = pytest.main(["--collect-only", "-q", "-s", "-p", "no:cacheprovider", "-m", "",
                               f"--report-dir={tmp_path / 'report'}", "claims"], plugins=[figures])
    finally:
        os.chdir(was)
    assert ret == 0, out.getvalue()[-3000:] + err.getvalue()[-3000:]
    carried = figures.seen
    assert sorted(set(FIGURES) - carried) == []
