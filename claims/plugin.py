"""The claim contract as a pytest plugin.

- `@pytest.mark.claim("scale.variance_is_d")` names the claim a test checks; an ID that is not
  in claims/registry.py is rejected at collection.
- The `claim_record` fixture records what the chapter states beside what we measured.
- Every run writes `report/claims.json`: one object per registered claim with its verdict
  (holds / refuted / fails / not run / not encoded).  Records travel on the test reports'
  `user_properties`, so under xdist the controller sees them all and writes the file once.
"""
from __future__ import annotations

import json
import math
import os
import platform
import re
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest
import torch  # imported once, up front: pytester's sys.modules restore must not drop it

from claims import registry

VERDICTS = ("holds", "refuted", "fails", "not run", "not encoded")
_SEVERITY = {"fails": 3, "refuted": 2, "holds": 1, "not run": 0}
CLAIMS_DIR = Path(__file__).resolve().parent
UNKNOWN = ("unknown claim ID(s) in @pytest.mark.claim (not in claims/registry.py, whose IDs "
           "come from ../shared/claims.md):\n")
_CLAIM_IN_SOURCE = re.compile(r"claim\(\s*(?:id\s*=\s*)?[\"']([a-z0-9_]+\.[a-z0-9_]+)[\"']")


# ---------------------------------------------------------------- options and markers

def pytest_addoption(parser):
    g = parser.getgroup("attention-claims")
    g.addoption("--device", default="auto", choices=("auto", "cpu", "cuda"),
                help="where trained (gpu-tier) claims run: auto = CUDA if present, else skip "
                     "them; cpu = run them on the CPU (hours); cuda = require CUDA")
    g.addoption("--seeds", type=int, default=None,
                help="seeds per trained recipe (default: each claim's own, 3 for the ladder; a "
                     "tolerance built from the seed spread needs at least 3)")
    g.addoption("--report-dir", default="report", help="where claims.json is written")
    g.addoption("--no-progress", action="store_true",
                help="do not print training progress (step, loss, tokens/s, ETA)")
    g.addoption("--clear-trained", action="store_true",
                help="empty the trained-model cache before the run")
    g.addoption("--cached-only", action="store_true",
                help="trained claims use only models already in the cache; one that is missing "
                     "is skipped with the command that trains it (nothing is trained)")


def pytest_configure(config):
    if config.getoption("--device") == "cuda" and not torch.cuda.is_available():
        raise pytest.UsageError("--device cuda was asked for, but torch.cuda.is_available() "
                                "is False (no CUDA device or a CPU-only torch build)")
    config._claims_collected = set()
    if not hasattr(config, "workerinput"):          # the controller (or a run without xdist)
        if config.getoption("--clear-trained"):
            from fixtures.cache import TrainedCache
            n = TrainedCache().clear()
            print(f"cleared {n} trained model(s) from the cache")
        config.pluginmanager.register(ClaimReporter(config), "claim-reporter")


def claim_ids_of(item) -> list[str]:
    return [m.args[0] if m.args else m.kwargs.get("id") for m in item.iter_markers("claim")]


def tier_of(item) -> str:
    return next((t for t in ("gpu", "slow", "fast") if item.get_closest_marker(t)), "untiered")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    bad = []
    for item in items:
        ids = claim_ids_of(item)
        for cid in ids:
            if cid not in registry.CLAIMS:
                bad.append(f"  {item.nodeid}: {cid!r}")
        config._claims_collected.update(ids)
    if bad:
        raise pytest.UsageError(UNKNOWN + "\n".join(bad))


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """Under xdist the controller collects nothing, so it reads the claim IDs from the test
    sources before any worker starts (a worker's collection error would arrive garbled)."""
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    bad = []
    for path in sorted({p for d in (CLAIMS_DIR, config.rootpath / "claims") for p in Path(d).rglob("test_*.py")}):
        bad += [f"  {path}: {cid!r}" for cid in _CLAIM_IN_SOURCE.findall(path.read_text(encoding="utf-8"))
                if cid not in registry.CLAIMS]
    if bad:
        raise pytest.UsageError(UNKNOWN + "\n".join(bad))


