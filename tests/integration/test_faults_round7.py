"""The seventh round of issue 59's fault findings: what the sixth closed in part.

- finding 7: a trained figure record's runs are tied to the recipes its key is declared to rest on
  (claims/record_runs.py RECORD_RUNS), and each metric reference's place to the recipe it requires;
- finding 12: a claim one of whose declared figure records is missing (claims/record_runs.py
  CLAIM_RECORDS) is not measured, never holds on the figures left;
- finding 11: a record names every seed of its recipes on record, up to its group's declared count
  (claims/run_check.py seeds_on_record; the committed records short of it listed in SHORT_OF_RECORD);
- finding 5: `python -m fixtures` writes its run records through the save's check-then-commit.

Every write goes to a scratch copy of results/, never the checkout's own."""
import hashlib
import json
from pathlib import Path

import pytest
import test_faults_round6 as _round6

from claims.chapter import CHAPTER
from fixtures import results, run_codec
from fixtures.evidence import EvidenceWriter
from textcheck import evidence as figure_evidence
from textcheck import rederive, verdict_file
from textcheck.save import save_run
from textcheck.store import EvidenceError

ROOT = Path(__file__).resolve().parent.parent.parent
STAMP = "2026-12-24T10:00:00+00:00"


def _state(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.endswith((".lock", ".lock.holder"))}


results_dir = _round6.results_dir           # the scratch copy of results/: round 6's one fixture


def _edit(results_dir: Path, key: str, change) -> dict:
    """The figure record `key` changed by hand, and its test's outcome in the index made to agree
    with the record's verdict (a consistent forgery; its claim's verdict stays what it was, which
    every forgery here leaves as its tests give it)."""
    data = json.loads((results_dir / "figures.json").read_text())
    (rec,) = [r for r in data["records"] if r["key"] == key]
    change(rec)
    (results_dir / "figures.json").write_text(json.dumps(data, indent=1))

    def agree(index):
        for c in index["claims"]:
            for t in c["tests"]:
                if t["key"] == key:
                    t["outcome"] = rec["verdict"]
    _index(results_dir, agree)
    return rec


def _decided(key: str, measured: dict) -> str:
    """The verdict the figure table gives `measured` (a forger's best: the files agree)."""
    return CHAPTER.rule_inputs(key).decide(measured, CHAPTER.timed).verdict


def _rederive(results_dir: Path, capsys) -> tuple[int, str]:
    code = rederive.main(CHAPTER, ["--evidence", str(results_dir / "figures.json")])
    said = capsys.readouterr()
    return code, said.out + said.err


def _runs_of(results_dir: Path, group: str, recipe: str) -> list:
    return sorted((r for r in results.load(group, results_dir) if r.recipe == recipe), key=lambda r: r.seed)


def _index(results_dir: Path, change) -> None:
    data = json.loads((results_dir / "verdicts.json").read_text())
    change(data)
    (results_dir / "verdicts.json").write_text(json.dumps(data, indent=1))


# ------------------------------------------------------------ 7. the recipe a record's runs must have

def test_7_a_record_resting_on_another_recipes_runs_is_refused_naming_the_field(results_dir, capsys):
    """positions.alibi_64 pointed, runs and references alike, at RoPE's runs of the same seeds
    (valid keys, real metrics; the verdict what the figure table decides of them): the record
    rests on ALiBi's runs, so reading it is a named error, exit 2, naming the file, record and field."""
    rope = [r for r in _runs_of(results_dir, "positions", "positions_rope") if r.seed < 3]

    def swap(rec):
        rec["runs"] = [{"group": "positions", "recipe": r.recipe, "seed": r.seed, "key": r.key} for r in rope]
        rec["measured"]["values"] = [{"metric": "val_ppl", "recipe": "positions_rope", "seed": r.seed} for r in rope]
        rec["verdict"] = _decided("positions.alibi_64", {"values": [r.metrics["val_ppl"] for r in rope]})
    _edit(results_dir, "positions.alibi_64", swap)
    with pytest.raises(figure_evidence.FigureEvidenceError,
                       match=r"figures\.json: record \d+ \(positions\.alibi_64\): field 'runs\[0\]': names positions "
                             r"positions_rope seed 0, but positions\.alibi_64 rests on positions positions_alibi"):
        figure_evidence.load(CHAPTER, results_dir / "figures.json")
    code, said = _rederive(results_dir, capsys)
    assert code == 2 and "positions.alibi_64" in said and "field 'runs[0]'" in said and "Traceback" not in said


