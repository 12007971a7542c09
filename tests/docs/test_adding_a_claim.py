"""docs/adding-a-claim.md is executed: its worked example re-adds a real claim in a scratch copy.

On the page, a fenced block after `<!-- example: PATH -->` is code for the file PATH,
`<!-- example: run -->` holds the commands of its step 5, and `<!-- example: unaccounted -->`
what the accounting says without the figure.  In a copy of the working tree this test takes the
example's figure, claim and tests out (found by ID, not by text, so the page may differ from the
code it replaces), checks that the chapter's number is then unaccounted for and the claim ID
unknown, puts the page's blocks in, runs the page's commands as written, and checks that the
claim is collected, holds and shows in the report (claims.json, claims.md, index.html and the
chapter view).  Every ID and number it checks is read from the page.
"""
from __future__ import annotations

import ast
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
PAGE = ROOT / "docs" / "adding-a-claim.md"
BLOCK = re.compile(r"<!-- example: (\S+) -->\n```[a-z]*\n(.*?)```", re.DOTALL)
FIGURE_TABLE, REGISTRY, SENTENCES = "claims/chapter_figures.py", "claims/registry.py", "claims/sentence_table.py"
# Left out of the copy: version control, caches and reports (the copy writes its own report/)
NOT_COPIED = {".git", ".cache", ".hypothesis", ".pytest_cache", ".ruff_cache", ".import_linter_cache", ".benchmarks",
              "build", ".whl", ".gl"}


def page_blocks() -> dict[str, str]:
    blocks: dict[str, str] = {}
    for name, body in BLOCK.findall(PAGE.read_text()):
        assert name not in blocks, f"{PAGE.name}: two example blocks for {name}"
        blocks[name] = body
    return blocks


def _first_args(source: str, func: str) -> list[tuple[ast.Call, list]]:
    """Every call `func(...)` in the source, with its literal positional arguments."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == func:
            out.append((node, [a.value if isinstance(a, ast.Constant) else None for a in node.args]))
    return out


def _claim_of(func: ast.FunctionDef) -> list[str]:
    """The claim IDs a test function's decorators name (@pytest.mark.claim("..."))."""
    return [d.args[0].value for d in func.decorator_list
            if isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "claim"
            and d.args and isinstance(d.args[0], ast.Constant)]


class Example:
    """The page's example: its blocks, and the IDs they carry."""

    def __init__(self):
        self.blocks = page_blocks()
        missing = {FIGURE_TABLE, REGISTRY, SENTENCES, "run", "unaccounted"} - set(self.blocks)
        assert not missing, f"{PAGE.name} lacks the example blocks {sorted(missing)}"
        tests = [n for n in self.blocks if re.fullmatch(r"claims/test_\w+\.py", n)]
        assert len(tests) == 1, f"{PAGE.name}: one example block for a claims/test_<section>.py, not {tests}"
        self.test_file = tests[0]
        (_, entry), = _first_args(self.blocks[FIGURE_TABLE], "_f")
        self.figure, self.claim = entry[0], entry[1]             # its figure ID and claim ID
        (_, claim), = _first_args(self.blocks[REGISTRY], "_C")
        assert claim[0] == self.claim, f"the figure belongs to {self.claim}, the registry block adds {claim[0]}"
        (_, sentence), = _first_args(self.blocks[SENTENCES], "S")
        self.sentence = sentence[0]                     # the entry's anchor
        funcs = [n for n in ast.parse(self.blocks[self.test_file]).body if isinstance(n, ast.FunctionDef)]
        assert len(funcs) == 1 and _claim_of(funcs[0]) == [self.claim], "one test function carrying the claim"
        self.test_name = funcs[0].name
        self.commands = [line for line in self.blocks["run"].splitlines() if line.strip()]


# ------------------------------------------------------------------ editing the copy

