"""The chapter's tables, regenerated beside ours, as data (the engine's `Table`), in the chapter's
order (`data`), one builder per section: from the merged report (the figure rows every test
recorded) and the runs of results/<group>.json, read through the render's one `Facts`, which the
errata read too.  The chapter's own columns come from its text or the figures each test recorded as
`stated`; nothing measured is typed here.  Imports no torch.
"""
from __future__ import annotations

from pathlib import Path

from claims.chapter import CHAPTER
from claims.chapter_figures import FIGURES, LADDER_ROW_FIGURE
from claims.registry import figures
from claims.report.errata.held_out import best_ppl
from claims.report.errata.scale import RUNAWAY_WIDE
from claims.report.evidence import Facts, cost_rows
from claims.report.table_data import (
    FIG_HEADER,
    _claim_evidence,
    _figure_table,
    _run_evidence,
    _tests,
    chapter_cost_table,
    chapter_maps,
    metric_of,
)
from fixtures.setup import LADDER_ROWS, PRENORM_STOP_AT, PRENORM_STOPPED, WIDE_HEADS
from textcheck import Source, Table, printing


def data(merged: dict, results_dir: Path, text: str | None = None, missing: str = "",
         facts: Facts | None = None) -> list[Table]:
    """Every table the chapter prints or describes, as data.  `text`: its text (read here when
    None); `missing`: why there is none, which the chapter's own columns then say; `facts`: the
    render's one reader of the evidence (claims/report/evidence.py), else one made here."""
    facts = facts or Facts(merged, results_dir)
    if text is None and not missing:
        text, missing = CHAPTER.text_or_none()
    if text is None or missing:           # the chapter's own columns say why they are empty; ours stay
        why = missing.splitlines()[1].strip() if len(missing.splitlines()) > 1 else missing.strip()
        missing, text = "chapter text not found (" + why + ")", ""
    return [*_scale_tables(merged, facts), _ladder_table(facts),
            _figure_table("mlp_share", ("Where the parameters sit: the MLP's share of one block's parameters "
                                        "(biases and norms included, by width) and of a whole model's"), merged,
                          "ladder.mlp_two_thirds", "ladder.mlp_holds_most_parameters", key_field="d"),
            _figure_table("gpt2_small", "GPT-2 small, parameter by parameter", merged, "params.gpt2_small",
                          "params.block_formula", "params.published_size", key_field="row"),
            _norm_table(facts),
            _figure_table("grad_profile", "The gradient profile at initialisation", merged, "norm.grad_profile"),
            _positions_table(merged), _cost_table(results_dir, text, missing),
            *_winograd_tables(merged, facts, text, missing)]


# The runaway's figures: (row, its figure ID, the reading's variant and statistic in readings.json)
RUNAWAY_ROWS = [("undivided score sd at init", "scale.runaway_init_sd", "undivided", "init_score_sd"),
                ("undivided score sd after training", "scale.runaway_sd", "undivided", "score_sd"),
                ("undivided attention entropy", "scale.runaway_entropy", "undivided", "entropy"),
                ("undivided: rows with > 0.99 on one token", "scale.runaway_frozen", "undivided", "frozen"),
                ("divided score sd after training", "scale.divided_sd", "divided", "score_sd")]


def _runaway_wide_rows(facts: Facts) -> list[list]:
    """The runaway's figures beside the reading "a model 1024 wide throughout", where measured
    (`facts`: the render's one reader of the evidence)."""
    reading = facts.readings.get(RUNAWAY_WIDE, {})
    if not reading:
        return []
    rows = []
    for row, fid, variant, stat in RUNAWAY_ROWS:
        ours = facts.figure_row(fid).get("measured") or {}
        theirs = reading.get(variant, {}).get(stat) or []
        rows.append([row, FIGURES[fid].value, printing.over_seeds(ours.get("per seed") if isinstance(ours, dict) else None,
                                                           per_seed=False),
                     printing.over_seeds(theirs, per_seed=False) + (" (1 seed)" if len(theirs) == 1 else "")])
    return rows


