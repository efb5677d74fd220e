// One iteration at a time (docs/layout.md, iteration views): which of the layout's pictures a
// step shows, and which drawn box stands for which id of the state. A loop's iterations
// share a picture, so the page does not grow with the number of epochs; a picture is parsed
// the first time it is shown and kept.
import { indexLayout, indexSteps, prepareLayout } from './layout.js';
import { createRenderer } from './render.js';
import { rowSteps } from './values.js';
import { pause, runInTurns } from '../turns.js';

// pictures built ahead (preparePicture), taken by the first createViews that shows them
const built = new WeakMap();

/** Index a picture and make its renderer, or take what preparePicture built. */
function build(picture) {
  const ready = built.get(picture);
  built.delete(picture);
  if (ready) return ready;
  const index = indexLayout(picture);
  return { index, renderer: createRenderer(index) };
}

/**
 * @param {Object} layout the run answer's `layout`
 * @returns {{count:number, at:(seq:number)=>number, picture:(g:number)=>Object,
 *   compact:(g:number)=>(Object|null), view:(g:number)=>number,
 *   folded:(g:number)=>(Object<string, string[]>|null),
 *   compactMaps:(g:number)=>{actual:(id:string)=>string, drawn:(id:string)=>string, isBox:(id:string)=>boolean},
 *   maps:(g:number)=>{actual:(id:string)=>string, drawn:(id:string)=>string, isBox:(id:string)=>boolean},
 *   runs:(g:number)=>Object<string, {members:string[], ops:number, op:string}>,
 *   firstStep:(g:number)=>number, passes:(g:number)=>(number[]|null),
 *   summarised:(g:number)=>boolean}}
 */
export function createViews(layout) {
  const pictures = [layout, ...(layout.views || [])];
  const iterations = layout.iterations && layout.iterations.length ? layout.iterations : [{ view: 0 }];
  const steps = layout.steps && layout.steps.length ? layout.steps : [[0, 0]];
  const parsed = new Map();
  const maps = new Map();

  /** The iteration shown at step `seq`: the last change at or before it. */
  function at(seq) {
    let lo = 0;
    let hi = steps.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (steps[mid][0] <= seq) lo = mid; else hi = mid - 1;
    }
    return steps[lo][1];
  }

  /** The parsed picture ({index, renderer, view}) iteration `g` is drawn on. */
  function picture(g) {
    const view = iterations[g].view;
    if (!parsed.has(view)) parsed.set(view, { ...build(pictures[view]), view, size: pictures[view] });
    return parsed.get(view);
  }

  /** The compact picture of iteration `g` (library modules as boxes), or null. */
  function compact(g) {
    const view = iterations[g].view;
    const small = pictures[view].compact;
    if (!small) return null;
    const key = `${view}c`;
    if (!parsed.has(key)) parsed.set(key, { ...build(small), view, size: small, compact: true });
    return parsed.get(key);
  }

  // On a compact picture a module's box stands for every box inside it: a drawn id inside
  // maps to the box, and the box to the first of them (it exists once that one does).
  function compactMaps(g) {
    const key = `${g}c`;
    if (!maps.has(key)) {
      const base = mapsOf(g);
      const boxOf = {};
      const first = {};
      for (const [box, members] of Object.entries(pictures[iterations[g].view].compact.folded)) {
        first[box] = base.actual(members[0]);
        for (const m of members) boxOf[m] = box;
      }
      maps.set(key, { actual: (id) => first[id] ?? base.actual(id),
        drawn: (id) => { const d = base.drawn(id); return boxOf[d] ?? d; },
        isBox: (id) => id in first || base.isBox(id) });
    }
    return maps.get(key);
  }

  // A windowed picture (a chain too long to draw) folds the middle of a run into one box:
  // every id inside maps to it, and it to the first of them, as a compact module box does.
  function mapsOf(g) {
    if (!maps.has(g)) {
      const alias = iterations[g].alias || {};
      const back = {};
      for (const [drawn, actual] of Object.entries(alias)) back[actual] = drawn;
      const runs = pictures[iterations[g].view].runs || {};
      const boxOf = {};
      const first = {};
      for (const [box, info] of Object.entries(runs)) {
        first[box] = info.members[0];
        for (const m of info.members) boxOf[m] = box;
      }
      maps.set(g, { actual: (id) => first[id] ?? alias[id] ?? id,
        drawn: (id) => { const d = back[id] ?? id; return boxOf[d] ?? d; },
        isBox: (id) => id in first });
    }
    return maps.get(g);
  }

  return {
    count: iterations.length,
    at,
    picture,
    compact,
    compactMaps,
    view: (g) => iterations[g].view,
    /** The folded runs of iteration `g`'s picture: box id -> {members, ops, op}. */
    runs: (g) => pictures[iterations[g].view].runs || {},
    /** The module boxes of iteration `g`'s compact picture: box id -> drawn ids inside. */
    folded: (g) => (pictures[iterations[g].view].compact || {}).folded || null,
    maps: mapsOf,
    firstStep: (g) => (steps.find((s) => s[1] === g) || [0])[0],
    passes: (g) => iterations[g].passes || null,
    summarised: (g) => !!iterations[g].summarised,
  };
}

/**
 * Build the picture a new run shows first at step `seq`, ahead and a task at a time (its SVG
 * in pieces, then its index, then its value rows, then what `ready` does with it), so that a
 * big one never holds the page; the next views that show it take it. That picture is an
 * iteration's compact one where it has one: the full one is built when the learner opens a
 * module.
 * @param {Object} layout the run answer's `layout`
 * @param {number} seq
 * @param {(picture:{index:Object, renderer:Object, size:Object, compact:boolean})=>Promise<void>} [ready]
 *   more work on the built picture, before any views take it (graph/stage.js, readyInTurns)
 */
export async function prepareFirstPicture(layout, seq, ready) {
  const views = createViews(layout);
  const full = [layout, ...(layout.views || [])][views.view(views.at(seq))];
  const picture = full.compact || full;
  if (!picture || built.has(picture)) return;
  await prepareLayout(picture);
  await pause();
  const index = await runInTurns(indexSteps(picture));
  await pause();
  const rows = await runInTurns(rowSteps(index));
  await pause();
  const entry = { index, renderer: createRenderer(index, rows), size: picture, compact: picture !== full };
  await pause();
  if (ready) await ready(entry);
  built.set(picture, entry);
}
