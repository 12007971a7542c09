"""The claim contract as a pytest plugin: a thin adapter over textcheck/verdicts.py.

- The text whose claims are checked is handed over once, by the project's conftest.py
  implementing `pytest_textcheck_chapter(config)` (textcheck/hooks.py); every hook and fixture
  below reads that Chapter from `config.stash` (hooks.chapter_of).
- `@pytest.mark.claim("scale.variance_is_d")` names the claim a test checks; an ID that is not
  among the Chapter's claims is rejected at collection.
- `@pytest.mark.figure("scale.var_4", ...)` names the text's printed figures it asserts (the
  Chapter's figures); every record the test writes carries them, so the report, the tables and
  the chapter view find evidence by figure ID.
- The `claim` fixture records what the text states beside what we measured and decides it by the
  one rule (`claim.record(...)`, `claim.trained_figure(...)`, `claim.ordering(...)`, `claim.settle(...)`),
  in the manner of pytest-regressions' `data_regression`; `claim_record` is `claim.record`.
- The `chapter_text` fixture: the text, checked against its checksum; absent, the test skips.
- Every run writes `<--report-dir>/claims.json`: one object per claim of the Chapter with its
  verdict (holds / refuted / fails / not run / not encoded), written once by the ClaimReporter
  of textcheck/run_verdicts.py.  The markers, and the selection by them: textcheck/markers.py.
State lives in `config.stash`.  Loads alone (`-p textcheck.plugin`): what the project's other
plugins know of a run (its device, smoke scale) comes through `pytest_textcheck_run`.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from safeio.folders import unsafe_folder
from textcheck import hooks, rule, verdicts, versions
from textcheck.hooks import chapter_of, run_facts
from textcheck.markers import (
    MARKERS,
    claim_ids_of,
    claim_problem,
    figure_ids_of,
    figure_problem,
    select_by_id,
    tier_of,
    unknown_selection,
)
from textcheck.run_verdicts import COLLECTED, ClaimReporter
from textcheck.specs import Spec

BAD_CLAIM = pytest.StashKey[str]()            # on an item: why its claim marker is invalid


def pytest_addhooks(pluginmanager):
    pluginmanager.add_hookspecs(hooks)


def pytest_addoption(parser):
    g = parser.getgroup("textcheck")
    g.addoption("--claim", action="append", default=[], metavar="ID",
                help="run only the tests of this claim ID; repeatable, combines with -m")
    g.addoption("--figure", action="append", default=[], metavar="ID",
                help="run only the tests that assert this printed figure (by figure ID); "
                     "repeatable, combines with -m and --claim (a test carrying any of them is selected)")
    g.addoption("--report-dir", default="report",
                help="where this run's claims.json, evidence and plots are written (use --report-dir=DIR)")


def pytest_configure(config):
    for line in MARKERS:
        config.addinivalue_line("markers", line)
    config.stash[COLLECTED] = set()
    if not hasattr(config, "workerinput") and (config.getoption("--claim") or config.getoption("--figure")):
        why = unknown_selection(config)
        if why:
            raise pytest.UsageError(why)
    if not hasattr(config, "workerinput"):          # the controller (or a run without xdist)
        why = unsafe_folder(Path(config.rootpath, config.getoption("--report-dir")))
        if why:                                     # checked before the run, not after it
            raise pytest.UsageError(f"--report-dir={config.getoption('--report-dir')}: {why}")
        config.pluginmanager.register(ClaimReporter(config), "claim-reporter")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    bad = []
    chapter = chapter_of(config) if any(claim_ids_of(i) or figure_ids_of(i) for i in items) else None
    for item in items:
        if chapter is None:
            break
        problems = [p for c in claim_ids_of(item) if (p := claim_problem(chapter, c))]
        problems += [p for f in figure_ids_of(item) if (p := figure_problem(chapter, f))]
        if problems:
            bad.append(f"  {item.nodeid}: {'; '.join(problems)}")
            item.stash[BAD_CLAIM] = f"{item.nodeid}: {'; '.join(problems)}"
        config.stash[COLLECTED].update(c for c in claim_ids_of(item) if not claim_problem(chapter, c))
    if bad and not hasattr(config, "workerinput"):
        raise pytest.UsageError(verdicts.UNKNOWN.format(where=chapter.named("claims")) + "\n".join(bad))
    select_by_id(config, items)
    # In an xdist worker a UsageError would reach the controller as an INTERNALERROR that names
    # neither the test nor the claim: the test fails instead, with the reason (runtest_setup).


def pytest_sessionfinish(session):
    if hasattr(session.config, "workerinput"):
        session.config.workeroutput["claims_collected"] = sorted(session.config.stash[COLLECTED])


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    if BAD_CLAIM in item.stash:
        pytest.fail(item.stash[BAD_CLAIM], pytrace=False)
    ids = claim_ids_of(item)
    if ids:
        item.user_properties.append(("claim_ids", ids))
        item.user_properties.append(("claim_tier", tier_of(item)))
        item.user_properties.append(("claim_device", run_facts(item.config).device))
        item.user_properties.append(("figure_ids", figure_ids_of(item)))


@pytest.fixture(scope="session")
def chapter_text(request) -> str:
    """The text (the Chapter's `load_text`), checked against its checksum; without it the test
    skips, saying why; an altered text is an error, never a skip, naming each anchor it breaks."""
    chapter = chapter_of(request.config)
    try:
        return chapter.text()
    except chapter.text_missing as e:
        pytest.skip(f"needs the chapter text ({chapter.name}): {e}".replace("\n", " "))


class ClaimFixture:
    """The `claim` fixture: one test's side of the claim contract.

    claim.record(stated=..., measured=..., tolerance="...", rule="stated", label="...", **details)
        records the text's figure beside ours (call it before asserting, so that a failure keeps
        the evidence); `rule` names the rule that decides it (textcheck/versions.py), recorded
        with its version, and `measurement` (a name of the Chapter's measurements) with its own;
        `label`, what the record measures in words, where the test's figure marks do not say it.
    claim.decide(holds, reason)      passes, or marks the test refuted (a strict xfail) with reason
    claim.settle(verdict, reason)    holds / refuted / undecided, as the rule decided it
    claim.trained_figure(label=..., stated=..., values=..., rounding=..., measurement=...)
        the trained-figure rule for one printed figure (textcheck/rule.py trained_figure)
    claim.ordering(label=..., ...)   an ordering or a bound (textcheck/rule.py ordering)
    claim.seeds(default)             how many seeds this test's claims are measured on: the seeds
                                     their groups have on record (Chapter.seed_steps), else `default`
    claim.spec(label)                the rule inputs of the record labelled `label` (textcheck/rule.py spec_of)
    claim.device_specific(device, ours)      skip as a reading beside a figure the chapter measured on
                                             its CUDA card (textcheck/rule.py device_specific)
    claim.instrument_reading(device, ours)   skip a clock's or an allocator's reading off CUDA
                                             (textcheck/rule.py instrument_reading)
    """

    def __init__(self, request):
        self.request = request
        self.chapter = chapter_of(request.config)

    def _detail(self, name: str, value):
        value = verdicts.plain(value)
        # what was measured, with its version (the Chapter's measurements)
        return versions.current_id(self.chapter.measurements, value) if name == "measurement" else value

    def record(self, stated, measured, tolerance, rule: str = versions.DEFAULT, **details) -> dict:
        if "figure" in details:
            raise TypeError("claim_record(figure=...): a record's words are its label=...; its figure "
                            "IDs are the test's figure marks")
        # the label is stored under the field "figure", in its place: the name the committed
        # evidence (results/verdicts.json) has always given it; last, the text's figures it is evidence of
        rec = {"stated": verdicts.plain(stated), "measured": verdicts.plain(measured),
               "tolerance": verdicts.plain(tolerance), "rule": versions.rule_id(rule),
               **{"figure" if k == "label" else k: self._detail(k, v) for k, v in details.items()},
               "figures": figure_ids_of(self.request.node)}
        for key, value in rec.items():          # evidence must survive JSON (and xdist's wire)
            try:
                json.dumps(value)
            except (TypeError, ValueError):
                raise TypeError(f"claim_record({key}=...): {type(value).__name__} is not evidence; give "
                                "numbers, strings, tensors, arrays, or lists and dicts of them") from None
        self.request.node.user_properties.append(("claim_record", rec))
        return rec

    def decide(self, holds: bool, reason: str) -> None:
        rule.decide(self.request, holds, reason)

    def settle(self, verdict: str, reason: str) -> None:
        rule.settle(self.request, verdict, reason)

    def trained_figure(self, **kwargs) -> None:
        rule.trained_figure(self.request, self.record, **kwargs)

    def seeds(self, default: int) -> int:
        steps = self.chapter.seed_steps
        return max([default, *(steps[c] for c in claim_ids_of(self.request.node) if c in steps)])

    def ordering(self, **kwargs) -> None:
        rule.ordering(self.request, self.record, **kwargs)

    def spec(self, label: str) -> Spec:
        return rule.spec_of(self.request, label)

    def device_specific(self, device: str, ours: str) -> None:
        rule.device_specific(self.request, device, ours)

    def instrument_reading(self, device: str, ours: str) -> None:
        rule.instrument_reading(self.request, device, ours)


@pytest.fixture
def claim(request) -> ClaimFixture:
    """This test's side of the claim contract (ClaimFixture): record, then decide."""
    return ClaimFixture(request)


@pytest.fixture
def claim_record(claim):
    """claim.record, under its first name: claim_record(stated=..., measured=..., tolerance="...",
    rule="trained", **details)."""
    return claim.record
