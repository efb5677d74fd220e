// Two runs of a program side by side: which steps of one run correspond to which of the other,
// which tensors are the same box in both, and what differs at a step (values, gradients, loss
// points). Pure data code (no DOM), computed from the two traces the server returned, so the
// traces stay the single source of what is drawn.
//
// Steps are matched by what they do, not by their number: a step's signature is its kind and
// its op, without the name of what it makes (`a = x.sigmoid()` and `a = x.sigmoid().clone()`
// make the same sigmoid, once named and once not). Two runs that differ in a value have the same signatures
// throughout, so every step matches its twin; an added or removed line leaves steps that only
// one run has, and the other run's pane holds still while they play.

import { foldTo, initialState } from './trace.js';

// Above this many cells the middle part of two traces (after their common start and end) is
// paired step by step instead of by the longest common subsequence: the table would be
// tens of megabytes, and traces that different are not one edit apart anyway.
const MAX_CELLS = 4_000_000;

/**
 * @typedef {import('./trace.js').Trace} Trace
 * @typedef {import('./trace.js').State} State
 * @typedef {{a:number, b:number, only:('a'|'b'|null), differs:boolean}} Row one shared step:
 *   the step each run shows (-1: not started yet), which run alone has it, and whether its
 *   numbers (or its presence) differ between the runs
 * @typedef {{rows:Row[], aToB:Map<string,string>, bToA:Map<string,string>,
 *   exact:boolean}} Alignment
 */

/** What a step does, without its numbers: equal for the same step of an edited program. */
export function signature(ev) {
  return `${ev.kind}|${ev.op || ev.name || ev.api || ev.type || ''}`;
}

const valueText = new WeakMap();
/** A value's numbers as text, once per value object (states share them between steps). */
export function valueKey(value) {
  if (!value || typeof value !== 'object') return String(value ?? '');
  let text = valueText.get(value);
  if (text === undefined) {
    text = `${(value.shape || []).join('x')}:${JSON.stringify(value.data ?? value.repr ?? null)}`;
    valueText.set(value, text);
  }
  return text;
}

// the numbers a step carries, to tell a matched step that computed something else
function payload(ev) {
  switch (ev.kind) {
    case 'op': return valueKey(ev.output && ev.output.value);
    case 'tensor': return valueKey(ev.tensor && ev.tensor.value);
    case 'inplace': return valueKey(ev.value);
    case 'accumulate': return valueKey(ev.after);
    case 'grad_reset': return valueKey(ev.grad);
    case 'backward_begin': return (ev.root_values || []).map(valueKey).join(';');
    case 'optimizer_update': return valueKey(ev.after);
    case 'optimizer_step': return (ev.params || []).map((p) => valueKey(p.after)).join(';');
    case 'lr_step': return `${ev.before}->${ev.after}`;
    case 'stdout': return ev.text;
    case 'error': return `${ev.type}:${ev.message}`;
    case 'elided': return `${ev.stdout || ''}|${JSON.stringify(ev.series || [])}`;
    default: return '';
  }
}

// the ids a step introduces, in order, so matched steps pair their boxes
function madeIds(ev) {
  const ids = [];
  if (ev.kind === 'op') {
    if (ev.output) ids.push(ev.output.id);
    if (ev.node) ids.push(ev.node.id);
  } else if (ev.kind === 'tensor' && ev.tensor) ids.push(ev.tensor.id);
  for (const n of ev.new_nodes || []) ids.push(n.id);
  for (const c of ev.carried || []) ids.push(...madeIds(c));
  return ids;
}

