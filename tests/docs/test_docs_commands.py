"""Every shell command the manual shows runs as written, or is declared as one that takes minutes or
hours, with why (README.md, docs/*.md, benchmarks/README.md; tests/docs/docs_pages.py reads them).

A command is a line of a fenced bash block (continuations joined, the comment cut off), an
indented code block, or inline code that starts with `python`, `pytest` or `bash` (after any
`VAR=value` and `taskset -c N`); `a && b` is two commands.  Each must match one entry of RUN (run
here, as written, in a scratch copy of the working tree, and its exit code checked, and what the
docs say it prints) or of DECLARED (not run, and why).  A new command in the docs is neither until
it is added to one of them, and an entry no command matches any more is an error too.

The scratch copy: the working tree without .git, report/ and the caches, beside a link to
../shared when the checkout has one; the commands run with PYTHONPATH set to it (so the editable
install's modules never stand in for it), a cache of its own (`ATTENTION_CLAIMS_CACHE`, seeded with
the tokenizer), and two at a time.  On 2026-12-02 the whole file took 30-45 s on 2 shared cores.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from docs_pages import ROOT, pages

ENV_PREFIX = re.compile(r"^(?:[A-Z_][A-Z0-9_]*=\S+\s+)*(?:taskset\s+-c\s+\S+\s+)?")
COMMAND = re.compile(r"^(?:python|pytest|bash)(?:\s|$)")
TIMEOUT = 180
# one scratch copy and one run of each command per session: under xdist, every test here on one worker
pytestmark = pytest.mark.xdist_group("docs_commands")
# docs/adding-a-claim.md's worked example: the commands of the block after this mark are run, as
# written, by tests/docs/test_adding_a_claim.py in a copy where the example's claim was taken out and put back
EXAMPLE_MARK, EXAMPLE_TEST = "<!-- example: run -->", ROOT / "tests" / "docs" / "test_adding_a_claim.py"


@dataclass(frozen=True)
class Shown:
    """One command as a page shows it."""
    page: str
    line: int
    text: str          # as written (env prefix included)
    comment: str = ""  # the comment after it in a code block, if any
    example: bool = False  # in docs/adding-a-claim.md's worked example, which its own test runs

    @property
    def bare(self) -> str:
        """The command without its environment prefix, whitespace collapsed: what entries match."""
        return " ".join(ENV_PREFIX.sub("", self.text).split())


def _split_comment(line: str) -> tuple[str, str]:
    """`cmd  # comment` -> (cmd, comment), a # inside quotes kept."""
    quote = None
    for i, ch in enumerate(line):
        if ch in "'\"" and quote in (None, ch):
            quote = None if quote else ch
        elif ch == "#" and quote is None and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), ""


def shown_commands() -> list[Shown]:
    out = []
    for page in pages():
        blocks = [(s, body) for lang, s, _, body in page.fenced if lang in ("bash", "sh", "shell", "console")]
        blocks += [(a, page.text[a:b]) for a, b in page.indented]
        for start, body in blocks:
            first_line = page.line_of(start) + (1 if page.text[start:start + 3] == "```" else 0)
            example = page.text[:start].rstrip().endswith(EXAMPLE_MARK)
            joined = re.sub(r"\\\n\s*", " ", body)
            lines = body.splitlines()
            at = 0
            for text in joined.splitlines():
                line_no = first_line + at
                at += 1 + text.count("\n")
                while at < len(lines) and lines[at - 1].rstrip().endswith("\\"):
                    at += 1
                command, comment = _split_comment(text.strip())
                for part in filter(None, (p.strip() for p in command.split("&&"))):
                    out.append(Shown(page.name, line_no, part, comment, example))
        for offset, code in page.inline_code:
            if COMMAND.match(ENV_PREFIX.sub("", code.strip())):
                for part in filter(None, (p.strip() for p in code.split("&&"))):
                    out.append(Shown(page.name, page.line_of(offset), part))
    return out


