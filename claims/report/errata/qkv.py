"""The errata of the chapter's section: Queries, keys and values (the listing it prints, and two
steps of its argument measured on models built for them: the value map, and weights as plain
parameters)."""
from __future__ import annotations

from claims.report.errata.facts import Erratum, Facts, pct
from claims.report.errata.spread import Edit, edit, k_of_n, num
from textcheck import printing

CLAIM = "qkv.head_thirty_lines"


def _counts(f: Facts) -> dict:
    """The printed listing's counts, as the two listing tests recorded them ({} if not run)."""
    lines, shapes = f.record(CLAIM, "qkv.listing_lines"), f.record(CLAIM, "qkv.listing_shape_lines")
    if not lines or not shapes:
        return {}
    return {"lines": lines.get("measured"), "non-blank": lines.get("non_blank"), "shapes": shapes.get("measured")}


def _cause(f: Facts) -> str:
    n = _counts(f)
    if not n:
        return ""
    return (f"the listing printed right after the sentence (and meant by \"the thirty lines above\") is {n['lines']} "
            f"lines, {n['non-blank']} of them with code; {n['shapes']} of those name a size, a shape or an axis "
            "(d_model, d_head, block, T, .shape, transpose, [:T, :T], dim=), so neither count can reach the printed "
            "ones; the multi-head wrapper, W_o and the block around it are not printed")


def _sentence(f: Facts) -> tuple[Edit, ...]:
    """The listing's counts, which are counts of the printed text, not measurements over seeds."""
    n = _counts(f)
    return (edit("In code it is thirty lines, twenty of which are shapes:", "In code it is {a} lines, {b} of which are "
                 "shapes:", a=num([n["lines"]], "qkv.listing_lines"), b=num([n["shapes"]], "qkv.listing_shape_lines")),
            ) if n else ()


VALUE_MAP, VALUE_LABEL = "qkv.value_map_helps", "one head: with W_v below without"
PLAIN, PLAIN_LABEL = "qkv.weights_not_plain_parameters", "hardened task: one block above fixed weights"
THIRD_MAP = r"So learn a third map, $\mathbf{v}_i = W_v\mathbf{x}_i$, the value, and sum those."


def _sides(f: Facts, claim: str, label: str, a: str, b: str) -> tuple[list, list]:
    """The two sides of the claim's ordering, per seed, as its test recorded them ([] if not run)."""
    m = f.measured(claim, f"{claim}: {label}") or {}
    return list(m.get(a) or []), list(m.get(b) or [])


def _value_cause(f: Facts) -> str:
    with_v, without = _sides(f, VALUE_MAP, VALUE_LABEL, "with W_v", "without W_v")
    if not with_v:
        return ""
    below = sum(a < b for a, b in zip(with_v, without))
    return (f"the one head with W_v is below the same head without it in {below} of {len(with_v)} models: with W_v "
            f"{printing.over_seeds(with_v)}, without {printing.over_seeds(without)} (held-out perplexity); in that model only the linear "
            "output layer reads the values, so W_v can be folded into it and the two express the same functions")


def _value_sentence(f: Facts) -> tuple[Edit, ...]:
    with_v, without = _sides(f, VALUE_MAP, VALUE_LABEL, "with W_v", "without W_v")
    if not with_v:
        return ()
    kept = THIRD_MAP[:-1].replace("{", "{{").replace("}", "}}")            # the formula's braces, as written
    return (edit(THIRD_MAP, kept + " (in a one-head model whose output layer reads the values it bought "
                 "nothing: without it the held-out perplexity was lower in {k}).",
                 k=k_of_n([b < a for a, b in zip(with_v, without)])),)


def _plain_cause(f: Facts) -> str:
    block, fixed = _sides(f, PLAIN, PLAIN_LABEL, "one block", "fixed weights")
    if not block:
        return ""
    ahead = sum(b > a for a, b in zip(block, fixed))
    return (f"on the hardened task one block with each head's weights a fixed learned matrix is ahead of one block in "
            f"{ahead} of {len(block)} models: fixed weights {pct(fixed)}, one block {pct(block)} (held-out referent "
            "accuracy); the task's template puts both nouns and the adjective at the same positions in every "
            "sentence, so weights that depend only on positions can reach each of them")


def _plain_sentence(f: Facts) -> tuple[Edit, ...]:
    block, fixed = _sides(f, PLAIN, PLAIN_LABEL, "one block", "fixed weights")
    if not block:
        return ()
    return (edit("They cannot be plain parameters.",
                 "Where the words stand in fixed places they can be plain parameters: on the hardened task below, a "
                 "learned matrix beat one block in {k}.", k=k_of_n([b > a for a, b in zip(block, fixed)])),)


ERRATA: dict[str, Erratum] = {
    VALUE_MAP: Erratum(quote=THIRD_MAP, cause=_value_cause, suggested=_value_sentence),
    PLAIN: Erratum(quote="They cannot be plain parameters.", cause=_plain_cause, suggested=_plain_sentence),
    CLAIM: Erratum(figure="qkv.listing_lines", cause=_cause,
                   readings=lambda f: ([f"blank lines left out: {_counts(f)['non-blank']} lines"] if _counts(f) else []),
                   suggested=_sentence),
}