// Pairs of indexes (i in a, j in b) of the longest common subsequence of two signature lists.
function commonPairs(sa, sb) {
  const pairs = [];
  let start = 0;
  while (start < sa.length && start < sb.length && sa[start] === sb[start]) {
    pairs.push([start, start]);
    start += 1;
  }
  let ea = sa.length;
  let eb = sb.length;
  const tail = [];
  while (ea > start && eb > start && sa[ea - 1] === sb[eb - 1]) {
    ea -= 1;
    eb -= 1;
    tail.push([ea, eb]);
  }
  const n = ea - start;
  const m = eb - start;
  if (n > 0 && m > 0) {
    if (n * m > MAX_CELLS) {
      // too far apart for the table: pair the middle step by step where the kinds agree
      for (let k = 0; k < Math.min(n, m); k++) {
        if (sa[start + k] === sb[start + k]) pairs.push([start + k, start + k]);
      }
    } else {
      // lengths of the common subsequence of the suffixes, filled from the end
      const w = m + 1;
      const table = new Uint32Array((n + 1) * w);
      for (let i = n - 1; i >= 0; i--) {
        for (let j = m - 1; j >= 0; j--) {
          table[i * w + j] = sa[start + i] === sb[start + j] ? table[(i + 1) * w + j + 1] + 1
            : Math.max(table[(i + 1) * w + j], table[i * w + j + 1]);
        }
      }
      let i = 0;
      let j = 0;
      while (i < n && j < m) {
        if (sa[start + i] === sb[start + j]) { pairs.push([start + i, start + j]); i += 1; j += 1; }
        else if (table[(i + 1) * w + j] >= table[i * w + j + 1]) i += 1;
        else j += 1;
      }
    }
  }
  return pairs.concat(tail.reverse());
}

const alignments = new WeakMap();

/**
 * The shared steps of two runs. Each row shows one step of at least one run; a row of one run
 * alone leaves the other run on its last step.
 * @param {Trace} a @param {Trace} b @returns {Alignment}
 */
export function align(a, b) {
  const known = alignments.get(a);
  if (known && known.b === b) return known.alignment;
  const ea = a ? a.events : [];
  const eb = b ? b.events : [];
  const pairs = commonPairs(ea.map(signature), eb.map(signature));
  const rows = [];
  const aToB = new Map();
  const bToA = new Map();
  let ia = 0;
  let ib = 0;
  const alone = (which) => {
    if (which === 'a') rows.push({ a: ia, b: ib - 1, only: 'a', differs: true });
    else rows.push({ a: ia - 1, b: ib, only: 'b', differs: true });
  };
  for (const [pa, pb] of [...pairs, [ea.length, eb.length]]) {
    for (; ia < pa; ia++) alone('a');
    for (; ib < pb; ib++) alone('b');
    if (pa >= ea.length || pb >= eb.length) break;
    const x = ea[pa];
    const y = eb[pb];
    const from = madeIds(x);
    const to = madeIds(y);
    for (let k = 0; k < Math.min(from.length, to.length); k++) {
      aToB.set(from[k], to[k]);
      bToA.set(to[k], from[k]);
    }
    rows.push({ a: pa, b: pb, only: null, differs: payload(x) !== payload(y) });
    ia = pa + 1;
    ib = pb + 1;
  }
  const alignment = { rows, aToB, bToA, exact: pairs.length === ea.length && pairs.length === eb.length };
  if (a) alignments.set(a, { b, alignment });
  return alignment;
}

/** The row that shows step `index` of run `which` (the first such row). */
export function rowOf(alignment, which, index) {
  const rows = alignment.rows;
  const at = rows.findIndex((r) => r[which] >= index);
  return at < 0 ? rows.length - 1 : at;
}

/** The next row after `from` whose step differs between the runs, or -1. */
export function nextDifference(alignment, from) {
  const rows = alignment.rows;
  for (let i = from + 1; i < rows.length; i++) if (rows[i].differs) return i;
  return -1;
}

/**
 * What differs at one shared step, by box: `a` and `b` map each run's ids to what differs
 * ('value', 'grad', 'only'); `loss` lists the loss points of both runs, and which differ.
 * @param {Alignment} alignment @param {State} sa @param {State} sb
 */
