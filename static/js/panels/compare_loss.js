// The loss points of two runs in one small plot: the earlier run dashed, the later one solid,
// each point of the later run that differs drawn as a ring (shape, not colour alone), and a
// line at the pass the shared step has reached.
import { h, fill } from '../dom.js';
import { tr } from '../i18n.js';
import { compact } from '../graph/values.js';

const W = 320;
const H = 92;
const PAD = { l: 44, r: 8, t: 8, b: 18 };

/**
 * @param {HTMLElement} host
 * @param {Array<{pass:number, a:(number|null), b:(number|null), differs:boolean}>} points
 * @param {number|null} pass the pass of the shared step (null before any)
 * @param {Object} S the string table
 */
export function renderCompareLoss(host, points, pass, S) {
  if (!points.length) {
    fill(host, h('p', { class: 'compare-loss-empty' }, tr(S, 'compare_loss_none')));
    return;
  }
  const ys = points.flatMap((p) => [p.a, p.b]).filter((v) => v !== null && Number.isFinite(v));
  let lo = Math.min(...ys);
  let hi = Math.max(...ys);
  if (!(hi > lo)) { lo -= 1; hi += 1; }
  const n = Math.max(1, points.length - 1);
  const x = (i) => PAD.l + ((W - PAD.l - PAD.r) * i) / n;
  const y = (v) => PAD.t + ((H - PAD.t - PAD.b) * (hi - v)) / (hi - lo);
  const line = (which) => points.map((p, i) => (p[which] === null || !Number.isFinite(p[which]) ? null
    : `${x(i).toFixed(1)},${y(p[which]).toFixed(1)}`)).filter(Boolean).join(' ');
  const svg = h('svg:svg', { viewBox: `0 0 ${W} ${H}`, class: 'compare-loss-plot', role: 'img',
    'aria-label': tr(S, 'compare_loss_aria', { n: points.filter((p) => p.differs).length, total: points.length }) },
  h('svg:line', { class: 'axis', x1: PAD.l, y1: H - PAD.b, x2: W - PAD.r, y2: H - PAD.b }),
  h('svg:text', { class: 'tick', x: PAD.l - 4, y: PAD.t + 8, 'text-anchor': 'end' }, compact(hi)),
  h('svg:text', { class: 'tick', x: PAD.l - 4, y: H - PAD.b, 'text-anchor': 'end' }, compact(lo)),
  h('svg:polyline', { class: 'curve-a', points: line('a') }),
  h('svg:polyline', { class: 'curve-b', points: line('b') }));
  points.forEach((p, i) => {
    if (p.b === null || !Number.isFinite(p.b)) return;
    svg.append(h('svg:circle', { class: p.differs ? 'dot-b is-differs' : 'dot-b', cx: x(i), cy: y(p.b),
      r: p.differs ? 4 : 2.5 }));
  });
  const at = pass === null ? -1 : points.findIndex((p) => p.pass === pass);
  if (at >= 0) svg.append(h('svg:line', { class: 'compare-loss-now', x1: x(at), x2: x(at), y1: PAD.t, y2: H - PAD.b }));
  const now = at >= 0 ? points[at] : null;
  fill(host, svg,
    h('p', { class: 'compare-loss-key' },
      h('span', { class: 'key-a' }, tr(S, 'compare_before')),
      h('span', { class: 'key-b' }, tr(S, 'compare_after')),
      now ? h('span', { class: 'compare-loss-now-text' }, tr(S, 'compare_loss_at', {
        n: now.pass + 1, a: now.a === null ? '—' : compact(now.a), b: now.b === null ? '—' : compact(now.b) })) : null));
}
