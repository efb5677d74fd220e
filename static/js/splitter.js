// The line between the program and the graph: drag it (or focus it and press ←/→, Home to
// reset) to give the program more room, so long lines (`requires_grad=True)`,
// `create_graph=True`) are read whole. The width lives in the player's `--code-width`.
import { tr } from './i18n.js';

const MIN = 240;           // the program pane never narrower than this
const GRAPH_MIN = 320;     // nor the graph
const KEY_STEP = 32;

/** @param {HTMLElement} root the player root @param {() => Object} strings */
export function createSplitter(root, strings) {
  const handle = /** @type {HTMLElement|null} */ (root.querySelector('.pane-splitter'));
  const code = /** @type {HTMLElement|null} */ (root.querySelector('.pane-code'));
  const graph = /** @type {HTMLElement|null} */ (root.querySelector('.pane-graph'));
  if (!handle || !code || !graph) return { label() {} };
  const most = () => code.getBoundingClientRect().width + graph.getBoundingClientRect().width - GRAPH_MIN;
  const set = (px) => {
    const w = Math.round(Math.max(MIN, Math.min(most(), px)));
    root.style.setProperty('--code-width', `${w}px`);
    handle.setAttribute('aria-valuenow', String(w));
  };
  const label = () => {
    handle.setAttribute('aria-label', tr(strings(), 'splitter_label'));
    handle.setAttribute('aria-valuemin', String(MIN));
    handle.setAttribute('aria-valuemax', String(Math.round(most())));
    handle.setAttribute('aria-valuenow', String(Math.round(code.getBoundingClientRect().width)));
  };
  let drag = null;
  handle.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, w: code.getBoundingClientRect().width };
    handle.setPointerCapture(e.pointerId);
    e.preventDefault();
  });
  handle.addEventListener('pointermove', (e) => { if (drag) set(drag.w + e.clientX - drag.x); });
  const stop = () => { drag = null; };
  handle.addEventListener('pointerup', stop);
  handle.addEventListener('pointercancel', stop);
  handle.addEventListener('keydown', (e) => {
    const w = code.getBoundingClientRect().width;
    if (e.key === 'ArrowRight') set(w + KEY_STEP);
    else if (e.key === 'ArrowLeft') set(w - KEY_STEP);
    else if (e.key === 'Home') { root.style.removeProperty('--code-width'); label(); } else return;
    e.preventDefault();
    e.stopPropagation();
  });
  label();
  return { label };
}