def _scale_tables(merged: dict, facts: Facts) -> list[Table]:
    out = [_figure_table("variance", "Var(q·k) and the score sd, 20,000 pairs per width", merged,
                         "scale.variance_is_d", "scale.std_is_sqrt_d", key_field="d"),
           _figure_table("effective_tokens", "A row of 64 scores: effective tokens (exp of entropy)", merged,
                         "scale.effective_tokens"),
           _figure_table("softmax_jacobian", "The softmax Jacobian over 2,000 rows", merged, "scale.divided_flat_sum",
                         "scale.frozen_rows", "scale.divided_never_saturates")]
    # the sqrt(d_k) ablation: rows we trained; the chapter names a fourth width it gives no figure for
    ladder, scale = facts.group("ladder"), facts.group("scale")
    val = lambda rs: metric_of(rs, "val_ppl")
    rows, figs, used = [], {}, []
    stated_worth = figures("scale")
    for d_k in (32, *WIDE_HEADS):
        div = ladder.get("layernorm", []) if d_k == 32 else scale.get(f"scale{d_k}_divided", [])
        und = scale.get(f"scale{d_k}_undivided", [])
        used += [("ladder" if d_k == 32 else "scale", div), ("scale", und)]
        worth = [u - d for u, d in zip(val(und), val(div))]
        figs[(len(rows), 3)] = f"scale.worth_{d_k}"
        rows.append([d_k, printing.over_seeds(val(div), per_seed=False), printing.over_seeds(val(und), per_seed=False),
                     stated_worth[f"worth_{d_k}"], printing.over_seeds(worth, per_seed=False)])
    rows.append(["the unnamed fourth width", "not stated", "not stated", "not stated", "not trained"])
    out.append(Table("sqrt_dk_ablation", ("The sqrt(d_k) ablation (held-out perplexity; 32: the 3000-step setup, "
                                          "256 and 1024: 1500 steps, batch 32, one head)"),
                     ["d_k", "divided", "undivided", "the chapter: worth", "ours: worth (undivided - divided)"],
                     rows, figs, [e for g, rs in used for e in _run_evidence(g, rs)]))
    out.append(_figure_table("runaway", "The runaway statistics (d_k = 1024)", merged, "scale.runaway"))
    wide = _runaway_wide_rows(facts)
    if wide:
        out.append(Table("runaway_wide", ("The runaway in a model 1024 wide throughout (an alternative reading, "
                                          "claims/report/errata/; not a verdict)"),
                         ["figure", "the chapter", "ours: 128 wide (the verdict's)", "1024 wide throughout"], wide,
                         {(i, 1): fid for i, (_, fid, _, _) in enumerate(RUNAWAY_ROWS)},
                         _claim_evidence(merged, "scale.runaway")
                         + [Source("results/readings.json")]))
    return out


def _ladder_table(facts: Facts) -> Table:
    ladder = facts.group("ladder")
    chapter_ladder = {name: FIGURES[fid].value for name, fid in LADDER_ROW_FIGURE.items()}
    rows = [[name, chapter_ladder.get(name, "not in the text"),
             printing.over_seeds(metric_of(ladder.get(name, []), "val_ppl"), per_seed=False),
             printing.over_seeds(metric_of(ladder.get(name, []), "train_ppl"), per_seed=False),
             ladder[name][0].metrics.get("params", "") if ladder.get(name) else ""] for name in LADDER_ROWS]
    figs = {(i, 1): LADDER_ROW_FIGURE[name] for i, name in enumerate(LADDER_ROWS) if name in LADDER_ROW_FIGURE}
    return Table("ladder", "The ladder (held-out perplexity; the chapter's table is not in the text, its quoted rows are)",
                 ["row", "the chapter", "ours: held-out", "ours: train", "parameters"], rows, figs,
                 _run_evidence("ladder", *(ladder.get(name, []) for name in LADDER_ROWS)))


def _norm_table(facts: Facts) -> Table:
    norm, chapter_norm = facts.group("norm"), figures("norm")
    val = lambda rs: metric_of(rs, "val_ppl")
    def best(rs):                       # the best held-out checkpoint, where the run recorded its curve
        b = [r.metrics["best_held_out"] for r in rs if "best_held_out" in r.metrics]
        return ", ".join(f"{best_ppl(x):.2f} at step {x['step']}" + ("" if "val_ppl" in x else " (64-window subset)")
                         for x in b) or "not recorded"
    names = ("prenorm", "prenorm_warmup", "postnorm", "postnorm_warmup")
    rows = [[name, chapter_norm.get(name), printing.over_seeds(val(norm.get(name, [])), per_seed=False),
             printing.over_seeds(metric_of(norm.get(name, []), "train_ppl"), per_seed=False),
             best(norm.get(name, []))] for name in names]
    figs = {(i, 1): f"norm.{name}" for i, name in enumerate(names)}
    stopped = facts.group("errata").get(PRENORM_STOPPED, [])     # the early-stopped reading (errata.py)
    if stopped:
        rows.append([f"prenorm stopped at step {PRENORM_STOP_AT} (an alternative reading, not a verdict)",
                     chapter_norm["prenorm"], printing.over_seeds(val(stopped), per_seed=False),
                     printing.over_seeds(metric_of(stopped, "train_ppl"), per_seed=False), "(stopped there)"])
    return Table("norm", "Pre-norm vs post-norm, twelve blocks (held-out perplexity after 1000 steps)",
                 ["run", "the chapter", "ours: held-out", "ours: train",
                  "ours: best held-out checkpoint"], rows, figs,
                 _run_evidence("norm", *(norm.get(n, []) for n in names)) + _run_evidence("errata", stopped))


