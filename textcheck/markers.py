"""The engine's markers: `claim(id)` and `figure(*ids)`, which tie a test to its text, and the
tiers; a test's IDs as its markers give them, what is wrong with one (an ID the Chapter lacks), and
the selection by --claim and --figure (textcheck/plugin.py calls each from its hooks).
"""
from __future__ import annotations

from textcheck.hooks import chapter_of

# The engine's markers, registered for every text that loads the plugin (a text's pytest.ini
# declares none of them): the tiers a record is kept by, and the two that tie a test to its text.
MARKERS = (
    "fast: exact and statistical claims; CPU, seconds",
    "slow: claims that take minutes (statistics over seeds, timing); their evidence is committed",
    "gpu: trained claims at the text's scale; skipped without CUDA unless the text's plugin says otherwise",
    "claim(id): the claim ID this test checks",
    "figure(*ids): the printed figures this test asserts, by figure ID",
)


def _claim_id(id=None, *args, **kwargs):
    """The claim ID of a claim mark, as given: `claim("norm.prenorm")` or `claim(id="norm.prenorm")`."""
    return id


def claim_ids_of(item) -> list[str]:
    return [_claim_id(*m.args, **m.kwargs) for m in item.iter_markers("claim")]


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


def unknown_selection(config) -> str | None:
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


def select_by_id(config, items) -> None:
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
