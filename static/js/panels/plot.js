// The loss curve: what the program drew with plt.plot (`series.plotted`), else the scalar root
// of every backward pass (the trace header's `series.roots`), or numbers a program printed each epoch (`series.printed`). Each run of a program that
// trains more than once is a curve of its own, labelled, on shared axes with titles; a log
// scale for losses that span decades; a marker at the current pass. A small SVG, so it scales
// and exports cleanly. The data side is plot_series.js.
import { h, fill } from '../dom.js';
import { tr } from '../i18n.js';
import { num } from '../format.js';
import { pickSeries, linearTicks, logTicks, logScaleFits } from './plot_series.js';

const W = 300;
const H = 178;
const CHAR = 6.2;            // width of a tick label's character at 10px monospace
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];

/** The run and point of pass `pass`, or null. */
function findPass(runs, pass) {
  for (let r = 0; r < runs.length; r++) {
    const i = runs[r].findIndex((p) => p[0] === pass);
    if (i >= 0) return { r, i };
  }
  return null;
}

/**
 * @param {HTMLElement} el @param {Object} trace @param {import('../trace.js').State} state
 * @param {(pass:number)=>void} [onPick] called with the pass nearest a click on the curve
 */
export function renderPlot(el, trace, state, S, onPick) {
  const panel = /** @type {HTMLElement|null} */ (el.closest('.panel'));
  const picked = trace ? pickSeries(trace.series, trace.events) : null;
  if (panel) panel.hidden = !picked;
  if (!picked) return fill(el, h('p', { class: 'empty' }, tr(S, 'plot_empty')));
  const roots = picked.source === 'roots';
  // roots: x is the iteration within its run, so runs start together and compare directly
  const curves = picked.runs.map((run) => run.map((p, i) => [roots ? i + 1 : p[0], p[1], p[0]]));
  const ys = curves.flat().map((p) => p[1]).filter(Number.isFinite);
  const xs = curves.flat().map((p) => p[0]);
  const scale = logScaleFits(ys);
  const log = scale.possible && (el.dataset.log ? el.dataset.log === '1' : scale.preferred);
  const fy = log ? Math.log10 : (y) => y;
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  const yTicks = log ? logTicks(y0, y1) : linearTicks(y0, y1);
  [y0, y1] = [Math.min(y0, yTicks[0]), Math.max(y1, yTicks.at(-1))];   // labelled ends
  const labelWidth = Math.max(...yTicks.map((t) => num(t).length)) * CHAR;
  const xTicks = linearTicks(x0, x1, 3).filter((t) => t >= x0 && t <= x1);
  // room for the y labels on the left and half the last x label on the right: never clipped
  const P = { l: 22 + labelWidth, r: Math.max(10, (num(xTicks.at(-1)).length * CHAR) / 2 + 3), t: 10, b: 40 };
  const sx = (x) => P.l + ((x - x0) / (x1 - x0 || 1)) * (W - P.l - P.r);
  const sy = (y) => H - P.b - ((fy(y) - fy(y0)) / (fy(y1) - fy(y0) || 1)) * (H - P.t - P.b);
  const s = (tag, attrs, ...kids) => h(`svg:${tag}`, attrs, ...kids);
  // plt.xlabel / ylabel (else the line's label) name the axes of a drawn figure; without
  // them, plain words: its x is whatever the program plotted against
  const plotted = picked.source === 'plotted';
  const xTitle = plotted ? picked.xlabel || tr(S, 'plot_x_plotted')
    : roots ? tr(S, 'plot_x_iteration') : tr(S, 'plot_x_printed', { line: picked.line });
  const yTitle = plotted ? picked.ylabel || picked.label || tr(S, 'plot_y_plotted')
    : roots ? tr(S, 'plot_y_loss') : tr(S, 'plot_y_printed');
  const kids = [
    s('line', { x1: P.l, y1: H - P.b, x2: W - P.r, y2: H - P.b, class: 'axis' }),
    s('line', { x1: P.l, y1: P.t, x2: P.l, y2: H - P.b, class: 'axis' }),
    ...yTicks.map((t) => s('g', { class: 'tick-y' },
      s('line', { x1: P.l - 3, x2: W - P.r, y1: sy(t), y2: sy(t), class: 'grid' }),
      s('text', { x: P.l - 5, y: sy(t) + 3.5, 'text-anchor': 'end', class: 'tick' }, num(t)))),
    ...xTicks.map((t) => s('text', { x: sx(t), y: H - P.b + 13, 'text-anchor': 'middle', class: 'tick' }, num(t))),
    s('text', { x: (P.l + W - P.r) / 2, y: H - 6, 'text-anchor': 'middle', class: 'axis-title' }, xTitle),
    s('text', { x: 10, y: (P.t + H - P.b) / 2, 'text-anchor': 'middle', class: 'axis-title',
      transform: `rotate(-90 10 ${(P.t + H - P.b) / 2})` }, yTitle),
  ];
  curves.forEach((curve, r) => {
    const d = curve.filter((p) => Number.isFinite(p[1]) && (!log || p[1] > 0))
      .map((p, i) => `${i ? 'L' : 'M'}${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`).join('');
    kids.push(s('path', { d, class: `curve curve-${r % DASHES.length}`, 'stroke-dasharray': DASHES[r % DASHES.length] || null }));
  });
  const current = state && (state.pass || state.lastPass);
  const at = roots && current ? findPass(picked.runs, current.pass) : null;
  if (at && Number.isFinite(curves[at.r][at.i][1])) {
    const p = curves[at.r][at.i];
    kids.push(s('circle', { cx: sx(p[0]), cy: sy(p[1]), r: 4, class: 'marker' }));
  }
  const many = curves.length > 1;
  const legend = many ? h('ul', { class: 'plot-legend' }, curves.map((c, r) => h('li', {},
    h('svg:svg', { viewBox: '0 0 24 8', width: 24, height: 8, 'aria-hidden': 'true' },
      s('line', { x1: 0, y1: 4, x2: 24, y2: 4, class: `curve curve-${r % DASHES.length}`, 'stroke-dasharray': DASHES[r % DASHES.length] || null })),
    tr(S, 'plot_run', { n: r + 1, first: num(c[0][1]), last: num(c.at(-1)[1]), count: c.length })))) : null;
  const caption = roots ? tr(S, 'plot_roots')
    : picked.source === 'plotted' ? (picked.title || tr(S, 'plot_plotted'))
      : tr(S, 'plot_printed', { line: picked.line });
  const summary = many ? tr(S, 'plot_runs', { n: curves.length })
    : tr(S, 'plot_summary', { n: curves[0].length, first: num(curves[0][0][1]), last: num(curves[0].at(-1)[1]) });
  const pick = (e) => {
    if (!onPick || !roots) return;
    const box = e.currentTarget.getBoundingClientRect();
    const [cx, cy] = [((e.clientX - box.left) / box.width) * W, ((e.clientY - box.top) / box.height) * H];
    // the point nearest in x on each curve, then the curve nearest in y
    let best = null;
    for (const curve of curves) {
      const ok = curve.filter((p) => Number.isFinite(p[1]));
      if (!ok.length) continue;
      const p = ok.reduce((a, q) => (Math.abs(sx(q[0]) - cx) < Math.abs(sx(a[0]) - cx) ? q : a));
      const d = Math.abs(sy(p[1]) - cy);
      if (!best || d < best.d) best = { d, pass: p[2] };
    }
    if (best) onPick(best.pass);
  };
  const toggle = scale.possible ? h('button', {
    type: 'button', class: 'btn btn-small plot-log', id: 'plot-log', 'aria-pressed': String(log),
    onclick: () => { el.dataset.log = log ? '0' : '1'; renderPlot(el, trace, state, S, onPick); },
  }, tr(S, 'plot_log')) : null;
  fill(el,
    s('svg', { viewBox: `0 0 ${W} ${H}`, class: `plot${onPick && roots ? ' is-pickable' : ''}`,
      role: 'img', 'aria-label': `${caption}: ${summary}`, onclick: pick }, kids),
    legend,
    h('div', { class: 'plot-foot' }, h('p', { class: 'note' }, `${caption} · ${summary}`), toggle));
}
