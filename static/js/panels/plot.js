// The loss curve: what the program drew with matplotlib's plt.plot (`series.plotted`), else
// the scalar root of every backward pass (the trace header's `series.roots`), or numbers a
// program printed each epoch (`series.printed`), with a marker at the pass the current step
// belongs to. Drawn as a small SVG so it scales and exports cleanly.
import { h, fill } from '../dom.js';
import { tr } from '../i18n.js';
import { num } from '../format.js';

// A handful of backward passes (a lesson calling backward() twice) is not a training curve.
const MIN_PASSES = 5;

/** The curve worth plotting: [[x, y], …] and what it is, or null. */
export function pickSeries(series) {
  if (!series) return null;
  // the program's own plot says what it meant to show: its first line, with its words
  const fig = (series.plotted || []).find((f) => f.lines.some((l) => l.rows.length >= 2));
  if (fig) {
    const line = fig.lines.find((l) => l.rows.length >= 2);
    return { points: line.rows, source: 'plotted', title: fig.title || line.label || null };
  }
  if (series.roots && series.roots.length >= MIN_PASSES) return { points: series.roots, source: 'roots' };
  const printed = (series.printed || []).find((p) => p.rows.length >= 3 && p.rows[0].length >= 1);
  if (!printed) return null;
  const points = printed.rows.map((r, i) => (r.length >= 2 ? [r[0], r[r.length - 1]] : [i, r[0]]));
  return { points, source: 'printed', line: printed.line };
}

/**
 * @param {HTMLElement} el @param {Object} trace @param {import('../trace.js').State} state
 * @param {(pass:number)=>void} [onPick] called with the pass nearest a click on the curve
 */
export function renderPlot(el, trace, state, S, onPick) {
  const panel = /** @type {HTMLElement|null} */ (el.closest('.panel'));
  const picked = trace ? pickSeries(trace.series) : null;
  if (panel) panel.hidden = !picked;
  if (!picked) return fill(el, h('p', { class: 'empty' }, tr(S, 'plot_empty')));
  const { points } = picked;
  const W = 280;
  const H = 130;
  const P = { l: 40, r: 8, t: 8, b: 22 };
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]).filter(Number.isFinite);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  const sx = (x) => P.l + ((x - x0) / (x1 - x0 || 1)) * (W - P.l - P.r);
  const sy = (y) => H - P.b - ((y - y0) / (y1 - y0 || 1)) * (H - P.t - P.b);
  const d = points.filter((p) => Number.isFinite(p[1]))
    .map((p, i) => `${i ? 'L' : 'M'}${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`).join('');
  const s = (tag, attrs, ...kids) => h(`svg:${tag}`, attrs, ...kids);
  const kids = [
    s('line', { x1: P.l, y1: H - P.b, x2: W - P.r, y2: H - P.b, class: 'axis' }),
    s('line', { x1: P.l, y1: P.t, x2: P.l, y2: H - P.b, class: 'axis' }),
    s('text', { x: P.l - 4, y: P.t + 8, 'text-anchor': 'end', class: 'tick' }, num(y1)),
    s('text', { x: P.l - 4, y: H - P.b, 'text-anchor': 'end', class: 'tick' }, num(y0)),
    s('text', { x: P.l, y: H - 6, class: 'tick' }, num(x0)),
    s('text', { x: W - P.r, y: H - 6, 'text-anchor': 'end', class: 'tick' }, num(x1)),
    s('path', { d, class: 'curve' }),
  ];
  const current = state && (state.pass || state.lastPass);
  if (picked.source === 'roots' && current) {
    const hit = points.find((p) => p[0] === current.pass);
    if (hit && Number.isFinite(hit[1])) {
      kids.push(s('circle', { cx: sx(hit[0]), cy: sy(hit[1]), r: 4, class: 'marker' }));
    }
  }
  const caption = picked.source === 'roots' ? tr(S, 'plot_roots')
    : picked.source === 'plotted' ? (picked.title || tr(S, 'plot_plotted'))
      : tr(S, 'plot_printed', { line: picked.line });
  const summary = tr(S, 'plot_summary', { n: points.length, first: num(points[0][1]), last: num(points.at(-1)[1]) });
  const pick = (e) => {
    if (!onPick || picked.source !== 'roots') return;
    const r = e.currentTarget.getBoundingClientRect();
    const x = x0 + ((((e.clientX - r.left) / r.width) * W - P.l) / (W - P.l - P.r)) * (x1 - x0);
    const nearest = points.reduce((a, p) => (Math.abs(p[0] - x) < Math.abs(a[0] - x) ? p : a));
    onPick(nearest[0]);
  };
  fill(el,
    s('svg', { viewBox: `0 0 ${W} ${H}`, class: `plot${onPick && picked.source === 'roots' ? ' is-pickable' : ''}`,
      role: 'img', 'aria-label': `${caption}: ${summary}`, onclick: pick }, kids),
    h('p', { class: 'note' }, `${caption} · ${summary}`));
}