def _positions_table(merged: dict) -> Table:
    """Every scheme at every window, from the figure rows the positions tests recorded."""
    per = {}
    for t in _tests(merged, "positions.learned_cliff"):
        m = (t["records"][0] if t.get("records") else {}).get("measured")
        if isinstance(m, dict) and "learned" in m:
            per = m
    rows = [[scheme] + [printing.over_seeds([run.get(str(T), run.get(T)) for run in runs], per_seed=False)
                        for T in (64, 128, 256)] for scheme, runs in per.items()]
    alibi = figures("positions")
    figs = {(len(rows), 1): "positions.alibi_64", (len(rows), 3): "positions.alibi_256"}
    rows += [["alibi, the chapter", alibi["alibi_64"], "not stated", alibi["alibi_256"]]]
    return Table("positions", "Positions: trained at 64, evaluated at 64, 128 and 256 (held-out perplexity)",
                 ["scheme", "64", "128", "256"], rows if per else [["not run", "", "", ""]], figs if per else {},
                 _claim_evidence(merged, "positions.learned_cliff"))


def _cost_table(results_dir: Path, text: str, missing: str) -> Table:
    ours = cost_rows(results_dir)
    theirs = chapter_cost_table(text) or {n: dict.fromkeys(("ms x4", "attn MB", "peak MB", "MB x4"), missing)
                                             for n in ours}
    ratio = lambda n, k: f"{ours[n][k] / ours[n // 2][k]:.2f}" if n in ours and n // 2 in ours else ""
    rows = [[n, t["ms x4"], ratio(n, "ms"), t["attn MB"], ours.get(n, {}).get("score_mb", ""), t["peak MB"],
             ours.get(n, {}).get("peak_mb", ""), t["MB x4"], ratio(n, "peak_mb")] for n, t in theirs.items()]
    return Table("cost", ("The cost of one attention layer (the chapter: a laptop GPU; ours: the CPU, one thread; the "
                          "chapter reads its ms columns for their ratios only)"),
                 ["n", "ms x4: chapter", "ms x4: ours", "attn MB: chapter", "ours", "peak MB: chapter",
                  "ours", "MB x4: chapter", "ours"], rows, {},
                 [Source("results/cost_cpu.json", device="cpu")] if ours else [])


def _winograd_tables(merged: dict, facts: Facts, text: str, missing: str) -> list[Table]:
    wino = facts.group("winograd")
    stated = {k: v for k, v in figures("winograd").items()
              if k.startswith(("cheatable_", "hardened_")) and not k.endswith("wrong_noun")}
    rows = [[name.replace("_", " "), f"{100 * s:.1f} %",
             printing.over_seeds([100 * r.metrics["accuracy"] for r in wino.get(f"winograd_{name}", [])], per_seed=False),
             printing.over_seeds([100 * r.metrics["wrong_noun"] for r in wino.get(f"winograd_{name}", [])], per_seed=False)]
            for name, s in stated.items()]
    maps = Path(facts.results_dir) / "winograd_attention.txt"
    cells = _figure_table("", "", merged, "winograd.block1_first_noun", "winograd.block2_routing").rows
    return [Table("winograd", "Winograd: held-out referent accuracy, % (wrong noun: the other noun of the pair named)",
                  ["model", "the chapter", "ours: accuracy", "ours: wrong noun"], rows,
                  {(i, 1): f"winograd.{name}" for i, name in enumerate(stated)},
                  _run_evidence("winograd", *(wino.get(f"winograd_{n}", []) for n in stated))),
            _routing_table(merged),
            Table("maps", "The two attention maps (block rows at the referent position, averaged over heads)",
                  FIG_HEADER, [r for r in cells if r[1] not in (0, 0.0)],
                  evidence=_claim_evidence(merged, "winograd.block1_first_noun", "winograd.block2_routing"),
                  listings=[("The chapter", missing or chapter_maps(text)),
                            ("Ours (seed 0)", maps.read_text().rstrip() if maps.exists() else "not run")],
                  grid="Every printed cell as a figure over all seeds")]


ROUTES = ("first noun", "second noun", "adjective")


def _routing_table(merged: dict) -> Table:
    """Block 2 at the referent by the adjective's role, as the routing tests recorded it."""
    m = {}
    for t in _tests(merged, "winograd.block2_routing"):
        rec = (t.get("records") or [{}])[0].get("measured")
        if isinstance(rec, dict) and any(str(k).startswith("crosser: ") for k in rec):
            m = rec
    rows = [[role] + [m.get(f"{role}: weight on {w}") for w in ROUTES] for role in ("crosser", "crossed")] if m else []
    return Table("winograd_routing", ("Block 2 at the referent, by the adjective's role (the four crosser and the four "
                                      "crossed adjectives; attention weight)"),
                 ["adjectives", *(f"on the {w}" for w in ROUTES)], rows or [["not run", "", "", ""]], {},
                 _claim_evidence(merged, "winograd.block2_routing"))