# ---------------------------------------------------------------------------------------------
# What is run, and what is declared
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Run:
    """Commands matching `pattern` (over Shown.bare, whole) are run as written, after `before` (run
    first, in the same copy), and must exit 0; `first`/`last`/`output`: regexes the first line, the
    last line, or the whole output must match, each where the docs say so (`says`)."""
    pattern: str
    says: str = ""
    first: str = ""
    last: str = ""
    output: str = ""
    before: tuple[str, ...] = ()


@dataclass(frozen=True)
class Declared:
    pattern: str
    why: str


RUN: list[Run] = [
    Run(r"python -m claims\.report", "docs/evidence.md: without a fresh run it renders the committed verdicts alone "
        "and says so", output=r"rendering the committed verdicts alone"),
    Run(r"python -m claims\.rederive", "docs/evidence.md, docs/running.md: every committed figure decided again, "
        "no torch", output=r"0 differ; 0 need weights"),
    Run(r"python -m claims\.convert", "docs/evidence.md, docs/figure-rule.md: every committed record is decided "
        "under today's rules, so it writes nothing", output=r"every record decided under today's rules"),
    Run(r"python -m fixtures(?: --list)?", "docs/running.md: the recipes, training nothing"),
    Run(r"python -m fixtures norm --jobs 2 --dry-run", "docs/running.md: the plan, training nothing"),
    Run(r"python -m fixtures\.fingerprint", 'docs/running.md: compare: "fingerprint unchanged" or what moved'),
    Run(r"bash benchmarks/gpu_tier\.sh --dry-run", "docs/gpu-runner.md: the plan and the estimated minutes, no GPU "
        "needed; it prints `gpu_tier_minutes=...` as its last line", last=r"gpu_tier_minutes=\d"),
    Run(r"python benchmarks/chapter_view\.py", "benchmarks/README.md: its last line is its headline",
        last=r"chapter_view_build_seconds=\d"),
    Run(r"python benchmarks/cost_flakes\.py --from-log \S+ --from-kept \S+ --calibrate",
        "docs/cost.md: counts the kept runs, running none, and writes the calibration (here, into the copy)",
        last=r"cost_verdict_flips=\d"),
    Run(r"pytest --claim qkv\.head_thirty_lines -rx", "docs/running.md, docs/adding-a-claim.md: a refuted fast claim, "
        "its reason printed", output=r"XFAIL claims/test_qkv\.py::\w+ - refuted: "),
    Run(r"pytest --figure qkv\.listing_lines", "docs/running.md: the tests of one printed figure, fast",
        output=r"1 xfailed"),
    Run(r"pytest -m slow --collect-only -q", "docs/running.md: the slow tier is what it lists (the files named there)"),
    Run(r"python -m textcheck report --text examples\.running_mean\.chapter --report-dir=report/example",
        "docs/layout.md, docs/figures.md: the example's report through the engine's command and views, its chapter "
        "view among them, from its committed verdicts", output=r"\d+ hold"),
]

