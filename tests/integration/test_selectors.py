"""`pytest --claim ID` and `pytest --figure ID` select exactly the tests that carry those IDs,
combine with -m, and refuse an unknown ID naming the nearest ones."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
# a plugin that prints each collected test with its claim and figure marks
LISTER = '''
def pytest_collection_finish(session):
    for item in session.items:
        claims = [m.args[0] for m in item.iter_markers("claim") if m.args]
        figures = [f for m in item.iter_markers("figure") for f in m.args]
        print("ITEM", item.nodeid, "|", ",".join(claims), "|", ",".join(figures))
'''


def _collect(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "lister.py").write_text(LISTER)
    return subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "-p", "lister", *args, "claims"], cwd=ROOT, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(tmp_path)}, timeout=300)


def _items(result) -> dict[str, tuple[set, set]]:
    out = {}
    for line in result.stdout.splitlines():
        if line.startswith("ITEM "):
            nodeid, claims, figures = (part.strip() for part in line[5:].split("|"))
            out[nodeid] = (set(filter(None, claims.split(","))), set(filter(None, figures.split(","))))
    return out


def test_claim_and_figure_select_exactly_the_tests_that_carry_them(tmp_path):
    everything = _items(_collect(tmp_path))
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
    assert chosen.returncode == 5 and "no tests collected" in chosen.stdout     # its tests are all trained
    both = _items(_collect(tmp_path, "--claim", "scale.variance_is_d", "-m", "fast"))
    assert both and all("scale.variance_is_d" in c for c, _ in both.values())


def test_an_unknown_id_is_a_usage_error_naming_the_nearest(tmp_path):
    for args, nearest in ((["--claim", "scale.runaways"], "scale.runaway"),
                          (["--figure", "scale.runaway_sdd"], "scale.runaway_sd")):
        r = _collect(tmp_path, *args)
        assert r.returncode == 4, r.stdout + r.stderr
        assert f"{args[0]} {args[1]}: no such ID" in r.stderr and nearest in r.stderr.split("nearest:")[1]
