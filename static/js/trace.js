// The trace fold: events[0..i] → the state the picture at step i shows (docs/trace-format.md,
// section 11). Pure data code: no DOM, no fetch, no globals, so Node's test runner can check it
// against the golden fixtures the Python tests share.

import { applyFlows, arrivalKey } from './trace_flows.js';
import { TRANSFORM_HANDLERS } from './trace_transforms.js';
import { TANGENT_HANDLERS, noteTangent } from './trace_tangents.js';
import { OPTIM_HANDLERS } from './trace_optim.js';

/**
 * @typedef {{shape:number[], dtype:string, data:any, repr:(string|null), tensor?:string}} Value
 * @typedef {{id:string, name:(string|null), shape:number[], dtype:string, requires_grad:boolean,
 *   is_leaf:boolean, grad_fn:(string|null), value:Value, grad_of?:string,
 *   how?:string, grad_mode?:boolean, in_backward?:boolean, version?:number}} Tensor
 * @typedef {{name:string, tensor:(string|null), value:(Value|null), freed:boolean}} Saved
 * @typedef {{id:string, name:string, next_functions:Array<[string|null, number]>,
 *   saved:Saved[], rule:(string|null), variable?:string, freed?:boolean,
 *   in_backward?:boolean}} GraphNode
 * @typedef {{seq:number, kind:string, line:(number|null), [field:string]:any}} TraceEvent
 * @typedef {{format:string, version:number, program:{source:string, filename:string},
 *   events:TraceEvent[], series?:{roots:Array<[number,number]>, printed:any[]},
 *   truncated?:boolean, limits?:object}} Trace
 * @typedef {{kind:'stdout'|'warning'|'error'|'elided', text:string, line:(number|null),
 *   seq:number, event:TraceEvent}} ConsoleEntry
 * @typedef {{entry:ConsoleEntry, prev:(ConsoleList|null), length:number}} ConsoleList
 * @typedef {{seq:number, pass:(number|null), how:string, before:(Value|null),
 *   added:(Value|null), after:(Value|null)}} GradChange
 * @typedef {{from:string, to:string, grad:(Value|null), role:'in'|'out'|'acc'}} Flow
 * @typedef {{from:string, grad:Value}} Arrival
 * @typedef {{
 *   index:number, event:(TraceEvent|null), line:(number|null),
 *   tensors:Object<string,Tensor>, nodes:Object<string,GraphNode>,
 *   grads:Object<string,(Value|null)>, history:Object<string,GradChange[]>,
 *   console:(ConsoleList|null), mode:boolean, pass:(TraceEvent|null),
 *   lastPass:(TraceEvent|null), passAdded:Object<string,Value>,
 *   arrivals:Object<string,Arrival[]>, flows:Flow[], fresh:string[], active:(string|null),
 *   activeApply:(TraceEvent|null), merged:(Arrival[]|null), error:(TraceEvent|null),
 *   series:Array<[number,number]>, passes:number, done:boolean, exitCode:(number|null),
 *   outputOf:Object<string,string>, transforms:Object<number,Object>, transform:(number|null),
 *   tangents:Object<string,Value>, dual:boolean, passHooked:boolean,
 *   gradBox:Object<string,string>,
 *   versions:Object<string,Array<{version:number, op:string, line:(number|null), seq:number}>>
 * }} State
 */

export const FORMAT = 'gradstep-trace';
export const VERSIONS = [1];

/** Refuse what this fold cannot read, in words a developer can act on. */
export function validate(trace) {
  if (!trace || typeof trace !== 'object') throw new Error('trace: not an object');
  if (trace.format !== FORMAT) throw new Error(`trace: format ${trace.format} is not ${FORMAT}`);
  if (!VERSIONS.includes(trace.version)) throw new Error(`trace: unknown version ${trace.version}`);
  if (!Array.isArray(trace.events)) throw new Error('trace: events is not a list');
  trace.events.forEach((ev, i) => {
    if (ev.seq !== i) throw new Error(`trace: event ${i} has seq ${ev.seq}`);
  });
  return trace;
}

