"""The running-mean text as the claim engine sees it: one Chapter, built once, and the one entry
(`pytest_textcheck_chapter`, this module loaded as a pytest plugin by the example's conftest.py)."""
from __future__ import annotations

import hashlib
from pathlib import Path

from examples.running_mean import tables
from textcheck import Anchor, AnchorList, Chapter, TextReport, headings

HERE = Path(__file__).resolve().parent
SHA256 = "990db4b79398fffcda1908fb9bc29cd0809d3549c4099aadcacc52a23ae9f1f1"


def load_text(explain) -> str:
    """text.txt, checked against SHA256; an altered text names each anchor it breaks."""
    data = (HERE / "text.txt").read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    text = data.decode("utf-8")
    if digest != SHA256:
        lines = [line for e in explain for line in e(text)]
        raise ValueError(f"{HERE / 'text.txt'}: sha256 {digest} is not the text's {SHA256}\n" + "\n".join(lines))
    return text


CHAPTER = Chapter(
    name="the running-mean example",
    root=HERE,
    load_text=load_text,
    sha256=SHA256,
    text_missing=(FileNotFoundError,),
    figures=tables.FIGURES,
    claims=tables.CLAIMS,
    sections=tables.SECTIONS,
    declared=tables.DECLARED,
    sentences=tables.SENTENCES,
    # the chapter view's headings and the errata's quotes, found like every quote of the text
    quotes=(headings(tables.HEADINGS),
            AnchorList("errata", tuple(Anchor(q, "errata", cid) for cid, (q, _) in tables.ERRATA.items()))),
    rule_inputs=tables.rule_inputs,
    measurements=tables.MEASUREMENTS,
    where={"figures": "examples/running_mean/tables.py FIGURES", "claims": "examples/running_mean/tables.py CLAIMS"},
    tests=".",
)


def pytest_textcheck_chapter(config) -> Chapter:
    """The one entry (textcheck/hooks.py): the engine is handed this text."""
    return CHAPTER


# The text's own parts of its report, for the engine's commands (`python -m textcheck report --text
# examples.running_mean.chapter`, textcheck/commands.py): its errata from its table of quotes and
# causes, its chapter view cut at its headings; since when each verdict stands and what each mark
# shows are the engine's.
REPORT = TextReport(errata_table=tables.ERRATA, headings=tables.HEADINGS, project="the running-mean example",
                    errata_home="examples/running_mean/tables.py ERRATA")

