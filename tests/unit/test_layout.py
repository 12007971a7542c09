"""The code's direction: imports run one way (import-linter's contracts in pyproject.toml, run by
.ci/run as `lint-imports`), and no module imports a test module."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGES = ("safeio", "textcheck", "data", "model", "fixtures", "claims", "examples", "tests", "benchmarks")


def _is_test_module(name: str) -> bool:
    parts = name.split(".")
    return parts[0] == "tests" or any(p.startswith("test_") for p in parts)


def test_no_module_imports_a_test_module():
    found = []
    for path in sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            found += [f"{path.relative_to(ROOT)}:{node.lineno} imports {n}" for n in names
                      if _is_test_module(n) and n.split(".")[0] in PACKAGES]
    assert not found, "\n".join(found)
