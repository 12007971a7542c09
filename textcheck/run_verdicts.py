"""The run's verdicts: every claim test's report turned into its claim's verdict, and the run's
`<--report-dir>/claims.json` written once (textcheck/plugin.py registers the `ClaimReporter` on the
controller of an xdist run, or the one process of a run without it).  A test's records and facts
travel on its report's `user_properties`, so under xdist the controller sees them all; what each
outcome counts as (holds / refuted / underspecified / undecided / fails / not run) is decided here,
per test, and per claim by textcheck/verdicts.py.
"""
from __future__ import annotations

import json
import platform
import re
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import pytest

from safeio.files import atomic_write
from safeio.folders import checkout_commit
from textcheck import merging, store, verdicts
from textcheck.formats import typed
from textcheck.hooks import chapter_of, run_facts
from textcheck.outcomes import TestResult

COLLECTED = pytest.StashKey[set]()            # claim IDs collected (selected or not)
REPORT_DIR = pytest.StashKey[Path]()          # --report-dir, resolved
SMOKE_SOURCE = verdicts.SMOKE_SOURCE
ABORTED = (pytest.ExitCode.INTERRUPTED, pytest.ExitCode.INTERNAL_ERROR, pytest.ExitCode.USAGE_ERROR)


def report_dir_of(config) -> Path:
    """--report-dir under the run's root, made if need be."""
    if REPORT_DIR not in config.stash:
        out = Path(config.rootpath, config.getoption("--report-dir"))
        out.mkdir(parents=True, exist_ok=True)
        config.stash[REPORT_DIR] = out
    return config.stash[REPORT_DIR]


def _torch_version() -> str | None:
    """torch.__version__ where torch is imported; in the controller of an xdist run, which never
    imports it, the installed distribution's version (the same string for the wheels); None where
    a text's tests need no torch and none is installed."""
    import sys
    if "torch" in sys.modules:
        import torch  # imported already: only its version is read
        return torch.__version__
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("torch")
    except PackageNotFoundError:
        return None


@dataclass
class Result(TestResult):
    """What one claim test found, gathered from its reports (each phase's, under xdist too)."""
    found: bool = False                               # a report of it carried its claim IDs

    def add(self, report) -> None:
        """One of its reports: its facts (user_properties) and its outcome."""
        records, runs, facts = [], [], {}
        for k, v in report.user_properties:
            if k == "claim_record":
                records.append(v)
            elif k == "runs":
                runs += [run for run in v if run not in runs]
            elif k == "runs_from":
                self.runs_from.add(v)
            else:
                facts[k] = v
        self.found = PROPS[0] in facts
        if not self.found:
            return
        self.claims, self.tier, self.device, self.figures = (facts.get(k, d) for k, d in zip(PROPS, ([], None, None, [])))
        self.seconds += report.duration
        self.records = records or self.records
        self.runs = runs or self.runs
        outcome, reason = outcome_of(report)
        if outcome and verdicts.SEVERITY[outcome] >= verdicts.SEVERITY.get(self.outcome, -1):
            self.outcome, self.reason = outcome, reason


PROPS = ("claim_ids", "claim_tier", "claim_device", "figure_ids")     # the facts textcheck/plugin.py notes


def _skip_reason(report) -> str:
    lr = report.longrepr
    return lr[2] if isinstance(lr, tuple) and len(lr) == 3 else str(lr)


def _short(report) -> str:
    text = getattr(report, "longreprtext", "") or str(report.longrepr)
    lines = [line for line in text.splitlines() if line.startswith("E ")] or text.splitlines()[-3:]
    return "\n".join(lines[:8])


def _skipped(reason: str) -> tuple[str, str]:
    """A skip: undecided where textcheck/rule.py settle skipped it so, else not run; the reason
    without pytest's "Skipped: ", so that a reason is read the same way whatever recorded it (a
    device reading is one whose reason starts "not run: device-specific")."""
    reason = reason.removeprefix("Skipped: ")
    m = re.match(r"(undecided: .*)", reason, re.DOTALL)
    return ("undecided", m.group(1)) if m else ("not run", reason)


def outcome_of(report) -> tuple[str | None, str]:
    """A test report's contribution to its claim: (outcome, reason), or (None, "")."""
    if report.when == "call":
        if report.passed:
            return "holds", ""
        if report.skipped and hasattr(report, "wasxfail"):
            # textcheck/rule.py settle: a strict xfail is refuted, or underspecified where it says so
            m = re.match(r"(?:reason: )?underspecified: ", report.wasxfail)
            return ("underspecified" if m else "refuted"), report.wasxfail
        if report.failed:
            return "fails", _short(report)
        if report.skipped:
            return _skipped(_skip_reason(report))
    elif report.failed:
        return "fails", f"error in {report.when}: {_short(report)}"
    elif report.skipped:
        return "not run", _skip_reason(report)
    return None, ""


