// The v·J panel: for the current (or last) backward pass, v, the Jacobian J of each root with
// respect to each leaf, and vᵀJ as the sum of J's rows weighted by vᵢ — next to the .grad the
// engine actually accumulated, so the two can be compared by eye.
import { h, fill } from '../dom.js';
import { tr } from '../i18n.js';
import { num, flat, close } from '../format.js';

function matrix(rows, v, vmax) {
  return h('table', { class: 'jac' }, h('tbody', {}, rows.map((r, i) => {
    const weight = vmax ? Math.abs(v[i]) / vmax : 0;
    const strength = weight > 0.66 ? 'w3' : weight > 0.33 ? 'w2' : weight > 0 ? 'w1' : 'w0';
    return h('tr', { class: `jac-row ${strength}` },
      h('th', { scope: 'row', class: 'weight' }, `${num(v[i])} ×`),
      r.map((x) => h('td', {}, num(x))));
  })));
}

/** @param {HTMLElement} el @param {import('../trace.js').State} state */
export function renderVjp(el, state, S) {
  const pass = state.pass || state.lastPass;
  if (!pass) return fill(el, h('p', { class: 'empty' }, tr(S, 'vjp_empty')));
  if (!pass.jacobian) {
    // say which reason applies (docs/trace-format.md, section 5)
    const why = pass.jacobian_note ? `vjp_note_${pass.jacobian_note}` : 'vjp_too_big';
    return fill(el, h('p', { class: 'empty', dataset: { why: pass.jacobian_note || '' } }, tr(S, why)));
  }
  const name = (id) => (state.tensors[id] && state.tensors[id].name) || tr(S, 'unnamed_short');
  const blocks = pass.jacobian.map((j) => {
    const seed = pass.seeds[pass.roots.indexOf(j.root)];
    const v = flat(seed ? seed.data : [1]);
    const vmax = Math.max(...v.map(Math.abs));
    const engine = state.passAdded[j.leaf];
    const mine = { data: j.vjp, shape: [j.vjp.length] };
    const verdict = engine ? close(engine, mine) : null;
    return h('div', { class: 'vjp-block', dataset: { root: j.root, leaf: j.leaf } },
      h('p', { class: 'vjp-v' }, h('span', { class: 'lbl' }, tr(S, 'vjp_v'), ' = '),
        h('code', {}, `[${v.map(num).join(', ')}]`)),
      h('p', { class: 'lbl' }, tr(S, 'vjp_J', { root: name(j.root), leaf: name(j.leaf) })),
      matrix(j.rows, v, vmax),
      h('p', { class: 'vjp-sum' }, h('span', { class: 'lbl' }, tr(S, 'vjp_result'), ' = '),
        h('code', { class: 'vjp-result' }, `[${j.vjp.map(num).join(', ')}]`)),
      engine
        ? h('p', { class: `vjp-engine ${verdict ? 'is-match' : 'is-mismatch'}` },
          h('span', { class: 'lbl' }, tr(S, pass.api === 'grad' ? 'vjp_engine_grad' : 'vjp_engine',
            { leaf: name(j.leaf) }), ' = '),
          h('code', { class: 'vjp-grad' }, `[${flat(engine.data).map(num).join(', ')}]`), ' ',
          h('span', { class: 'chip' }, verdict ? `✓ ${tr(S, 'vjp_match')}` : `✗ ${tr(S, 'vjp_mismatch')}`))
        : h('p', { class: 'note' }, tr(S, 'vjp_pending', { leaf: name(j.leaf) })));
  });
  const hooked = state.passHooked ? [h('p', { class: 'note vjp-hooks' }, tr(S, 'vjp_hooks'))] : [];
  fill(el, h('p', { class: 'note' }, tr(S, pass.implicit_seed ? 'vjp_scalar' : 'vjp_explain')), ...hooked, blocks);
}
