// The J·v panel, the dual of the v·J panel: for a jvp, J with each column weighted by the
// tangent's vⱼ and the product J·v = Σⱼ vⱼ·(column j); for a vjp's vjp_fn, the same J with
// each row weighted by uᵢ and uᵀJ = Σᵢ uᵢ·(row i). Next to it, the product the engine
// returned, so the two can be compared by eye.
import { h, fill } from '../dom.js';
import { tr } from '../i18n.js';
import { num, flat, close } from '../format.js';
import { shownTransform } from '../trace_transforms.js';

const strength = (w) => (w > 0.66 ? 'w3' : w > 0.33 ? 'w2' : w > 0 ? 'w1' : 'w0');

function weighted(rows, vec, byColumn, label) {
  const vmax = Math.max(...vec.map(Math.abs)) || 1;
  const weight = (k) => strength(Math.abs(vec[k] || 0) / vmax);
  const head = byColumn ? h('thead', {}, h('tr', {}, h('th', {}, ''),
    vec.map((x, j) => h('th', { scope: 'col', class: `weight ${weight(j)}` }, `× ${num(x)}`)))) : null;
  return h('table', { class: `jac jvp-matrix ${byColumn ? 'by-column' : 'by-row'}`, 'aria-label': label }, head,
    h('tbody', {}, rows.map((r, i) => h('tr', { class: byColumn ? null : `jac-row ${weight(i)}` },
      h('th', { scope: 'row', class: byColumn ? null : 'weight' }, byColumn ? `y${i}` : `${num(vec[i])} ×`),
      r.map((x, j) => h('td', { class: byColumn ? weight(j) : null }, num(x)))))));
}

function product(rows, vec, forward) {
  if (forward) return rows.map((r) => r.reduce((s, x, j) => s + x * (vec[j] || 0), 0));
  return rows[0].map((_, j) => rows.reduce((s, r, i) => s + r[j] * (vec[i] || 0), 0));
}

/** @param {HTMLElement} el @param {Object} state the fold's state @param {Object} S strings */
export function renderJvp(el, state, S) {
  const t = shownTransform(state, (mode) => mode === 'product');
  const panel = /** @type {HTMLElement|null} */ (el.closest('.panel'));
  if (panel) panel.hidden = !t;
  if (!t) return fill(el);
  const forward = t.begin.api === 'jvp';
  const vecName = tr(S, forward ? 'jvp_v' : 'jvp_u');
  const resultName = tr(S, forward ? 'jvp_result' : 'jvp_result_u');
  const parts = [h('p', { class: 'note' }, tr(S, forward ? 'jvp_explain' : 'jvp_explain_u'))];
  if (!t.seed) {
    parts.push(h('p', { class: 'note' }, tr(S, 'jvp_pending')));
    return fill(el, parts);
  }
  const vec = flat(t.seed.data);
  parts.push(h('p', { class: 'jvp-v' }, h('span', { class: 'lbl' }, vecName, ' = '),
    h('code', { class: 'tf-seed' }, `[${vec.map(num).join(', ')}]`)));
  const J = t.begin.jacobian;
  if (J) {
    const mine = product(J, vec, forward);
    const engine = t.cells[0] || null;
    const same = engine ? close(engine, { data: mine, shape: [mine.length] }) : null;
    parts.push(h('p', { class: 'lbl' }, tr(S, 'jvp_J')), weighted(J, vec, forward, tr(S, 'jvp_J')),
      h('p', { class: 'jvp-sum' }, h('span', { class: 'lbl' }, resultName, ' = '),
        h('code', { class: 'jvp-result' }, `[${mine.map(num).join(', ')}]`)));
    if (engine) {
      parts.push(h('p', { class: `vjp-engine ${same ? 'is-match' : 'is-mismatch'}` },
        h('span', { class: 'lbl' }, tr(S, 'jvp_engine', { api: t.begin.api }), ' = '),
        h('code', { class: 'jvp-engine' }, `[${flat(engine.data).map(num).join(', ')}]`), ' ',
        h('span', { class: 'chip' }, same ? `✓ ${tr(S, 'vjp_match')}` : `✗ ${tr(S, 'vjp_mismatch')}`)));
    }
  } else {
    parts.push(h('p', { class: 'note' }, tr(S, 'jvp_no_J')),
      h('p', { class: 'jvp-sum' }, h('span', { class: 'lbl' }, resultName, ' = '),
        h('code', { class: 'jvp-result' }, `[${flat(t.cells[0].data).map(num).join(', ')}]`)));
  }
  fill(el, parts);
}
