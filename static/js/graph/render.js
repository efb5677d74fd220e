// State → the look of the graph: which boxes exist yet, which node is working, what gradient
// rides on which edge, what was freed. Only classes change on the server's SVG (so repainting
// a step touches nothing that did not change); numbers go into an overlay group.
import { edgeBetween } from './layout.js';
import { short } from '../format.js';
import { createValueRows } from './values.js';
import { createChangeTracker } from './changes.js';

/** @typedef {import('./layout.js').GraphIndex} GraphIndex */
/** @typedef {import('../trace.js').State} State */

const SVG_NS = 'http://www.w3.org/2000/svg';

function svgEl(tag, attrs, text) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

const PILL_H = 17;
const CHAR_PX = 6.4;      // the pills' 10.5 px monospace font, one character

function pillWidth(text) {
  // a CJK character ("反向传播的起点") takes about two monospace cells
  const wide = (text.match(/[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/g) || []).length;
  return Math.max(18, (text.length + wide) * CHAR_PX + 10);
}

/** A label with a backing pill, centred on (x, y), so numbers stay readable over lines. */
function pill(x, y, text, cls, full) {
  const g = svgEl('g', { class: `gs-pill ${cls}`, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` });
  const width = pillWidth(text);
  g.append(svgEl('rect', { x: -width / 2, y: -PILL_H / 2, width, height: PILL_H, rx: PILL_H / 2 }));
  g.append(svgEl('text', { x: 0, y: 4, 'text-anchor': 'middle' }, text));
  if (full && full !== text) g.append(svgEl('title', {}, full));
  return g;
}

const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Creates a renderer bound to one graph; `render(state, view)` repaints one step. A view may
 * draw one iteration's boxes for another's (docs/layout.md, iteration views): `view.actual`
 * maps a drawn id to the id in the state, `view.drawn` the other way. `rows`: the value
 * rows made ahead (values.js, rowSteps), if they were.
 * @param {any} index a GraphIndex @param {Map<string, Object>} [rows]
 */
export function createRenderer(index, rows) {
  const applied = new Map();
  const points = new Map();
  const boxes = new Map();
  const values = createValueRows(index, rows);
  const changes = createChangeTracker(index);
  const edgeInfo = new Map(index.edgeList.map((e) => [e.id, e]));
  let labels = null;        // the edges' own text (×2) and group titles, which pills must not cover
  let rects = null;         // every box, a little larger

  const setClass = (el, extra) => {
    const cls = extra ? `${index.baseClass.get(el)} ${extra}` : index.baseClass.get(el);
    if (applied.get(el) !== cls) { el.setAttribute('class', cls); applied.set(el, cls); }
  };

  const pointOn = (el, t) => {
    const key = `${el.id}@${t}`;
    if (!points.has(key)) {
      const path = el.querySelector('path');
      if (index.reveal) index.reveal(el);    // a culled arrow is measured drawn (graph/culling.js)
      let point = { x: 0, y: 0 };
      if (path && path.getTotalLength) point = path.getPointAtLength(path.getTotalLength() * t);
      points.set(key, { x: point.x, y: point.y });
    }
    return points.get(key);
  };

  // from the layout, not the element, which may not be drawn (graph/culling.js)
  const box = (id) => {
    if (!boxes.has(id)) {
      const b = index.nodes.has(id) ? index.boxes[id] : null;
      const o = index.offset;
      boxes.set(id, b ? { x: b.x - o.x - b.w / 2, y: b.y - o.y - b.h / 2, width: b.w, height: b.h } : null);
    }
    return boxes.get(id);
  };

  const edgeLabels = () => {
    if (!labels || index.reveal) {   // a culled picture measures what is drawn now
      labels = [];
      const texts = [...index.edges.values()].map((el) => el.querySelector('text'))
        .concat([...index.scene.querySelectorAll('.cluster > text')]);
      for (const t of texts) {
        const b = t && t.getBBox ? t.getBBox() : null;
        if (b && (b.width || b.height)) labels.push({ x: b.x, y: b.y, w: b.width, h: b.height });
      }
    }
    return labels;
  };

  /** Is a pill of this rect free of boxes, edge labels, placed pills and the picture's edge? */
  function free(rect, placed) {
    const m = 12;   // the viewport keeps 14 units of room around the layout
    const lo = { x: -index.offset.x - m, y: -index.offset.y - m };
    if (rect.x < lo.x || rect.y < lo.y || rect.x + rect.w > lo.x + index.width + 2 * m
      || rect.y + rect.h > lo.y + index.height + 2 * m) return false;
    const o = index.offset;
    if (!rects) rects = Object.values(index.boxes).map((b) => ({ x: b.x - o.x - b.w / 2 - 2, y: b.y - o.y - b.h / 2 - 2, w: b.w + 4, h: b.h + 4 }));
    if (rects.some((r) => overlaps(rect, r))) return false;
    return !edgeLabels().some((r) => overlaps(rect, r)) && !placed.some((r) => overlaps(rect, r));
  }

  /** The first spot among `spots` where a pill of `texts[k]` fits, trying shorter texts. */
  function place(spots, texts, placed) {
    for (const text of texts) {
      const w = pillWidth(text);
      for (const p of spots) {
        const rect = { x: p.x - w / 2, y: p.y - PILL_H / 2, w, h: PILL_H };
        if (free(rect, placed)) { placed.push(rect); return { ...p, text }; }
      }
    }
    return null;   // nowhere free: better no pill than one over the picture (the sentence has it)
  }

  const ALONG = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8];
  const around = (b, text) => {
    const w = pillWidth(text);
    return [{ x: b.x + b.width + w / 2 + 6, y: b.y + b.height / 2 },
      { x: b.x - w / 2 - 6, y: b.y + b.height / 2 },
      { x: b.x + b.width / 2, y: b.y + b.height + PILL_H / 2 + 4 },
      { x: b.x + b.width / 2, y: b.y - PILL_H / 2 - 4 }];
  };

  /**
   * @param {State} state
   * @param {{selected?:string|null, actual?:(id:string)=>string, drawn?:(id:string)=>string,
   *   isBox?:(id:string)=>boolean, rootWord?:string, chain?:({to:string, formula:string}|null)}} view
   */
  function render(state, view = {}) {
    const actual = view.actual || ((id) => id);
    const drawn = view.drawn || ((id) => id);
    const roots = new Set(state.pass ? state.pass.roots : []);
    const errorNode = state.error && state.error.node;
    const fresh = new Set(state.fresh || []);
    // only what this step changed (graph/changes.js), or everything on a new picture
    const marks = [state.active, ...fresh, ...roots, errorNode, view.selected,
      ...state.flows.flatMap((f) => [f.from, f.to])].filter(Boolean).map(drawn);
    const dirty = changes.since(state, { actual }, marks);
    for (const shown of dirty ? dirty.nodes : index.nodes.keys()) {
      const el = index.nodes.get(shown);
      if (!el) continue;
      const id = actual(shown);
      const tensor = state.tensors[id];
      const node = state.nodes[id];
      if (view.isBox && view.isBox(shown)) {
        // a module drawn as one box (compact picture) or a chain's folded middle (windowed
        // picture): there once its first box is, working while the step works anywhere inside
        // it, new while the step makes something inside it
        const on = [state.active, errorNode].filter(Boolean).map(drawn);
        const made = [...fresh].map(drawn);
        setClass(el, [!tensor && !node ? 'is-future' : '', on.includes(shown) ? 'is-active' : '',
          made.includes(shown) ? 'is-new' : ''].filter(Boolean).join(' '));
        continue;
      }
      const extra = [];
      if (!tensor && !node) extra.push('is-future');
      if (state.active === id) extra.push('is-active');
      if (fresh.has(id)) extra.push('is-new');
      if (node && node.freed) extra.push('is-freed');
      if ((node && node.in_backward) || (tensor && tensor.in_backward)) extra.push('is-in-backward');
      if (errorNode === id) extra.push('is-error');
      if (view.selected === id) extra.push('is-selected');
      if (tensor && state.grads[id]) extra.push('has-grad');
      if (tensor && state.tangents && state.tangents[id]) extra.push('has-tangent');
      if (roots.has(id)) extra.push('is-root');
      setClass(el, extra.join(' '));
    }
    const flowing = new Map();
    for (const f of state.flows) {
      const el = edgeBetween(index, drawn(f.from), drawn(f.to));
      if (el) flowing.set(el, f);
    }
    for (const e of dirty ? [...dirty.edges].map((id) => edgeInfo.get(id)) : index.edgeList) {
      const el = index.edges.get(e.id);
      if (!el) continue;
      const from = actual(e.from);
      const to = actual(e.to);
      const present = (state.tensors[from] || state.nodes[from]) && (state.tensors[to] || state.nodes[to]);
      const f = flowing.get(el);
      setClass(el, !present ? 'is-future' : f ? `is-flow is-flow-${f.role}` : '');
    }
    values.paint(state, actual, dirty && dirty.nodes);
    drawOverlay(state, flowing, drawn, view.rootWord, view.chain || null);
  }

  function drawOverlay(state, flowing, drawn, rootWord, chain) {
    const overlay = index.overlay;
    overlay.replaceChildren();
    const placed = [];
    // where paths meet, the incoming pill spells out the sum of the partial contributions
    const parts = state.merged ? state.merged.map((a) => short(a.grad, 3)).join(' + ') : null;
    for (const [el, f] of flowing) {
      if (!f.grad) continue;
      const full = short(f.grad, 4);
      let texts = [full, short(f.grad, 2), short(f.grad, 1)];
      if (f.role === 'acc') texts = [parts && parts.length < 24 ? `+ (${parts})` : `+ ${full}`, ...texts.slice(1).map((t) => `+ ${t}`)];
      if (f.role === 'in' && parts) {
        // a long sum would cover the picture: then only how many paths, the sentence has all
        const sum = `Σ ${parts} = ${short(f.grad, 3)}`;
        texts = [sum.length > 36 ? `Σ(${state.merged.length}) = ${short(f.grad, 3)}` : sum, `Σ = ${short(f.grad, 1)}`];
      }
      const at = place(ALONG.map((t) => pointOn(el, t)), [...new Set(texts)], placed);
      if (at) overlay.append(pill(at.x, at.y, at.text, `gs-pill-flow gs-pill-${f.role}${f.role === 'in' && parts ? ' gs-pill-sum' : ''}`, texts[0]));
    }
    // the picked element's chain rule, on the edge it is sent along (or beside the box that
    // receives it when that edge is too short to hold it)
    const sentAlong = chain ? [...flowing].find(([, f]) => f.role === 'out' && f.from === chain.to) : null;
    const to = chain ? box(drawn(chain.to)) : null;
    if (sentAlong && to) {
      const texts = [chain.formula, chain.formula.replace(/^[^:]*: /, '')];
      const spots = [...ALONG.map((t) => pointOn(sentAlong[0], t)), ...around(to, texts[0])];
      const at = place(spots, texts, placed);
      if (at) overlay.append(pill(at.x, at.y, at.text, 'gs-pill-chain', texts[0]));
    }
    const ev = state.event;
    const acc = ev && ev.kind === 'accumulate' && ev.node ? box(drawn(ev.node)) : null;
    if (acc) {
      const text = `${short(ev.before, 3)} + ${short(ev.added, 3)} = ${short(ev.after, 3)}`;
      const texts = [text, `${short(ev.before, 1)} + ${short(ev.added, 1)} = ${short(ev.after, 1)}`];
      const at = place(around(acc, text), texts, placed);
      if (at) overlay.append(pill(at.x, at.y, at.text, 'gs-pill-acc', text));
    }
    // forward mode: the tangent the op just pushed forward, at its output (violet, not green)
    const tan = ev && ev.kind === 'op' && ev.tangent ? box(drawn(ev.output.id)) : null;
    if (tan) {
      const texts = [`ṫ ${short(ev.tangent, 4)}`, `ṫ ${short(ev.tangent, 2)}`, 'ṫ'];
      const at = place(around(tan, texts[0]), texts, placed);
      if (at) overlay.append(pill(at.x, at.y, at.text, 'gs-pill-tangent', texts[0]));
    }
    // an in-place op: the tensor's version counter moves on by one (what saved tensors check)
    const bumped = ev && ev.kind === 'inplace' ? box(drawn(ev.tensor)) : null;
    if (bumped) {
      const text = `v${ev.version - 1} → v${ev.version}`;
      const at = place(around(bumped, text), [text, `v${ev.version}`], placed);
      if (at) overlay.append(pill(at.x, at.y, at.text, 'gs-pill-version', text));
    }
    // a hook of the program: what it received and gave back, at the tensor it is on
    const hooked = ev && ev.kind === 'hook' && ev.tensors.length === 1 ? box(drawn(ev.tensors[0])) : null;
    if (hooked) {
      const got = ev.received[0] ? short(ev.received[0], 3) : '—';
      const gave = ev.returned && ev.returned[0] ? short(ev.returned[0], 3) : got;
      const texts = [`hook ${got} → ${gave}`, `hook → ${ev.returned && ev.returned[0] ? short(ev.returned[0], 1) : got}`, 'hook'];
      const at = place(around(hooked, texts[0]), texts, placed);
      if (at) overlay.append(pill(at.x, at.y, at.text, 'gs-pill-hook', texts[0]));
    }
    // where backward starts: the root, said in words while the pass begins
    if (ev && ev.kind === 'backward_begin' && rootWord) {
      for (const r of ev.roots) {
        const b = box(drawn(r));
        if (!b) continue;
        const at = place(around(b, rootWord), [rootWord, '▲'], placed);
        if (at) overlay.append(pill(at.x, at.y, at.text, 'gs-pill-root', rootWord));
      }
    }
    const err = state.error && state.error.node ? box(drawn(state.error.node)) : null;
    if (err) {
      const text = `⚠ ${state.error.type}`;
      const at = place(around(err, text), [text, '⚠'], placed);
      if (at) overlay.append(pill(at.x, at.y, at.text, 'gs-pill-error', text));
    }
  }

  return { render, box };
}
