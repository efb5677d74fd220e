// The graph pane of one run: the picture of the current iteration inside the host, its pan
// and zoom, the tooltip, and the optional rows. Stepping into another iteration swaps the
// picture; a new run destroys the stage, and with it every listener it added.
import { createViews } from './views.js';
import { createViewport } from './viewport.js';
import { createTooltip } from './tooltip.js';
import { createGroups } from './groups.js';
import { cullingSteps } from './culling.js';
import { nameBox } from './values.js';
import { h } from '../dom.js';
import { runNow, runInTurns } from '../turns.js';

/** @typedef {{index:import('./layout.js').GraphIndex, size:Object, compact?:boolean,
 *   culling?:(import('./culling.js').Culling|null), decorated?:boolean}} StagePicture */

/**
 * Make a picture ready for the page while it is still out of it, as steps: a big one's far
 * chunks taken out (graph/culling.js), then every box made a button with its name. `options`
 * are createStage's.
 * @param {StagePicture} picture @param {Object} options
 * @returns {Generator<undefined, void>}
 */
function* readySteps(picture, options) {
  const { index } = picture;
  picture.culling = yield* cullingSteps(index);
  if (picture.culling) index.reveal = picture.culling.reveal;
  // The boxes are buttons, so the picture is a named group of them, not an image (whose
  // children assistive technology would treat as decoration).
  index.svg.setAttribute('role', 'group');
  if (options.graphLabel) index.svg.setAttribute('aria-label', options.graphLabel);
  const boxes = picture.compact ? picture.size.folded : {};
  for (const [id, node] of index.nodes) {
    node.setAttribute('role', 'button');
    if (boxes[id]) {
      asModuleBox(node, id, boxes[id], options);
    } else {
      node.setAttribute('tabindex', '-1');
      // the box's description comes as data: the server's SVG has no links or titles
      const box = /** @type {{tip?:string, gate?:string}|undefined} */ (index.boxes[id]);
      if (box && box.tip) node.dataset.tip = box.tip;
      nameGate(node, box, options);
      nameBox(node);
      node.dataset.id = id;
    }
    yield;
  }
  picture.decorated = true;
}

/**
 * readySteps in turns, for a picture built ahead (graph/views.js, prepareFirstPicture): the
 * stage that shows it then only puts it in the page.
 * @param {StagePicture} picture @param {Object} options createStage's
 */
export function readyInTurns(picture, options) {
  return runInTurns(readySteps(picture, options));
}

// a module box of the compact picture is a button that opens the module
function asModuleBox(node, gid, info, options) {
  node.dataset.group = gid;
  node.setAttribute('tabindex', '0');
  node.setAttribute('aria-expanded', 'false');
  const title = node.querySelector('text');
  if (title) title.classList.add('gs-group-title');
  node.setAttribute('aria-label', `${title ? title.textContent : gid} (${info.length}): ${options.words?.open || 'open'}`);
}

// An LSTM gate's box is labelled in English by the server (app/services/gates.py); the
// page says it in its own language. The box keeps the room the English label had.
function nameGate(node, box, options) {
  const word = box && box.gate && options.words?.gates?.[box.gate];
  const label = word && node.querySelector('text');
  if (label) label.textContent = word;
}

/**
 * @param {HTMLElement} host #graph
 * @param {Object} layout the run answer's layout
 * @param {{describe:(state:Object, id:string)=>string[], shown:{values:boolean, saved:boolean},
 *   onIteration?:(g:number)=>void, words?:{fold:string, open:string, dropped?:string, root?:string,
 *   run?:string, gates?:Object<string,string>},
 *   graphLabel?:string,
 *   viewport?:{minScale?:()=>number, onTouch?:()=>void}}} options (viewport: see viewport.js)
 */
