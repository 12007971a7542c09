"""The published site (issue 35, item 4): built from a clean copy of the checkout with torch
unimportable, every link in it resolves, each README badge links relatively to its section of
docs/claims.md (issue 42: never to a site naming an owner), the build needs nothing the workflow's `site` job does not install, and the workflow
deploys it to GitHub Pages from main."""
from __future__ import annotations

import importlib.metadata as md
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from claims import registry
from claims.report import links, site
from claims.report.readme import CLAIMS_PAGE
from textcheck.report.assembly.chapter_view.contents import section_anchor

ROOT = Path(__file__).resolve().parent.parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "claims.yml"
# what a clean clone lacks: git's, the run's (report/ at the top), the caches', and stray locks and temporaries
_TOP_ONLY = shutil.ignore_patterns(".git", "report", "report-*", ".cache", ".hypothesis", ".pytest_cache", "*.egg-info")
_ANYWHERE = shutil.ignore_patterns("__pycache__", ".*.lock", ".*.lock.holder", "*.tmp", ".*.bak")


def _not_cloned(folder: str, names: list[str]) -> set[str]:
    return set(_ANYWHERE(folder, names)) | (set(_TOP_ONLY(folder, names)) if Path(folder) == ROOT else set())
# runs claims.report.publish as `python -m` does, then records every module the build imported
# (those the interpreter had before it, by site's .pth files, left out)
DRIVER = """import json, runpy, sys
record, before = sys.argv.pop(1), set(sys.modules)
try:
    runpy.run_module("claims.report.publish", run_name="__main__", alter_sys=True)
finally:
    import claims
    json.dump({"claims": claims.__file__, "modules": sorted(set(sys.modules) - before)}, open(record, "w"))
"""


def _text_path() -> Path | None:
    from data.chapter import ChapterError, chapter_path
    try:
        return chapter_path()
    except ChapterError:
        return None


def build_site(tmp: Path, text_path: Path | None) -> tuple[Path, dict, subprocess.CompletedProcess]:
    """A copy of the working tree (uncommitted work included), its site built by
    `python -m claims.report.publish` where `import torch` raises; the site, what the build
    imported, and the process."""
    checkout = tmp / "checkout"
    shutil.copytree(ROOT, checkout, ignore=_not_cloned, symlinks=True)
    stub = tmp / "no-torch" / "torch"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text("raise ImportError('torch is unimportable: the site builds without it')\n")
    (tmp / "driver.py").write_text(DRIVER)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTENTION_CLAIMS_")}
    env.update(PYTHONPATH=os.pathsep.join([str(stub.parent), str(checkout)]), ATTENTION_CLAIMS_CACHE=str(tmp / "cache"),
               PYTHONDONTWRITEBYTECODE="1")
    if text_path is not None:
        env["ATTENTION_CLAIMS_CHAPTER"] = str(text_path)
    record, out = tmp / "imported.json", tmp / "site"
    r = subprocess.run([sys.executable, str(tmp / "driver.py"), str(record), "site-report", str(out)], cwd=checkout,
                       env=env, capture_output=True, text=True, timeout=240, check=False)
    imported = json.loads(record.read_text()) if record.exists() else {}
    assert imported.get("claims", "").startswith(str(checkout)), f"built from another checkout: {imported.get('claims')}"
    return out, imported, r


@pytest.fixture(scope="module")
def bare_site(tmp_path_factory) -> tuple[Path, dict, subprocess.CompletedProcess]:
    """The site as the workflow builds it without the chapter secret."""
    return build_site(tmp_path_factory.mktemp("bare"), None)