def take_out_call(path: Path, func: str, key: str) -> tuple[list[str], int, int]:
    """Remove the table entry `func("key", ...)` (whole lines) from the file: (the lines left,
    where it stood, its indentation)."""
    text = path.read_text()
    found = [node for node, args in _first_args(text, func) if args and args[0] == key]
    assert len(found) == 1, f"{path.name}: expected one {func}({key!r}, ...) to take out, found {len(found)}"
    node = found[0]
    lines = text.splitlines(keepends=True)
    first, last = node.lineno - 1, node.end_lineno
    assert not lines[first][:node.col_offset].strip() and lines[last - 1][node.end_col_offset:].strip() in (",", ""), \
        f"{path.name}: {func}({key!r}, ...) does not stand on lines of its own"
    return lines[:first] + lines[last:], first, node.col_offset


def put_in(lines: list[str], at: int, indent: int, block: str) -> str:
    new = [" " * indent + line + "\n" for line in textwrap.dedent(block).splitlines()]
    return "".join(lines[:at] + new + lines[at:])


def take_out_tests(path: Path, claim: str) -> str:
    """The test file without the tests that carry the claim (decorators included)."""
    text = path.read_text()
    funcs = [n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef) and claim in _claim_of(n)]
    assert funcs, f"{path.name}: no test carries {claim!r} to take out"
    lines = text.splitlines(keepends=True)
    for f in sorted(funcs, key=lambda f: f.lineno, reverse=True):
        start = min([f.lineno, *(d.lineno for d in f.decorator_list)]) - 1
        del lines[start:f.end_lineno]
    return "".join(lines)


def scratch_copy(dest: Path) -> Path:
    def ignore(folder, names):
        at_root = Path(folder) == ROOT
        return {n for n in names if n == "__pycache__" or n.endswith(".egg-info")
                or (at_root and (n in NOT_COPIED or n == "report" or n.startswith("report-")))}
    shutil.copytree(ROOT, dest, ignore=ignore, symlinks=True)
    return dest


def environment(copy: Path, cache: Path) -> dict[str, str]:
    """The copy is the checkout; the chapter and the corpus are the ones this checkout finds."""
    from claims.chapter import CHAPTER
    from data import corpus
    from data.chapter import ChapterMissing, chapter_path
    try:
        text_path = chapter_path(explain=CHAPTER.explainers())
    except ChapterMissing as e:
        pytest.skip(f"the example anchors a figure in the chapter: {e}")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "ATTENTION_CLAIMS_"))}
    env.update(ATTENTION_CLAIMS_ROOT=str(copy), ATTENTION_CLAIMS_CHAPTER=str(text_path),
               ATTENTION_CLAIMS_CACHE=str(cache), ATTENTION_CLAIMS_NO_DOWNLOAD="1",
               PYTHONPATH=os.pathsep.join([str(copy), *filter(None, [os.environ.get("PYTHONPATH")])]))
    found = next((p for p in corpus.candidate_paths() if p.is_file()), None)
    if found:
        env["ATTENTION_CLAIMS_CORPUS"] = str(found)
    return env


def run(line: str, copy: Path, env: dict) -> subprocess.CompletedProcess:
    """A command of the page, as written: `pytest ...` or `python ...`, run in the copy."""
    argv = shlex.split(line)
    assert argv[0] in ("pytest", "python"), f"{PAGE.name}: the example runs pytest or python, not {line!r}"
    argv = [sys.executable, "-m", "pytest", *argv[1:]] if argv[0] == "pytest" else [sys.executable, *argv[1:]]
    return subprocess.run(argv, cwd=copy, env=env, capture_output=True, text=True, timeout=300, check=False)


def said(r: subprocess.CompletedProcess) -> str:
    return f"exit {r.returncode}\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}"


# ------------------------------------------------------------------ the test

