// The fold of one node_apply: the gradient-flow arrows of the step and what arrives where
// (docs/trace-format.md, section 11). Part of trace.js's fold, in a file of its own; it writes
// only the draft it is given, whose maps trace.js has already copied.

import { gradResults } from './grad_results.js';

/** The key of `arrivals` for output `nr` of node `id` (the merged sum narrated is output 0's,
 * grads_in[0]). */
export function arrivalKey(id, nr) {
  return `${id}#${nr || 0}`;
}

/** The gradient-flow arrows of one node_apply: what came in, what went to each input. */
export function applyFlows(draft, ev) {
  const node = draft.nodes[ev.node];
  const flows = [];
  const out = draft.outputOf[ev.node];
  if (out) flows.push({ from: ev.node, to: out, grad: ev.grads_in[0] ?? null, role: 'in' });
  // autograd.grad runs no AccumulateGrad: what goes to an input's is its result, drawn
  // arriving at the input (grad_results.js), never flowing into the AccumulateGrad box
  const grad = draft.pass && draft.pass.api === 'grad';
  ev.to.forEach((target, k) => {
    const skipped = grad && draft.nodes[target] && draft.nodes[target].name === 'AccumulateGrad';
    if (target && ev.grads_out[k] && !skipped) {
      flows.push({ from: target, to: ev.node, grad: ev.grads_out[k], role: 'out' });
      // arrivals are kept per output of the target: a node of several outputs (unbind's,
      // `w, b = params`) gets one gradient per output, which are not added together
      const key = arrivalKey(target, node ? (node.next_functions[k] || [])[1] : 0);
      const list = draft.arrivals[key] || [];
      draft.arrivals[key] = [...list, { from: ev.node, grad: ev.grads_out[k] }];
    }
  });
  if (grad) gradResults(draft, ev, flows);
  const here = draft.arrivals[arrivalKey(ev.node, 0)] || [];
  draft.merged = here.length > 1 ? here : null;
  draft.flows = flows;
  draft.active = ev.node;
  draft.activeApply = ev;
  // a node no op introduced (the trace could not draw it before): known from here on
  if (!node) draft.nodes[ev.node] = { id: ev.node, name: ev.name, next_functions: [], saved: [],
    rule: ev.rule, freed: false, in_backward: false };
}
