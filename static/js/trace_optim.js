// Optimizer steps (docs/trace-format.md, section 15): the fold of `optimizer_update`,
// `zero_grad` and `lr_step`, the lines of each optimizer's rule with the trace's numbers, and
// the step's sentence. Pure data code like trace.js: every number shown comes from the event,
// the page computes none.
import { tr } from './i18n.js';
import { short, num } from './format.js';

/** @typedef {{name:string, value?:Object, number?:(number|string)}} Term */
/**
 * One line of a rule: `rule` the formula, `value` what the engine computed for it (a trace
 * value, or a number), `was` the state entry before the step (or null), `given` a number the
 * formula uses, as [its formula, its value] (Adam's bias corrections), or null.
 * @typedef {{rule:string, value:(Object|number|string|null), was:(Object|null), key:string,
 *   given:(Array|null)}} RuleLine
 */

export const OPTIM_HANDLERS = {
  optimizer_update(d, ev) {
    const known = d.tensors[ev.tensor];
    if (known) d.tensors[ev.tensor] = { ...known, value: ev.after };
    d.active = ev.tensor;
  },
  zero_grad() {},
  lr_step() {},
};

const byName = (list, name) => {
  const hit = (list || []).find((x) => x.name === name);
  if (!hit) return null;
  return hit.value !== undefined ? hit.value : hit.number;
};

/**
 * The lines of the event's rule, in the order the engine computes them.
 * @param {Object} ev an optimizer_update event @returns {RuleLine[]}
 */
export function ruleLines(ev) {
  const hy = ev.hyper || {};
  const state = (n) => byName(ev.state, n);
  const was = (n) => byName(ev.state_before, n);
  const term = (n) => byName(ev.terms, n);
  /** @type {RuleLine[]} */
  const lines = [];
  const add = (key, rule, value, before = null, given = null) => {
    if (value !== null && value !== undefined) lines.push({ key, rule, value, was: before, given });
  };
  add('grad', 'g = p.grad', ev.grad);
  const maximize = hy.maximize ? 'g ← −g; ' : '';
  const l2 = hy.weight_decay && !hy.decoupled_weight_decay && ev.optimizer !== 'AdamW';
  if (hy.maximize || l2) add('d_p', `${maximize}${l2 ? 'g ← g + weight_decay·p' : ''}`.replace(/; $/, ''), term('d_p'));
  const o = ev.optimizer;
  if (o === 'SGD') {
    if (hy.momentum) {
      const first = !was('momentum_buffer');
      add('momentum_buffer', first ? 'buf ← g' : 'buf ← momentum·buf + (1 − dampening)·g',
        state('momentum_buffer'), was('momentum_buffer'));
      add('direction', hy.nesterov ? 'g ← g + momentum·buf' : 'g ← buf', term('direction'));
    }
    add('after', 'p ← p − lr·g', ev.after, ev.before);
  } else if (o === 'Adam' || o === 'AdamW') {
    add('decayed', 'p ← p·(1 − lr·weight_decay)', term('decayed'), ev.before);
    add('step', 't ← t + 1', state('step'), was('step'));
    add('exp_avg', 'm ← β₁·m + (1 − β₁)·g', state('exp_avg'), was('exp_avg'));
    add('exp_avg_sq', 'v ← β₂·v + (1 − β₂)·g²', state('exp_avg_sq'), was('exp_avg_sq'));
    add('max_exp_avg_sq', 'v_max ← max(v_max, v)', state('max_exp_avg_sq'), was('max_exp_avg_sq'));
    // the bias corrections ride on the lines that divide by them
    const bc1 = term('bias_correction1');
    const bc2 = term('bias_correction2');
    add('m_hat', 'm̂ = m / (1 − β₁ᵗ)', term('m_hat'), null, bc1 === null ? null : ['1 − β₁ᵗ', bc1]);
    add('v_hat', hy.amsgrad ? 'v̂ = v_max / (1 − β₂ᵗ)' : 'v̂ = v / (1 − β₂ᵗ)', term('v_hat'), null,
      bc2 === null ? null : ['1 − β₂ᵗ', bc2]);
    add('step_size', 'step size = lr / (1 − β₁ᵗ)', term('step_size'));
    add('after', 'p ← p − lr·m̂ / (√v̂ + ε)', ev.after, term('decayed') ? null : ev.before);
  } else if (o === 'RMSprop') {
    add('step', 't ← t + 1', state('step'), was('step'));
    add('square_avg', 'v ← α·v + (1 − α)·g²', state('square_avg'), was('square_avg'));
    add('grad_avg', 'ḡ ← α·ḡ + (1 − α)·g', state('grad_avg'), was('grad_avg'));
    add('avg', hy.centered ? 'avg = √(v − ḡ²) + ε' : 'avg = √v + ε', term('avg'));
    if (hy.momentum) {
      add('momentum_buffer', 'buf ← momentum·buf + g / avg', state('momentum_buffer'), was('momentum_buffer'));
      add('after', 'p ← p − lr·buf', ev.after, ev.before);
    } else add('after', 'p ← p − lr·g / avg', ev.after, ev.before);
  } else if (o === 'Adagrad') {
    add('step', 't ← t + 1', state('step'), was('step'));
    add('sum', 'sum ← sum + g²', state('sum'), was('sum'));
    add('clr', 'clr = lr / (1 + (t − 1)·lr_decay)', term('clr'));
    add('std', 'std = √sum + ε', term('std'));
    add('after', 'p ← p − clr·g / std', ev.after, ev.before);
  } else {
    for (const s of ev.state || []) add(s.name, `state['${s.name}']`, s.value, was(s.name));
    add('after', 'p', ev.after, ev.before);
  }
  return lines;
}

