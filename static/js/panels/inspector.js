// The inspector: everything PyTorch would tell you about the selected tensor or node, at the
// current step (value, .grad, shape, dtype, requires_grad, is_leaf, grad_fn, saved tensors
// alive or freed, the local rule).
import { h, fill } from '../dom.js';
import { tr } from '../i18n.js';
import { short, shapeText } from '../format.js';
import { optimView, zeroGradView } from './optim.js';
import { chainView, meetView, bumpView } from './chain.js';
import { chainAt, meetAt, bumpOf } from '../chain.js';

const py = (b) => (b ? 'True' : 'False');

function row(S, key, value, cls = '') {
  return [h('dt', {}, tr(S, key)), h('dd', { class: cls }, value)];
}

function tensorKind(t) {
  if (t.requires_grad && t.is_leaf) return t.how === 'Parameter' ? 'kind_param' : 'kind_leaf';
  return t.grad_fn ? 'kind_tensor' : 'kind_constant';
}

function valueBlock(value) {
  if (!value) return h('code', {}, 'None');
  return h('pre', { class: 'value' }, value.repr || short(value, 24));
}

function tensorView(state, t, S) {
  const grad = state.grads[t.id];
  const tangent = state.tangents && state.tangents[t.id];
  const fn = t.grad_fn && state.nodes[t.grad_fn];
  const notes = [];
  if (!t.requires_grad && !t.grad_fn) notes.push(h('p', { class: 'note' }, tr(S, 'outside_graph')));
  if (t.in_backward) notes.push(h('p', { class: 'note' }, tr(S, 'made_in_backward')));
  return [
    h('h3', { class: 'inspect-title' }, h('code', {}, t.name || tr(S, 'unnamed_short')),
      h('span', { class: 'chip' }, tr(S, tensorKind(t)))),
    notes,
    h('dl', { class: 'facts' },
      row(S, 'f_value', valueBlock(t.value)),
      row(S, 'f_grad', grad ? valueBlock(grad) : h('code', {}, 'None'), grad ? 'has-grad' : ''),
      tangent ? row(S, 'f_tangent', valueBlock(tangent), 'has-tangent') : null,
      row(S, 'f_shape', h('code', {}, `torch.Size(${JSON.stringify(t.shape)})`)),
      row(S, 'f_dtype', h('code', {}, t.dtype)),
      row(S, 'f_requires_grad', h('code', {}, py(t.requires_grad))),
      row(S, 'f_is_leaf', h('code', {}, py(t.is_leaf))),
      row(S, 'f_grad_fn', h('code', {}, fn ? `<${fn.name}>` : 'None')),
      t.version ? row(S, 'f_version', versionText(state, t), 'has-version') : null),
  ];
}

// `v0 → v1` at the in-place step that bumped it, `v1` afterwards
function versionText(state, t) {
  const ev = state.event;
  const now = ev && ev.kind === 'inplace' && ev.tensor === t.id;
  return h('code', { class: now ? 'version-bump' : '' }, now ? `v${t.version - 1} → v${t.version}` : `v${t.version}`);
}

function nodeView(state, n, S) {
  const apply = state.activeApply && state.activeApply.node === n.id ? state.activeApply : null;
  const name = (id) => (state.nodes[id] ? state.nodes[id].name : '?');
  const tensorName = (id) => (state.tensors[id] || {}).name || tr(S, 'unnamed_short');
  const saved = n.saved.length ? h('ul', { class: 'saved' }, n.saved.map((s) => {
    const value = s.tensor ? (state.tensors[s.tensor] || {}).value : s.value;
    const label = s.tensor ? tensorName(s.tensor) : short(value);
    return h('li', { class: s.freed ? 'is-freed' : 'is-alive' },
      h('code', {}, `_saved_${s.name}`), ' ', h('span', {}, label), ' ',
      h('span', { class: `chip ${s.freed ? 'chip-freed' : 'chip-alive'}` },
        s.freed ? `✕ ${tr(S, 'saved_freed')}` : `✓ ${tr(S, 'saved_alive')}`));
  })) : h('code', {}, '()');
  const next = n.next_functions.map(([id, k]) => (id ? `(${name(id)}, ${k})` : `(None, ${k})`)).join(', ');
  return [
    h('h3', { class: 'inspect-title' }, h('code', {}, n.name),
      h('span', { class: 'chip' }, tr(S, n.name === 'AccumulateGrad' ? 'kind_accumulate' : 'kind_op'))),
    n.in_backward ? h('p', { class: 'note' }, tr(S, 'made_in_backward')) : null,
    h('dl', { class: 'facts' },
      n.rule ? row(S, 'f_rule', h('code', {}, n.rule)) : null,
      n.variable ? row(S, 'f_variable', h('code', {}, tensorName(n.variable))) : null,
      row(S, 'f_next', h('code', {}, `(${next})`)),
      row(S, 'f_saved', saved),
      apply ? row(S, 'f_grads_in', h('code', {}, apply.grads_in.map((g) => short(g)).join(', '))) : null,
      apply ? row(S, 'f_grads_out', h('code', {}, apply.grads_out.map((g) => short(g)).join(', '))) : null),
  ];
}

