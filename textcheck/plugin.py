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
  verdict (holds / refuted / fails / not run / not encoded).  Records travel on the test
  reports' `user_properties`, so under xdist the controller sees them all and writes the file once.
State lives in `config.stash`.  Loads alone (`-p textcheck.plugin`): what the project's other
plugins know of a run (its device, smoke scale) comes through `pytest_textcheck_run`.
"""
from __future__ import annotations

import json
import platform
import re
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from textcheck import hooks, rule, verdicts, versions
from textcheck.files import atomic_write, checkout_commit, link_in, unusable_folder
from textcheck.hooks import chapter_of, run_facts
from textcheck.specs import Spec

COLLECTED = pytest.StashKey[set]()            # claim IDs collected (selected or not)
BAD_CLAIM = pytest.StashKey[str]()            # on an item: why its claim marker is invalid
REPORT_DIR = pytest.StashKey[Path]()          # --report-dir, resolved
SMOKE_SOURCE = verdicts.SMOKE_SOURCE
ABORTED = (pytest.ExitCode.INTERRUPTED, pytest.ExitCode.INTERNAL_ERROR, pytest.ExitCode.USAGE_ERROR)


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


def report_dir_of(config) -> Path:
    """--report-dir under the run's root, made if need be."""
    if REPORT_DIR not in config.stash:
        out = Path(config.rootpath, config.getoption("--report-dir"))
        out.mkdir(parents=True, exist_ok=True)
        config.stash[REPORT_DIR] = out
    return config.stash[REPORT_DIR]


def _unknown_selection(config) -> str | None:
    """Why a --claim or --figure ID is not one, naming the nearest IDs, or None."""
    import difflib
    chapter = chapter_of(config)
    problems = []
    for option, known, where in (("--claim", chapter.claims, chapter.named("claims")),
                                 ("--figure", chapter.figures, chapter.named("figures"))):
        for wanted in config.getoption(option):
            if wanted not in known:
                near = difflib.get_close_matches(wanted, list(known), n=3, cutoff=0.5)
                shown = wanted if wanted.isprintable() else repr(wanted)    # a newline or a control character: quoted
                problems.append(f"{option} {shown}: no such ID in {where}"
                                + (f"; the nearest: {', '.join(near)}" if near else ""))
    return "\n".join(problems) or None


# The engine's markers, registered for every text that loads the plugin (a text's pytest.ini
# declares none of them): the tiers a record is kept by, and the two that tie a test to its text.
MARKERS = (
    "fast: exact and statistical claims; CPU, seconds",
    "slow: claims that take minutes (statistics over seeds, timing); their evidence is committed",
    "gpu: trained claims at the text's scale; skipped without CUDA unless the text's plugin says otherwise",
    "claim(id): the claim ID this test checks",
    "figure(*ids): the printed figures this test asserts, by figure ID",
)


def pytest_configure(config):
    for line in MARKERS:
        config.addinivalue_line("markers", line)
    config.stash[COLLECTED] = set()
    if not hasattr(config, "workerinput") and (config.getoption("--claim") or config.getoption("--figure")):
        why = _unknown_selection(config)
        if why:
            raise pytest.UsageError(why)
    if not hasattr(config, "workerinput"):          # the controller (or a run without xdist)
        out = Path(config.rootpath, config.getoption("--report-dir"))
        link = link_in(out) if unusable_folder(out) is None else None
        why = unusable_folder(out) or (link and f"that folder holds a link ({link}), which a write would follow out of it")
        if why:                                     # checked before the run, not after it
            raise pytest.UsageError(f"--report-dir={config.getoption('--report-dir')}: {why}")
        config.pluginmanager.register(ClaimReporter(config), "claim-reporter")


def _torch_version() -> str | None:
    """torch.__version__ where torch is imported; in the controller of an xdist run, which never
    imports it, the installed distribution's version (the same string for the wheels); None where
    a text's tests need no torch and none is installed."""
    import sys
    if "torch" in sys.modules:
        return sys.modules["torch"].__version__
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("torch")
    except PackageNotFoundError:
        return None


def claim_ids_of(item) -> list[str]:
    return [m.args[0] if m.args else m.kwargs.get("id") for m in item.iter_markers("claim")]


def figure_ids_of(item) -> list[str]:
    return [fid for m in item.iter_markers("figure") for fid in m.args]


def figure_problem(chapter, fid) -> str | None:
    if fid not in chapter.figures:
        return f"unknown figure ID {fid!r} (not in {chapter.named('figures')})"
    return None


def claim_problem(chapter, cid) -> str | None:
    """Why a claim marker's ID is not one, or None."""
    if cid is None:
        return "a bare @pytest.mark.claim: give the claim ID, e.g. @pytest.mark.claim('scale.variance_is_d')"
    if not isinstance(cid, str):
        return f"claim ID {cid!r} is a {type(cid).__name__}, not a string"
    if cid not in chapter.claims:
        return f"unknown claim ID {cid!r} (not in {chapter.named('claims')})"
    return None


def tier_of(item) -> str:
    return next((t for t in ("gpu", "slow", "fast") if item.get_closest_marker(t)), "untiered")


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
    _select_by_id(config, items)
    # In an xdist worker a UsageError would reach the controller as an INTERNALERROR that names
    # neither the test nor the claim: the test fails instead, with the reason (runtest_setup).


