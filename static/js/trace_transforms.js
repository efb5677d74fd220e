// The fold of transform events (docs/trace-format.md, section 13): per transform, the matrix
// cells filled so far, the step last computed and its seed. Pure data code like trace.js,
// whose fold calls these handlers; each handler replaces `transforms` rather than writing
// into it, so earlier states the player keeps stay as they were.

/**
 * @typedef {{begin:Object, cells:Object<number,Object>, seeds:Object<number,Object>,
 *   active:(number|null), seed:(Object|null), result:(Object|null), done:boolean,
 *   at:number}} Transform
 */

function put(d, id, value) {
  d.transforms = { ...d.transforms, [id]: value };
  d.transform = id;
}

export const TRANSFORM_HANDLERS = {
  transform_begin(d, ev) {
    put(d, ev.transform, { begin: ev, cells: {}, seeds: {}, active: null, seed: null,
      result: null, done: false, at: ev.seq });
  },
  transform_step(d, ev) {
    const t = d.transforms[ev.transform];
    if (!t) return;
    put(d, ev.transform, { ...t, cells: { ...t.cells, [ev.index]: ev.result },
      seeds: { ...t.seeds, [ev.index]: ev.seed }, active: ev.index, seed: ev.seed, at: ev.seq });
  },
  transform_end(d, ev) {
    const t = d.transforms[ev.transform];
    if (!t) return;
    put(d, ev.transform, { ...t, result: ev.result, active: null, done: true });
  },
};

/**
 * The transform the Transforms panel shows at this step: the one an event touched last,
 * unless it is a product (the J·v panel's) — then the latest matrix or batch one.
 * @param {Object} state @param {(mode:string)=>boolean} wanted
 * @returns {Transform|null}
 */
export function shownTransform(state, wanted) {
  const all = state.transforms || {};
  const current = all[state.transform];
  if (current && wanted(current.begin.mode)) return current;
  const ids = Object.keys(all).map(Number).filter((k) => wanted(all[k].begin.mode));
  return ids.length ? all[Math.max(...ids)] : null;
}

/**
 * The step a transform is at: {index, done} — the one computed at this very step (done), or,
 * between steps, the next one, whose passes are running; null once the transform ended.
 * @param {Transform} t @param {number} index the player's step
 */
export function workingOn(t, index) {
  if (t.done) return null;
  if (t.at === index && t.active !== null) return { index: t.active, done: true };
  const next = Object.keys(t.cells).length;
  return next < t.begin.steps ? { index: next, done: false } : null;
}
