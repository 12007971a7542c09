"""The errata are a patch an author can paste, verified by applying it (issue 55, part 2):
`python -m claims.report` writes chapter.patch and chapter.patched.txt; the patch applies to the
chapter; and no suggested edit changes a number whose figure holds, is undecided or underspecified
(results/figures.json, the committed records' verdicts by figure), or prints a number with more
digits than its spread supports."""
import difflib
import json
import math
import re
import shutil
import statistics
import subprocess

import pytest

from claims.chapter_figures import FIGURES
from claims.report import patch
from claims.report.errata.spread import (
    Edit,
    at_precision,
    between,
    edit,
    k_of_n,
    mean_sd,
    num,
    supported_decimals,
)
from data.paths import PROJECT_ROOT
from textcheck import Figure
from textcheck.report.assembly.merged import entry

SPREAD = [0.8806360635802903, 0.672011753253571, -0.0312435546024048, 0.21926995536529859, 0.06256854965116077]


def committed_verdicts() -> dict[str, str]:
    """Each figure's committed verdict, read here from results/figures.json (not from the code under
    test): refuted only where every record naming the figure is refuted."""
    by: dict[str, set] = {}
    for r in json.loads((PROJECT_ROOT / "results" / "figures.json").read_text())["records"]:
        for fid in r.get("figures") or []:
            by.setdefault(fid, set()).add(r["verdict"])
    return {fid: "refuted" if v == {"refuted"} else min(v - {"refuted"}) for fid, v in by.items()}


def most_decimals(sd: float) -> int:
    """Two significant digits of the spread, at most: the test's own bound, looser than the code's."""
    return 1 - math.floor(math.log10(sd))


def too_many_digits(token: str, sd: float) -> bool:
    digits = token.replace(",", "")
    allowed = most_decimals(sd)
    if allowed >= 0:
        return (len(digits.split(".")[1]) if "." in digits else 0) > allowed
    return "." in digits or int(digits) % 10 ** -allowed != 0


# -- the formatter, with planted values ------------------------------------------------------

def test_a_mean_is_printed_with_at_most_two_significant_digits_of_its_spread():
    assert statistics.mean(SPREAD) == pytest.approx(0.3606, abs=1e-4)
    assert statistics.stdev(SPREAD) == pytest.approx(0.3968, abs=1e-4)
    assert at_precision(SPREAD) == "0.4"                       # never "0.3606"
    assert mean_sd(SPREAD) == "0.4 ± 0.4"
    assert supported_decimals(0.3968) == 1 and supported_decimals(1.33) == 1 and supported_decimals(8.54) == 0
    assert supported_decimals(0.12) == 2 and supported_decimals(0.036) == 2 and supported_decimals(31.7) == 0
    assert supported_decimals(0.0) is None
    assert at_precision([151.9, 214.18, 195.32]) == "187"       # sd 32: the units, no decimals
    assert at_precision([3000, 4000, 4500]) == "3800"           # sd 760: rounded to hundreds
    assert at_precision([0.9596, 0.9446, 0.9461], "99.9 %", percent=True) == "95.0 %"
    assert at_precision([37.757, 37.517, 36.028], "37.82") == "37.1"  # sd 0.94: one decimal
    assert at_precision([2.3523, 2.2783, 2.3206], "3.44") == "2.32"   # sd 0.037: never past the chapter's 2
    assert at_precision([1.0] * 10, "91.7 %", percent=True) == "100.0 %"   # no spread: the chapter's decimals


def test_where_models_differ_a_range_and_where_seeds_split_k_of_n():
    assert between([5.83, 5.97, 6.01], "5.9") == "between 5.8 and 6.0"
    assert str(k_of_n([True] * 7 + [False] * 3)) == "7 of 10 models"
    assert str(num([5.83, 5.97, 6.01], printed="5.9", how="range")) == "between 5.8 and 6.0"


# -- the rules, with planted edits ------------------------------------------------------------

@pytest.fixture(scope="module")
def verdict():
    return committed_verdicts()


