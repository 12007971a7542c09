"""The chapter's tables, regenerated beside ours: `report/tables.md` (and a section of index.html).

Built from the merged report (the figure rows every test recorded) and the committed run records
(results/<group>.json); the chapter's own columns come from the chapter's text
(../shared/chapter.txt) or from the figures each test recorded as `stated`.  Nothing measured is
typed here.  Imports no torch, like the reporter.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from claims.chapter_figures import FIGURES
from claims.formats import cell, over_seeds
from claims.registry import figures
from claims.report.errata.scale import RUNAWAY_WIDE
from claims.report.evidence import Facts
from claims.report.markdown import md, md_fence
from data.chapter import chapter_or_none
from data.paths import PROJECT_ROOT
from fixtures import results
from fixtures.setup import LADDER_ROWS, PRENORM_STOP_AT, PRENORM_STOPPED, WIDE_HEADS

ROOT = PROJECT_ROOT



def _table(header: list[str], rows: list[list]) -> str:
    esc = lambda v: cell(v).replace("|", "\\|").replace("\n", " ")
    return "\n".join(["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
                     + ["| " + " | ".join(esc(v) for v in r) + " |" for r in rows])


def _tests(merged: dict, cid: str) -> list[dict]:
    c = next((c for c in merged.get("claims", []) if c["id"] == cid), None)
    return sorted(c.get("tests", []), key=lambda t: t["nodeid"]) if c else []


def _figure_rows(merged: dict, *cids: str, key=None) -> list[list]:
    """One row per recorded figure of the claims: figure, the chapter, ours, tolerance, verdict."""
    rows = []
    for cid in cids:
        for t in _tests(merged, cid):
            rec = t["records"][0] if t.get("records") else {}
            name = rec.get("figure") or (f"{key} = {rec[key]}" if key and key in rec else t["nodeid"].split("::")[-1])
            rows.append([name, rec.get("stated"), rec.get("measured"), rec.get("tolerance"), t["outcome"] or "not run"])
    return rows


def _runs(group: str, results_dir: Path) -> dict[str, list[dict]]:
    return results.by_recipe(group, results_dir)


def chapter_cost_table(text: str) -> dict[int, dict]:
    """The chapter's cost table, parsed from its text: n -> its columns."""
    rows = {}
    for m in re.finditer(r"^\s+(\d{3,5})\s+([\d.]+)\s+([\d.-]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.-]+)\s*$",
                         text, re.MULTILINE):
        n, ms, ms_x, proj, attn, peak, mb_x = m.groups()
        rows[int(n)] = {"ms": float(ms), "ms x4": ms_x, "projections ms": float(proj), "attn MB": float(attn),
                        "peak MB": float(peak), "MB x4": mb_x}
    return rows


def chapter_maps(text: str) -> str:
    """The chapter's two printed attention maps, verbatim."""
    m = re.search(r"^the animal did not cross the street because it was too tired.*?(?=\n\nBlock 1 is identical)",
                  text, re.MULTILINE | re.DOTALL)
    return m.group(0) if m else "(not found in the chapter's text)"


# The runaway's figures: (row, its figure ID, the reading's variant and statistic in readings.json)
RUNAWAY_ROWS = [("undivided score sd at init", "scale.runaway_init_sd", "undivided", "init_score_sd"),
                ("undivided score sd after training", "scale.runaway_sd", "undivided", "score_sd"),
                ("undivided attention entropy", "scale.runaway_entropy", "undivided", "entropy"),
                ("undivided: rows with > 0.99 on one token", "scale.runaway_frozen", "undivided", "frozen"),
                ("divided score sd after training", "scale.divided_sd", "divided", "score_sd")]


def _runaway_wide_rows(merged: dict, results_dir: Path) -> list[list]:
    """The runaway's figures beside the reading "a model 1024 wide throughout", where measured."""
    facts = Facts(merged, results_dir)
    reading = facts.readings.get(RUNAWAY_WIDE, {})
    if not reading:
        return []
    rows = []
    for row, fid, variant, stat in RUNAWAY_ROWS:
        ours = facts.figure(fid).get("measured") or {}
        theirs = reading.get(variant, {}).get(stat) or []
        rows.append([row, FIGURES[fid].value, over_seeds(ours.get("per seed") if isinstance(ours, dict) else None,
                                                           per_seed=False),
                     over_seeds(theirs, per_seed=False) + (" (1 seed)" if len(theirs) == 1 else "")])
    return rows