export function createStage(host, layout, options) {
  const views = createViews(layout);
  let current = null;      // {g, picture, maps, viewport}
  let lastState = null;
  let lastSelected = null;
  let lastChain = null;     // the chain rule's picked edge and formula (chain.js), or null
  const expanded = new Set();   // views shown in full although they have a compact picture
  const tooltip = createTooltip(host, (drawnId) => (current && lastState
    ? options.describe(lastState, current.maps.actual(drawnId)) : []));
  const listening = new AbortController();
  const signal = listening.signal;
  // a module's frame folds and opens by its title (mouse) or Enter/Space (keyboard)
  const groupOf = (e) => e.target && e.target.closest && e.target.closest('[data-group]');
  host.addEventListener('click', (e) => {
    const g = groupOf(e);
    if (g && /** @type {Element} */ (e.target).closest('.gs-group-title, .gs-fold, .gs-module')) toggleGroup(g.dataset.group);
  }, { signal });
  host.addEventListener('keydown', (e) => {
    const g = groupOf(e);
    if (g && e.target === g && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      e.stopPropagation();
      toggleGroup(g.dataset.group);
    }
  }, { signal });

  // Opening a module's box on the compact picture switches to the full picture with that
  // module open (the others stay folded); folding every one of them again switches back.
  function toggleGroup(gid) {
    const folded = views.folded(current.g);
    const focused = host.contains(document.activeElement);
    if (current.picture.compact && folded && folded[gid]) {
      expanded.add(views.view(current.g));
      mount(current.g);
      current.picture.groups.toggle(gid);
    } else {
      current.picture.groups.toggle(gid);
      if (folded && !current.picture.compact && Object.keys(folded).every((b) => current.picture.groups.isFolded(b))) {
        expanded.delete(views.view(current.g));
        mount(current.g);
      }
    }
    if (lastState) {
      paint();
      // the picture changed under the learner: keep the step's working box in view
      const work = working(lastState).map((id) => current.picture.index.boxes[id]).find(Boolean);
      if (work) current.viewport.reveal(work.x, work.y, work.w, work.h);
    }
    const again = host.querySelector(`[data-group="${CSS.escape(gid)}"]`);
    if (focused && again) /** @type {HTMLElement} */ (again).focus();
  }

  function paint() {
    const { actual, drawn, isBox } = current.maps;
    current.picture.renderer.render(lastState, { selected: lastSelected, actual, drawn, isBox, rootWord: options.words?.root, chain: lastChain });
    current.picture.groups.mark(working(lastState));
  }

  // the picture iteration `g` shows now: its compact one unless the learner opened a module
  function pick(g) {
    const small = expanded.has(views.view(g)) ? null : views.compact(g);
    return small ? { picture: small, maps: views.compactMaps(g) } : { picture: views.picture(g), maps: views.maps(g) };
  }

  // a chain's folded middle says how many ops it stands for, in the learner's language
  function labelRuns(picture) {
    for (const [id, info] of Object.entries(picture.size.runs || {})) {
      const node = picture.index.nodes.get(id);
      const label = node && node.querySelector('text');
      if (label && options.words?.run) label.textContent = options.words.run.replace('{n}', info.ops.toLocaleString('en-US'));
    }
  }

  function working(state) {
    const { drawn } = current.maps;
    return [state.active, ...(state.fresh || [])].filter(Boolean).map(drawn);
  }

  function mount(g) {
    const { picture, maps } = pick(g);
    const { index } = picture;
    if (!current || current.picture !== picture) {
      if (current) current.viewport.destroy();
      tooltip.hide();
      host.querySelectorAll(':scope > svg, :scope > .graph-empty').forEach((el) => el.remove());
      // a big picture enters the page with only what the first view shows (graph/culling.js)
      if (!picture.ready && !picture.decorated) runNow(readySteps(picture, options));
      host.prepend(index.svg);
      // a picture left out for the answer's size: an empty stand-in, and the reason
      if (picture.size.dropped) host.prepend(h('p', { class: 'graph-empty' }, options.words?.dropped || ''));
      if (!picture.ready) {
        // the full picture of a compact one opens with the compact one's modules folded
        const small = !picture.compact && picture.size.compact;
        picture.groups = createGroups(index, picture.size.groups, options.words,
          picture.compact ? [] : small ? Object.keys(small.folded) : undefined);
        picture.ready = true;
      }
      labelRuns(picture);
      index.svg.classList.toggle('hide-values', !options.shown.values);
      index.svg.classList.toggle('hide-saved', !options.shown.saved);
      const { culling } = picture;
      current = { g, picture, maps, viewport: createViewport(host, index.svg, picture.size,
        { ...options.viewport, onView: culling ? (rect) => culling.show(rect) : undefined }) };
    } else if (current.g !== g) {
      current = { ...current, g, maps };
    } else {
      return;
    }
    if (options.onIteration) options.onIteration(g);
  }

  mount(0);
  return {
    views,
    /** Repaint for `state`, first switching to the picture of its iteration. */
    render(state, selected, chain = null) {
      lastState = state;
      lastSelected = selected;
      lastChain = chain;
      mount(views.at(Math.max(0, state.index)));
      paint();
    },
    /** The drawn box standing for `id` in the current iteration, in layout units. */
    boxOf(id) { return id ? current.picture.index.boxes[current.maps.drawn(id)] : undefined; },
    /** The id of the box that draws `id` (of the state) in the current iteration. */
    drawn(id) { return current.maps.drawn(id); },
    /** The folded group `id` (of the state) is hidden in, or null. */
    foldedAround(id) { return id ? current.picture.groups.foldedAround(current.maps.drawn(id)) : null; },
    /** The ids of the state the current picture draws (drawn id -> id). */
    actualIds() { return [...current.picture.index.nodes.keys()].map(current.maps.actual); },
    /** Put the class `cls` on the boxes of `ids` (ids of the state), and off every other box;
     * the renderer rewrites a box's classes when its look changes, so call it after render. */
    mark(ids, cls) {
      const want = new Set([...ids].map(current.maps.drawn));
      for (const [drawn, node] of current.picture.index.nodes) node.classList.toggle(cls, want.has(drawn));
    },
    setRows(which, on) { current.picture.index.svg.classList.toggle(`hide-${which}`, !on); },
    get iteration() { return current.g; },
    get viewport() { return current.viewport; },
    get svg() { return current.picture.index.svg; },
    /** The picture with every part, drawn near the view or not (a copy, for a file). */
    wholeSvg() { return current.picture.culling ? current.picture.culling.whole() : current.picture.index.svg; },
    toggleGroup,
    /** Say the folded runs' words in another language (`run` has `{n}` for the count). */
    relabel(run) {
      options.words = { ...(options.words || { fold: '', open: '' }), run };
      labelRuns(current.picture);
    },
    destroy() { current.viewport.destroy(); tooltip.destroy(); listening.abort(); },
  };
}
