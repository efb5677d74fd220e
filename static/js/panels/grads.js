// .grad over time: for every leaf that has had a gradient, each change in order — a backward
// pass adding (before + added = after), zero_(), = None — up to the current step. A plain list,
// not a numbered one: each entry's label names its backward pass, and a list number would count
// zero_() entries and restart after the "…" of older ones.
import { h, fill } from '../dom.js';
import { tr } from '../i18n.js';
import { short } from '../format.js';

function change(c, S) {
  const label = c.how === 'accumulate' ? tr(S, 'hist_accumulate', { pass: (c.pass ?? 0) + 1 })
    : tr(S, `hist_${c.how}`);
  const math = c.how === 'accumulate'
    ? [h('code', {}, short(c.before)), ' + ', h('code', { class: 'added' }, short(c.added)), ' = ',
      h('code', { class: 'after' }, short(c.after))]
    : [h('code', {}, short(c.before)), ' → ', h('code', { class: 'after' }, short(c.after))];
  return h('li', { class: `hist hist-${c.how.replace('_', '')}`, dataset: { seq: c.seq } },
    h('span', { class: 'hist-label' }, label), ' ', h('span', { class: 'hist-math' }, math));
}

/** @param {HTMLElement} el @param {import('../trace.js').State} state */
export function renderGrads(el, state, S, onPick) {
  const ids = Object.keys(state.history);
  if (!ids.length) return fill(el, h('p', { class: 'empty' }, tr(S, 'grads_empty')));
  fill(el, ids.map((id) => {
    const t = state.tensors[id];
    const list = state.history[id];
    const recent = list.slice(-6);
    return h('div', { class: 'grad-leaf', dataset: { tensor: id } },
      h('button', { type: 'button', class: 'link', onclick: () => onPick && onPick(id) },
        h('code', {}, `${(t && t.name) || tr(S, 'unnamed_short')}.grad`)),
      list.length > recent.length ? h('p', { class: 'note' }, `… ${list.length - recent.length}`) : null,
      h('ul', { class: 'hist-list' }, recent.map((c) => change(c, S))));
  }));
}
