"""`pytest --claim ID` and `pytest --figure ID` select exactly the tests that carry those IDs,
combine with -m, and refuse an unknown ID naming the nearest ones.

Each selection is collected in this process (tests/collected.py: the project's plugins and conftest
files, the test modules already imported), not in a pytest subprocess: what is checked is what a
selection collects, not the process that collects it."""
from collected import collect


def _collect(tmp_path, *args: str):
    return collect(*args, "claims", report_dir=tmp_path / "report")


def _items(result) -> dict[str, tuple[set, set]]:
    return result.items


def test_claim_and_figure_select_exactly_the_tests_that_carry_them(tmp_path, collected_suite):
    everything = {n: marks for n, marks in collected_suite.items.items() if n.startswith("claims/")}
    assert everything
    for args, wanted in ((["--claim", "scale.runaway"], lambda c, f: "scale.runaway" in c),
                         (["--claim", "corpus.chars", "--claim", "mask.averaging_matrix"],
                          lambda c, f: bool(c & {"corpus.chars", "mask.averaging_matrix"})),
                         (["--figure", "scale.runaway_sd"], lambda c, f: "scale.runaway_sd" in f),
                         (["--claim", "corpus.chars", "--figure", "scale.runaway_sd"],
                          lambda c, f: "corpus.chars" in c or "scale.runaway_sd" in f)):
        chosen = _items(_collect(tmp_path, *args))
        expected = {n for n, (c, f) in everything.items() if wanted(c, f)}
        assert expected and set(chosen) == expected, args


def test_a_selection_combines_with_a_marker_expression(tmp_path):
    chosen = _collect(tmp_path, "--claim", "scale.runaway", "-m", "fast")
    assert chosen.ret == 5 and "no tests collected" in chosen.out     # its tests are all trained
    both = _items(_collect(tmp_path, "--claim", "scale.variance_is_d", "-m", "fast"))
    assert both and all("scale.variance_is_d" in c for c, _ in both.values())


def test_an_unknown_id_is_a_usage_error_naming_the_nearest(tmp_path):
    for args, nearest in ((["--claim", "scale.runaways"], "scale.runaway"),
                          (["--figure", "scale.runaway_sdd"], "scale.runaway_sd")):
        r = _collect(tmp_path, *args)
        assert r.ret == 4, r.out + r.err
        assert f"{args[0]} {args[1]}: no such ID" in r.err and nearest in r.err.split("nearest:")[1]
