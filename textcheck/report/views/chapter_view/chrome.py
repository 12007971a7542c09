"""The chapter view's page chrome, its reading aids beside its marks (html.py): the style of the
contents and the section markers (contents.py), the keys to the refuted figures and their hint,
the permalinks, and the print stylesheet.

- Keys: n or j focuses the next refuted figure in the text, p or k the previous one (wrapping
  around); focus opens its tooltip (the marks' :focus rule).  A small fixed hint names the keys
  and says which refuted figure is focused ("3 of 26").  Ignored with Ctrl, Alt or Meta held.
- Permalinks: each mark's id is fig-<figure ID>; chapter.html#fig-<figure ID> focuses that mark,
  which opens its tooltip, when the page loads with that hash and on every hash change.
- Print: no colour is needed to tell the verdicts apart.  Each kind of mark has its own border
  (holds: a thin underline; refuted: a box, bold; fails: a double box, bold; stale: a dotted
  underline; not run: a dashed underline; device-specific: a double underline) besides its
  symbol, in black on white.  Tooltips are not printed, the hint and the badges neither; each
  refuted or failing mark prints our measurement after it, in brackets, as a footnote would.  A
  sentence's mark prints as a black bar, its claims' symbols after it in black.
"""
from __future__ import annotations

CSS = """
nav#toc{font-family:sans-serif;font-size:14px;margin:1em 0;padding:.5em .8em;border:1px solid #ddd;background:#fafafa}
nav#toc ol{margin:.3em 0 0;padding-left:1.6em;columns:2;column-gap:2em}nav#toc li{break-inside:avoid;margin:.1em 0}
nav#toc .tally{font-size:12px;color:#555;white-space:nowrap}nav#toc .n{margin-left:.35em}
nav#toc .n.holds{color:#2e7d32}nav#toc .n.refuted{color:#c62828;font-weight:bold}nav#toc .n.fails{color:#8e0000}
nav#toc .n.stale{color:#6a1b9a}nav#toc .n.device-specific{color:#1565c0}
.sec-start{font:12px/1.3 sans-serif;color:#777;letter-spacing:.03em;margin:2.2em 0 .4em;border-top:1px solid #e4e4e4;padding-top:.3em}
.sec-start a{color:#999;text-decoration:none;margin-left:.3em}.sec-start.within{border-top:0;margin-top:1.4em}
nav#toc ul.within{margin:0;padding-left:1.2em;font-size:13px;list-style:circle}
#keys{position:fixed;right:.6em;bottom:.6em;z-index:20;font:12px/1.4 sans-serif;background:#fff;border:1px solid #bbb;
border-radius:4px;padding:.25em .6em;box-shadow:0 1px 4px rgba(0,0,0,.15);color:#333}
#keys kbd{font:11px monospace;border:1px solid #999;border-radius:3px;padding:0 .3em;background:#f4f4f4}
a.fig:target{outline:2px solid #333;outline-offset:1px}
main pre:has(a.fig:hover),main pre:has(a.fig:focus){overflow:visible}
@media print{
body{max-width:none;margin:0;padding:0;color:#000;font-size:10.5pt;line-height:1.45}
#keys,img.badge,.sec-start a,a.fig .tip{display:none !important}
header,nav#toc{border-color:#000;background:none}nav#toc ol{columns:2}
pre{background:none;border:.5pt solid #000;white-space:pre-wrap}
a,nav#toc .n,a.fig,a.fig .sym{color:#000 !important;background:none !important;text-decoration:none}
a.fig{border:0;border-radius:0;padding:0 1px}
a.fig.holds{border-bottom:1px solid #000}
a.fig.refuted{border:1.5pt solid #000;font-weight:bold}
a.fig.fails{border:3px double #000;font-weight:bold}
a.fig.stale{border-bottom:2px dotted #000}
a.fig.not-run{border-bottom:1px dashed #000}
a.fig.device-specific{border-bottom:3px double #000}
a.fig.undecided{border-bottom:1px dashed #000;border-top:1px dashed #000}
a.fig.underspecified{border:1px dotted #000;font-style:italic}
main a.fig.refuted[data-ours]::after,main a.fig.fails[data-ours]::after{content:" [ours: " attr(data-ours) "]";
font:normal 8pt sans-serif}
span.refuted-sentence{text-decoration:underline wavy #000}
span.asserts{border-left-color:#000 !important}sup.claims a,sup.claims span{color:#000 !important}
aside.suggested{background:none;border-left:3pt solid #000}
.sec-start{color:#000;border-color:#000}
}"""

KEYS_HINT = ("<div id='keys' role='note'><kbd>n</kbd> / <kbd>p</kbd> (or <kbd>j</kbd> / <kbd>k</kbd>): "
             "next / previous refuted figure <span id='keys-at' aria-live='polite'></span></div>")

JS = """<script id='reading-aids'>
(() => {
  const marks = [...document.querySelectorAll('main a.fig[data-figure]')];
  const order = new Map(marks.map((m, i) => [m, i]));
  const refuted = marks.filter(m => m.dataset.verdict === 'refuted');
  const at = document.getElementById('keys-at');
  function show(m) {
    m.focus({preventScroll: true});
    m.scrollIntoView({block: 'center'});
    const i = refuted.indexOf(m);
    if (at) at.textContent = i < 0 ? '' : '(' + (i + 1) + ' of ' + refuted.length + ')';
  }
  function step(dir) {
    if (!refuted.length) return;
    const here = order.has(document.activeElement) ? order.get(document.activeElement) : null;
    let next;
    if (here === null) next = dir > 0 ? refuted[0] : refuted[refuted.length - 1];
    else if (dir > 0) next = refuted.find(m => order.get(m) > here) || refuted[0];
    else next = [...refuted].reverse().find(m => order.get(m) < here) || refuted[refuted.length - 1];
    show(next);
  }
  document.addEventListener('keydown', e => {
    if (e.ctrlKey || e.altKey || e.metaKey || e.defaultPrevented) return;
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName || ''))) return;
    const dir = {n: 1, j: 1, p: -1, k: -1}[e.key];
    if (dir) { e.preventDefault(); step(dir); }
  });
  function fromHash() {
    let id = '';
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (err) { return; }
    const m = id && document.getElementById(id);
    if (m && order.has(m)) show(m);
  }
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
</script>"""