def pytest_sessionfinish(session):
    if hasattr(session.config, "workerinput"):
        session.config.workeroutput["claims_collected"] = sorted(session.config._claims_collected)


def resolved_device(config) -> str:
    """cpu, or cuda:<i>: under xdist each worker takes GPU (worker number mod GPU count), so
    `pytest -m gpu -n auto` spreads over every visible GPU."""
    opt = config.getoption("--device")
    if opt == "cpu" or (opt == "auto" and not torch.cuda.is_available()):
        return "cpu"
    worker = getattr(config, "workerinput", {}).get("workerid", "gw0")
    return f"cuda:{int(worker[2:] or 0) % torch.cuda.device_count()}"


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    ids = claim_ids_of(item)
    if ids:
        item.user_properties.append(("claim_ids", ids))
        item.user_properties.append(("claim_tier", tier_of(item)))
        item.user_properties.append(("claim_device", resolved_device(item.config)))
    if (item.get_closest_marker("gpu") and item.config.getoption("--device") == "auto"
            and not torch.cuda.is_available()):
        pytest.skip("gpu tier: no CUDA here; add --device cpu to train on the CPU (hours)")


# ---------------------------------------------------------------- fixtures

def _plain(x):
    """JSON-able numbers from tensors, arrays and numpy scalars."""
    if hasattr(x, "tolist"):
        x = x.tolist()
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    return x


@pytest.fixture
def claim_record(request):
    """Record the chapter's figure beside ours: claim_record(stated=..., measured=...,
    tolerance="...", **details).  Call it before asserting, so a failure keeps the evidence."""
    def record(stated, measured, tolerance, **details):
        entry = {"stated": _plain(stated), "measured": _plain(measured),
                 "tolerance": _plain(tolerance)}
        entry.update({k: _plain(v) for k, v in details.items()})
        request.node.user_properties.append(("claim_record", entry))
        return entry
    return record


@pytest.fixture(scope="session")
def device(request) -> str:
    return resolved_device(request.config)


@pytest.fixture(scope="session")
def report_dir(request) -> Path:
    """--report-dir, where plots and tables of this run go beside claims.json."""
    out = Path(request.config.rootpath, request.config.getoption("--report-dir"))
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest.fixture(scope="session")
def seeds(request):
    """How many seeds a trained claim should use: --seeds, else the claim's default."""
    def n(default: int) -> int:
        return request.config.getoption("--seeds") or default
    return n


def _progress_writer(config):
    """Progress lines reach the terminal even under pytest's capture (and always the file
    <cache>/progress.log, which is where to look under xdist: `tail -f .cache/progress.log`)."""
    from data.paths import cache_root
    log = cache_root() / "progress.log"
    capman = config.pluginmanager.getplugin("capturemanager")
    tw = config.get_terminal_writer()

    def write(line: str) -> None:
        with open(log, "a") as f:
            f.write(line + "\n")
        if hasattr(config, "workerinput") or capman is None:
            return
        with capman.global_and_fixture_disabled():
            tw.line(line)
    return write


@pytest.fixture(scope="session")
def trained(request):
    """trained(group, recipe_name, n_seeds) -> [TrainResult per seed 0..n-1], from the cache
    or trained now (once, under a file lock); each run's record is merged into
    results/<group>.json."""
    from fixtures import recipes, results
    from fixtures.cache import TrainedCache
    from fixtures.train import Progress
    config = request.config
    cache, device = TrainedCache(), resolved_device(config)
    write = None if config.getoption("--no-progress") else _progress_writer(config)

    def get(group: str, name: str, n_seeds: int):
        out = []
        for seed in range(n_seeds):
            r = recipes.get(name).with_seed(seed)
            if config.getoption("--cached-only") and not cache.entry(r).exists():
                pytest.skip(f"{name} seed {seed} is not in the trained cache (--cached-only); train it "
                            f"with: python -m fixtures {group} --only {name} --seeds {n_seeds}")
            progress = Progress(f"{name} s{seed}", r.train.steps, write) if write else None
            result, _ = cache.get(r, device, progress)
            results.merge(group, [results.record(r, result)])
            out.append(result)
        return out
    return get


