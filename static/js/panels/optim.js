// The optimizer step card in the inspector: for an `optimizer_update` step, the parameter,
// its optimizer's rule line by line with the numbers the engine computed (trace_optim.js
// picks them out of the event), the state before and after, and the lr with its scheduler.
import { h } from '../dom.js';
import { tr } from '../i18n.js';
import { num } from '../format.js';
import { ruleLines, hyperText, valueText } from '../trace_optim.js';

/**
 * The card's elements for one optimizer_update event.
 * @param {Object} state @param {Object} ev @param {Object<string,string>} S
 */
export function optimView(state, ev, S) {
  const t = state.tensors[ev.tensor];
  const name = (t && t.name) || tr(S, 'unnamed_short');
  const lr = ev.scheduler
    ? tr(S, 'optim.lr_sched', { lr: num(ev.lr ?? '?'), scheduler: ev.scheduler.name, epoch: ev.scheduler.epoch })
    : tr(S, 'optim.lr', { lr: num(ev.lr ?? '?') });
  const rows = ruleLines(ev).map((line) => h('tr', { class: 'optim-line', dataset: { term: line.key } },
    h('td', { class: 'optim-rule' }, h('code', {}, line.rule),
      line.given ? h('span', { class: 'optim-given' }, ` · ${line.given[0]} = ${valueText(line.given[1])}`) : null),
    h('td', { class: 'optim-value' }, h('span', { class: 'optim-eq' }, '= '), h('code', {}, valueText(line.value)),
      line.was ? h('span', { class: 'optim-was' }, ` ${tr(S, 'optim.was', { v: valueText(line.was) })}`) : null)));
  return [
    h('h3', { class: 'inspect-title' }, h('code', {}, `${ev.optimizer}.step()`),
      h('span', { class: 'chip' }, tr(S, 'optim.param_of', { name, i: ev.index + 1, n: ev.count }))),
    h('p', { class: 'optim-lr' }, lr),
    h('p', { class: 'optim-hyper' }, h('code', {}, hyperText(ev))),
    h('table', { class: 'optim-rule-table', 'aria-label': tr(S, 'optim.rule_label', { optimizer: ev.optimizer }) },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, tr(S, 'optim.rule')),
        h('th', { scope: 'col' }, tr(S, 'optim.value')))),
      h('tbody', {}, rows)),
    h('p', { class: 'note' }, tr(S, 'optim.engine_numbers')),
  ];
}

/**
 * What `zero_grad()` resets, parameter by parameter: to None, to zeros, or nothing (no .grad).
 * @param {Object} state @param {Object} ev a zero_grad event @param {Object<string,string>} S
 */
export function zeroGradView(state, ev, S) {
  const name = (id) => ((state.tensors[id] || {}).name) || tr(S, 'unnamed_short');
  const to = ev.set_to_none ? 'None' : tr(S, 'optim.zeros');
  return [
    h('h3', { class: 'inspect-title' },
      h('code', {}, `${ev.optimizer}.zero_grad(set_to_none=${ev.set_to_none ? 'True' : 'False'})`)),
    h('ul', { class: 'optim-resets' }, ev.params.map((q) => h('li', {},
      h('code', {}, `${name(q.tensor)}.grad`), ' ',
      q.had_grad ? `→ ${to}` : h('span', { class: 'optim-was' }, tr(S, 'optim.no_grad_yet'))))),
  ];
}