/** @returns {State} the picture before any event. */
export function initialState() {
  return {
    index: -1, event: null, line: null, tensors: {}, nodes: {}, grads: {}, history: {},
    console: null, mode: true, pass: null, lastPass: null, passAdded: {}, arrivals: {},
    flows: [], fresh: [], active: null, activeApply: null, merged: null, error: null, series: [],
    passes: 0, done: false, exitCode: null, outputOf: {}, transforms: {}, transform: null,
    tangents: {}, dual: false, passHooked: false, gradBox: {}, versions: {},
  };
}

// Maps are copied shallowly before a write, so earlier states stay valid (the player keeps
// some as checkpoints) while a fold of thousands of events stays linear.
function clone(state) {
  return {
    ...state, tensors: { ...state.tensors }, nodes: { ...state.nodes },
    grads: { ...state.grads }, history: { ...state.history }, passAdded: { ...state.passAdded },
    arrivals: { ...state.arrivals }, outputOf: { ...state.outputOf }, gradBox: { ...state.gradBox },
    versions: { ...state.versions },
  };
}

/** @returns {State} the state after `event`, leaving `state` untouched. */
export function apply(state, event) {
  const next = clone(state);
  applyInPlace(next, event);
  return next;
}

/**
 * Fold events[0..index] (inclusive). `from` is an earlier state to continue from (a
 * checkpoint); it is not modified.
 * @param {Trace} trace @param {number} index @param {State} [from]
 * @returns {State}
 */
export function foldTo(trace, index, from) {
  const last = Math.min(index, trace.events.length - 1);
  const draft = from && from.index <= last ? clone(from) : initialState();
  for (let i = draft.index + 1; i <= last; i++) applyInPlace(draft, trace.events[i]);
  return draft;
}

/** The console entries, oldest first. @param {ConsoleList|null} list */
export function consoleEntries(list) {
  const out = [];
  for (let node = list; node; node = node.prev) out.push(node.entry);
  return out.reverse();
}

function say(draft, kind, text, event) {
  const entry = { kind, text, line: event.line ?? null, seq: event.seq, event };
  const prev = draft.console;
  draft.console = { entry, prev, length: (prev ? prev.length : 0) + 1 };
}

function addNode(draft, node, inBackward) {
  if (!node) return;
  const known = draft.nodes[node.id];
  draft.nodes[node.id] = { ...node, freed: known ? known.freed : false,
    in_backward: known ? known.in_backward : !!inBackward };
}

function addTensor(draft, tensor, extra) {
  draft.tensors[tensor.id] = { ...draft.tensors[tensor.id], ...tensor, ...extra };
  if (tensor.grad_fn) draft.outputOf[tensor.grad_fn] = tensor.id;
  if (tensor.grad_of) draft.gradBox[tensor.grad_of] = tensor.id;
}

function recordGrad(draft, tensor, change) {
  draft.grads[tensor] = change.after;
  // `w.grad` drawn as a box of its own (the program used it): PyTorch adds into the same
  // tensor and zero_() clears it in place, so the box shows what w.grad holds now
  const box = draft.gradBox[tensor];
  if (box && change.after && draft.tensors[box]) {
    draft.tensors[box] = { ...draft.tensors[box], value: change.after };
  }
  draft.history[tensor] = [...(draft.history[tensor] || []), change];
}

function flatFirst(value) {
  let d = value ? value.data : null;
  while (Array.isArray(d)) d = d[0];
  return typeof d === 'number' ? d : null;
}

function freeNodes(draft, ids) {
  for (const id of ids) {
    const node = draft.nodes[id];
    if (!node) continue;
    draft.nodes[id] = { ...node, freed: true,
      saved: node.saved.map((s) => ({ ...s, freed: true })) };
  }
}