# ---------------------------------------------------------------- collecting verdicts

def _props(report) -> dict:
    out = {"records": []}
    for k, v in report.user_properties:
        if k == "claim_record":
            out["records"].append(v)
        else:
            out[k] = v
    return out


def _skip_reason(report) -> str:
    lr = report.longrepr
    return lr[2] if isinstance(lr, tuple) and len(lr) == 3 else str(lr)


def _short(report) -> str:
    text = getattr(report, "longreprtext", "") or str(report.longrepr)
    lines = [l for l in text.splitlines() if l.startswith("E ")] or text.splitlines()[-3:]
    return "\n".join(lines[:8])


def encoded_in_source(*dirs: Path) -> set[str]:
    """Claim IDs that some test under claims/ carries, whether or not it was selected."""
    ids = set()
    for path in {p for d in (CLAIMS_DIR, *dirs) for p in Path(d).rglob("test_*.py")}:
        ids.update(_CLAIM_IN_SOURCE.findall(path.read_text(encoding="utf-8")))
    return ids


DECIDED = ("holds", "refuted", "fails")


def summarise_claim(cid: str, tests: list[dict], encoded: bool) -> dict:
    """One claim's entry from its tests' evidence (each test: nodeid, outcome, reason,
    records, tier, device, timestamp, seconds, torch, python).  The verdict is the most severe
    decided outcome (fails > refuted > holds); with none decided it is `not run` (a test
    exists) or `not encoded`."""
    c = registry.get(cid)
    decided = [t for t in tests if t["outcome"] in DECIDED]
    if decided:
        verdict = max((t["outcome"] for t in decided), key=_SEVERITY.__getitem__)
    else:
        verdict = "not run" if encoded or tests else "not encoded"
    basis = decided or tests
    reasons = [t["reason"] for t in basis if t["outcome"] == verdict and t["reason"]]
    pending = [t for t in tests if t["outcome"] not in DECIDED]
    if decided and pending:
        reasons.append(f"{len(pending)} of {len(tests)} tests not run")
    # the evidence behind the verdict; with none decided, whatever was measured before a skip
    records = [dict(rec, test=t["nodeid"]) for t in (decided or tests) for rec in t["records"]]
    first = records[0] if records else {}
    newest = max(basis, key=lambda t: t["timestamp"], default={})
    seeds = [rec["seeds"] for rec in records if isinstance(rec.get("seeds"), int)]
    return {
        "id": cid, "section": c.section, "statement": c.statement, "kind": c.kind,
        "stated": first.get("stated", c.figure),
        "measured": first.get("measured") if len(records) <= 1 else [r.get("measured") for r in records],
        "tolerance": first.get("tolerance"),
        "verdict": verdict, "reason": "; ".join(dict.fromkeys(reasons)),
        "tier": newest.get("tier", c.tier), "device": newest.get("device"),
        "seeds": max(seeds) if seeds else (1 if records else None),
        "seconds": round(sum(t["seconds"] for t in decided), 3),
        "torch": newest.get("torch"), "python": newest.get("python"),
        "timestamp": newest.get("timestamp"), "source": newest.get("source"),
        "records": records, "tests": tests,
    }


def summary_of(claims: list[dict]) -> dict:
    summary = {v: sum(1 for c in claims if c["verdict"] == v) for v in VERDICTS}
    summary["total"] = len(claims)
    return summary


