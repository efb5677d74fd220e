// The step controller. It holds the one mutable object of the page — which trace, which step,
// what is selected, whether it is playing — and tells its listener after every change. Folding
// goes through trace.js; checkpoints every few hundred steps keep jumping back cheap.
import { validate, foldTo, apply, initialState, findNext } from './trace.js';

const CHECKPOINT = 256;
const BASE_INTERVAL_MS = 900;

/**
 * @typedef {{answer:(Object|null), trace:(Object|null), index:number,
 *   state:import('./trace.js').State, selected:(string|null), playing:boolean, speed:number,
 *   pick:(Object|null)}} Model
 * @param {(model:Model, why:string)=>void} onChange
 */
export function createPlayer(onChange) {
  /** @type {Model} */
  const model = { answer: null, trace: null, index: -1, state: initialState(), selected: null,
    playing: false, speed: 1, pick: null };
  let checkpoints = new Map();
  let timer = null;

  const count = () => (model.trace ? model.trace.events.length : 0);

  function stateAt(i) {
    if (i < 0) return initialState();
    if (i === model.index + 1 && model.index >= 0) return apply(model.state, model.trace.events[i]);
    let base;
    for (let c = Math.floor(i / CHECKPOINT) * CHECKPOINT - 1; c >= 0; c -= CHECKPOINT) {
      if (checkpoints.has(c)) { base = checkpoints.get(c); break; }
    }
    if (!base || base.index > i) base = undefined;
    // lay down the checkpoints we pass, so later jumps start closer
    let state = base;
    for (let c = (base ? base.index : -1) + CHECKPOINT; c <= i; c += CHECKPOINT) {
      state = foldTo(model.trace, c, state);
      checkpoints.set(c, state);
    }
    return foldTo(model.trace, i, state);
  }

  function go(i, why = 'step') {
    if (!model.trace) return;
    const target = Math.max(0, Math.min(count() - 1, i));
    if (target === model.index && why === 'step') return;
    model.state = stateAt(target);
    model.index = target;
    if (model.index >= count() - 1) pause();
    onChange(model, why);
  }

  function pause() {
    if (timer) clearInterval(timer);
    timer = null;
    if (model.playing) { model.playing = false; onChange(model, 'play'); }
  }

  function play() {
    if (!model.trace) return;
    if (model.index >= count() - 1) go(0);
    model.playing = true;
    timer = setInterval(() => go(model.index + 1), BASE_INTERVAL_MS / model.speed);
    onChange(model, 'play');
  }

  return {
    model,
    /** Take a new run's answer; start at `step` (0-based) or the first step. */
    load(answer, step = 0) {
      pause();
      model.answer = answer;
      model.trace = answer.trace ? validate(answer.trace) : null;
      model.selected = null;
      model.pick = null;
      checkpoints = new Map();
      model.index = -1;
      model.state = initialState();
      onChange(model, 'load');
      if (model.trace) go(step, 'jump');
    },
    go: (i) => go(i, 'jump'),
    first: () => go(0, 'jump'),
    last: () => go(count() - 1, 'jump'),
    next: () => go(model.index + 1),
    prev: () => go(model.index - 1),
    toggle: () => (model.playing ? pause() : play()),
    pause,
    setSpeed(s) {
      model.speed = s;
      if (model.playing) { pause(); play(); }
    },
    select(id) { model.selected = id; onChange(model, 'select'); },
    /** The element the chain-rule card follows: {node, k, j} or {node, i} (chain.js). */
    pickElement(p) { model.pick = p; onChange(model, 'select'); },
    /** Jump to the next backward pass after the current step (wraps to the first). */
    nextBackward() {
      if (!model.trace) return;
      let i = findNext(model.trace, model.index + 1, ['backward_begin']);
      if (i < 0) i = findNext(model.trace, 0, ['backward_begin']);
      if (i >= 0) go(i, 'jump');
    },
    count,
  };
}
