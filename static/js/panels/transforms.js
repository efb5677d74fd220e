// The Transforms panel: a Jacobian filling in as jacrev computes it row by row (one vᵀJ per
// output element) or jacfwd column by column (one J·v per input element), with the row or
// column at work and its one-hot seed; and vmap's batch, sample by sample. The data is the
// fold's (trace_transforms.js); the J·v / uᵀJ of a single product is panels/jvp.js's.
import { h, fill } from '../dom.js';
import { tr } from '../i18n.js';
import { num, flat, short } from '../format.js';
import { shownTransform, workingOn } from '../trace_transforms.js';

const MATRIX = new Set(['rows', 'columns', 'batch']);

/** Row i of the matrix a transform has so far: from its steps, or its result once ended. */
function rowOf(t, i) {
  const b = t.begin;
  if (b.mode === 'rows') return t.cells[i] ? flat(t.cells[i].data) : null;
  const done = t.result && t.result.data !== null ? flat(t.result.data) : null;
  return Array.from({ length: b.cols }, (_, j) => {
    const col = t.cells[j];
    if (col && col.data !== null) return flat(col.data)[i];
    return done ? done[i * b.cols + j] : null;
  });
}

function matrixTable(t, at, S) {
  const b = t.begin;
  const full = t.result && t.result.data !== null ? flat(t.result.data) : null;
  const label = tr(S, b.mode === 'rows' ? 'tf_matrix_rows' : 'tf_matrix_cols');
  const head = h('tr', {}, h('th', { scope: 'col' }, ''), Array.from({ length: b.cols }, (_, j) =>
    h('th', { scope: 'col', class: b.mode === 'columns' && at && at.index === j ? 'is-at' : null }, `x${j}`)));
  const body = Array.from({ length: b.rows }, (_, i) => {
    let row = rowOf(t, i);
    if (b.mode === 'rows' && !row && full) row = full.slice(i * b.cols, (i + 1) * b.cols);
    const rowAt = b.mode === 'rows' && at && at.index === i;
    return h('tr', { class: rowAt ? 'is-at' : null },
      h('th', { scope: 'row' }, `y${i}`),
      Array.from({ length: b.cols }, (_, j) => {
        const x = row ? row[j] : null;
        const colAt = b.mode === 'columns' && at && at.index === j;
        const cls = [x === null || x === undefined ? 'is-empty' : 'is-filled',
          rowAt || colAt ? (at.done ? 'is-new' : 'is-at') : ''].join(' ');
        return h('td', { class: cls }, x === null || x === undefined ? '·' : num(x));
      }));
  });
  return h('table', { class: 'jac tf-matrix', 'aria-label': label }, h('thead', {}, head),
    h('tbody', {}, body));
}

function seedLine(t, at, S) {
  if (!at) return h('p', { class: 'tf-status' }, tr(S, t.done ? 'tf_done' : 'tf_waiting'));
  const n = t.begin.mode === 'rows' ? t.begin.rows : t.begin.cols;
  const seed = Array.from({ length: n }, (_, k) => (k === at.index ? 1 : 0));
  const key = t.begin.mode === 'rows' ? (at.done ? 'tf_row_done' : 'tf_row_at')
    : (at.done ? 'tf_col_done' : 'tf_col_at');
  return h('p', { class: 'tf-status' }, tr(S, key, { i: at.index, n }), ' ',
    h('span', { class: 'lbl' }, tr(S, t.begin.mode === 'rows' ? 'tf_seed_u' : 'tf_seed_v'), ' = '),
    h('code', { class: 'tf-seed' }, `[${seed.join(', ')}]`));
}

function batchStrip(t, at, S) {
  const items = Array.from({ length: t.begin.rows }, (_, b) => {
    const got = t.cells[b];
    const cls = ['tf-sample', got ? 'is-filled' : 'is-empty',
      at && at.index === b ? (at.done ? 'is-new' : 'is-at') : ''].join(' ');
    return h('li', { class: cls },
      h('span', { class: 'lbl' }, tr(S, 'tf_sample', { b })),
      h('code', {}, got ? short(t.seeds[b]) : '…'), ' → ',
      h('code', { class: 'tf-out' }, got ? short(got) : '…'));
  });
  return h('ol', { class: 'tf-batch', 'aria-label': tr(S, 'tf_batch_label') }, items);
}

/** @param {HTMLElement} el @param {Object} state the fold's state @param {Object} S strings */
export function renderTransforms(el, state, S) {
  const t = shownTransform(state, (mode) => MATRIX.has(mode));
  const panel = /** @type {HTMLElement|null} */ (el.closest('.panel'));
  if (panel) panel.hidden = !t;
  if (!t) return fill(el);
  const b = t.begin;
  const at = workingOn(t, state.index);
  const head = h('p', { class: 'note' }, h('code', {}, `${b.api}`), ' ',
    tr(S, `tf_explain_${b.mode}`, { steps: b.steps }));
  if (b.mode === 'batch') return fill(el, head, batchStrip(t, at, S));
  fill(el, head, seedLine(t, at, S), matrixTable(t, at, S));
}
