// The names panel: at this step, which tensor (box) each name of the program refers to
// (names.js works it out from the trace). A name is a button: clicking it, or Enter on it,
// selects its box and brings it into view. A name bound for the first time at this step says
// so; one rebound says so too, with the box it referred to before, the way Python Tutor's
// arrow moves to the new object.
import { h, fill } from '../dom.js';
import { tr } from '../i18n.js';
import { namesAt } from '../names.js';

/**
 * @param {HTMLElement} el @param {Object|null} trace @param {import('../trace.js').State} state
 * @param {Object} S strings @param {(id:string)=>void} onPick @param {string|null} selected
 */
export function renderNames(el, trace, state, S, onPick, selected) {
  const rows = namesAt(trace, state);
  // the list is drawn afresh each step: a name that had the keyboard focus keeps it
  const active = el.contains(document.activeElement)
    ? /** @type {HTMLElement} */ (document.activeElement).closest('[data-name]') : null;
  const focusName = active ? /** @type {HTMLElement} */ (active).dataset.name : null;
  if (!rows.length) return fill(el, h('p', { class: 'empty' }, tr(S, 'names_empty')));
  const items = rows.map((r) => {
    const rebound = r.previous && r.changed;
    // the button's words are its name for assistive technology: "loss refers to (before:
    // loss₂) loss₃"; the arrow is drawn, the words are said
    const was = rebound ? h('span', { class: 'names-was' },
      h('span', { class: 'sr-only' }, tr(S, 'names_before')), h('s', {}, r.previous.label), ' ') : null;
    const note = !r.changed ? null
      : h('span', { class: 'chip names-chip' }, tr(S, r.grad ? 'names_grad_changed' : r.previous ? 'names_rebound' : 'names_bound'));
    return h('li', {
      class: `names-row${r.changed ? ' is-changed' : ''}${r.grad ? ' is-grad' : ''}`,
      dataset: { name: r.name, tensor: r.tensor, label: r.label },
    }, h('button', {
      type: 'button', class: 'names-pick', 'aria-pressed': String(selected === r.tensor && !r.grad),
      title: tr(S, 'names_pick', { name: r.name, box: r.label }),
      onclick: () => onPick(r.tensor),
    }, h('code', { class: 'names-name' }, r.name),
    h('span', { class: 'names-arrow', 'aria-hidden': 'true' }, '→'),
    h('span', { class: 'sr-only' }, ` ${tr(S, 'names_refers')} `),
    was, h('code', { class: 'names-box' }, r.label),
    r.grad && !r.label.endsWith('.grad') ? h('span', { class: 'names-part' }, tr(S, 'names_grad_row')) : null),
    note);
  });
  const list = h('ul', { class: 'names-list' }, items);
  fill(el, list);
  if (focusName) {
    const again = [...list.children].find((li) => /** @type {HTMLElement} */ (li).dataset.name === focusName);
    if (again) /** @type {HTMLElement} */ (again.querySelector('button')).focus();
  }
  // a long list (a model with many parameters) scrolls by itself, not the page, to keep a
  // rebound name in sight
  const moved = /** @type {HTMLElement|null} */ (list.querySelector('.is-changed'));
  if (moved && !focusName && list.scrollHeight > list.clientHeight) {
    list.scrollTop = moved.offsetTop - list.clientHeight / 2;
  }
}
