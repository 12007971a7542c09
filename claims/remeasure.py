"""`python -m claims.rederive --remeasure`: the committed figures measured from a model's weights,
measured again from the trained cache, for whoever has it (issue 59, finding 10).

A figure record whose values come from the weights (fixtures/measurements.py FROM_WEIGHTS:
attention statistics, softmax gradients, position rows and probe, the Winograd attention maps and
ablations, perplexity at other windows) holds numbers nothing in results/ checks: its run records
tie it to a training config (the run key), not to the weights it was measured on.  This command
measures them again.  For each such record of results/figures.json whose runs' weights are all in
the cache (and, where the run record carries `weights_sha256`, are those weights: the cached
entry's sha, checked against its bytes, is the recorded one), it runs the record's committed test
(its node ID in results/verdicts.json) again with pytest in a subprocess, `--device cpu
--cached-only --seeds N` (N: the record's seeds), into a temporary report dir, with a scratch cache
that holds only those entries (linked, never written to), and compares each value the test decided
on with the committed one: equal within `--rtol` (1e-6 relative by default), or it is a difference,
named with both values.  Never `--from-results`: a value read from the run records would be no
measurement.  Nothing in results/ or the cache is written.

Records are listed as not re-measured where a run's weights are not in the cache ("no weights"), where
a cached entry cannot vouch for its weights (corrupt, or not the sha its run record names), or where
no committed test carries them.  Exit 0 when every record re-measured agrees, 1 when one differs or
its test, with every weight at hand, did not measure it again, 2 on bad input (a results file the
re-derivation cannot read, an --only that selects nothing, a --cache that is not a folder, a pytest
usage error).  CI does not run it: it has no weights (docs/evidence.md).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from claims.chapter import CHAPTER
from data.paths import PROJECT_ROOT
from fixtures import cache_entry, results
from fixtures.measurements import FROM_WEIGHTS
from safeio.files import SaveError
from textcheck import evidence_store, read_evidence, record_key

if TYPE_CHECKING:
    from textcheck.committed import Evidence
    from textcheck.records import FigureRecord

RTOL = 1e-6
PROG = "python -m claims.rederive --remeasure"


class BadInput(Exception):
    """Input this command cannot work from: named, exit 2."""


@dataclass
class Plan:
    """What is measured again and what is not, and why."""
    todo: dict[str, tuple[FigureRecord, str]] = field(default_factory=dict)    # key -> (record, nodeid)
    no_weights: list[tuple[str, str]] = field(default_factory=list)            # (key, what is missing)
    cannot: list[tuple[str, str]] = field(default_factory=list)                # (key, why it cannot vouch)
    entries: dict[str, Path] = field(default_factory=dict)                     # entry name -> its folder


def from_weights(rec: FigureRecord) -> bool:
    """Whether a figure record's values were measured from the weights of the runs it names."""
    return bool(rec.runs) and str(rec.measurement).partition("/")[0] in FROM_WEIGHTS


def plan(evidence: Evidence, results_dir: Path, cache: Path, only: list[str]) -> Plan:
    """Which weight-measured records of the committed `evidence` can be measured again from `cache`
    (<cache>/trained)."""
    records, nodeid = evidence.records, evidence.nodeids()
    runs = {(g, r.recipe, r.seed, r.key): r for g in {ref.group for rec in records for ref in rec.runs}
            for r in results.load(g, results_dir)}
    out = Plan()
    for rec in records:
        if not from_weights(rec) or (only and not any(o in rec.key or o == rec.claim for o in only)):
            continue
        if rec.key not in nodeid:
            out.cannot.append((rec.key, "no committed test in verdicts.json carries it"))
            continue
        missing, problems, entries = [], [], {}
        for ref in rec.runs:
            run = runs.get((ref.group, ref.recipe, ref.seed, ref.key))
            entry = cache_entry.find(cache / "trained", ref.recipe, ref.seed, ref.key)
            if entry is None:
                missing.append(f"{ref.recipe} seed {ref.seed} ({ref.key})")
                continue
            try:
                sha = cache_entry.weights_sha256(entry, ref.key)
            except cache_entry.EntryProblem as e:
                problems.append(str(e))
                continue
            if run is not None and run.weights_sha256 is not None and run.weights_sha256 != sha:
                problems.append(f"{entry}: weights sha256 {sha}, but results/{ref.group}.json's {ref.recipe} seed "
                                f"{ref.seed} was measured on {run.weights_sha256}: not the weights it names")
                continue
            entries[entry.name] = entry
        if missing:
            out.no_weights.append((rec.key, ", ".join(missing) + f" not in {cache / 'trained'}"))
        elif problems:
            out.cannot.append((rec.key, "; ".join(problems)))
        else:
            out.todo[rec.key] = (rec, nodeid[rec.key])
            out.entries.update(entries)
    return out