def test_7_a_reference_in_a_place_of_another_recipe_is_refused(results_dir, capsys):
    """norm.postnorm rests on postnorm and prenorm runs (the ratio beside it shows both): its values
    pointed at prenorm's perplexities, the runs untouched and the verdict forged to agree, turn it
    from holds to refuted without a word today.  The place `values` is postnorm's: exit 2."""
    def point(rec):
        rec["measured"]["values"] = [dict(v, recipe="prenorm") for v in rec["measured"]["values"]]
        rec["verdict"] = _decided("norm.postnorm", {"values": [r.metrics["val_ppl"]
                                                               for r in _runs_of(results_dir, "norm", "prenorm")]})
    _edit(results_dir, "norm.postnorm", point)
    with pytest.raises(figure_evidence.FigureEvidenceError,
                       match=r"\(norm\.postnorm\): field 'measured\.values\[0\]': refers to prenorm's run, but this "
                             r"place of norm\.postnorm is postnorm's"):
        figure_evidence.load(CHAPTER, results_dir / "figures.json")
    code, said = _rederive(results_dir, capsys)
    assert code == 2 and "norm.postnorm" in said


def test_7_a_number_in_a_place_of_another_recipe_is_refused(results_dir, capsys):
    """The same forgery with the numbers written out (no references): each is a metric of a run the
    record names, so the metric check passes it, but not of the recipe its place requires."""
    pre = [r.metrics["val_ppl"] for r in _runs_of(results_dir, "norm", "prenorm")]

    def write(rec):
        rec["measured"]["values"] = pre
        rec["verdict"] = _decided("norm.postnorm", {"values": pre})
    _edit(results_dir, "norm.postnorm", write)
    code, said = _rederive(results_dir, capsys)
    assert code != 0 and "norm.postnorm: field 'measured.values': seed 0's value" in said, said[-2000:]
    with pytest.raises(EvidenceError, match="norm.postnorm"):
        rederive.accepted(CHAPTER, results_dir)


def test_7_a_save_of_a_test_naming_another_recipes_runs_is_refused(tmp_path, results_dir):
    """A run's claims.json whose alibi test names RoPE's runs: the save refuses it before it
    commits (a named error: the record and the field), and results/ is as it was."""
    rec = next(r for r in json.loads((results_dir / "figures.json").read_text())["records"]
               if r["key"] == "positions.alibi_64")
    shown = next(r for r in figure_evidence.load(CHAPTER, results_dir / "figures.json")
                 if r.key == "positions.alibi_64").shown
    rope = [r for r in _runs_of(results_dir, "positions", "positions_rope") if r.seed < 3]
    values = [r.metrics["val_ppl"] for r in rope]
    entry, claim = next((t, c["id"]) for c in json.loads((results_dir / "verdicts.json").read_text())["claims"]
                        for t in c["tests"] if t["key"] == "positions.alibi_64")
    verdict = _decided("positions.alibi_64", {"values": values})
    test = {"nodeid": entry["nodeid"], "outcome": verdict, "reason": "r", "tier": entry["tier"], "device": "cpu",
            "seconds": 1.0, "timestamp": STAMP, "source": "fresh run", "torch": "9.9",
            "runs": [{"group": "positions", "recipe": r.recipe, "seed": r.seed, "key": r.key} for r in rope],
            "records": [{**shown, "rule": rec["rule"], "measurement": rec["measurement"], "figures": rec["figures"],
                         "decision": {"values": values}}]}
    fresh = {"meta": {"source": "fresh run", "timestamp": STAMP, "commit": "c", "torch": "9.9"},
             "claims": [{"id": claim, "verdict": verdict, "tests": [test]}]}
    ev = EvidenceWriter(tmp_path / "run", results_dir=results_dir)
    (ev.root / "claims.json").write_text(json.dumps(fresh))
    before = _state(results_dir)
    with pytest.raises(ValueError, match=r"positions\.alibi_64.*field 'runs\[0\]': names positions positions_rope"):
        save_run(CHAPTER, fresh, ev, results_dir)
    assert _state(results_dir) == before