def build(merged: dict, results_dir: Path, chapter: str | None = None) -> list[tuple[str, str]]:
    """[(title, markdown)] for every table the chapter prints or describes."""
    missing = ""
    if chapter is None:
        chapter, missing = chapter_or_none()
    if chapter is None:                  # the chapter's own columns say why they are empty; ours stay
        missing, chapter = "chapter text not found (" + missing.splitlines()[1].strip() + ")", ""
    fig_header = ["figure", "the chapter", "ours", "tolerance", "verdict"]
    out = []
    out.append(("Var(q·k) and the score sd, 20,000 pairs per width",
                _table(fig_header, _figure_rows(merged, "scale.variance_is_d", "scale.std_is_sqrt_d", key="d"))))
    out.append(("A row of 64 scores: effective tokens (exp of entropy)",
                _table(fig_header, _figure_rows(merged, "scale.effective_tokens"))))
    out.append(("The softmax Jacobian over 2,000 rows",
                _table(fig_header, _figure_rows(merged, "scale.divided_flat", "scale.frozen_rows",
                                                "scale.divided_never_saturates"))))
    # the sqrt(d_k) ablation: rows we trained; the chapter names a fourth width it gives no figure for
    ladder, scale = _runs("ladder", results_dir), _runs("scale", results_dir)
    val = lambda rs: [r["val_ppl"] for r in rs]
    rows = []
    stated_worth = figures("scale")
    for d_k in (32, *WIDE_HEADS):
        div = ladder.get("layernorm", []) if d_k == 32 else scale.get(f"scale{d_k}_divided", [])
        und = scale.get(f"scale{d_k}_undivided", [])
        worth = [u - d for u, d in zip(val(und), val(div))]
        rows.append([d_k, over_seeds(val(div), per_seed=False), over_seeds(val(und), per_seed=False), stated_worth[f"worth_{d_k}"], over_seeds(worth, per_seed=False)])
    rows.append(["the unnamed fourth width", "not stated", "not stated", "not stated", "not trained"])
    out.append((("The sqrt(d_k) ablation (held-out perplexity; 32: the 3000-step setup, 256 and 1024: 1500 "
                "steps, batch 32, one head)"), _table(["d_k", "divided", "undivided", "the chapter: worth",
                                                      "ours: worth (undivided - divided)"], rows)))
    out.append(("The runaway statistics (d_k = 1024)", _table(fig_header, _figure_rows(merged, "scale.runaway"))))
    wide = _runaway_wide_rows(merged, results_dir)
    if wide:
        out.append((("The runaway in a model 1024 wide throughout (an alternative reading, claims/report/errata/; "
                    "not a verdict)"), _table(["figure", "the chapter", "ours: 128 wide (the verdict's)",
                                              "1024 wide throughout"], wide)))
    chapter_ladder = figures("ladder")
    rows = [[name, chapter_ladder.get(name, "not in the text"), over_seeds(val(ladder.get(name, [])), per_seed=False),
             over_seeds([r["train_ppl"] for r in ladder.get(name, [])], per_seed=False),
             (ladder.get(name) or [{}])[0].get("metrics", {}).get("params", "")] for name in LADDER_ROWS]
    out.append(("The ladder (held-out perplexity; the chapter's table is not in the text, its quoted rows are)",
                _table(["row", "the chapter", "ours: held-out", "ours: train", "parameters"], rows)))
    out.append(("GPT-2 small, parameter by parameter", _table(fig_header, _figure_rows(
        merged, "params.gpt2_small", "params.block_formula", "params.published_size", key="row"))))
    norm, chapter_norm = _runs("norm", results_dir), figures("norm")
    def best(rs):                       # the best held-out checkpoint, where the run recorded its curve
        b = [r["metrics"]["best_held_out"] for r in rs if "best_held_out" in r.get("metrics", {})]
        return ", ".join(f"{x['val_ppl_subset']:.2f} at step {x['step']}" for x in b) or "not recorded"
    rows = [[name, chapter_norm.get(name), over_seeds(val(norm.get(name, [])), per_seed=False), over_seeds([r["train_ppl"] for r in norm.get(name, [])], per_seed=False),
             best(norm.get(name, []))] for name in ("prenorm", "prenorm_warmup", "postnorm", "postnorm_warmup")]
    stopped = _runs("errata", results_dir).get(PRENORM_STOPPED, [])     # the early-stopped reading (errata.py)
    if stopped:
        rows.append([f"prenorm stopped at step {PRENORM_STOP_AT} (an alternative reading, not a verdict)",
                     chapter_norm["prenorm"], over_seeds(val(stopped), per_seed=False), over_seeds([r["train_ppl"] for r in stopped], per_seed=False),
                     "(stopped there)"])
    out.append(("Pre-norm vs post-norm, twelve blocks (held-out perplexity after 1000 steps)",
                _table(["run", "the chapter", "ours: held-out", "ours: train",
                        "ours: best held-out checkpoint (64-window subset)"], rows)))
    out.append(("The gradient profile at initialisation", _table(fig_header, _figure_rows(merged, "norm.grad_profile"))))
    # positions: every scheme at every window, from the figure rows the positions tests recorded
    per = {}
    for t in _tests(merged, "positions.learned_cliff"):
        m = (t["records"][0] if t.get("records") else {}).get("measured")
        if isinstance(m, dict) and "learned" in m:
            per = m
    rows = [[scheme] + [over_seeds([run.get(str(T), run.get(T)) for run in runs], per_seed=False) for T in (64, 128, 256)]
            for scheme, runs in per.items()]
    alibi = figures("positions")
    rows += [["alibi, the chapter", alibi["alibi_64"], "not stated", alibi["alibi_256"]]]
    out.append(("Positions: trained at 64, evaluated at 64, 128 and 256 (held-out perplexity)",
                _table(["scheme", "64", "128", "256"], rows or [["not run", "", "", ""]])))
    cost_path = results_dir / "cost_cpu.json"
    ours = {r["n"]: r for r in json.loads(cost_path.read_text())["rows"]} if cost_path.exists() else {}
    theirs = chapter_cost_table(chapter) or {n: dict.fromkeys(("ms x4", "attn MB", "peak MB", "MB x4"), missing)
                                             for n in ours}
    rows = [[n, t["ms x4"], f"{ours[n]['ms'] / ours[n // 2]['ms']:.2f}" if n in ours and n // 2 in ours else "",
             t["attn MB"], ours.get(n, {}).get("score_mb", ""), t["peak MB"], ours.get(n, {}).get("peak_mb", ""),
             t["MB x4"], f"{ours[n]['peak_mb'] / ours[n // 2]['peak_mb']:.2f}" if n in ours and n // 2 in ours else ""]
            for n, t in theirs.items()]
    out.append((("The cost of one attention layer (the chapter: a laptop GPU; ours: the CPU, one thread; the "
                "chapter reads its ms columns for their ratios only)"),
                _table(["n", "ms x4: chapter", "ms x4: ours", "attn MB: chapter", "ours", "peak MB: chapter",
                        "ours", "MB x4: chapter", "ours"], rows)))
    wino = _runs("winograd", results_dir)
    stated = {f"winograd_{k}": v for k, v in figures("winograd").items()
              if k.startswith(("cheatable_", "hardened_")) and not k.endswith("wrong_noun")}
    rows = [[name.replace("winograd_", "").replace("_", " "), f"{100 * s:.1f} %",
             over_seeds([100 * r["metrics"]["accuracy"] for r in wino.get(name, [])], per_seed=False),
             over_seeds([100 * r["metrics"]["wrong_noun"] for r in wino.get(name, [])], per_seed=False)] for name, s in stated.items()]
    out.append(("Winograd: held-out referent accuracy, % (wrong noun: the other noun of the pair named)",
                _table(["model", "the chapter", "ours: accuracy", "ours: wrong noun"], rows)))
    maps = results_dir / "winograd_attention.txt"
    out.append(("The two attention maps (block rows at the referent position, averaged over heads)",
                "The chapter:\n\n" + md_fence(missing or chapter_maps(chapter)) + "\n\nOurs (seed 0):\n\n"
                + md_fence(maps.read_text().rstrip() if maps.exists() else "not run")
                + "\n\nEvery printed cell "
                + "as a figure over all seeds:\n\n" + _table(fig_header, [r for r in _figure_rows(
                    merged, "winograd.block1_first_noun", "winograd.block2_routing") if r[1] not in (0, 0.0)])))
    return out


def _fence(line: str, fence: str | None) -> str | None:
    """The fence a line opens (outside a code block) or closes (inside one, its own fence), else None."""
    if fence is None:
        return line[:len(line) - len(line.lstrip("`"))] if line.startswith("```") else None
    return fence if line.strip() == fence else None


def _escaped(body: str) -> str:
    """A table's Markdown with every string outside its code blocks escaped (markdown.py md): a
    cell or a line from a file cannot open HTML; a code block is shown as it is."""
    out, fence = [], None
    for line in body.split("\n"):
        edge = _fence(line, fence)
        out.append(line if edge or fence else md(line))
        if edge:
            fence = None if fence else edge
    return "\n".join(out)


def render(tables: list[tuple[str, str]]) -> str:
    lines = ["# The chapter's tables, beside ours", "",
             ("Built by `python -m claims.report` from the merged report and results/; the chapter's columns "
             "come from its text or from the figures the tests state. ± is one seed-to-seed sd, (n) the seeds."), ""]
    for title, body in tables:
        lines += [f"## {md(title)}", "", _escaped(body), ""]
    return "\n".join(lines)


def render_html(tables: list[tuple[str, str]]) -> str:
    """The same tables as an index.html section (markdown tables to <table>, code blocks to <pre>)."""
    import html
    parts = ["<h2 id='tables'>The chapter's tables, beside ours</h2>"]
    for title, body in tables:
        parts.append(f"<h3>{html.escape(title)}</h3>")
        rows, fence, code = [], None, []
        for line in body.splitlines() + [""]:
            edge = _fence(line, fence)
            if edge:
                if fence:
                    parts.append(f"<pre>{html.escape(chr(10).join(code))}</pre>")
                    code = []
                fence = None if fence else edge
                continue
            if fence:
                code.append(line)
            elif line.startswith("|"):
                if not set(line) <= set("|-"):
                    rows.append([c.strip().replace("\\|", "|") for c in line.strip("|").split(" | ")])
            else:
                if rows:
                    head, *rest = rows
                    parts.append("<table class='chapter-table'><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in head)
                                 + "</tr>" + "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>"
                                                     for r in rest) + "</table>")
                    rows = []
                if line.strip():
                    parts.append(f"<p>{html.escape(line)}</p>")
    return "\n".join(parts)
