// The server's layout (docs/api.md, `layout`) made usable in the page: the SVG parsed and
// cleaned, and an index from trace ids to their elements and edges. Positions come from the
// whole run, computed once by Graphviz, so nothing moves while the learner steps.

/**
 * @typedef {{svg:SVGSVGElement, scene:SVGGraphicsElement, overlay:SVGGElement,
 *   nodes:Map<string,SVGGElement>, edges:Map<string,SVGGElement>,
 *   edgeList:Array<{id:string, from:string, to:string, kind:string}>,
 *   boxes:Object<string,{x:number,y:number,w:number,h:number}>,
 *   width:number, height:number, baseClass:Map<Element,string>,
 *   offset:{x:number, y:number}, reveal?:(el:Element)=>void}} GraphIndex
 */

import { parseSvg, parseSvgInChunks } from './svg_parse.js';
import { runNow } from '../turns.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

// pictures parsed ahead, a piece at a time (prepareLayout), until indexLayout takes them
const prepared = new WeakMap();

// Freed nodes are hatched as well as dashed, so "freed" never rests on a colour.
function hatch() {
  const defs = document.createElementNS(SVG_NS, 'defs');
  const pattern = document.createElementNS(SVG_NS, 'pattern');
  for (const [k, v] of Object.entries({ id: 'gs-hatch', width: 6, height: 6,
    patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' })) pattern.setAttribute(k, String(v));
  const bg = document.createElementNS(SVG_NS, 'rect');
  for (const [k, v] of Object.entries({ width: 6, height: 6, fill: '#ffffff' })) bg.setAttribute(k, String(v));
  const line = document.createElementNS(SVG_NS, 'rect');
  for (const [k, v] of Object.entries({ width: 2, height: 6, fill: '#ced4da' })) line.setAttribute(k, String(v));
  pattern.append(bg, line);
  defs.append(pattern);
  return defs;
}

/**
 * @param {Object} layout the run answer's `layout`
 * @returns {GraphIndex}
 */
export function indexLayout(layout) {
  return runNow(indexSteps(layout));
}

/**
 * indexLayout as steps, for runInTurns (../turns.js): yields after each box and arrow.
 * @param {Object} layout @returns {Generator<undefined, GraphIndex>}
 */
export function* indexSteps(layout) {
  const svg = prepared.get(layout) || parseSvg(layout.svg);
  prepared.delete(layout);
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  svg.setAttribute('class', 'graph-svg');
  svg.setAttribute('role', 'img');
  const scene = /** @type {SVGGElement|null} */ (svg.querySelector('g.graph')) || svg;
  for (const t of scene.querySelectorAll(':scope > title')) t.remove();
  svg.prepend(hatch());
  const overlay = document.createElementNS(SVG_NS, 'g');
  overlay.setAttribute('class', 'gs-overlay');
  overlay.setAttribute('aria-hidden', 'true');
  scene.append(overlay);

  const nodes = new Map();
  const edges = new Map();
  const baseClass = new Map();
  // one pass over the drawn boxes and arrows: looking each id up in a detached SVG scans the
  // whole tree every time (seconds at 2,000 boxes)
  const byId = new Map();
  for (const el of scene.querySelectorAll('g.node, g.edge')) {
    byId.set(el.id, el);
    yield;
  }
  for (const id of Object.keys(layout.nodes || {})) {
    const el = byId.get(id);
    if (el) { nodes.set(id, el); baseClass.set(el, el.getAttribute('class') || ''); }
    yield;
  }
  for (const e of layout.edges || []) {
    const el = byId.get(e.id);
    if (el) { edges.set(e.id, el); baseClass.set(el, el.getAttribute('class') || ''); }
    yield;
  }
  // The layout's coordinates are the SVG's; what is drawn inside the scene is moved by the
  // scene's own transform (Graphviz's translate), so drawing there subtracts it.
  const m = scene !== svg && scene.transform && scene.transform.baseVal.consolidate();
  const offset = m ? { x: m.matrix.e, y: m.matrix.f } : { x: 0, y: 0 };
  return { svg, scene, overlay, nodes, edges, edgeList: layout.edges || [],
    boxes: layout.nodes || {}, width: layout.width, height: layout.height, baseClass, offset };
}

/**
 * Parse a picture ahead without holding the page: the next indexLayout of the same picture
 * object takes the result instead of parsing it in one go.
 * @param {Object} layout a picture of the run answer's `layout` (itself, a view, a compact one)
 */
export async function prepareLayout(layout) {
  if (!layout || typeof layout.svg !== 'string' || prepared.has(layout)) return;
  prepared.set(layout, await parseSvgInChunks(layout.svg));
}

/** The edge element between two ids, drawn either way round (e_<from>_<to>). */
export function edgeBetween(index, a, b) {
  return index.edges.get(`e_${a}_${b}`) || index.edges.get(`e_${b}_${a}`) || null;
}
