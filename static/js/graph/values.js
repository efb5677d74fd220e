// Numbers inside the boxes (micrograd's "data | grad"): the rows the server's layout kept
// room for under each label (docs/layout.md, value rows). A tensor of a handful of elements
// shows its numbers, a larger one its range; an op node with saved tensors lists them, and
// says when backward freed them (torchviz's show_saved). Text never outgrows its room: a
// longer value is cut with "…" and the tooltip has it whole.
import { flat, numel, short, shapeText } from '../format.js';
import { runNow } from '../turns.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const HANDFUL = 4;        // the same limit as HANDFUL in app/services/graph.py
const ROW_PT = 13;        // ROW_PT in app/services/layout.py
const BOTTOM_PT = 5;      // from the box's lower edge to the last row's baseline

/** A number in 3 significant digits, mostly at most 6 characters ("-0.123", "1.2e-5"). */
export function compact(x) {
  if (typeof x === 'string') return x;
  if (typeof x === 'boolean') return x ? 'True' : 'False';
  if (typeof x !== 'number' || Number.isNaN(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e4 || a < 1e-3) return x.toExponential(1).replace('e+', 'e');
  return String(Number(x.toPrecision(3)));
}

/** A value as row text: the numbers of a small tensor, the range of a larger one. */
export function valueText(value) {
  if (value === null || value === undefined) return 'None';
  if (value.data === null || value.data === undefined) return '…';
  if (!Array.isArray(value.data)) return compact(value.data);
  if (numel(value.shape) > HANDFUL) {
    const xs = flat(value.data).filter((v) => typeof v === 'number');
    if (!xs.length) return '…';
    return `∈ [${compact(Math.min(...xs))}, ${compact(Math.max(...xs))}]`;
  }
  const walk = (d) => (Array.isArray(d) ? `[${d.map(walk).join(', ')}]` : compact(d));
  return walk(value.data);
}

/** Cut `text` to `chars` characters, marking the cut. */
export function fitText(text, chars) {
  return text.length <= chars ? text : `${text.slice(0, Math.max(1, chars - 1))}…`;
}

/**
 * The rows' text elements, put in their boxes a box a step (for runInTurns, ../turns.js);
 * returns what createValueRows takes. @param {import('./layout.js').GraphIndex} index
 * @returns {Generator<undefined, Map<string, Object>>}
 */
export function* rowSteps(index) {
  const rows = new Map();   // node id -> {row name -> {el, text}}
  for (const [id, el] of index.nodes) {
    const b = /** @type {{x:number, y:number, h:number, rows?:string[]}} */ (index.boxes[id]);
    yield;
    if (!b || !b.rows || !b.rows.length) continue;
    const mine = {};
    b.rows.forEach((name, k) => {
      const y = b.y - index.offset.y + b.h / 2 - BOTTOM_PT - (b.rows.length - 1 - k) * ROW_PT;
      const t = document.createElementNS(SVG_NS, 'text');
      t.setAttribute('class', `gs-row gs-row-${name}`);
      t.setAttribute('x', (b.x - index.offset.x).toFixed(1));
      t.setAttribute('y', y.toFixed(1));
      t.setAttribute('text-anchor', 'middle');
      el.append(t);
      mine[name] = { el: t, text: '', key: undefined };
    });
    rows.set(id, mine);
  }
  return rows;
}

/**
 * Creates the row painter of one graph index, with the rows rowSteps made if given.
 * @param {any} index a GraphIndex (layout.js) @param {Map<string, Object>} [made]
 */
export function createValueRows(index, made) {
  const rows = made || runNow(rowSteps(index));

  const set = (row, key, make, freed = false) => {
    if (row.key === key && row.freed === freed) return false;   // the same value: no work
    row.key = key;
    row.freed = freed;
    const text = make();
    row.el.classList.toggle('is-freed-row', freed);
    if (text === row.text) return false;
    // a leading space, which SVG does not draw, keeps the rows apart from the label and each
    // other in the box's text as assistive technology reads it ("1 grad", not "1grad")
    row.el.textContent = text ? ` ${text}` : '';
    row.text = text;
    return true;
  };

  /**
   * Write this step's numbers; `actual(drawn)` maps a drawn box to the id in the state, and
   * `only` (drawn ids) limits the work to the boxes a step changed.
   */
  function paint(state, actual = (id) => id, only = null) {
    for (const drawn of only || rows.keys()) {
      const mine = rows.get(drawn);
      if (!mine) continue;
      let changed = false;
      const id = actual(drawn);
      const chars = index.boxes[drawn].chars || 12;
      const tensor = state.tensors[id];
      if (mine.data) {
        const v = tensor ? tensor.value : null;
        // a tensor changed in place says its version (v1, v2 …), what saved tensors check
        const ver = tensor && tensor.version ? `v${tensor.version} ` : '';
        changed = set(mine.data, v, () => (tensor ? fitText(`${ver}data ${valueText(v)}`, chars) : '')) || changed;
      }
      if (mine.grad) {
        const g = state.grads[id];
        changed = set(mine.grad, tensor ? g : undefined,
          () => (tensor ? fitText(`grad ${valueText(g)}`, chars) : '')) || changed;
      }
      if (mine.saved) {
        const node = state.nodes[id];
        const freed = !!(node && node.freed);
        changed = set(mine.saved, node, () => {
          if (!node) return '';
          const names = node.saved.map((s) => s.name).join(', ');
          return fitText(`${freed ? 'freed' : 'saved'}: ${names}`, chars);
        }, freed) || changed;
      }
      if (changed) nameBox(index.nodes.get(drawn));
    }
  }

  return { paint };
}

/** A box's accessible name: the words it shows (label and rows), then what its tooltip adds
 * (`data-tip`), so speech input can say what it sees. Renamed when its rows change. */
export function nameBox(el) {
  if (!el) return;
  const words = [...el.querySelectorAll('text')].map((t) => t.textContent.trim()).filter(Boolean)
    .join(' ');
  el.setAttribute('aria-label', [words, el.dataset.tip].filter(Boolean).join(' — ') || el.id);
}

/**
 * The tooltip's lines for a box at this step: everything the row had to shorten. `S` holds
 * the page's strings (tip_value, tip_grad, tip_saved, tip_freed, tip_alive).
 */
export function describeBox(state, id, S, tr) {
  const tensor = state.tensors[id];
  const node = state.nodes[id];
  if (tensor) {
    const lines = [`${tensor.name || id} ${shapeText(tensor.shape)} ${tensor.dtype}`,
      `${tr(S, 'tip_value')}: ${short(tensor.value, 64)}`];
    if (id in state.grads) lines.push(`${tr(S, 'tip_grad')}: ${short(state.grads[id], 64)}`);
    const tangent = state.tangents && state.tangents[id];
    if (tangent) lines.push(`${tr(S, 'tip_tangent')}: ${short(tangent, 64)}`);
    return lines;
  }
  if (node) {
    const lines = [node.name];
    for (const s of node.saved || []) {
      const how = s.freed || node.freed ? tr(S, 'tip_freed') : tr(S, 'tip_alive');
      lines.push(`${tr(S, 'tip_saved')} ${s.name}: ${how}${s.value && !(s.freed || node.freed) ? ` = ${short(s.value, 16)}` : ''}`);
    }
    return lines;
  }
  return [];
}
