// What autograd.grad returns, seen in the fold: it writes no .grad and runs no AccumulateGrad,
// so the gradient that reaches an input's edge is its result (docs/trace-format.md, section 8).
// Pure: it works on the fold's draft state only.

/** Elementwise a + b of two values of one shape (a may be missing). */
function addValues(a, b) {
  if (!a) return b;
  const add = (x, y) => (Array.isArray(x) ? x.map((v, i) => add(v, y[i]))
    : typeof x === 'number' && typeof y === 'number' ? x + y : null);
  return { ...b, data: a.data === null || b.data === null ? null : add(a.data, b.data), repr: null };
}

/** autograd.grad writes no .grad and runs no AccumulateGrad: what reaches an input's edge is
 * the result it returns for that input. Drawn arriving at the input, summed per input. */
export function gradResults(draft, ev, flows) {
  ev.to.forEach((target, k) => {
    const node = target && draft.nodes[target];
    const grad = ev.grads_out[k];
    if (!grad || !node || node.name !== 'AccumulateGrad' || !node.variable) return;
    flows.push({ from: node.variable, to: target, grad, role: 'result' });
    draft.passAdded[node.variable] = addValues(draft.passAdded[node.variable], grad);
  });
}