def test_7_every_committed_trained_record_rests_on_its_declared_recipes():
    """The table is the tests' choice as committed: every trained record of results/figures.json
    names exactly the recipes RECORD_RUNS declares for it (else the re-derivation would refuse it)."""
    from claims.record_runs import RECORD_RUNS
    for rec in figure_evidence.load(CHAPTER, ROOT / "results" / "figures.json"):
        if rec.runs:
            assert {(r.group, r.recipe) for r in rec.runs} == set(RECORD_RUNS[rec.key].recipes), rec.key


# ------------------------------------------------------------ 12. a claim's figure set is declared

def _drop(results_dir: Path, key: str, claim_verdict: str) -> str:
    """The consistent forgery: the figure record `key` deleted, its test deleted from the index (not
    marked: a test marked "not run" is refused already), the claim's verdict set to `claim_verdict`."""
    data = json.loads((results_dir / "figures.json").read_text())
    data["records"] = [r for r in data["records"] if r["key"] != key]
    (results_dir / "figures.json").write_text(json.dumps(data, indent=1))
    found = []

    def change(index):
        for c in index["claims"]:
            if any(t["key"] == key for t in c["tests"]):
                c["tests"] = [t for t in c["tests"] if t["key"] != key]
                c["verdict"] = claim_verdict
                found.append(c["id"])
    _index(results_dir, change)
    return found[0]


def test_12_a_claims_one_refuted_record_deleted_with_its_test_does_not_turn_it_to_holds(results_dir, capsys):
    """norm.postnorm_diverges: norm.postnorm holds, norm.eight_times is refuted.  eight_times
    deleted with its test and the claim set to holds: today the re-derivation accepts it (exit 0)
    and the claim holds.  Its figure set is declared: the claim is not measured, and the files
    are refused naming the missing record."""
    claim = _drop(results_dir, "norm.eight_times", "holds")
    code, said = _rederive(results_dir, capsys)
    assert code != 0 and f"claim {claim}: holds in verdicts.json, but its figure record(s) 'norm.eight_times' " \
                         "are not committed" in said, said[-2000:]
    with pytest.raises(EvidenceError, match="norm.eight_times"):
        rederive.accepted(CHAPTER, results_dir)
    (c,) = [c for c in verdict_file.load(CHAPTER, results_dir / "verdicts.json") if c.id == claim]
    assert verdict_file.verdict_of(CHAPTER, claim, c.tests) == "not run"


def test_12_the_forgery_made_consistent_shows_the_claim_not_measured_never_holds(results_dir, capsys):
    """The same with the claim's verdict set to "not run": the files agree, and the claim is not
    measured (the only honest reading of a figure missing), never holds."""
    claim = _drop(results_dir, "norm.eight_times", "not run")
    rederive.accepted(CHAPTER, results_dir)
    (c,) = [c for c in verdict_file.load(CHAPTER, results_dir / "verdicts.json") if c.id == claim]
    assert verdict_file.verdict_of(CHAPTER, claim, c.tests) == "not run"
    assert _rederive(results_dir, capsys)[0] == 0