def build_report(results: dict, encoded: set[str], meta: dict) -> dict:
    by_claim: dict[str, list[dict]] = {}
    for r in results.values():
        test = {k: r[k] for k in ("nodeid", "outcome", "reason", "records", "tier", "device")}
        test.update(seconds=round(r["seconds"], 3), timestamp=meta["timestamp"],
                    torch=torch.__version__, python=platform.python_version(), source=meta["source"])
        for cid in r["claims"]:
            by_claim.setdefault(cid, []).append(test)
    claims = [summarise_claim(cid, by_claim.get(cid, []), cid in encoded) for cid in registry.CLAIMS]
    return {"summary": summary_of(claims), "meta": meta, "claims": claims}


def base_nodeid(nodeid: str) -> str:
    """The test's id without the "@group" suffix xdist's --dist loadgroup appends, so a run
    under -n N and a serial run name the same test the same way (and merge as one)."""
    return re.sub(r"@[^\]/@]+$", "", nodeid)


class ClaimReporter:
    """Controller-side: turns test reports into per-claim verdicts and writes claims.json."""

    def __init__(self, config):
        self.config = config
        self.results: dict[str, dict] = {}          # nodeid -> what that test found
        self.started = time.time()

    def pytest_testnodedown(self, node, error):
        """xdist: each worker sends the claim IDs it collected (selected or not)."""
        self.config._claims_collected.update(getattr(node, "workeroutput", {}).get("claims_collected", []))

    def pytest_runtest_logreport(self, report):
        props = _props(report)
        if "claim_ids" not in props:
            return
        nodeid = base_nodeid(report.nodeid)
        r = self.results.setdefault(nodeid, {
            "nodeid": nodeid, "claims": props["claim_ids"], "tier": props.get("claim_tier"),
            "device": props.get("claim_device"), "outcome": None, "reason": "", "seconds": 0.0,
            "records": []})
        r["seconds"] += report.duration
        r["records"] = props["records"] or r["records"]
        outcome, reason = None, ""
        if report.when == "call":
            if report.passed:
                outcome = "holds"
            elif report.skipped and hasattr(report, "wasxfail"):
                outcome, reason = "refuted", report.wasxfail
            elif report.failed:
                outcome, reason = "fails", _short(report)
            elif report.skipped:
                outcome, reason = "not run", _skip_reason(report)
        elif report.failed:
            outcome, reason = "fails", f"error in {report.when}: {_short(report)}"
        elif report.skipped:
            outcome, reason = "not run", _skip_reason(report)
        if outcome and _SEVERITY[outcome] >= _SEVERITY.get(r["outcome"], -1):
            r["outcome"], r["reason"] = outcome, reason

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session, exitstatus):
        config = self.config
        if config.option.collectonly or (not self.results and not config._claims_collected):
            return      # --co, or no claim test collected (e.g. `pytest tests`): keep the last report
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        meta = {"timestamp": now, "source": "fresh run", "markexpr": config.getoption("markexpr"),
                "argv": list(config.invocation_params.args),
                "seconds": round(time.time() - self.started, 1)}
        encoded = encoded_in_source(config.rootpath / "claims") | config._claims_collected
        report = build_report(self.results, encoded, meta)
        out = Path(config.rootpath, config.getoption("--report-dir"))
        out.mkdir(parents=True, exist_ok=True)
        tmp = out / "claims.json.tmp"
        tmp.write_text(json.dumps(report, indent=1, default=str))
        os.replace(tmp, out / "claims.json")
        self.summary_line = (
            "claims: {holds} hold, {refuted} refuted, {fails} fail, {nr} not run, {ne} not "
            "encoded -> {path}".format(nr=report["summary"]["not run"],
                                       ne=report["summary"]["not encoded"],
                                       path=out / "claims.json", **report["summary"]))

    def pytest_terminal_summary(self, terminalreporter):
        line = getattr(self, "summary_line", None)
        if line:
            terminalreporter.write_sep("-", "claim report")
            terminalreporter.write_line(line)
