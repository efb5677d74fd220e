// State → the look of the graph: which boxes exist yet, which node is working, what gradient
// rides on which edge, what was freed. Only classes change on the server's SVG (so repainting
// a step touches nothing that did not change); numbers go into an overlay group.
import { edgeBetween } from './layout.js';
import { short } from '../format.js';

/** @typedef {import('./layout.js').GraphIndex} GraphIndex */
/** @typedef {import('../trace.js').State} State */

const SVG_NS = 'http://www.w3.org/2000/svg';

function svgEl(tag, attrs, text) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A label with a backing pill, centred on (x, y), so numbers stay readable over lines. */
function pill(x, y, text, cls) {
  const g = svgEl('g', { class: `gs-pill ${cls}`, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` });
  const width = Math.max(18, text.length * 6.2 + 10);
  g.append(svgEl('rect', { x: -width / 2, y: -8.5, width, height: 17, rx: 8.5 }));
  g.append(svgEl('text', { x: 0, y: 4, 'text-anchor': 'middle' }, text));
  return g;
}

/** Creates a renderer bound to one graph; `render(state, view)` repaints one step. */
export function createRenderer(index) {
  const applied = new Map();
  const midpoints = new Map();
  const boxes = new Map();

  const setClass = (el, extra) => {
    const cls = extra ? `${index.baseClass.get(el)} ${extra}` : index.baseClass.get(el);
    if (applied.get(el) !== cls) { el.setAttribute('class', cls); applied.set(el, cls); }
  };

  const midpoint = (el) => {
    if (!midpoints.has(el)) {
      const path = el.querySelector('path');
      let point = { x: 0, y: 0 };
      if (path && path.getTotalLength) point = path.getPointAtLength(path.getTotalLength() / 2);
      midpoints.set(el, { x: point.x, y: point.y });
    }
    return midpoints.get(el);
  };

  const box = (id) => {
    if (!boxes.has(id)) {
      const el = index.nodes.get(id);
      boxes.set(id, el && el.getBBox ? el.getBBox() : null);
    }
    return boxes.get(id);
  };

  /**
   * @param {State} state
   * @param {{selected?:string|null}} view
   */
  function render(state, view = {}) {
    const roots = new Set(state.pass ? state.pass.roots : []);
    const errorNode = state.error && state.error.node;
    const fresh = new Set(state.fresh || []);
    for (const [id, el] of index.nodes) {
      const tensor = state.tensors[id];
      const node = state.nodes[id];
      const extra = [];
      if (!tensor && !node) extra.push('is-future');
      if (state.active === id) extra.push('is-active');
      if (fresh.has(id)) extra.push('is-new');
      if (node && node.freed) extra.push('is-freed');
      if ((node && node.in_backward) || (tensor && tensor.in_backward)) extra.push('is-in-backward');
      if (errorNode === id) extra.push('is-error');
      if (view.selected === id) extra.push('is-selected');
      if (tensor && state.grads[id]) extra.push('has-grad');
      if (roots.has(id)) extra.push('is-root');
      setClass(el, extra.join(' '));
    }
    const flowing = new Map();
    for (const f of state.flows) {
      const el = edgeBetween(index, f.from, f.to);
      if (el) flowing.set(el, f);
    }
    for (const e of index.edgeList) {
      const el = index.edges.get(e.id);
      if (!el) continue;
      const present = (state.tensors[e.from] || state.nodes[e.from]) && (state.tensors[e.to] || state.nodes[e.to]);
      const f = flowing.get(el);
      setClass(el, !present ? 'is-future' : f ? `is-flow is-flow-${f.role}` : '');
    }
    drawOverlay(state, flowing);
  }

  function drawOverlay(state, flowing) {
    const overlay = index.overlay;
    overlay.replaceChildren();
    // gradients already stored in leaves: visible at every step after they arrive
    for (const [id, grad] of Object.entries(state.grads)) {
      const b = grad && index.nodes.has(id) ? box(id) : null;
      if (b) overlay.append(pill(b.x + b.width / 2, b.y - 9, `grad ${short(grad, 4)}`, 'gs-pill-grad'));
    }
    // where paths meet, the incoming pill spells out the sum of the partial contributions
    const parts = state.merged ? state.merged.map((a) => short(a.grad, 3)).join(' + ') : null;
    for (const [el, f] of flowing) {
      if (!f.grad) continue;
      const m = midpoint(el);
      let text = short(f.grad, 4);
      if (f.role === 'acc') text = parts && parts.length < 24 ? `+ (${parts})` : `+ ${text}`;
      if (f.role === 'in' && parts) {
        // a long sum would cover the picture: then only how many paths, the sentence has all
        text = `Σ ${parts} = ${short(f.grad, 3)}`;
        if (text.length > 36) text = `Σ(${state.merged.length}) = ${short(f.grad, 3)}`;
      }
      overlay.append(pill(m.x, m.y, text, `gs-pill-flow gs-pill-${f.role}${f.role === 'in' && parts ? ' gs-pill-sum' : ''}`));
    }
    const ev = state.event;
    if (ev && ev.kind === 'accumulate' && ev.node && box(ev.node)) {
      const b = box(ev.node);
      const text = `${short(ev.before, 3)} + ${short(ev.added, 3)} = ${short(ev.after, 3)}`;
      overlay.append(pill(b.x + b.width / 2, b.y + b.height + 12, text, 'gs-pill-acc'));
    }
    const err = state.error && state.error.node;
    if (err && box(err)) {
      const b = box(err);
      overlay.append(pill(b.x + b.width / 2, b.y + b.height + 11, `⚠ ${state.error.type}`, 'gs-pill-error'));
    }
  }

  return { render, box };
}
