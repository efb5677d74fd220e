// The server's SVG text made into an element of the page, whole or a piece at a time. A
// 2,000-box picture is 1.7 MB of SVG: parsed in one go it holds the main thread for hundreds
// of milliseconds on a slow machine, so a new run's picture is parsed in pieces of a few
// dozen boxes, the page free to paint and answer between them. Both ways give the same
// elements (tests/web/test_graph_chunked.py).

import { BUDGET_MS, pause } from '../turns.js';

const PIECE = 40;           // top-level boxes and arrows parsed at once

// The SVG comes from our own server, but it carries program-chosen text (names, reprs), so
// anything active is removed before it enters the page: elements that run or embed, and SVG's
// animation elements, which can set an attribute (a link's target) on their own.
const ACTIVE_ELEMENTS = 'script, foreignObject, iframe, set, animate, animateMotion, animateTransform';
function clean(svg) {
  for (const el of svg.querySelectorAll(ACTIVE_ELEMENTS)) el.remove();
  for (const el of svg.querySelectorAll('*')) {
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on') || ((name === 'href' || name === 'xlink:href') && !attr.value.startsWith('#'))) {
        el.removeAttribute(attr.name);
      }
      if (name === 'style') el.removeAttribute(attr.name);
    }
  }
}

// Could `text` hold anything clean() removes? HTML's tokenizer starts an attribute's name after
// a space, a slash or a quote, and an element's name right after '<'; where the text has none
// of these names there, clean() would find nothing, and its walk over every element and
// attribute (tens of thousands of objects at 2,000 boxes, and their collection) is skipped.
const ACTIVE = /[\s/"'](?:on|style|href|xlink:href)|<(?:script|foreignobject|iframe|set|animate)/i;

/** Parse `text` (an <svg> and what it holds) into a detached, cleaned element of this document. */
function parsePiece(text) {
  // An inert <template> parses with the HTML parser, about half the time of DOMParser's XML
  // parser on a 2,000-box graph; nothing in a template runs, and clean() strips the rest.
  const holder = document.createElement('template');
  holder.innerHTML = text;
  const parsed = holder.content.firstElementChild;
  if (!parsed || parsed.nodeName.toLowerCase() !== 'svg') throw new Error('layout: the graph is not an SVG');
  if (ACTIVE.test(text)) clean(parsed);
  return parsed;
}

/** The whole picture at once. @param {string} text @returns {SVGSVGElement} */
export function parseSvg(text) {
  return /** @type {SVGSVGElement} */ (/** @type {Element} */ (document.importNode(parsePiece(text), true)));
}

// Where the scene's children can be cut apart: Graphviz writes the scene (<g class="graph">)
// as the svg's first group, and in it one group per box, arrow and frame. Returns the end of
// the scene's opening tag and the ends of its top-level groups, or null for any other shape.
function cuts(text) {
  const tag = /<!--[\s\S]*?-->|<\/g\s*>|<g(?:\s[^>]*)?>/g;
  let depth = 0;
  let open = -1;
  const ends = [];
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    const t = m[0];
    if (t.startsWith('<!--') || t.endsWith('/>')) continue;
    if (t.startsWith('</')) {
      depth -= 1;
      if (depth === 1) ends.push(m.index + t.length);
      if (depth < 0) return null;
    } else {
      depth += 1;
      if (depth === 1 && open < 0) open = m.index + t.length;
    }
  }
  return open < 0 || depth !== 0 ? null : { open, ends };
}

/**
 * The whole picture, parsed a piece at a time with the thread given back between pieces.
 * @param {string} text @param {number} [piece] groups a piece holds
 * @returns {Promise<SVGSVGElement>}
 */
export async function parseSvgInChunks(text, piece = PIECE) {
  const at = cuts(text);
  if (!at || at.ends.length < 2 * piece) return parseSvg(text);
  const sceneEnd = text.lastIndexOf('</g>', text.lastIndexOf('</svg>'));
  // the svg and the scene without the scene's groups: the frame the pieces go into
  const frame = parseSvg(text.slice(0, at.open) + text.slice(sceneEnd));
  const scene = frame.querySelector(':scope > g');
  if (!scene) return parseSvg(text);
  let from = at.open;
  let started = performance.now();
  for (let k = piece - 1; from < sceneEnd; k += piece) {
    // the last piece runs up to the scene's closing tag, with what follows its last group
    const to = k < at.ends.length - 1 ? at.ends[k] : sceneEnd;
    scene.append(...parsePiece(`<svg>${text.slice(from, to)}</svg>`).childNodes);
    from = to;
    if (performance.now() - started > BUDGET_MS) {
      await pause();
      started = performance.now();
    }
  }
  return frame;
}