# each reason says why the command is not run here: what it takes, or that it is a template
DECLARED: list[Declared] = [
    Declared(r"pip install .*", "installs packages from the network (minutes); README's torch pin is checked "
             "against .ci/run by tests/docs/test_docs.py"),
    Declared(r"git diff results/", "git's, not the project's: reviews a save"),
    Declared(r"python benchmarks/rederive\.py(?: --runs \d+)?", "a benchmark (seconds, several runs); its figure is quoted dated"),
    Declared(r"python -m pytest -c tests/engine/pytest\.ini tests/engine",
             "the engine's own tests, their own pytest project (a minute); .ci/run runs them as written"),
    Declared(r"python benchmarks/fresh_clone\.py(?: --no-suite)?", "a benchmark that clones and runs the fast tier "
             "five times and the whole suite (minutes); its figures are quoted dated (benchmarks/README.md)"),
    Declared(r"python -m textcheck report\|save\|rederive\|convert --text examples\.running_mean\.chapter",
             "four commands in one (report, save, rederive and convert); the report is run as written on docs/layout.md, "
             "convert and rederive by tests/engine/test_engine_on_the_example.py"),
    Declared(r"python -m fixtures\.grad_profile(?: --write)?",
             "measures the gradient profile of the twelve-block model (a minute); the slow tier's "
             "tests/integration/test_grad_profile_evidence.py runs the same comparison"),
    Declared(r"pytest -m fast(?: -n 2)?", "the fast tier: about a minute on 2 cores (README.md's tier table); CI runs "
             "it as part of `pytest -m \"not slow\" -n auto`"),
    Declared(r'pytest -m "not slow" -n auto', "the whole suite but the slow tier: CI's command, minutes"),
    Declared(r"pytest (?:tests/\w+|claims/bookkeeping)/test_\w+\.py(?: (?:tests/\w+|claims/bookkeeping)/test_\w+\.py)*"
             r"(?: -q)?",
             "test files of the suite, which CI runs (`pytest -m \"not slow\" -n auto`)"),
    Declared(r"pytest -m slow(?: -k \w+)?|pytest claims/test_(?:cost|readings)\.py -m slow(?: .*)?|"
             r"pytest -m slow --report-dir=\S+",
             "the slow tier or part of it: timing runs of 5-14 minutes each and Winograd and readings models to "
             "train (docs/cost.md)"),
    Declared(r"pytest -m gpu .*", "the trained tier at the chapter's scale: CUDA, or CPU-hours"),
    Declared(r"python -m claims\.rederive --remeasure(?: .*)?|pytest <node IDs> --device cpu --cached-only --seeds N",
             "measures the committed figures again from the trained cache's weights, which CI and a checkout do not "
             "have (the second is what it runs); tests/integration/test_remeasure.py runs it at the smoke scale"),
    Declared(r"pytest -m trained --device cpu --smoke -n 2|pytest -m slow --device cpu --smoke -n 2",
             "the smoke scale of every trained or slow test: about 2 minutes on 2 cores; .ci/run runs it"),
    Declared(r'pytest <those tests> -m "gpu or trained" --device cuda -n auto',
             "what benchmarks/gpu_tier.py runs on a CUDA machine"),
    Declared(r"pytest --(?:claim|figure) ID(?: .*)?|python -m fixtures <group> .*|pytest -m trained --device cpu --cached-only --report-dir=DIR",
             "a template: ID, <group>, <recipe>, <seed>, DIR stand for the reader's own (the concrete form is run "
             "where one is shown)"),
    Declared(r"python -m claims\.report --readme",
             "rewrites the generated blocks from a fresh fast run (`pytest -m fast` first, a minute); "
             "CI checks them with --check-readme"),
    Declared(r"python -m claims\.report --check-readme",
             "compares the generated blocks with a fresh fast run's report: needs `pytest -m fast` first (a minute)"),
    Declared(r"python -m claims\.report(?: --report-dir=\S+)? --save-results",
             "keeps a trained or slow run's verdicts in results/: needs that run (minutes to hours) first"),
    Declared(r"python -m fixtures (?:ladder|winograd|all|errata)(?: --jobs 2)?(?: --seeds \d+)?",
             "trains a group at the chapter's scale: CPU-hours (the plan of a --jobs run is checked by the "
             "--dry-run command, which is run)"),
    Declared(r"python -m fixtures\.fingerprint --write",
             "rewrites tests/data/fingerprints.json, only after bumping TRAINING_VERSION"),
    Declared(r"python -m tests\.integration\.test_measurement_fingerprint(?: --write)?",
             "measures every kind of measurement on small models (minutes); its tests compare the same in the suite"),
    Declared(r"python -m fixtures\.cost", "the timing process the cost claims start, with the arguments they pass: "
             "named, not typed"),
    Declared(r"python benchmarks/(?:fast_tier|train_throughput|full_cost|train_candidates)\.py(?: --steps \d+)?",
             "a benchmark that runs the fast tier or trains (a minute to several), meant for a quiet machine "
             "(benchmarks/README.md)"),
    Declared(r"python benchmarks/cost_flakes\.py(?: --runs \d+)?(?: --conditions \w+)?(?: --keep DIR)?(?: --calibrate)?",
             "quiet and busy timing runs of the cost claims: 5-14 minutes each (docs/cost.md)"),
    Declared(r"bash benchmarks/gpu_tier\.sh (?:OUT|/tmp/gpu-tier)", "the whole gpu tier: needs CUDA"),
]