def _collected_all_claims(config) -> bool:
    """Whether this run collected every claim test of the Chapter (its `tests` folder, selected or
    not), so that a claim no test carried is "not encoded"; a run of some files says "not run" of
    the others' claims."""
    claims_dir = (config.rootpath / chapter_of(config).tests).resolve()
    paths = [Path(str(a).split("::")[0]).resolve() for a in config.args] or [config.rootpath]
    return any(claims_dir == p or claims_dir.is_relative_to(p) for p in paths)


def _selection(config) -> str:
    """The run's selection as given: its --claim, --figure, -m and -k."""
    given = [f"--claim {c}" for c in config.getoption("--claim")] + [f"--figure {f}" for f in config.getoption("--figure")]
    given += [f"{flag} {value!r}" for flag, value in (("-m", config.getoption("markexpr")),
                                                      ("-k", config.getoption("keyword"))) if value]
    return " ".join(given) or "the paths given"


def _ran_nothing(config, results: dict) -> str | None:
    """Why no claim test of this run reached a verdict or recorded a measurement (none selected,
    or every one selected skipped before it measured anything), or None when one did.  A test that
    measured and then skipped (a clock's reading off the chapter's device) still reports something."""
    if any(r.outcome not in (None, "not run") or r.records for r in results.values()):
        return None
    if not results:
        return f"{_selection(config)} selects none of the tests of the {len(config.stash[COLLECTED])} claims collected"
    reasons: dict[str, int] = {}
    for r in results.values():
        reason = (r.reason or "no reason given").strip().splitlines()[0].removeprefix("Skipped: ")[:200]
        reasons[reason] = reasons.get(reason, 0) + 1
    said = "; ".join(f"{n} x {why}" for why, n in sorted(reasons.items(), key=lambda kv: -kv[1])[:3])
    return f"{_selection(config)} selects {len(results)} test(s), every one skipped: {said}"


class ClaimReporter:
    """Controller-side: turns test reports into per-claim verdicts and writes claims.json."""

    def __init__(self, config):
        self.config = config
        self.results: dict[str, Result] = {}        # nodeid -> what that test found
        self.started = time.time()
        self.summary_line = None

    @pytest.hookimpl(optionalhook=True)           # an xdist hook: absent under -p no:xdist
    def pytest_testnodedown(self, node, error):
        """xdist: each worker sends the claim IDs it collected (selected or not)."""
        self.config.stash[COLLECTED].update(getattr(node, "workeroutput", {}).get("claims_collected", []))

    def pytest_runtest_logreport(self, report):
        nodeid = verdicts.base_nodeid(report.nodeid)
        r = self.results.get(nodeid) or Result(nodeid)
        r.add(report)
        if r.found:
            self.results[nodeid] = r

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session, exitstatus):
        config = self.config
        if config.option.collectonly or (not self.results and not config.stash[COLLECTED]):
            return      # --co, or no claim test collected (e.g. `pytest tests`): keep the last report
        if exitstatus in ABORTED:
            # a collection error, a usage error, an interrupt: the verdicts would be "not run"
            # for claims this run never reached, so the last report is kept as it is
            self.summary_line = f"claim report not written: the run aborted ({pytest.ExitCode(exitstatus).name})"
            return
        nothing = _ran_nothing(config, self.results)
        if nothing:
            # a selection that ran no claim test would turn the last run's verdicts into "not run":
            # the last report is kept, the run says why, and it fails (pytest's "no tests ran")
            self.summary_line = (f"claim report not written: no claim test ran ({nothing}); "
                                 f"{report_dir_of(config) / 'claims.json'} is as the last run left it")
            if session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = pytest.ExitCode.NO_TESTS_COLLECTED
            return
        chapter, facts = chapter_of(config), run_facts(config)
        smoke = facts.smoke
        meta = {"timestamp": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "source": SMOKE_SOURCE if smoke else "fresh run", "scale": "smoke" if smoke else "chapter",
                "markexpr": config.getoption("markexpr"), "argv": list(config.invocation_params.args),
                "from_results": bool(facts.from_results), "commit": checkout_commit(chapter.root),
                "seconds": round(time.time() - self.started, 1),
                "torch": _torch_version(), "python": platform.python_version()}
        if facts.from_results:
            # the tests whose every run was read from the committed records measured nothing: a save
            # keeps the provenance (date, code, device, torch) of the run that did (the save)
            meta = {**meta, "from_records": sorted(n for n, r in self.results.items() if r.runs_from == {"records"})}
        encoded = config.stash[COLLECTED] | (set() if _collected_all_claims(config) else set(chapter.claims))
        report = merging.build_report(chapter, self.results, encoded, meta)
        out = report_dir_of(config)
        atomic_write(out / "claims.json", json.dumps(report, indent=1, default=str))
        s = typed(store.ReportParts, report).summary
        self.summary_line = ("SMOKE SCALE (verdicts mean nothing; never saved): " if smoke else "") + (
                             f"claims: {verdicts.summary_text(s)} -> {out / 'claims.json'}")

    def pytest_terminal_summary(self, terminalreporter):
        if self.summary_line:
            terminalreporter.write_sep("-", "claim report")
            terminalreporter.write_line(self.summary_line)