function endPass(draft) {
  draft.pass = null;
  draft.active = null;
  draft.activeApply = null;
  draft.arrivals = {};
}

const HANDLERS = {
  tensor(d, ev) {
    d.fresh = [ev.tensor.id];
    addTensor(d, ev.tensor, { how: ev.how, grad_mode: ev.grad_mode });
  },
  op(d, ev) {
    d.fresh = [ev.output.id, ...(ev.node ? [ev.node.id] : []), ...(ev.new_nodes || []).map((n) => n.id)];
    for (const n of ev.new_nodes || []) addNode(d, n, ev.in_backward);
    addNode(d, ev.node, ev.in_backward);
    addTensor(d, ev.output, { how: ev.op, grad_mode: ev.grad_mode,
      in_backward: ev.in_backward, outside: !ev.node });
    // create_graph: the backward node whose formula builds this is the one at work
    if (ev.in_backward && ev.by) d.active = ev.by;
    // the program's grad mode as the op ran: a custom Function's apply turns grad off for
    // its forward and back on with no grad_mode event of its own
    if (!ev.in_backward && typeof ev.grad_mode === 'boolean') d.mode = ev.grad_mode;
    noteTangent(d, ev);
  },
  inplace(d, ev) {
    d.fresh = [ev.tensor, ...(ev.node ? [ev.node.id] : [])];
    for (const n of ev.new_nodes || []) addNode(d, n, false);
    addNode(d, ev.node, false);
    const known = d.tensors[ev.tensor];
    if (known) d.tensors[ev.tensor] = { ...known, value: ev.value, grad_fn: ev.grad_fn,
      version: ev.version, is_leaf: ev.grad_fn ? false : known.is_leaf };
    if (ev.grad_fn) d.outputOf[ev.grad_fn] = ev.tensor;
    // each in-place op bumps the version counter by one: v(n-1) → vn, kept for the error
    // that names the bump (chain.js)
    d.versions[ev.tensor] = [...(d.versions[ev.tensor] || []),
      { version: ev.version, op: ev.op, line: ev.line, seq: ev.seq }];
  },
  grad_mode(d, ev) { d.mode = ev.enabled; },
  backward_begin(d, ev) {
    d.pass = ev;
    d.lastPass = ev;
    d.passAdded = {};
    d.arrivals = {};
    d.passHooked = false;
    d.passes += 1;
    const first = ev.root_values && ev.root_values[0];
    const v = flatFirst(first);
    if (first && v !== null && (first.shape || []).reduce((a, b) => a * b, 1) === 1) {
      d.series = [...d.series, [ev.pass, v]];
    }
  },
  node_apply(d, ev) { applyFlows(d, ev); },
  accumulate(d, ev) {
    recordGrad(d, ev.tensor, { seq: ev.seq, pass: ev.pass, how: 'accumulate',
      before: ev.before, added: ev.added, after: ev.after });
    d.passAdded[ev.tensor] = ev.added;
    d.active = ev.node;
    // x * x: both inputs' gradients reach the same AccumulateGrad and are added first
    const here = ev.node ? d.arrivals[arrivalKey(ev.node, 0)] || [] : [];
    if (here.length > 1) d.merged = here;
    if (ev.node) d.flows = [{ from: ev.tensor, to: ev.node, grad: ev.added, role: 'acc' }];
  },
  graph_freed(d, ev) { freeNodes(d, ev.nodes); },
  // a hook of the program ran: a pass whose gradients a hook changed can end with a .grad
  // that is not vᵀJ (the v·J panel says so)
  hook(d, ev) {
    if (ev.pass !== null && ev.returned) d.passHooked = true;
    d.flows = [];
  },
  backward_end(d) { endPass(d); },
  grad_reset(d, ev) {
    recordGrad(d, ev.tensor, { seq: ev.seq, pass: null, how: ev.how,
      before: d.grads[ev.tensor] ?? null, added: null, after: ev.grad });
  },
  optimizer_step(d, ev) {
    for (const p of ev.params) {
      const known = d.tensors[p.tensor];
      if (known) d.tensors[p.tensor] = { ...known, value: p.after };
    }
  },
  stdout(d, ev) { say(d, 'stdout', ev.text, ev); },
  warning(d, ev) { say(d, 'warning', `${ev.category}: ${ev.message}`, ev); },
  error(d, ev) {
    d.error = ev;
    say(d, 'error', `${ev.type}: ${ev.message}`, ev);
    if (ev.pass !== null && ev.pass !== undefined) endPass(d);
    if (ev.node) d.active = ev.node;
  },
  elided(d, ev) {
    for (const carried of ev.carried || []) applyInPlace(d, carried, true);
    for (const u of ev.updates || []) {
      const known = d.tensors[u.tensor];
      if (known && u.value) d.tensors[u.tensor] = { ...known, value: u.value };
      if ('grad' in u) {
        // a library function changed a .grad (clip_grad_norm_): it is in the .grad history
        if (ev.call) {
          recordGrad(d, u.tensor, { seq: ev.seq, pass: null, how: 'inplace',
            before: d.grads[u.tensor] ?? null, added: null, after: u.grad });
        } else d.grads[u.tensor] = u.grad;
        const box = d.gradBox[u.tensor];
        if (box && u.grad && d.tensors[box]) d.tensors[box] = { ...d.tensors[box], value: u.grad };
      }
    }
    if (ev.series && ev.series.length) d.series = [...d.series, ...ev.series];
    if (ev.reason !== 'library') say(d, 'elided', '', ev); // a library step hides no output
    // A warning's `at` is how much of the stretch's printed text came before it: the console
    // shows them in the order the program made them (older traces lack it: warnings last).
    let printed = 0;
    const text = ev.stdout || '';
    for (const w of ev.warnings || []) {
      const at = Math.min(w.at ?? text.length, text.length);
      if (at > printed) say(d, 'stdout', text.slice(printed, at), ev);
      printed = Math.max(printed, at);
      say(d, 'warning', `${w.category}: ${w.message}`, { ...ev, line: w.line });
    }
    if (text.length > printed) say(d, 'stdout', text.slice(printed), ev);
  },
  end(d, ev) { d.done = true; d.exitCode = ev.exit_code; },
  ...TRANSFORM_HANDLERS,
  ...TANGENT_HANDLERS,
  ...OPTIM_HANDLERS,
};