/** The hyperparameters the rule uses, as "lr = 0.1, momentum = 0.9". @param {Object} ev */
export function hyperText(ev) {
  const shown = Object.entries(ev.hyper || {}).filter(([k, v]) => k !== 'decoupled_weight_decay'
    && !(typeof v === 'boolean' && !v));
  return shown.map(([k, v]) => `${k} = ${Array.isArray(v) ? `(${v.map(num).join(', ')})` : num(v)}`).join(', ');
}

/** A line's value as short text. @param {RuleLine['value']} v */
export const valueText = (v) => (v !== null && typeof v === 'object' ? short(v) : num(v));

// The state entry the sentence names for each optimizer (what moved besides p).
const HEADLINE = { SGD: 'momentum_buffer', Adam: 'exp_avg', AdamW: 'exp_avg', RMSprop: 'square_avg', Adagrad: 'sum' };

function paramName(state, id, S) {
  const t = state.tensors[id];
  return (t && t.name) || tr(S, 'unnamed');
}

function schedText(ev, S) {
  if (!ev.scheduler) return '';
  return tr(S, 'optim.lr_from', { scheduler: ev.scheduler.name, epoch: ev.scheduler.epoch });
}

export const OPTIM_SENTENCES = {
  optimizer_update(state, ev, S) {
    const p = { optimizer: ev.optimizer, name: paramName(state, ev.tensor, S), i: ev.index + 1,
      n: ev.count, before: short(ev.before), after: short(ev.after), lr: num(ev.lr ?? '?'),
      sched: schedText(ev, S), t: '', m: '', v: '', buf: '', acc: '' };
    const key = HEADLINE[ev.optimizer];
    const head = key && byName(ev.state, key);
    if (!head) return tr(S, 'narr.optim_update', p);
    if (ev.optimizer === 'SGD') return tr(S, 'narr.optim_sgd_momentum', { ...p, buf: short(head) });
    if (ev.optimizer === 'Adam' || ev.optimizer === 'AdamW') {
      return tr(S, 'narr.optim_adam', { ...p, t: num(byName(ev.state, 'step').data),
        m: short(head), v: short(byName(ev.state, 'exp_avg_sq')) });
    }
    return tr(S, 'narr.optim_acc', { ...p, acc: `${key} = ${short(head)}` });
  },
  zero_grad(state, ev, S) {
    const had = ev.params.filter((q) => q.had_grad).map((q) => paramName(state, q.tensor, S));
    if (!had.length) return tr(S, 'narr.zero_grad_nothing', { optimizer: ev.optimizer });
    return tr(S, ev.set_to_none ? 'narr.zero_grad_none' : 'narr.zero_grad_zeros',
      { optimizer: ev.optimizer, names: had.join(', ') });
  },
  lr_step(state, ev, S) {
    const p = { scheduler: ev.scheduler, epoch: ev.epoch, before: ev.before.map(num).join(', '),
      after: ev.after.map(num).join(', ') };
    return tr(S, ev.epoch === 0 ? 'narr.lr_start' : 'narr.lr_step', p);
  },
};

/** The next optimizer_update at or after `from`, wrapping to the first; -1 when none. */
export function nextUpdate(trace, from) {
  const events = trace ? trace.events : [];
  for (let k = 0; k < events.length; k++) {
    const i = (from + k) % events.length;
    if (events[i].kind === 'optimizer_update') return i;
  }
  return -1;
}