def test_the_pages_worked_example_re_adds_its_claim(tmp_path):
    ex = Example()
    copy = scratch_copy(tmp_path / "checkout")
    env = environment(copy, tmp_path / "cache")

    # Take the claim out: its figure, its registry entry, its sentence's entry and its tests.
    figures, fig_at, fig_indent = take_out_call(copy / FIGURE_TABLE, "_f", ex.figure)
    claims, claim_at, claim_indent = take_out_call(copy / REGISTRY, "_C", ex.claim)
    sentences, sentence_at, sentence_indent = take_out_call(copy / SENTENCES, "S", ex.sentence)
    (copy / FIGURE_TABLE).write_text("".join(figures))
    (copy / REGISTRY).write_text("".join(claims))
    (copy / SENTENCES).write_text("".join(sentences))
    (copy / ex.test_file).write_text(take_out_tests(copy / ex.test_file, ex.claim))
    left = [str(p.relative_to(copy)) for p in (copy / "claims").rglob("*.py") if f'"{ex.claim}"' in p.read_text()]
    assert not left, f"{ex.claim} is still named in {left}: the example would not start from nothing"

    # Without them the chapter's number is unaccounted for, as step 4 of the page says, and the ID is unknown.
    r = run("pytest claims/bookkeeping/test_bookkeeping.py -q", copy, env)
    assert r.returncode == 1 and ex.blocks["unaccounted"].strip() in r.stdout, said(r)
    r = run(f"pytest --claim {ex.claim} --collect-only -q", copy, env)
    assert r.returncode == pytest.ExitCode.USAGE_ERROR and ex.claim in r.stderr + r.stdout, said(r)

    # The page's steps 1 to 3: its blocks, into the files it names.
    (copy / FIGURE_TABLE).write_text(put_in(figures, fig_at, fig_indent, ex.blocks[FIGURE_TABLE]))
    (copy / REGISTRY).write_text(put_in(claims, claim_at, claim_indent, ex.blocks[REGISTRY]))
    (copy / SENTENCES).write_text(put_in(sentences, sentence_at, sentence_indent, ex.blocks[SENTENCES]))
    test_file = copy / ex.test_file
    test_file.write_text(test_file.read_text().rstrip("\n") + "\n\n\n" + textwrap.dedent(ex.blocks[ex.test_file]))

    # Step 5: the page's commands, as written.
    outputs = []
    for line in ex.commands:
        r = run(line, copy, env)
        assert r.returncode == 0, f"{line}: {said(r)}"
        outputs.append(r.stdout)
    assert any(re.search(r"\b1 passed\b", out) and "failed" not in out for out in outputs), outputs

    # Collected, held, and in the report where the page says.
    report = copy / "report"
    claim = next(c for c in json.loads((report / "claims.json").read_text())["claims"] if c["id"] == ex.claim)
    assert claim["verdict"] == "holds", claim
    assert [t["nodeid"] for t in claim["tests"]] == [f"{ex.test_file}::{ex.test_name}"], claim["tests"]
    assert claim["tests"][0]["figures"] == [ex.figure] and claim["records"][0]["figures"] == [ex.figure]
    rows = [line for line in (report / "claims.md").read_text().splitlines() if f"`{ex.claim}`" in line]
    assert any("holds" in row for row in rows), rows
    assert re.search(rf"""id=['"]fig-{re.escape(ex.figure)}['"]""", (report / "index.html").read_text())
    mark = re.search(rf"""<[^>]*data-figure=['"]{re.escape(ex.figure)}['"][^>]*>""", (report / "chapter.html").read_text())
    assert mark and re.search(r"""data-verdict=['"]holds['"]""", mark.group()), mark


def test_the_checklist_names_every_file_the_example_edits():
    """Each file the worked example puts a block into is a step of the page's checklist (issue 42:
    the checklist named three of the four)."""
    text = PAGE.read_text()
    checklist = text[text.index("## Checklist"):]
    edited = [n for n in Example().blocks if "/" in n]
    named = [n if not re.fullmatch(r"claims/test_\w+\.py", n) else "claims/test_<section>.py" for n in edited]
    assert len(edited) == 4, edited
    missing = [n for n in named if f"`{n}`" not in checklist]
    assert not missing, f"{PAGE.name}: the checklist does not name {missing}"
