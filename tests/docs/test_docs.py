"""The README and docs/ stay true: every link resolves in the checkout (anchors included, none to
the project's own hosting), every command-line option they
name exists in the --help of the command that has it, docs/layout.md names every module, and the
README installs the torch that CI pins."""
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import inproc
import pytest

from claims.report import links

ROOT = Path(__file__).resolve().parent.parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "benchmarks" / "README.md"]
# The project's commands, by how the docs write them, and how to ask each for its --help.
COMMANDS = {
    "python -m claims.report": [sys.executable, "-m", "claims.report", "--help"],
    "python -m claims.rederive": [sys.executable, "-m", "claims.rederive", "--help"],
    "python -m claims.convert": [sys.executable, "-m", "claims.convert", "--help"],
    "python -m fixtures.fingerprint": [sys.executable, "-m", "fixtures.fingerprint", "--help"],
    "python -m fixtures.grad_profile": [sys.executable, "-m", "fixtures.grad_profile", "--help"],
    "python -m fixtures": [sys.executable, "-m", "fixtures", "--help"],
    "benchmarks/gpu_tier": [sys.executable, "benchmarks/gpu_tier.py", "--help"],
    "benchmarks/cost_flakes.py": [sys.executable, "benchmarks/cost_flakes.py", "--help"],
    "benchmarks/full_cost.py": [sys.executable, "benchmarks/full_cost.py", "--help"],
    "benchmarks/fresh_clone.py": [sys.executable, "benchmarks/fresh_clone.py", "--help"],
    "python -m textcheck": [sys.executable, "-m", "textcheck", "report", "--help"],
    "pytest": [sys.executable, "-m", "pytest", "--help", "-p", "no:cacheprovider"],
}
# Options of other programs the docs quote (pip, git, Chromium, GitHub's runner, the linker).
FOREIGN = {"--no-index", "--find-links", "--index-url", "--url", "--token", "--labels", "--headless",
           "--no-sandbox", "--disable-gpu", "--virtual-time-budget", "--dump-dom", "--screenshot", "--window-size",
           "--user-data-dir", "--no-first-run", "--disable-quic", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--lib",
           # pip-compile's (pip-tools: how requirements/lock.txt is made, docs/running.md), not the project's
           "--constraint", "--extra", "--no-emit-find-links", "--no-emit-index-url", "--output-file",
           "--strip-extras", "--unsafe-package"}
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def _in_process(command: str):
    """The main(argv) of a command this process can run as its `python -m` entry does (tests/inproc.py):
    the project's own, whose --help is all that is asked; the others (the training commands, whose
    main ties itself to its parent, and the benchmarks' scripts) are started as written."""
    import pytest as pytest_module

    from claims import convert, rederive
    from claims.report import cli
    from textcheck import commands
    return {"python -m claims.report": cli.main, "python -m claims.rederive": rederive.main,
            "python -m claims.convert": convert.main, "python -m textcheck": commands.main,
            "pytest": lambda a: int(pytest_module.main(a))}.get(command)


@cache
def help_of(command: str) -> str:
    argv, main = COMMANDS[command], _in_process(command)
    if main is not None:
        r = inproc.command(main, *argv[argv.index("-m") + 2:], prog=command)
    else:
        r = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False, timeout=120)
    return r.stdout + r.stderr


def code_spans(text: str) -> list[str]:
    """Inline code and the lines of fenced code blocks."""
    fenced = re.findall(r"```[a-z]*\n(.*?)```", text, re.DOTALL)
    inline = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.DOTALL))
    return [line for block in fenced for line in block.splitlines()] + inline


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves_in_the_checkout(page):
    """README.md's included: a file and the heading an #anchor names, in the checkout; no link to the
    project's own hosting, which would name one owner (claims/report/links.py)."""
    broken = links.problems(page, ROOT)
    assert not broken, f"{page.name}: links that lead nowhere on a fork or a clone:\n" + "\n".join(broken)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_option_named_exists_in_its_commands_help(page):
    missing = []
    for span in code_spans(page.read_text()):
        options = set(OPTION.findall(span)) - FOREIGN
        if not options:
            continue
        # the command this span invokes (the first the span names), else any of the project's
        named = [c for c in COMMANDS if c in span]
        helps = [help_of(named[0])] if named else [help_of(c) for c in COMMANDS]
        missing += [f"{o} (in `{span.strip()[:80]}`)" for o in options
                    if not any(re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", h) for h in helps)]
    assert not missing, f"{page.name}: options no --help knows: " + "; ".join(missing)


# What docs/layout.md must name, by file name: every module and script of these folders, but the
# claim test files (claims/test_*.py: "one test file per chapter section"; the example's) and package files.
LAYOUT_FOLDERS = ("safeio", "textcheck", "textcheck/report", "textcheck/report/assembly", "textcheck/report/assembly/chapter_view",
                  "textcheck/report/views", "textcheck/report/views/chapter_view", "data", "model", "fixtures", "claims",
                  "claims/report", "claims/report/errata", "benchmarks", "examples/running_mean")


def test_the_layout_names_every_module():
    layout = (ROOT / "docs" / "layout.md").read_text()
    files = [p for folder in LAYOUT_FOLDERS for p in sorted((ROOT / folder).iterdir())
             if p.suffix in (".py", ".sh") and p.name not in ("__init__.py", "conftest.py")
             and not (folder in ("claims", "examples/running_mean") and p.name.startswith("test_"))
             and not (p.name == "__main__.py" and folder != "fixtures")]
    missing = [str(p.relative_to(ROOT)) for p in files
               if not re.search(rf"(?<![\w/.-]){re.escape(p.name)}(?![\w-])", layout)]
    assert not missing, f"docs/layout.md does not name: {missing}"


def test_the_readme_installs_the_torch_ci_pins():
    """README's install commands (each fenced block that installs the project) first install the
    CPU build of the torch `.ci/run` pins (TORCH_VERSION), the same way the GitHub workflow does."""
    pin = re.search(r"^TORCH_VERSION=([\d.]+)", (ROOT / ".ci" / "run").read_text(), re.MULTILINE)
    assert pin, ".ci/run: no TORCH_VERSION=..."
    readme = (ROOT / "README.md").read_text()
    blocks = [b for b in re.findall(r"```bash\n(.*?)```", readme, re.DOTALL) if "-e '.[test]'" in b]
    assert blocks, "README.md: no command that installs the project"
    assert "-e '.[test]'" in re.findall(r"```bash\n(.*?)```", readme, re.DOTALL)[0], \
        "README.md's first command block must install the project"
    for block in blocks:
        first = block.strip().splitlines()[0]
        assert re.fullmatch(rf"pip install torch=={re.escape(pin.group(1))} "
                            rf"--index-url https://download\.pytorch\.org/whl/cpu", first.strip()), \
            f"README.md: {first!r} is not the CPU build of .ci/run's torch {pin.group(1)}"
        # then the project at the lock's versions (requirements/lock.txt, what CI installs)
        assert "pip install -c requirements/lock.txt -e '.[test]'" in block, block
        assert block.index("pip install torch") < block.index("pip install -c requirements/lock.txt"), block
