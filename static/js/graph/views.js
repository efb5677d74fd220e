// One iteration at a time (docs/layout.md, iteration views): which of the layout's pictures a
// step shows, and which drawn box stands for which id of the state. A loop's iterations
// share a picture, so the page does not grow with the number of epochs; a picture is parsed
// the first time it is shown and kept.
import { indexLayout } from './layout.js';
import { createRenderer } from './render.js';

/**
 * @param {Object} layout the run answer's `layout`
 * @returns {{count:number, at:(seq:number)=>number, picture:(g:number)=>Object,
 *   maps:(g:number)=>{actual:(id:string)=>string, drawn:(id:string)=>string},
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
    if (!parsed.has(view)) {
      const index = indexLayout(pictures[view]);
      parsed.set(view, { index, renderer: createRenderer(index), view, size: pictures[view] });
    }
    return parsed.get(view);
  }

  function mapsOf(g) {
    if (!maps.has(g)) {
      const alias = iterations[g].alias || {};
      const back = {};
      for (const [drawn, actual] of Object.entries(alias)) back[actual] = drawn;
      maps.set(g, { actual: (id) => alias[id] ?? id, drawn: (id) => back[id] ?? id });
    }
    return maps.get(g);
  }

  return {
    count: iterations.length,
    at,
    picture,
    maps: mapsOf,
    firstStep: (g) => (steps.find((s) => s[1] === g) || [0])[0],
    passes: (g) => iterations[g].passes || null,
    summarised: (g) => !!iterations[g].summarised,
  };
}