def classify(cmd: Shown) -> list[tuple[str, object]]:
    if cmd.example and EXAMPLE_TEST.exists():
        return [("declared", Declared(re.escape(cmd.bare), f"run as written by {EXAMPLE_TEST.name}, the page's worked "
                                                            f"example, in a copy with the example's claim put back"))]
    kinds = [("run", r) for r in RUN if re.fullmatch(r.pattern, cmd.bare)]
    kinds += [("declared", d) for d in DECLARED if re.fullmatch(d.pattern, cmd.bare)]
    return kinds


SHOWN = shown_commands()


def test_every_command_shown_is_run_or_declared():
    unknown = [f"{c.page}:{c.line}: `{c.text}`" for c in SHOWN if not classify(c)]
    assert not unknown, ("commands in the docs that tests/docs/test_docs_commands.py neither runs (RUN) nor declares "
                         "(DECLARED, with why):\n" + "\n".join(unknown))
    twice = [f"{c.page}:{c.line}: `{c.text}`: {[k for k, _ in classify(c)]}" for c in SHOWN if len(classify(c)) > 1]
    assert not twice, "commands matched by more than one entry:\n" + "\n".join(twice)


def test_every_entry_matches_a_command_shown():
    unused = [e.pattern for e in [*RUN, *DECLARED] if not any(re.fullmatch(e.pattern, c.bare) for c in SHOWN)]
    assert not unused, f"entries no command in the docs matches any more (remove them): {unused}"


# ---------------------------------------------------------------------------------------------
# Running them
# ---------------------------------------------------------------------------------------------

_ANYWHERE = shutil.ignore_patterns(".git", ".cache", "__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache",
                                   ".import_linter_cache", ".benchmarks", "*.egg-info")
_TOP_ONLY = shutil.ignore_patterns("report", "report-*")      # a run's reports; claims/report/ is code


def not_copied(folder: str, names: list[str]) -> set[str]:
    """What the copy leaves out.  Run reports only at the top: left out anywhere, claims/report/ went
    missing and the editable install's checkout stood in for it."""
    return set(_ANYWHERE(folder, names)) | (set(_TOP_ONLY(folder, names)) if Path(folder) == ROOT else set())


@dataclass
class Result:
    command: str
    rc: int
    out: str
    before: list = field(default_factory=list)


def _env(copy, cache) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    env.update(PYTHONPATH=str(copy), ATTENTION_CLAIMS_CACHE=str(cache), PYTHONDONTWRITEBYTECODE="1")
    return env