def test_without_the_chapter_the_site_builds_without_torch_and_every_link_resolves(bare_site):
    out, imported, r = bare_site
    assert r.returncode == 0, r.stdout + r.stderr
    assert not [m for m in imported["modules"] if m == "torch" or m.startswith("torch.")]
    assert (out / "index.html").is_file() and (out / "chapter.html").is_file()
    assert not (out / "chapter.md").exists() and not (out / "manifest.json").exists()
    assert site.broken_links(out) == []
    page = (out / "chapter.html").read_text()
    # it says why there is no chapter view, and still holds every section a badge links to
    assert "The chapter view was not built" in page and "ATTENTION_CLAIMS_CHAPTER_B64" in page
    assert "the chapter text was not found" in page


def test_with_the_chapter_the_site_builds_without_torch_and_every_link_resolves(tmp_path):
    text_path = _text_path()
    if text_path is None:
        pytest.skip("no chapter text here (../shared/chapter.txt or $ATTENTION_CLAIMS_CHAPTER): the view is not built")
    out, imported, r = build_site(tmp_path, text_path)
    assert r.returncode == 0, r.stdout + r.stderr            # publish checks every link and badge target
    assert not [m for m in imported["modules"] if m == "torch" or m.startswith("torch.")]
    page = (out / "chapter.html").read_text()
    assert "The chapter view was not built" not in page and "class='fig" in page
    assert site.broken_links(out) == []


def _requirements() -> list[str]:
    """What the workflow's site job installs: the project's dependencies but torch, no pytest (the
    rule it reads from pyproject.toml; test_the_workflow_... checks it is that rule)."""
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [d for d in project["dependencies"] if _name(d) != "torch"]


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.split(r"[\s<>=!~;\[(]", requirement, maxsplit=1)[0]).lower()


def _closure(requirements: list[str]) -> set[str]:
    """The distributions these requirements install, with theirs (no extras)."""
    seen, todo = set(), [_name(r) for r in requirements]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            reqs = md.requires(name) or []
        except md.PackageNotFoundError:
            continue
        todo += [_name(r) for r in reqs if "extra ==" not in r.replace('"', "'").replace("'", "")
                 and "extra==" not in r.replace(" ", "")]
    return seen


@pytest.mark.skipif(sys.version_info < (3, 11), reason="tomllib")
def test_the_site_build_imports_only_what_the_site_job_installs(bare_site):
    _, imported, r = bare_site
    assert r.returncode == 0, r.stdout + r.stderr
    own = {"safeio", "textcheck", "claims", "data", "model", "fixtures", "__main__"}
    top = {m.split(".")[0] for m in imported["modules"]} - own - set(sys.stdlib_module_names)
    dists = md.packages_distributions()
    needed = {_name(d) for m in top for d in dists.get(m, [])}
    # cython_runtime: a module Cython's extensions (scipy's, for the rule's quantiles) register, of no
    # distribution of its own
    unknown = sorted(m for m in top if m not in dists and not m.startswith("_") and m != "cython_runtime")
    missing = sorted(needed - _closure(_requirements()))
    assert not missing, f"the site build imports distributions the site job does not install: {missing}"
    assert not unknown, f"modules of no installed distribution: {unknown}"
    assert "model" not in {m.split(".")[0] for m in imported["modules"]}        # model/ is torch's side


BADGE_LINK = re.compile(r"\[!\[([^\]]*)\]\(([^)\s]+)\)\]\(([^)\s]+)\)")


def test_every_readme_badge_links_relatively_to_its_section_of_the_claims_page():
    """Each badge is a link, relative into the repository (so it resolves on any fork or mirror):
    the overall one to docs/claims.md, a section's to that section's heading there."""
    readme = (ROOT / "README.md").read_text()
    block = readme.split("<!-- badges:start -->", 1)[1].split("<!-- badges:end -->", 1)[0]
    images = re.findall(r"!\[([^\]]*)\]\((results/badges/[a-z_]+\.svg)\)", block)
    linked = BADGE_LINK.findall(block)
    assert images and [(alt, img) for alt, img, _ in linked] == images, "a README badge that is not a link"
    sections = list(dict.fromkeys(c.section for c in registry.CLAIMS.values()))
    assert [link for _, _, link in linked] == [CLAIMS_PAGE] + [f"{CLAIMS_PAGE}#{s}" for s in sections]
    assert set(sections) <= links.anchors((ROOT / CLAIMS_PAGE).read_text())
    assert links.problems(ROOT / "README.md", ROOT) == []