// Step-local fields (what lit up at *this* step) are cleared before each event, so a state
// never shows the previous step's arrows.
function applyInPlace(draft, event, nested = false) {
  if (!nested) {
    draft.index = event.seq;
    draft.event = event;
    // an uncaught error stays on its line through the final `end` (which has no line)
    draft.line = event.line ?? (draft.error && !draft.error.caught ? draft.error.line : null);
    draft.flows = [];
    draft.fresh = [];
    draft.merged = null;
    if (event.kind !== 'node_apply') draft.activeApply = null;
    if (!draft.pass && event.kind !== 'error') draft.active = null;
    if (event.kind !== 'error') draft.error = draft.error && draft.error.caught ? null : draft.error;
  }
  const handler = HANDLERS[event.kind];
  if (handler) handler(draft, event);
}

/** Every id that exists by step `index`: what the graph may draw. @param {State} state */
export function presentIds(state) {
  return new Set([...Object.keys(state.tensors), ...Object.keys(state.nodes)]);
}

/** The index of the first event of a kind at or after `from` (for "jump to backward"). */
export function findNext(trace, from, kinds) {
  for (let i = Math.max(0, from); i < trace.events.length; i++) {
    if (kinds.includes(trace.events[i].kind)) return i;
  }
  return -1;
}
