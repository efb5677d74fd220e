// The whole run at a glance above the step controls: a thin strip in which forward steps,
// backward passes, output and errors are bands of their own colour and height, with a marker
// at the current step; a click jumps there. Runs of one phase are merged into one band, so a
// 20 000-step trace still draws a handful of rectangles.
import { h } from '../dom.js';

const PHASE = {
  backward_begin: 'backward', node_apply: 'backward', accumulate: 'backward',
  graph_freed: 'backward', backward_end: 'backward', error: 'error', elided: 'elided',
  optimizer_step: 'update', grad_reset: 'update', optimizer_update: 'update', zero_grad: 'update',
  lr_step: 'update',
};

/** [{phase, from, to}] runs of consecutive events of one phase (pure). */
export function phases(events) {
  const out = [];
  events.forEach((ev, i) => {
    // a library step (a module built on the learner's line) is part of the forward program
    const library = ev.kind === 'elided' && ev.reason === 'library';
    const phase = (!library && PHASE[ev.kind]) || (ev.kind === 'op' && ev.in_backward ? 'backward' : 'forward');
    const last = out[out.length - 1];
    if (last && last.phase === phase) last.to = i;
    else out.push({ phase, from: i, to: i });
  });
  return out;
}

/**
 * @param {HTMLElement} el the strip's container
 * @param {Object|null} trace
 * @param {(index:number)=>void} onPick
 */
export function drawTimeline(el, trace, onPick) {
  el.replaceChildren();
  el.hidden = !trace;
  if (!trace) return;
  const n = trace.events.length;
  const bands = phases(trace.events).map((b) => h('svg:rect', {
    x: b.from, width: b.to - b.from + 1, y: 0, height: 1, class: `tl-${b.phase}`,
  }));
  const svg = h('svg:svg', { viewBox: `0 0 ${n} 1`, preserveAspectRatio: 'none', class: 'tl-bands',
    'aria-hidden': 'true' }, bands);
  const marker = h('span', { class: 'tl-marker', 'aria-hidden': 'true' });
  el.append(svg, marker);
  el.onclick = (e) => {
    const r = el.getBoundingClientRect();
    onPick(Math.min(n - 1, Math.max(0, Math.floor(((e.clientX - r.left) / r.width) * n))));
  };
}

/** Move the marker to the current step (a transform: no layout). */
export function markTimeline(el, index, n) {
  const marker = el.querySelector('.tl-marker');
  if (marker && n) marker.style.left = `${((index + 0.5) / n) * 100}%`;
}