@pytest.mark.parametrize("quote,text,why", [
    ("from 44.95 to 42.49", "from 44.00 to 43.66", "changes positions.alibi_64 (44.95), whose figure holds"),
    ("tired , so the animal waited .\n  blk 1  the:0.00 animal:0.70",
     ("tired , so the animal waited .\n  blk 1  the:0.00 animal:0.35"),
     "changes winograd.map_tired_1_1 (0.70), whose figure undecided"),
    ("— 0.70 on the first noun", "— 0.35 on the first noun", "prints 0.35, which is neither"),   # no figure's span
    ("pre-norm,  no warmup          perplexity   37.82", "pre-norm,  no warmup          perplexity   51.97",
     "whose figure underspecified"),
    ("the run without it is very slightly ahead", "the run with it is ahead by 0.3606 points",
     "prints 0.3606, which is neither the chapter's nor a measured number"),
    ("so:0.00", "so:0.10", "is found 4 times in the chapter, not once"),
    ("It degrades, but it degrades and degrades.", "It degrades.", "is found 0 times"),
], ids=["a held figure", "an undecided map cell", "a number of no figure", "an underspecified figure",
        "digits past the spread", "a quote found four times", "a quote not found"])
def test_an_edit_that_breaks_a_rule_is_an_error_naming_its_claim(chapter_text, verdict, quote, text, why):
    verdict = {**verdict, "norm.prenorm": "underspecified"}          # planted: whatever is committed today
    wrong = patch.problems(chapter_text, {"planted.claim": [Edit(quote, text)]}, verdict)
    assert any(w.startswith("planted.claim: ") and why in w for w in wrong), wrong
    with pytest.raises(patch.PatchError, match="planted.claim"):
        patch.build(chapter_text, [entry({"id": "planted.claim", "edits": [Edit(quote, text)]})], verdict)


def test_a_measured_number_may_replace_only_a_refuted_figure_and_only_at_its_spreads_precision(chapter_text, verdict):
    verdict = {**verdict, "positions.alibi_64": "holds", "positions.alibi_256": "refuted"}    # planted
    held = edit("from 44.95 to 42.49", "from {a} to 42.49", a=num([44.1, 44.2, 44.3], "positions.alibi_64", "44.95"))
    assert any("positions.alibi_64, whose figure holds" in w for w in patch.problems(chapter_text, {"c": [held]}, verdict))
    fine = edit("from 44.95 to 42.49", "from 44.95 to {b}", b=num([43.94, 43.74, 43.29], "positions.alibi_256", "42.49"))
    assert patch.problems(chapter_text, {"c": [fine]}, verdict) == []
    # a number typed past its spread's precision, however it got into the edit
    typed = Edit("from 44.95 to 42.49", "from 44.95 to 43.6567", (num([43.94, 43.74, 43.29], "positions.alibi_256"),))
    assert any("43.6567" in w for w in patch.problems(chapter_text, {"c": [typed]}, verdict))
    assert patch.too_precise("0.3606", supported_decimals(0.3968)) and not patch.too_precise("0.4", 1)
    assert patch.too_precise("3739", -2) and not patch.too_precise("3700", -2)


def test_overlapping_edits_of_two_claims_are_an_error(chapter_text):
    a, b = Edit("from 44.95 to 42.49", "from 44.95 to 43.66"), Edit("to 42.49, because", "to 43.7, because")
    with pytest.raises(patch.PatchError, match="a and b"):
        patch.apply(chapter_text, {"a": [a], "b": [b]})


# -- the report rendered from the committed results -------------------------------------------

@pytest.fixture(scope="module")
def rendered(chapter_text, tmp_path_factory):
    from claims.report import cli
    out = tmp_path_factory.mktemp("report")
    assert cli.main([f"--report-dir={out}"]) == 0
    entries = json.loads((out / "merged.json").read_text())       # the claims' verdicts, as rendered
    from claims.report import errata
    built = errata.build(entries, PROJECT_ROOT / "results", out)
    return out, built


def test_the_patch_applies_cleanly_and_gives_the_patched_chapter(chapter_text, rendered, tmp_path):
    out, _ = rendered
    diff, patched = (out / "chapter.patch").read_text(), (out / "chapter.patched.txt").read_text()
    assert diff.startswith("--- a/chapter.txt\n+++ b/chapter.txt\n") and patched != chapter_text
    again = "".join(difflib.unified_diff(chapter_text.splitlines(True), patched.splitlines(True),
                                         "a/chapter.txt", "b/chapter.txt"))
    assert [ln for ln in diff.splitlines() if not ln.startswith("\\")] == again.splitlines()
    if shutil.which("patch"):
        (tmp_path / "chapter.txt").write_text(chapter_text)
        subprocess.run(["patch", "-p1", "--quiet", "--batch"], input=diff, text=True, cwd=tmp_path, check=True)
        assert (tmp_path / "chapter.txt").read_text() == patched


