// A tiny element builder, so views build DOM from data without innerHTML (no injection from
// program output, and nothing the CSP would have to allow).

/**
 * h('div', {class: 'x', onclick: f}, 'text', child) → an element. Attributes starting with
 * "on" become listeners; `dataset` is an object of data-*; null/false children are skipped.
 * @param {string} tag @param {Object} [attrs] @param {...any} children
 */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith('svg:');
  const el = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
    : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/** Replace all children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}