def test_the_section_anchor_scheme():
    assert section_anchor("corpus") == "sec-corpus"
    assert all(section_anchor(s) == f"sec-{s}" for s in registry.SECTIONS)
    for bad in ("", "Corpus", "a b", "x'y", "sec/x"):
        with pytest.raises(ValueError):
            section_anchor(bad)


def test_the_link_check_finds_what_leads_nowhere(tmp_path):
    (tmp_path / "index.html").write_text(
        "<p id='here'><a href='#here'>ok</a> <a href='other.html#there'>ok</a> <img src='data:image/png;base64,AA'>"
        "<a href='#nowhere'>1</a> <a href='missing.html'>2</a> <a href='other.html#gone'>3</a>"
        "<a href='https://example.com/'>4</a> <a href='../outside.html'>5</a> <a href='plot.png#x'>6</a></p>")
    (tmp_path / "other.html").write_text("<h2 id='there'>x</h2>")
    (tmp_path / "plot.png").write_bytes(b"")
    broken = site.broken_links(tmp_path)
    assert len(broken) == 6, broken
    assert all(b.startswith("index.html:1: ") for b in broken)


def test_a_readme_link_that_leads_nowhere_or_names_an_owner_is_named(tmp_path):
    """The README's links are checked in the checkout: a missing file or heading, a link out of the
    checkout, and an absolute link to the project's own hosting (a placeholder owner's site)."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "claims.md").write_text("# Every claim\n\n## mask\n\n```\n## fenced\n```\n")
    (tmp_path / "README.md").write_text(
        "[![claims: mask](docs/claims.md)](docs/claims.md#mask) [ok](https://download.pytorch.org/whl/cpu)\n"
        "[1](docs/claims.md#qkv) [2](docs/missing.md) [3](../outside.md) [4](docs/claims.md#fenced)\n"
        "[5](https://maintainers.github.io/attention-claims/chapter.html#sec-mask) "
        "[6](https://github.com/someone/attention-claims) [7](#nowhere)\n")
    problems = links.problems(tmp_path / "README.md", tmp_path)
    assert len(problems) == 7, problems
    assert "no heading or id #qkv" in problems[0] and "no such file" in problems[1]
    assert "outside the checkout" in problems[2] and "#fenced" in problems[3]
    assert all("names one owner" in p for p in problems[4:6]) and problems[6].startswith("README.md:3: #nowhere")


def test_the_workflow_deploys_the_site_from_main_without_torch():
    yaml = pytest.importorskip("yaml")
    jobs = yaml.safe_load(WORKFLOW.read_text())["jobs"]
    build, deploy = jobs["site"], jobs["deploy"]
    steps = "\n".join(str(s.get("run", "")) + str(s.get("uses", "")) + str(s.get("env", "")) for s in build["steps"])
    assert "pip install -q --no-deps -e ." in steps and "torch==" not in steps
    assert 'name(d) != "torch"' in steps and 'name(d) == "pytest"' not in steps  # the rule _requirements() reads
    assert "for m in torch pytest" in steps                        # and neither may be importable there
    assert "python -m claims.report.publish site-report" in steps
    assert "secrets.ATTENTION_CLAIMS_CHAPTER_B64" in steps
    assert any(s.get("uses", "").startswith("actions/upload-pages-artifact@") for s in build["steps"])
    assert deploy["needs"] == "site" and deploy["if"] == "github.ref == 'refs/heads/main'"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert any(s.get("uses", "").startswith("actions/deploy-pages@") for s in deploy["steps"])
