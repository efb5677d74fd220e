// The chain rule at one backward step (docs/trace-format.md, section 16): for the element the
// learner picks, the engine's local derivatives, the upstream gradient and what the node sent,
// as `local × upstream = sent`; where paths meet, the contributions and their sum; and which
// in-place bump broke a saved tensor. Pure data code: every number comes from the trace (the
// node's local Jacobian, its grads_in and grads_out, the arrivals the fold kept), the page
// multiplies and adds nothing.
import { flat, num } from './format.js';

/**
 * @typedef {{i:number, d:(number|string), up:(number|string|null)}} Term
 * @typedef {{k:number, to:string, name:string, shape:number[], sent:Array, local:(Array|null),
 *   which?:string}} ChainEdge
 * @typedef {{node:string, name:string, rule:(string|null), out:string, upShape:number[],
 *   up:Array, edges:ChainEdge[], k:number, j:number, i:(number|null), terms:(Term[]|null),
 *   sent:(number|string|null), formula:(string|null), reaches:Array, meet:(Object|null),
 *   hooked:boolean}} Chain
 */

/** The pick the learner made: {node, k, j} (an element j of input k) or {node, i} (an element i
 * of the upstream gradient). */

/** `x[0, 1]` for element `j` (flat, row-major) of a tensor of `shape`; `x` for a 0-d one; `[0]`
 * of a result the program gave no name. */
export function elementName(name, shape, j) {
  const s = shape || [];
  if (!s.length) return name || '()';
  const idx = [];
  let rest = j;
  for (let a = s.length - 1; a >= 0; a--) {
    idx.unshift(rest % s[a]);
    rest = Math.floor(rest / s[a]);
  }
  return `${name}[${idx.join(', ')}]`;
}

const values = (v) => (v && v.data !== null && v.data !== undefined ? flat(v.data) : null);

/** The tensor a node's gradient belongs to: its output, or an AccumulateGrad's leaf. */
function tensorOf(state, nodeId) {
  const node = state.nodes[nodeId];
  if (node && node.variable) return node.variable;
  return state.outputOf[nodeId] || null;
}

function nameOf(state, id, fallback) {
  const t = id && state.tensors[id];
  return (t && t.name) || fallback;
}

/** `2 × 1 + 1 × 0.5 = 2.5`, shortened past `max` terms; `0 = 0` when no term is non-zero. */
export function formula(terms, sent, max = 4) {
  const parts = terms.map((t) => `${num(t.d)} × ${num(t.up ?? '?')}`);
  const shown = parts.length > max ? [...parts.slice(0, max - 1), `… (${parts.length})`] : parts;
  return `${shown.length ? shown.join(' + ') : '0'} = ${num(sent ?? '?')}`;
}

/**
 * The chain rule at this step, or null when the step is not a node's backward with its local
 * derivatives recorded. `pick` is the learner's pick (kept when it names this node).
 * @param {import('./trace.js').State} state @param {Object|null} pick @param {Object} words
 *   `{unnamed, input}`: what to call a tensor without a name, and input k
 * @returns {Chain|null}
 */
export function chainAt(state, pick, words) {
  const ev = state.event;
  if (!ev || ev.kind !== 'node_apply' || !ev.local) return null;
  const gin = ev.grads_in[0];
  const up = values(gin);
  if (!up) return null;
  const outId = state.outputOf[ev.node];
  const edges = [];
  ev.to.forEach((to, k) => {
    const sent = values(ev.grads_out[k]);
    if (!to || !sent || !ev.local[k]) return;
    const tid = tensorOf(state, to);
    edges.push({ k, to, name: nameOf(state, tid, ''), shape: ev.grads_out[k].shape,
      sent, local: ev.local[k] });
  });
  if (!edges.length) return null;
  // x * x sends to x twice: the edges say which input they are
  for (const e of edges) {
    if (!e.name || edges.some((o) => o !== e && o.name === e.name)) e.which = `${words.input} ${e.k}`;
  }
  const mine = pick && pick.node === ev.node ? pick : null;
  const upPick = mine && mine.i !== undefined && mine.i < up.length ? mine.i : null;
  let edge = edges.find((e) => mine && e.k === mine.k) || edges[0];
  // unpicked: the last element, whose numbers are seldom the 1s a first element often has
  let j = mine && edge.k === mine.k && mine.j < edge.sent.length ? mine.j : edge.sent.length - 1;
  if (upPick !== null) {   // an upstream element: the first element it reaches is shown
    const hit = edges.map((e) => [e, e.local.findIndex((col) => col.some(([i]) => i === upPick))])
      .find(([, at]) => at >= 0);
    if (hit) [edge, j] = hit;
  }
  const terms = edge.local[j].map(([i, d]) => ({ i, d, up: up[i] ?? null }));
  const reaches = upPick === null ? [] : edges.flatMap((e) => e.local
    .map((col, jj) => [jj, col.find(([i]) => i === upPick)])
    .filter(([, hit]) => hit)
    .map(([jj, hit]) => ({ k: e.k, j: jj, name: elementName(e.name, e.shape, jj), d: hit[1],
      sent: e.sent[jj] })));
  return {
    node: ev.node, name: ev.name, rule: ev.rule, out: nameOf(state, outId, ''),
    upShape: gin.shape, up, edges, k: edge.k, j, i: upPick, terms, sent: edge.sent[j],
    formula: formula(terms, edge.sent[j]), reaches, meet: meetAt(state, upPick ?? 0, words),
    hooked: !!state.passHooked,
  };
}

/**
 * Where paths meet at this step (a node_apply or accumulate whose gradient arrived along
 * several edges): element `i` of each contribution and of their sum, the engine's.
 * @returns {{i:number, parts:Array<{from:string, value:(number|string|null)}>,
 *   sum:(number|string|null), shape:number[]}|null}
 */
export function meetAt(state, i, words) {
  const ev = state.event;
  if (!state.merged || !ev) return null;
  const total = ev.kind === 'accumulate' ? ev.added : ev.grads_in && ev.grads_in[0];
  const sum = values(total);
  if (!sum) return null;
  const at = Math.min(i, sum.length - 1);
  const parts = state.merged.map((a) => {
    const node = state.nodes[a.from];
    const xs = values(a.grad);
    return { from: node ? node.name : words.unnamed, value: xs ? xs[at] ?? null : null };
  });
  return { i: at, parts, sum: sum[at], shape: total.shape };
}

/**
 * The in-place bump behind a "modified by an inplace operation" error, from the fold's
 * version history: {saved, tensor name, expected, version, bump (the history entry) or null}.
 * @param {import('./trace.js').State} state
 */
export function bumpOf(state, words) {
  const err = state.error;
  const m = err && err.modified;
  if (!m) return null;
  const by = m.by && (state.versions[m.by.tensor] || []).find((b) => b.version === m.by.version);
  return { saved: m.saved, name: nameOf(state, m.tensor, words.unnamed), expected: m.expected,
    version: m.version, node: err.node && state.nodes[err.node] ? state.nodes[err.node].name : '',
    bump: by || null, bumpName: m.by ? nameOf(state, m.by.tensor, words.unnamed) : '' };
}
