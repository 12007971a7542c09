"""What every erratum is made of: an entry's parts (`Erratum`), what it reads (`Facts`, the
report's one reader of the evidence, claims/report/evidence.py), and how a measurement over
seeds is written."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from claims.chapter_figures import FIGURES
from claims.record_rules import decide, spec_for
from claims.registry import filled
from claims.report.errata.spread import Edit, Num, edit, num
from claims.report.evidence import Facts
from textcheck import printing

FIGURE_SLOT = re.compile(r"\{([a-z0-9_.]+)\}")


@dataclass(frozen=True, kw_only=True)
class Erratum:
    """`quote=`: the chapter's sentence, verbatim; or `figure=`: a figure ID, where the erratum
    quotes what that figure's anchor quotes (the quote is then the anchor, never typed again)."""
    cause: Callable[[Facts], str]                # what we found, with its evidence ("" = not yet found)
    quote: str = ""                              # the chapter's sentence, verbatim
    figure: str = ""                             # or the figure whose anchor it quotes
    readings: Callable[[Facts], list[str]] = field(default=lambda f: [])
    # the suggested edits of the chapter (claims/report/patch.py applies them), or a note that is
    # not part of the patch and prints no measured number ("State the choice: ...")
    suggested: Callable[[Facts], tuple[Edit, ...] | str] = field(default=lambda f: ())

    def __post_init__(self):
        if bool(self.quote) == bool(self.figure):
            raise ValueError("an erratum quotes a sentence (quote=) or names the figure whose anchor it quotes (figure=)")
        if self.figure:
            object.__setattr__(self, "quote", FIGURES[self.figure].anchor)


def per_seed(f: Facts, fid: str) -> list[float]:
    """A chapter figure's measurement per seed, by its figure ID."""
    return (f.figure_measured(fid) or {}).get("per seed", [])


def pct(values) -> str:
    return printing.over_seeds([100 * v for v in values], " %") if values else "not measured"


def in_sentence(f: Facts, fid: str, values, percent: bool | None = None, how: str = "mean") -> Num | str:
    """A figure as a suggested sentence prints it: the chapter's own number unless that figure is
    refuted (a figure that holds keeps it: another number would contradict a claim that holds; an
    undecided one needs more seeds, an underspecified one a stated choice, not a new number); where
    it is refuted, the measurement at the precision its spread supports (spread.py)."""
    printed = FIGURES[fid].printed
    if f.figure_row(fid).get("verdict") != "refuted":
        return printed
    percent = printed.endswith("%") if percent is None else percent
    new = num(values, fid, printed if any(ch.isdigit() for ch in printed) else "", percent, how)
    return new if holds_as_printed(fid, str(new), values) else printed


def holds_as_printed(fid: str, printed: str, values) -> bool:
    """Whether the figure, printed as `printed`, would hold on these values (the patched chapter is
    decided again: claims/report/patched.py).  A trained figure whose runs cannot be told from its
    null at any number ("one run cannot show it") has no number that holds: the chapter's stays,
    and the check lists it as a refuted figure the patch leaves."""
    spec = spec_for(fid)
    if spec.kind != "trained" or spec.null is None or len(values) < 2:
        return True
    figure = replace(FIGURES[fid], printed=printed)
    return decide(replace(spec, stated=figure.value, rounding=figure.rounding), {"values": list(values)}).holds


def figure_edit(f: Facts, fid: str, values, quote: str = "") -> Edit:
    """The figure's number, where `quote` (its anchor by default) prints it last, replaced by
    in_sentence's: a no-op edit (text == quote, dropped) unless the figure is refuted."""
    quote = quote or FIGURES[fid].anchor
    printed = FIGURES[fid].printed
    at = quote.rindex(printed)
    return edit(quote, quote[:at].replace("{", "{{").replace("}", "}}") + "{v}"
                + quote[at + len(printed):].replace("{", "{{").replace("}", "}}"), v=in_sentence(f, fid, values))


def figures_edit(f: Facts, template: str, values: dict[str, list]) -> Edit:
    """`template` over figure IDs ("from {positions.alibi_64} to ..."): the chapter's words, each figure
    as it prints it, and in their place the same words, each as in_sentence prints its `values`."""
    fids = FIGURE_SLOT.findall(template)
    return edit(filled(template), FIGURE_SLOT.sub(lambda m: f"{{v{fids.index(m.group(1))}}}", template),
                **{f"v{i}": in_sentence(f, fid, values[fid]) for i, fid in enumerate(fids)})


def models_showing(f: Facts, claim: str, key: str, adjective_at: int) -> str:
    """The chapter prints one model's map, ours are ten: how many of them show what the sentence
    says (a test record's `per_model`, claims/test_winograd.py), and each model's heaviest word
    with its weight, its row averaged over the adjectives (`adjective_at`: the adjective's slot)."""
    m = f.measured(claim, key, field="per_model")
    rows = m.get("rows") if m else None
    if not m or not isinstance(rows, list) or not all(isinstance(r, dict) and r for r in rows):
        return ""

    def heaviest(row: dict) -> str:
        word, weight = max(row.items(), key=lambda kv: kv[1])
        name, _, pos = word.rpartition("@")
        return f"{'the adjective' if pos == str(adjective_at) else repr(name)} {weight:.2f}"
    return (f"{m['models showing it']} of {m['of']} models: {m['what']}; each model's heaviest word, its row "
            f"averaged over the adjectives: " + ", ".join(f"seed {i} {heaviest(r)}" for i, r in enumerate(rows)))
