"""One CI definition, and the README's badges are the report's."""
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_the_workflow_runs_ci_run_with_its_torch_pin():
    workflow = (ROOT / ".github" / "workflows" / "claims.yml").read_text()
    run = (ROOT / ".ci" / "run").read_text()
    assert "bash .ci/run" in workflow
    pin = re.search(r"^TORCH_VERSION=([0-9.]+)", run, re.MULTILINE).group(1)
    assert 'pip install -q "torch==${TORCH_VERSION}"' in run
    # the workflow installs the CPU wheel of the very version .ci/run pins (read from it)
    assert "sed -n 's/^TORCH_VERSION=" in workflow and pin == "2.13.0"
    assert "pytest -m fast\n" not in workflow                       # no second, weaker test command


def _readme_claims() -> list[tuple[str, str]]:
    block = (ROOT / "docs" / "claims.md").read_text().split("<!-- claims-table:start -->", 1)[1].split("<!-- claims-table:end -->", 1)[0]
    return re.findall(r"^\| `([a-z0-9_]+)\.[a-z0-9_]+` \| [^|]* \| ([a-z ]+)", block, re.MULTILINE)


def test_every_badge_the_readme_shows_exists_and_matches_the_claims_table():
    shown = re.findall(r"!\[[^\]]*\]\((results/badges/([a-z_]+)\.svg)\)", README)
    rows = _readme_claims()
    sections = list(dict.fromkeys(section for section, _ in rows))
    assert [name for _, name in shown] == ["overall", *sections]
    for path, name in shown:
        assert (ROOT / path).stat().st_size > 0
        counted = [v for s, v in rows if name in ("overall", s)]
        endpoint = json.loads((ROOT / "results" / "badges" / f"{name}.json").read_text())
        holds = sum(v.strip() == "holds" for v in counted)
        assert endpoint["message"] == f"{holds}/{len(counted)} hold", name
        assert f"{holds}/{len(counted)} hold" in (ROOT / path).read_text()
