// What a step changed in the picture, so a repaint touches only those boxes and arrows.
// States share every entry a step did not write (trace.js copies its maps shallowly and
// replaces the entries it changes), so comparing a box's tensor, node and gradient with the
// previous step's by identity finds the few that changed among thousands.

/** @typedef {import('./layout.js').GraphIndex} GraphIndex */

/**
 * @param {GraphIndex} index
 * @returns {{since:(state:Object, view:Object, marks:string[]) => ({nodes:Set<string>, edges:Set<string>}|null)}}
 */
export function createChangeTracker(index) {
  const touching = new Map();     // drawn id -> ids of the arrows that start or end there
  for (const e of index.edgeList) {
    for (const end of [e.from, e.to]) {
      if (!touching.has(end)) touching.set(end, []);
      touching.get(end).push(e.id);
    }
  }
  let last = null;                // {state, actual, marks}

  /**
   * The drawn ids of the boxes and the arrows whose look may differ from the last repaint,
   * or null when everything must be repainted (the first step, another iteration's ids).
   * `marks` are the drawn ids this step singles out (working, new, roots, selected, error,
   * a flowing gradient's ends); the last step's are repainted too, to take theirs off.
   */
  function since(state, view, marks) {
    const before = last;
    last = { state, actual: view.actual, marks };
    if (!before || before.actual !== view.actual) return null;
    const was = before.state;
    const nodes = new Set([...marks, ...before.marks]);
    for (const drawn of index.nodes.keys()) {
      const id = view.actual(drawn);
      if (state.tensors[id] !== was.tensors[id] || state.nodes[id] !== was.nodes[id]
        || state.grads[id] !== was.grads[id]) nodes.add(drawn);
    }
    const edges = new Set();
    for (const drawn of nodes) for (const e of touching.get(drawn) || []) edges.add(e);
    return { nodes, edges };
  }

  return { since };
}