def scratch_cache(cache: Path, entries: dict[str, Path], into: Path) -> Path:
    """A cache for the pytest run: the given entries linked into its trained/, everything else of
    `cache` (the tokenizer, the data) linked as it is; the run's own files land in the scratch one."""
    (into / "trained").mkdir(parents=True)
    for name, entry in entries.items():
        (into / "trained" / name).symlink_to(entry.resolve(), target_is_directory=True)
    for p in cache.iterdir() if cache.is_dir() else ():
        if p.name not in ("trained", "runs") and not p.name.startswith("."):
            (into / p.name).symlink_to(p.resolve(), target_is_directory=p.is_dir())
    return into


def measure(todo: dict[str, tuple[FigureRecord, str]], cache: Path, work: Path, device: str, smoke: bool,
            echo) -> dict[str, dict]:
    """{node id: its test as a fresh run's claims.json holds it, with its claim ID}, one pytest per
    seed count.  BadInput where pytest could not run (a usage error, an internal error)."""
    groups: dict[int, dict[str, None]] = {}
    for rec, node in todo.values():
        groups.setdefault(len({r.seed for r in rec.runs}), {})[node] = None
    fresh: dict[str, dict] = {}
    env = {**os.environ, "ATTENTION_CLAIMS_CACHE": str(cache), "PYTHONDONTWRITEBYTECODE": "1"}
    for n, nodes in sorted(groups.items()):
        out = work / f"report-{n}"
        cmd = [sys.executable, "-m", "pytest", *nodes, f"--device={device}", "--cached-only", f"--seeds={n}",
               f"--report-dir={out}", "--no-progress", "-p", "no:cacheprovider", "-q", "-rN"] + (["--smoke"] if smoke else [])
        echo(f"measuring again {len(nodes)} test(s) of {n} seed(s): pytest {' '.join(cmd[3:])}")
        done = subprocess.run(cmd, check=False, cwd=PROJECT_ROOT, env=env, capture_output=True, text=True)
        if done.returncode not in (0, 1) or not (out / "claims.json").is_file():
            tail = (done.stdout + done.stderr).strip().splitlines()[-15:]
            raise BadInput(f"pytest exited {done.returncode} without a claim report:\n    " + "\n    ".join(tail))
        for c in json.loads((out / "claims.json").read_text()).get("claims", []):
            fresh.update({t["nodeid"]: dict(t, claim=c["id"]) for t in c.get("tests", []) if t.get("nodeid") in nodes})
    return fresh


def differs(was, now, rtol: float, where: str = "measured") -> str | None:
    """Where the committed `was` and the fresh `now` differ beyond `rtol`, naming both; None if not."""
    if isinstance(was, dict) and isinstance(now, dict):
        if set(was) != set(now):
            return f"{where}: fields {sorted(was)} committed, {sorted(now)} measured again"
        return next(filter(None, (differs(was[k], now[k], rtol, f"{where}.{k}") for k in was)), None)
    if isinstance(was, list) and isinstance(now, list):
        if len(was) != len(now):
            return f"{where}: {len(was)} values committed, {len(now)} measured again ({was} / {now})"
        return next(filter(None, (differs(a, b, rtol, f"{where}[{i}]") for i, (a, b) in enumerate(zip(was, now)))),
                    None)
    numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (was, now))
    if was == now or numbers and (math.isnan(was) and math.isnan(now)
                                  or abs(was - now) <= rtol * max(abs(was), abs(now))):
        return None
    return f"{where}: committed {was!r}, measured again {now!r}"


def compare(todo: dict[str, tuple[FigureRecord, str]], fresh: dict[str, dict], rtol: float):
    """(the keys that agree, (key, why) of those that differ, (key, why) of those not measured)."""
    agree, differ, unmeasured = [], [], []
    for key, (rec, node) in todo.items():
        test = fresh.get(node)
        if test is None:
            unmeasured.append((key, f"{node}: not in the run's report"))
            continue
        base = key.removesuffix(" (cuda)")
        now = [r for r in test.get("records") or [] if isinstance(r, dict) and "decision" in r
               and record_key(CHAPTER, r, test["claim"]).removesuffix(" (cuda)") == base]
        if not now:
            why = f"{node}: {test.get('outcome')} ({(test.get('reason') or '')[:200]}), no measurement of it"
            unmeasured.append((key, why))
            continue
        named = {(r.group, r.recipe, r.seed, r.key) for r in rec.runs}
        ran = {(r["group"], r["recipe"], r["seed"], r["key"]) for r in test.get("runs") or []}
        if ran != named:
            unmeasured.append((key, f"{node}: measured runs {sorted(ran)}, the record names {sorted(named)}"))
        elif why := differs(rec.measured, now[0]["decision"], rtol):
            differ.append((key, why))
        else:
            agree.append(key)
    return agree, differ, unmeasured


