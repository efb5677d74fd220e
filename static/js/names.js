// Which name of the program refers to which tensor at a step: Python Tutor's frames, for the
// tensors of a run. Pure data code (no DOM), read off the trace alone: the recorder writes a
// tensor's name into the event that introduced it, and the n-th tensor bound to a variable is
// that name with the subscript n (`loss₃`, docs/trace-format.md, "Names"). So at step i a
// variable refers to the last tensor introduced by then under its name, and it was rebound at
// that tensor's step. A `.grad` is drawn in the box of the tensor it belongs to (its grad
// row), unless the program computed with it and it has a box of its own (`model.weight.grad`).

const SUBSCRIPT = /[₀-₉]+(?=$|[.[])/g;   // `params₂.grad` is the program's `params.grad`
// what a program writes: a variable or a path from one (`model[0].weight`); not the seed of a
// create_graph pass, `∂y/∂y`, which no variable holds
const PROGRAM_NAME = /^[\p{L}_][\p{L}\p{N}_]*([.[].*)?$/u;

/** `loss₃` → `loss`, `params₂.grad` → `params.grad`: the name as the program writes it. */
export function variableOf(name) {
  return name.replace(SUBSCRIPT, '');
}

/**
 * @typedef {{seq:number, tensor:string, label:string}} Binding
 * @typedef {{name:string, tensor:string, label:string, seq:number, previous:(Binding|null),
 *   grad:boolean, changed:boolean, count:number}} NameEntry
 */

const cache = new WeakMap();

/**
 * Every binding of the run in step order: {name, seq, tensor, label}, one per named tensor,
 * at the step that introduced it (an `elided` step's carried tensors at that step).
 * @param {import('./trace.js').Trace} trace
 */
export function bindingsOf(trace) {
  if (cache.has(trace)) return cache.get(trace);
  const out = [];
  const seen = new Set();
  const note = (tensor, seq) => {
    if (!tensor || !tensor.id || seen.has(tensor.id)) return;
    seen.add(tensor.id);
    const label = tensor.name;
    if (!label || !PROGRAM_NAME.test(label)) return;
    out.push({ name: variableOf(label), seq, tensor: tensor.id, label });
  };
  const visit = (ev, seq) => {
    if (ev.kind === 'tensor') note(ev.tensor, seq);
    else if (ev.kind === 'op') note(ev.output, seq);
    else if (ev.kind === 'elided') for (const c of ev.carried || []) visit(c, seq);
  };
  for (const ev of trace.events) visit(ev, ev.seq);
  cache.set(trace, out);
  return out;
}

/**
 * The names panel's rows at `state`: each name the program has bound so far, in the order it
 * first appeared, with the tensor it refers to now, the one before (when it was rebound), and
 * whether that happened at this very step; each `NAME.grad` that has a value follows its owner.
 * @param {import('./trace.js').Trace} trace @param {import('./trace.js').State} state
 * @returns {NameEntry[]}
 */
export function namesAt(trace, state) {
  if (!trace || state.index < 0) return [];
  const now = new Map();    // name -> {binding, previous, count}
  const gradBoxes = new Map();   // `w₂.grad` -> the box of that .grad, when it has its own
  for (const b of bindingsOf(trace)) {
    if (b.seq > state.index) break;
    if (b.label.endsWith('.grad')) { gradBoxes.set(b.label, b); continue; }
    const known = now.get(b.name);
    now.set(b.name, { binding: b, previous: known ? known.binding : null,
      count: known ? known.count + 1 : 1 });
  }
  const rows = [];
  for (const [name, { binding, previous, count }] of now) {
    rows.push({ name, tensor: binding.tensor, label: binding.label, seq: binding.seq,
      previous, grad: false, changed: binding.seq === state.index, count });
    // `name.grad` means the .grad of the tensor the name refers to now: None (no row) until
    // a backward pass or the program gives it one
    const grad = state.grads[binding.tensor];
    if (grad === undefined || grad === null) continue;
    const own = gradBoxes.get(`${binding.label}.grad`);
    const history = state.history[binding.tensor] || [];
    const last = history[history.length - 1];
    // the box it is drawn in: its own, or the owner's, whose grad row shows it
    rows.push({ name: `${name}.grad`, tensor: own ? own.tensor : binding.tensor,
      label: own ? own.label : binding.label, seq: last ? last.seq : binding.seq, previous: null,
      grad: true, changed: Boolean(last && last.seq === state.index), count: 1 });
  }
  return rows;
}
