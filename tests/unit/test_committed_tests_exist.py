"""Every test results/verdicts.json commits evidence for is a test that exists: a test split or
removed takes its committed entry with it (nothing else would ever replace it, since no run
measures it again), so evidence no test can make stands nowhere in the report."""
import ast
import functools
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


@functools.cache          # each file parsed once, not once per committed test of it
def _defined(path: Path) -> set[str]:
    return {node.name for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.FunctionDef)}


def test_every_committed_test_is_defined_in_its_file():
    committed = json.loads((ROOT / "results" / "verdicts.json").read_text())
    missing = []
    for c in committed["claims"]:
        for t in c["tests"]:
            file, _, name = t["nodeid"].partition("::")
            name = name.split("[")[0].split("::")[-1]
            if not (ROOT / file).is_file() or name not in _defined(ROOT / file):
                missing.append(f"{c['id']}: {t['nodeid']}")
    assert not missing, "committed evidence of tests that no longer exist:\n" + "\n".join(missing)
