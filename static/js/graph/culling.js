// Big pictures draw only what is near the view. A 2,000-box graph has some 6,000 elements
// and thousands of labels; the browser styles and lays out every one of them, seen or not.
// So the boxes and arrows are grouped, in drawing order, into chunks of a few dozen, each
// with the layout box it covers, and a chunk far from the view is taken out of the page (a
// comment keeps its place). Taken out, not hidden: the browser styles every element of a
// newly inserted SVG, display:none or not, which at 2,000 boxes holds the page for a few
// hundred milliseconds; an element out of the page costs nothing. Moving the view (pan, zoom,
// Fit, a step that follows the work) puts back the chunks it comes near. Small pictures are
// left alone. The chunks of a new run's picture are made ahead, in turns (cullingSteps).
import { runNow } from '../turns.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const MIN_ELEMENTS = 300;   // boxes and arrows below which everything is simply drawn
const CHUNK = 40;           // elements in a chunk: few enough to draw, many enough to skip
const REACH = 12;           // layout units an arrow may bend beyond its ends' boxes

/** @typedef {{show:(rect:{x:number,y:number,w:number,h:number})=>void,
 *   reveal:(el:Element)=>void, whole:()=>SVGSVGElement}} Culling */

/**
 * @param {import('./layout.js').GraphIndex} index
 * @returns {Culling|null} null for a picture small enough to draw whole
 */
export function createCulling(index) {
  return runNow(cullingSteps(index));
}

/**
 * createCulling as steps, for runInTurns (../turns.js): yields after each element it moves.
 * @param {import('./layout.js').GraphIndex} index
 * @returns {Generator<undefined, Culling|null>}
 */
export function* cullingSteps(index) {
  const isItem = (el) => el.classList.contains('node') || el.classList.contains('edge');
  const items = [...index.scene.children].filter(isItem);
  if (items.length < MIN_ELEMENTS) return null;
  const o = index.offset;
  const ends = new Map(index.edgeList.map((e) => [e.id, [e.from, e.to]]));
  const chunks = [];
  let chunk = null;
  let previous = null;
  for (const el of items) {
    // a chunk holds neighbours in drawing order; anything else between them starts a new one
    if (!chunk || chunk.size >= CHUNK || el.previousElementSibling !== previous) {
      const g = document.createElementNS(SVG_NS, 'g');
      g.setAttribute('class', 'gs-chunk');
      el.before(g);
      chunk = { el: g, size: 0, x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity, on: true,
        mark: document.createComment('') };
      g.before(chunk.mark);
      chunks.push(chunk);
    }
    chunk.el.append(el);
    chunk.size += 1;
    const ids = el.classList.contains('node') ? [el.id] : ends.get(el.id) || [];
    const reach = el.classList.contains('node') ? 0 : REACH;
    for (const id of ids) {
      const b = index.boxes[id];
      if (!b) continue;
      chunk.x0 = Math.min(chunk.x0, b.x - o.x - b.w / 2 - reach);
      chunk.x1 = Math.max(chunk.x1, b.x - o.x + b.w / 2 + reach);
      chunk.y0 = Math.min(chunk.y0, b.y - o.y - b.h / 2 - reach);
      chunk.y1 = Math.max(chunk.y1, b.y - o.y + b.h / 2 + reach);
    }
    previous = chunk.el;   // the next item follows the chunk now, not the moved element
    yield;
  }
  const display = (c, on) => {
    if (c.on === on) return;
    c.on = on;
    if (on) c.mark.after(c.el); else c.el.remove();
  };
  // nothing is displayed until the first view says what is near: the first layout of the
  // picture (when Fit reads the pane's size) then costs only what is seen
  for (const c of chunks) display(c, false);

  return {
    /** Display the chunks that meet `rect` (layout units, the scene's origin). */
    show(rect) {
      const x0 = rect.x - o.x;
      const y0 = rect.y - o.y;
      for (const c of chunks) {
        display(c, c.x1 >= x0 && c.x0 <= x0 + rect.w && c.y1 >= y0 && c.y0 <= y0 + rect.h);
      }
    },
    /** Display the chunk of one element, to measure it before the view gets there. */
    reveal(el) {
      const c = chunks.find((k) => k.el === el.parentNode);
      if (c) display(c, true);
    },
    /** A copy of the whole picture, every chunk in its place (for a file). */
    whole() {
      const copy = /** @type {SVGSVGElement} */ (index.svg.cloneNode(true));
      // the comments keep the chunks' places in the copy as in the page, in the same order
      const marks = [];
      const walk = document.createTreeWalker(copy, NodeFilter.SHOW_COMMENT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) marks.push(n);
      const mine = [];
      const walkPage = document.createTreeWalker(index.svg, NodeFilter.SHOW_COMMENT);
      for (let n = walkPage.nextNode(); n; n = walkPage.nextNode()) mine.push(n);
      const at = new Map(mine.map((n, k) => [n, marks[k]]));
      for (const c of chunks) {
        if (!c.on) at.get(c.mark).after(c.el.cloneNode(true));
      }
      return copy;
    },
  };
}