def _changed(old: str, new: str) -> list[tuple[int, int]]:
    """The character ranges of `old` that differ in `new`, paragraph by paragraph."""
    out, at = [], 0
    lines_old, lines_new = old.splitlines(True), new.splitlines(True)
    assert len(lines_old) == len(lines_new), "an edit added or removed a line"
    for a, b in zip(lines_old, lines_new):
        if a != b:
            sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
            out += [(at + i1, at + i2) for tag, i1, i2, _, _ in sm.get_opcodes() if tag != "equal"]
        at += len(a)
    return out


def test_the_patch_changes_no_number_of_a_figure_that_holds_is_undecided_or_underspecified(chapter_text, rendered):
    out, _ = rendered
    verdict = committed_verdicts()
    changed = _changed(chapter_text, (out / "chapter.patched.txt").read_text())
    assert changed
    moved = []
    for fid, f in FIGURES.items():
        if not any(ch.isdigit() for ch in f.printed) or chapter_text.count(f.anchor) != 1:
            continue
        s, e = f.span(chapter_text)
        if any(i1 < e and s < i2 or i1 == i2 == s for i1, i2 in changed):
            moved.append((fid, verdict.get(fid, "not run")))
    assert moved and all(v == "refuted" for _, v in moved), moved


def test_every_suggested_number_is_measured_at_the_precision_its_spread_supports(chapter_text, rendered):
    _, entries = rendered
    checked = 0
    for e in entries:
        for x in e["edits"]:
            assert chapter_text.count(x.quote) == 1, (e["id"], x.quote)
            assert not re.search(r"\d[\d.]*(?:, \d[\d.]*){2,}", x.text), f"{e['id']}: a list of values: {x.text}"
            measured = set()
            for n in x.numbers:
                tokens = [m.group() for m in Figure.NUMBER.finditer(str(n))]
                measured |= set(tokens)
                v = [100 * y for y in n.values] if n.percent else list(n.values)
                if n.how != "count" and len(v) > 1 and statistics.stdev(v) > 0:
                    checked += 1
                    assert not any(too_many_digits(t, statistics.stdev(v)) for t in tokens), (e["id"], str(n), v)
            kept = {m.group() for m in Figure.NUMBER.finditer(x.quote)} | set(x.cites)
            new = [m.group() for m in Figure.NUMBER.finditer(x.text) if m.group() not in kept | measured]
            assert not new, f"{e['id']}: {new} typed into the chapter, not measured: {x.text}"
    assert checked >= 8


def test_undecided_and_underspecified_claims_suggest_no_numbers(chapter_text, rendered):
    _, entries = rendered
    quiet = [e for e in entries if e.get("needs_seeds") or e.get("underspecified")]
    assert quiet
    for e in quiet:
        assert not e["edits"], e["id"]
        assert all(m.group() in chapter_text for m in Figure.NUMBER.finditer(e["suggested"])), e


# -- the patched chapter decided again (claims/report/patched.py) ------------------------------

def test_the_patched_chapter_holds_every_suggested_figure_and_moves_no_hold(rendered):
    out, _ = rendered
    first = (out / "chapter.patch.check.txt").read_text().splitlines()[0]
    m = re.search(r"(\d+) of (\d+) suggested figures hold, (\d+) holds moved, (\d+) refuted claims", first)
    assert m and m[1] == m[2] and m[3] == "0", first


def test_a_suggested_number_that_would_not_hold_is_counted_and_named():
    from claims.chapter import CHAPTER
    from claims.report import patched
    from textcheck.evidence import load
    records = load(CHAPTER)
    planted = [entry({"id": "norm.prenorm_needs_no_warmup",
                      "edits": [Edit("perplexity   37.82", "perplexity   40.0", (num([40.0, 40.1, 39.9], "norm.prenorm"),))]})]
    result = patched.decided_again(planted, records, {"norm.prenorm_needs_no_warmup": "refuted"},
                                   {"norm.prenorm": "refuted"})
    ((fid, was, now, verdict, _why),) = result["suggested"]
    assert (fid, was, now, verdict) == ("norm.prenorm", "37.82", "40.00", "refuted")
    assert "0 of 1 suggested figures hold" in patched.account(result)
    # a derived difference whose operand the edit rewrites is decided again on the new difference
    assert {key for key, *_ in result["derived"]} == {"norm.prenorm_needs_no_warmup: prenorm - prenorm_warmup"}