def test_12_every_committed_claim_carries_its_declared_figure_records():
    """CLAIM_RECORDS as committed: every decided claim of results/verdicts.json carries every figure
    record declared for it (else it would be not measured)."""
    for c in verdict_file.load(CHAPTER, ROOT / "results" / "verdicts.json"):
        if c.verdict in verdict_file.NOT_MEASURED:
            assert verdict_file.missing_records(CHAPTER, c.id, c.tests) == [], c.id


# ------------------------------------------------------------ 5. python -m fixtures writes through the check

def test_5_the_training_command_never_writes_a_run_record_the_rederivation_refuses(tmp_path, results_dir,
                                                                                     monkeypatch, capsys):
    """`python -m fixtures norm --only prenorm`, its trainer replaced by one that hands back prenorm
    seed 0 retrained to another perplexity (same recipe and key): the figure records naming the run
    no longer agree with it, so the command refuses (exit 2, naming the record), writing nothing
    into results/.  It used to merge the record straight into results/norm.json."""
    from dataclasses import replace

    import fixtures.__main__ as command
    (old,) = [r for r in _runs_of(results_dir, "norm", "prenorm") if r.seed == 0]
    retrained = replace(old, metrics={**old.metrics, "val_ppl": 60.5})

    def trainer(group, names, seeds, device, *, evidence, **kw):
        evidence.write_run_records(group, [retrained])
        return {}
    monkeypatch.setattr(command, "runs", trainer)
    monkeypatch.setattr(command, "RESULTS_DIR", results_dir)
    monkeypatch.setattr("fixtures.schedule.die_with_parent", lambda: None)
    before = _state(results_dir)
    assert command.main(["norm", "--only", "prenorm", "--device", "cpu"]) == 2
    err = capsys.readouterr().err
    assert "this save would commit what the re-derivation refuses" in err and "norm.eight_times" in err, err[-2000:]
    assert "Traceback" not in err
    assert _state(results_dir) == before


def test_5_the_training_command_commits_a_run_the_rederivation_accepts(tmp_path, results_dir, monkeypatch, capsys):
    """A run record the re-derivation accepts (a new seed no figure record names yet) is committed."""
    from dataclasses import replace

    import fixtures.__main__ as command
    (old,) = [r for r in _runs_of(results_dir, "norm", "prenorm") if r.seed == 0]
    cfg = {**old.config, "train": {**old.config["train"], "seed": 7}}
    new = replace(old, seed=7, config=cfg, key=run_codec.run_key(cfg, old.training_version), date=STAMP)

    def trainer(group, names, seeds, device, *, evidence, **kw):
        evidence.write_run_records(group, [new])
        return {}
    monkeypatch.setattr(command, "runs", trainer)
    monkeypatch.setattr(command, "RESULTS_DIR", results_dir)
    monkeypatch.setattr("fixtures.schedule.die_with_parent", lambda: None)
    assert command.main(["norm", "--only", "prenorm", "--device", "cpu"]) == 0, capsys.readouterr().err[-2000:]
    assert any(r.seed == 7 for r in _runs_of(results_dir, "norm", "prenorm"))


# ------------------------------------------------------------ 11. every seed on record, up to the declared count