export function differences(alignment, sa, sb) {
  const a = new Map();
  const b = new Map();
  const note = (map, id, what) => map.set(id, [...(map.get(id) || []), what]);
  for (const [idB, tb] of Object.entries(sb.tensors)) {
    const idA = alignment.bToA.get(idB);
    const ta = idA ? sa.tensors[idA] : undefined;
    if (!ta) { note(b, idB, 'only'); continue; }
    if (valueKey(ta.value) !== valueKey(tb.value)) { note(a, idA, 'value'); note(b, idB, 'value'); }
    if (valueKey(sa.grads[idA]) !== valueKey(sb.grads[idB])) { note(a, idA, 'grad'); note(b, idB, 'grad'); }
  }
  for (const idA of Object.keys(sa.tensors)) {
    const idB = alignment.aToB.get(idA);
    if (!idB || !sb.tensors[idB]) note(a, idA, 'only');
  }
  for (const idB of Object.keys(sb.nodes)) {
    const idA = alignment.bToA.get(idB);
    if (!idA || !sa.nodes[idA]) note(b, idB, 'only');
  }
  for (const idA of Object.keys(sa.nodes)) {
    const idB = alignment.aToB.get(idA);
    if (!idB || !sb.nodes[idB]) note(a, idA, 'only');
  }
  return { a, b, loss: lossPoints(sa.series, sb.series) };
}

/**
 * The loss points of two runs, paired by backward pass, each with whether it differs.
 * @param {Array<[number,number]>} sa @param {Array<[number,number]>} sb
 */
export function lossPoints(sa, sb) {
  const byPass = new Map();
  for (const [pass, v] of sa || []) byPass.set(pass, { pass, a: v, b: null });
  for (const [pass, v] of sb || []) byPass.set(pass, { ...(byPass.get(pass) || { pass, a: null }), b: v });
  return [...byPass.values()].sort((x, y) => x.pass - y.pass)
    .map((p) => ({ ...p, differs: p.a === null || p.b === null || Math.abs(p.a - p.b) > 1e-12 * Math.max(1, Math.abs(p.a)) }));
}

/** Lines of `before` and `after` that differ (1-based), by a line-level common subsequence. */
export function changedLines(before, after) {
  const la = (before || '').split('\n');
  const lb = (after || '').split('\n');
  const pairs = commonPairs(la, lb);
  const keptA = new Set(pairs.map(([i]) => i));
  const keptB = new Set(pairs.map(([, j]) => j));
  return {
    a: la.map((_, i) => i).filter((i) => !keptA.has(i)).map((i) => i + 1),
    b: lb.map((_, j) => j).filter((j) => !keptB.has(j)).map((j) => j + 1),
  };
}

/**
 * A summary of the whole comparison: how many shared steps differ, the first of them, how many
 * boxes and gradients differ at the end, and how many loss points differ.
 * @param {Trace} ta @param {Trace} tb
 */
export function summarise(ta, tb) {
  const alignment = align(ta, tb);
  const last = alignment.rows[alignment.rows.length - 1];
  const sa = last && last.a >= 0 ? foldTo(ta, last.a) : initialState();
  const sb = last && last.b >= 0 ? foldTo(tb, last.b) : initialState();
  const diff = differences(alignment, sa, sb);
  const count = (map, what) => [...map.values()].filter((w) => w.includes(what)).length;
  return {
    steps: alignment.rows.length,
    differing: alignment.rows.filter((r) => r.differs).length,
    first: nextDifference(alignment, -1) + 1,     // 1-based; 0 when no step differs
    values: count(diff.b, 'value'),
    grads: count(diff.b, 'grad'),
    onlyA: count(diff.a, 'only'),
    onlyB: count(diff.b, 'only'),
    loss: diff.loss.filter((p) => p.differs).length,
    lossTotal: diff.loss.length,
  };
}