// A library step (nn.Linear building its parameters) opened: what it made, by name and shape.
function libraryView(state, ev, S) {
  const made = (ev.carried || []).filter((c) => c.kind === 'tensor' && c.how === 'Parameter');
  return [
    h('h3', { class: 'inspect-title' }, tr(S, 'library_open')),
    h('ul', { class: 'library-made' }, made.map((c) => {
      const t = state.tensors[c.tensor.id] || c.tensor;
      return h('li', {}, h('code', {}, tr(S, 'library_param', { name: t.name || tr(S, 'unnamed_short'),
        shape: t.shape.length === 1 ? `(${t.shape[0]},)` : `(${t.shape.join(', ')})` })));
    })),
  ];
}

/**
 * The chain-rule card for this step, if it has one: a node's backward with its local
 * derivatives, paths meeting at a leaf, or an in-place error's bump.
 * @param {{pick:(Object|null), onPick:(p:Object)=>void, onGo:(seq:number)=>void}} chain
 */
function chainCard(state, selected, S, chain) {
  const ev = state.event;
  const words = { unnamed: tr(S, 'unnamed_short'), input: tr(S, 'chain.input') };
  if (ev.kind === 'node_apply' && (!selected || selected === ev.node)) {
    const c = chainAt(state, chain.pick, words);
    if (c) return chainView(c, S, chain.onPick);
  }
  if (ev.kind === 'accumulate' && state.merged && (!selected || selected === ev.node)) {
    const m = meetAt(state, 0, words);
    const t = state.tensors[ev.tensor];
    if (m) return [meetView(m, `${(t && t.name) || words.unnamed}.grad`, S), nodeView(state, state.nodes[ev.node], S)];
  }
  const b = state.error && ['error', 'end'].includes(ev.kind) && (!selected || selected === state.error.node)
    ? bumpOf(state, words) : null;
  return b ? bumpView(b, S, chain.onGo) : null;
}

/** Repaint the inspector for the selected id (or the step's active node). */
export function renderInspector(el, state, selected, S, chain = null) {
  const ev = state.event;
  // an in-place step shows the tensor it changed, with its version bump
  const id = selected || state.active || (ev && ev.kind === 'inplace' ? ev.tensor : null);
  const card = ev && chain ? chainCard(state, selected, S, chain) : null;
  if (card) {
    // drawn afresh each step: the element button that had the keyboard focus keeps it
    const had = el.contains(document.activeElement) ? /** @type {HTMLElement} */ (document.activeElement).dataset.pick : null;
    fill(el, card);
    const again = had ? /** @type {HTMLElement|null} */ (el.querySelector(`[data-pick="${had}"]`)) : null;
    if (again) again.focus();
    return el;
  }
  if (!id && ev && ev.kind === 'elided' && ev.reason === 'library') return fill(el, libraryView(state, ev, S));
  // an optimizer's step shows its rule, unless the learner picked something else
  if (ev && ev.kind === 'optimizer_update' && (!selected || selected === ev.tensor)) return fill(el, optimView(state, ev, S));
  if (ev && ev.kind === 'zero_grad' && !selected) return fill(el, zeroGradView(state, ev, S));
  if (!id) return fill(el, h('p', { class: 'empty' }, tr(S, 'inspector_empty')));
  const t = state.tensors[id];
  const n = state.nodes[id];
  if (t) return fill(el, tensorView(state, t, S));
  if (n) return fill(el, nodeView(state, n, S));
  return fill(el, h('p', { class: 'empty' }, tr(S, 'not_yet')));
}

export { shapeText };