@pytest.mark.parametrize("recipe", ["winograd_hardened_one_block", "winograd_hardened_two_blocks"])
def test_11_a_record_cut_below_the_seeds_on_record_is_refused(recipe, results_dir, capsys):
    """A record cut to seeds 0-4 (runs and references alike) with the verdict forged to what the
    figure table decides of the five is refused, naming the seeds left out.  One-block: its 10 runs
    were on record when it was decided (the Winograd group declares 10; the round-6 check of the
    declared count reads SEEDS_ON_RECORD, which does not list the claim).  Two-block: its runs were
    recorded again after it was decided (retrained under their keys on 2026-12-07, the record is of
    2026-12-03), so its date no longer tells what was on record beside them and every seed counts
    (it passed while the runs' own dates were the measure)."""
    key = "winograd." + recipe.removeprefix("winograd_")

    def cut(rec):
        rec["runs"] = [r for r in rec["runs"] if r["seed"] < 5]
        rec["measured"]["values"] = rec["measured"]["values"][:5]
        acc = [r.metrics["accuracy"] for r in _runs_of(results_dir, "winograd", recipe)][:5]
        rec["verdict"] = _decided(key, {"values": acc, "n_items": rec["measured"]["n_items"]})
    _edit(results_dir, key, cut)
    code, said = _rederive(results_dir, capsys)
    assert code != 0 and f"{key}: field 'runs' leaves out seed(s) 5, 6, 7, 8, 9 of winograd {recipe}" in said, \
        said[-3000:]


def test_7_the_collapse_record_rests_on_the_undivided_heads_runs(results_dir, capsys):
    """scale.collapse_stable (an attention curve, a measurement of trained models) pointed at the
    divided head's runs is refused: its measurement is one the run check checks (it was not)."""
    key = "scale.collapse_stable: undivided at 1024: the share of frozen rows after the collapse"
    divided = {r.seed: r.key for r in _runs_of(results_dir, "scale", "scale1024_divided")}

    def swap(rec):
        for r in rec["runs"]:
            r["recipe"], r["key"] = "scale1024_divided", divided[r["seed"]]
    _edit(results_dir, key, swap)
    code, said = _rederive(results_dir, capsys)
    assert code != 0 and key in said and "scale1024_divided" in said, said[-3000:]


def test_7_a_difference_written_the_other_way_round_is_refused(results_dir, capsys):
    """ladder.gain_attention is residual_average - one_head_added per seed (claims/record_runs.py
    RECORD_RUNS combine); its values negated (one_head_added - residual_average, each still a
    difference of its runs' metrics) with the verdict forged to what the figure table decides of
    them: refused, naming the seed's value (it passed while either order was a metric of its runs)."""
    key = "ladder.gain_attention"

    def negate(rec):
        rec["measured"]["values"] = [-v for v in rec["measured"]["values"]]
        rec["verdict"] = _decided(key, rec["measured"])
    _edit(results_dir, key, negate)
    code, said = _rederive(results_dir, capsys)
    assert code != 0 and f"{key}: seed 0's value" in said and "is no metric of its runs" in said, said[-3000:]


def test_7_every_declared_combination_names_two_of_its_records_recipes():
    from claims.record_runs import RECORD_RUNS
    for key, rests in RECORD_RUNS.items():
        if rests.combine:
            op, a, b = rests.combine
            assert op in "-/" and {a, b} <= {recipe for _, recipe in rests.recipes} and a != b, key


def test_11_the_committed_records_short_of_their_seeds_are_exempt_only_as_committed(results_dir, capsys):
    """SHORT_OF_RECORD lists the committed records the rule would refuse, each with its date and
    the seeds it leaves out; every entry is still short (the list only shrinks), and one re-dated
    (a save of it measured again on the same cut) is refused."""
    from claims.run_check import SHORT_OF_RECORD, short_of_record
    from textcheck.run_refs import RunIndex, files_beside
    committed = ROOT / "results" / "figures.json"
    index = RunIndex(CHAPTER, files_beside(committed))
    by_key = {r.key: r for r in figure_evidence.load(CHAPTER, committed)}
    for key in SHORT_OF_RECORD:
        assert [exempt for _, exempt in short_of_record(by_key[key], index)] == [True], key
    key = max(SHORT_OF_RECORD)
    _edit(results_dir, key, lambda r: r.update(date=STAMP))
    code, said = _rederive(results_dir, capsys)
    missing = ", ".join(map(str, SHORT_OF_RECORD[key][1]))
    assert code != 0 and f"{key}: field 'runs' leaves out seed(s) {missing} of positions" in said, said[-3000:]