def _select_by_id(config, items) -> None:
    """--claim / --figure: keep the tests that carry one of the IDs, deselect the rest."""
    claims, figures = set(config.getoption("--claim")), set(config.getoption("--figure"))
    if not claims and not figures:
        return
    keep, drop = [], []
    for item in items:
        chosen = claims & set(claim_ids_of(item)) or figures & set(figure_ids_of(item))
        (keep if chosen else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


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
        item.user_properties.append(("claim_device", run_facts(item.config)["device"]))
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

    def record(self, stated, measured, tolerance, rule: str = versions.DEFAULT, **details) -> dict:
        rec = {"stated": verdicts.plain(stated), "measured": verdicts.plain(measured),
               "tolerance": verdicts.plain(tolerance), "rule": versions.rule_id(rule)}
        if "figure" in details:
            raise TypeError("claim_record(figure=...): a record's words are its label=...; its figure "
                            "IDs are the test's figure marks")
        # the label is stored under the field "figure", in its place: the name the committed
        # evidence (results/verdicts.json) has always given it
        rec.update({"figure" if k == "label" else k: verdicts.plain(v) for k, v in details.items()})
        if "measurement" in rec:                # what was measured, with its version (the Chapter's measurements)
            rec["measurement"] = versions.current_id(self.chapter.measurements, rec["measurement"])
        rec["figures"] = figure_ids_of(self.request.node)        # the text's figures it is evidence of
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


# ---------------------------------------------------------------- collecting verdicts

def _props(report) -> dict:
    out = {"records": []}
    for k, v in report.user_properties:
        if k == "claim_record":
            out["records"].append(v)
        elif k == "runs":                       # each trained run a test used (the project's fixtures note them)
            out.setdefault("runs", [])
            out["runs"] += [run for run in v if run not in out["runs"]]
        elif k == "runs_from":                  # and whether they were read from the committed records
            out.setdefault("runs_from", set()).add(v)
        else:
            out[k] = v
    return out


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
    if any(r["outcome"] not in (None, "not run") or r["records"] for r in results.values()):
        return None
    if not results:
        return f"{_selection(config)} selects none of the tests of the {len(config.stash[COLLECTED])} claims collected"
    reasons: dict[str, int] = {}
    for r in results.values():
        reason = (r["reason"] or "no reason given").strip().splitlines()[0].removeprefix("Skipped: ")[:200]
        reasons[reason] = reasons.get(reason, 0) + 1
    said = "; ".join(f"{n} x {why}" for why, n in sorted(reasons.items(), key=lambda kv: -kv[1])[:3])
    return f"{_selection(config)} selects {len(results)} test(s), every one skipped: {said}"


class ClaimReporter:
    """Controller-side: turns test reports into per-claim verdicts and writes claims.json."""

    def __init__(self, config):
        self.config = config
        self.results: dict[str, dict] = {}          # nodeid -> what that test found
        self.started = time.time()
        self.summary_line = None

    @pytest.hookimpl(optionalhook=True)           # an xdist hook: absent under -p no:xdist
    def pytest_testnodedown(self, node, error):
        """xdist: each worker sends the claim IDs it collected (selected or not)."""
        self.config.stash[COLLECTED].update(getattr(node, "workeroutput", {}).get("claims_collected", []))

    def pytest_runtest_logreport(self, report):
        props = _props(report)
        if "claim_ids" not in props:
            return
        nodeid = verdicts.base_nodeid(report.nodeid)
        r = self.results.setdefault(nodeid, {
            "nodeid": nodeid, "claims": props["claim_ids"], "tier": props.get("claim_tier"),
            "device": props.get("claim_device"), "figures": props.get("figure_ids", []), "outcome": None,
            "reason": "", "seconds": 0.0, "records": []})
        r["seconds"] += report.duration
        r["records"] = props["records"] or r["records"]
        r["runs"] = props.get("runs") or r.get("runs", [])
        r["runs_from"] = r.get("runs_from", set()) | props.get("runs_from", set())
        outcome, reason = outcome_of(report)
        if outcome and verdicts.SEVERITY[outcome] >= verdicts.SEVERITY.get(r["outcome"], -1):
            r["outcome"], r["reason"] = outcome, reason

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
        smoke = facts["smoke"]
        meta = {"timestamp": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "source": SMOKE_SOURCE if smoke else "fresh run", "scale": "smoke" if smoke else "chapter",
                "markexpr": config.getoption("markexpr"), "argv": list(config.invocation_params.args),
                "from_results": bool(facts["from_results"]), "commit": checkout_commit(chapter.root),
                "seconds": round(time.time() - self.started, 1),
                "torch": _torch_version(), "python": platform.python_version()}
        if meta["from_results"]:
            # the tests whose every run was read from the committed records measured nothing: a save
            # keeps the provenance (date, code, device, torch) of the run that did (the save)
            meta["from_records"] = sorted(n for n, r in self.results.items() if r["runs_from"] == {"records"})
        encoded = config.stash[COLLECTED] | (set() if _collected_all_claims(config) else set(chapter.claims))
        report = verdicts.build_report(chapter, self.results, encoded, meta)
        out = report_dir_of(config)
        atomic_write(out / "claims.json", json.dumps(report, indent=1, default=str))
        s = report["summary"]
        self.summary_line = ("SMOKE SCALE (verdicts mean nothing; never saved): " if smoke else "") + (
                             f"claims: {verdicts.summary_text(s)} -> {out / 'claims.json'}")

    def pytest_terminal_summary(self, terminalreporter):
        if self.summary_line:
            terminalreporter.write_sep("-", "claim report")
            terminalreporter.write_line(self.summary_line)
