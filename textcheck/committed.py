"""The committed evidence of a text's results folder, read once per command: `Evidence`.

Its figure records (results/figures.json), its claims (results/verdicts.json, each test's record
its figure record's), and the index of the run records they name (results/<group>.json, each
group's file read once, by the text's one reader).  The re-derivation (textcheck/rederive.py)
decides it again and checks it against its runs, the report (textcheck/commands.py, the text's
own command) renders the claims it accepts, and a save (textcheck/save.py) merges a run into
it: each from this one read, so that a value is decided once per command.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textcheck import evidence, verdict_file
from textcheck.chapter import Chapter
from textcheck.records import ClaimVerdict, FigureRecord
from textcheck.run_refs import RunFile, RunIndex, files_beside
from textcheck.store import check_file
from textcheck.vocabulary import SEPARATOR


@dataclass(frozen=True)
class Evidence:
    """A results folder's committed evidence, read once; it unpacks as (records, claims)."""
    records: list[FigureRecord]
    claims: list[ClaimVerdict]
    runs: RunIndex
    figures_at: Path
    verdicts_at: Path
    verdicts_read: bool = True        # whether verdicts.json was there to be read

    def __iter__(self):
        return iter((self.records, self.claims))

    def nodeids(self) -> dict[str, str]:
        """{figure record key: the node ID of the committed test that carries it}."""
        return {k: t.nodeid for c in self.claims for t in c.tests if t.key for k in str(t.key).split(SEPARATOR)}

    @classmethod
    def read(cls, chapter: Chapter, figures_at: Path, verdicts_at: Path | None = None, run_file: RunFile | None = None,
             dangling: bool = True, required: bool = False, need_figures: bool = False) -> Evidence:
        """The evidence of `figures_at` (results/figures.json, none where it is not there) and
        `verdicts_at` (by default verdicts.json beside it; `required`, `need_figures`: an error
        where it is not there), the run records `run_file` gives (by default the group files beside them).
        `dangling`: a test whose figure record is missing is kept without it, for the
        re-derivation to name.  EvidenceError or FigureEvidenceError naming the file, the record
        and the field otherwise.  The caller holds the read lock (textcheck/store.py reading)."""
        figures_at = Path(figures_at)
        verdicts_at = Path(verdicts_at) if verdicts_at else figures_at.with_name(verdict_file.NAME)
        runs = RunIndex(chapter, run_file or files_beside(figures_at))
        there = figures_at.exists() or figures_at.is_symlink()
        records = evidence.load(chapter, figures_at, index=runs) if there or need_figures else []
        read = required or verdicts_at.exists() or verdicts_at.is_symlink()
        if read:
            check_file(verdicts_at, "committed verdicts")    # a --verdicts not there is an error, not a skip
        claims = verdict_file.load(chapter, verdicts_at, records, dangling=dangling) if read else []
        return cls(records, claims, runs, figures_at, verdicts_at, read)

    @classmethod
    def of(cls, chapter: Chapter, results_dir: Path, run_file: RunFile | None = None, dangling: bool = True) -> Evidence:
        """The committed evidence of `results_dir` (its figures.json and verdicts.json)."""
        return cls.read(chapter, Path(results_dir) / evidence.NAME, run_file=run_file, dangling=dangling)