def parser(description: str | None = __doc__) -> argparse.ArgumentParser:
    """The command line of `python -m claims.rederive --remeasure`."""
    p = argparse.ArgumentParser(prog=PROG, description=description,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--results", default=str(results.RESULTS_DIR),
                   help="the committed evidence: figures.json, verdicts.json and the run records (results/)")
    p.add_argument("--cache", default=None,
                   help="the cache of trained models (default: $ATTENTION_CLAIMS_CACHE, else .cache/); only read")
    p.add_argument("--only", action="append", default=[],
                   help="only the records whose key contains this, or of this claim ID (repeatable)")
    p.add_argument("--rtol", type=float, default=RTOL, help=f"relative float noise allowed (default {RTOL})")
    p.add_argument("--device", default="cpu", choices=("cpu", "cuda"), help="where the tests measure (default cpu)")
    p.add_argument("--smoke", action="store_true",
                   help="the evidence is a --smoke run's (the project's tests of this command): measure at the smoke scale")
    p.add_argument("--dry-run", action="store_true", help="list what would be measured again, and what not; run nothing")
    return p


def main(argv=None) -> int:
    a = parser().parse_args(argv)
    started = time.perf_counter()
    results_dir = Path(a.results)
    # $ATTENTION_CLAIMS_CACHE, else .cache/ in the checkout (data/paths.py cache_root, not made here)
    cache = Path(a.cache or os.environ.get("ATTENTION_CLAIMS_CACHE") or PROJECT_ROOT / ".cache")
    try:
        if a.cache and not cache.is_dir():
            raise BadInput(f"--cache={a.cache}: not a folder")
        if not (a.rtol >= 0 and math.isfinite(a.rtol)):
            raise BadInput(f"--rtol={a.rtol}: a finite number of at least 0")
        with results.reading(results_dir):
            todo = plan(read_evidence(CHAPTER, results_dir), results_dir, cache, a.only)
        if a.only and not (todo.todo or todo.no_weights or todo.cannot):
            raise BadInput(f"--only {' '.join(a.only)}: no figure record measured from weights matches")
        if not a.dry_run:
            with tempfile.TemporaryDirectory(prefix="remeasure-") as tmp:
                scratch = scratch_cache(cache, todo.entries, Path(tmp) / "cache")
                fresh = measure(todo.todo, scratch, Path(tmp), a.device, a.smoke,
                                lambda line: print(line, file=sys.stderr, flush=True)) if todo.todo else {}
    except (BadInput, evidence_store.EvidenceError, SaveError) as e:     # bad evidence (the figure records' too): named
        print(f"error: {e}", file=sys.stderr)
        return 2
    status = 0
    if a.dry_run:
        print(f"would measure again {len(todo.todo)} figure record(s) from the weights in "
              f"{len(todo.entries)} cache entries")
        print("".join(f"  {key}: {node}\n" for key, (_, node) in todo.todo.items()), end="")
    else:
        agree, differ, unmeasured = compare(todo.todo, fresh, a.rtol)
        print(f"measured again {len(todo.todo)} figure record(s) from the weights in {cache / 'trained'} "
              f"({time.perf_counter() - started:.1f} s): {len(agree)} agree, {len(differ)} differ"
              + (f", {len(unmeasured)} not measured by their test" if unmeasured else ""))
        print("".join(f"  DIFFERS {key}: {why}\n" for key, why in differ), end="")
        print("".join(f"  NOT MEASURED {key}: {why}\n" for key, why in unmeasured), end="")
        status = 1 if differ or unmeasured else 0
    for what, listed in (("no weights", todo.no_weights),
                         ("the cache cannot vouch for the weights, or no test carries it", todo.cannot)):
        if listed:
            print(f"not re-measured ({what}): {len(listed)}")
            print("".join(f"  {key}: {why}\n" for key, why in listed), end="")
    return status