def _run(command: str, copy, env) -> tuple[int, str]:
    argv = ["bash", "-c", command]
    try:
        r = subprocess.run(argv, cwd=copy, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired as e:
        return 124, f"timed out after {TIMEOUT} s\n{e.stdout or ''}{e.stderr or ''}"
    return r.returncode, r.stdout + r.stderr


def _job(run: Run, command: str, copy, env) -> Result:
    before = [(b, *_run(b, copy, env)) for b in run.before]
    rc, out = _run(command, copy, env)
    return Result(command, rc, out, before)


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """Every RUN command shown, run once each in one scratch copy, two at a time."""
    base = tmp_path_factory.mktemp("docs-commands")
    copy = base / "checkout"
    shutil.copytree(ROOT, copy, ignore=not_copied, symlinks=True)
    if (ROOT.parent / "shared").exists():
        (base / "shared").symlink_to(ROOT.parent / "shared")
    cache = base / "cache"
    if (ROOT / ".cache" / "bpe").is_dir():
        shutil.copytree(ROOT / ".cache" / "bpe", cache / "bpe")
    env = _env(copy, cache)
    jobs = {}
    for c in SHOWN:
        kinds = classify(c)
        if len(kinds) == 1 and kinds[0][0] == "run" and c.bare not in jobs:
            jobs[c.bare] = (kinds[0][1], c.text)
    # a command another one runs first is run once, with it, and not on its own
    firsts = {b for run, _ in jobs.values() for b in run.before}
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {bare: pool.submit(_job, run, text, copy, env) for bare, (run, text) in jobs.items()
                   if bare not in firsts}
        results = {bare: f.result() for bare, f in futures.items()}
    for result in list(results.values()):
        for b, rc, out in result.before:
            results[" ".join(b.split())] = Result(b, rc, out)
    return results


RUN_SHOWN = [c for c in SHOWN if len(classify(c)) == 1 and classify(c)[0][0] == "run"]


def _expected_from_comment(comment: str) -> tuple[str, str]:
    """What a code block's comment says the command prints: a quoted first line ("..."), or its
    headline as the last line (`name=...`)."""
    quoted = re.match(r'[^"]*"([^"]+)"', comment)
    headline = re.match(r"(\w+)=\.\.\.", comment)
    return (re.escape(quoted.group(1)) if quoted else "", f"{headline.group(1)}=" if headline else "")


@pytest.mark.parametrize("cmd", RUN_SHOWN, ids=lambda c: f"{c.page}:{c.line}:{c.bare[:60]}")
def test_the_command_runs_as_written(cmd, ran):
    run = classify(cmd)[0][1]
    r = ran[cmd.bare]
    for b, rc, out in r.before:
        assert rc == 0, f"`{b}` (run before `{cmd.text}`) exited {rc}:\n{out[-3000:]}"
    assert r.rc == 0, f"{cmd.page}:{cmd.line}: `{cmd.text}` exited {r.rc}:\n{r.out[-3000:]}"
    lines = [line for line in r.out.splitlines() if line.strip() and "Warning" not in line]
    first, last = _expected_from_comment(cmd.comment)
    for what, pattern, got in (("first line", run.first or first, lines[0] if lines else ""),
                               ("last line", run.last or last, lines[-1] if lines else "")):
        if pattern:
            assert re.match(pattern, got), (f"{cmd.page}:{cmd.line}: `{cmd.text}`: its {what} is {got!r}, where the "
                                            f"docs say {pattern!r} ({run.says or cmd.comment})")
    if run.output:
        assert re.search(run.output, r.out), f"`{cmd.text}` does not say {run.output!r} ({run.says}):\n{r.out[-2000:]}"


def test_the_slow_tier_is_what_the_docs_say(ran):
    """docs/running.md names the files `pytest -m slow --collect-only -q` lists, and the README's and
    running.md's tier tables say what they hold."""
    r = ran["pytest -m slow --collect-only -q"]
    collected = sorted({line.split("::")[0] for line in r.out.splitlines() if "::" in line})
    running = (ROOT / "docs" / "running.md").read_text()
    paragraph = running[running.index("The slow tier is what"):].split("\n\n")[0]
    named = sorted(set(re.findall(r"`((?:claims|tests)/(?:\w+/)?test_\w+\.py)`", paragraph)))
    assert collected and named == collected, f"docs/running.md names {named}; `pytest -m slow` holds {collected}"


def test_a_new_command_is_neither_run_nor_declared():
    cmd = Shown("docs/running.md", 1, "python -m fixtures ladder --seeds 3 --no-such-option")
    assert not classify(cmd)
    assert classify(Shown("README.md", 1, "OMP_NUM_THREADS=1 taskset -c 1 python benchmarks/full_cost.py --steps 10"))


def test_commands_are_found_with_their_page_line_and_comment():
    fingerprint = [c for c in SHOWN if c.bare == "python -m fixtures.fingerprint"]
    assert fingerprint and fingerprint[0].page == "docs/running.md"
    line = (ROOT / "docs" / "running.md").read_text().splitlines()[fingerprint[0].line - 1]
    assert line.startswith("python -m fixtures.fingerprint"), line
    assert _expected_from_comment(fingerprint[0].comment)[0], fingerprint[0].comment
    chained = [c.bare for c in SHOWN if c.page == "README.md" and c.line == (ROOT / "README.md").read_text()
               .splitlines().index("pip install -c requirements/lock.txt -e '.[test]' && pytest -m fast && python -m claims.report") + 1]
    assert chained == ["pip install -c requirements/lock.txt -e '.[test]'", "pytest -m fast", "python -m claims.report"]
    assert sys.executable
