// One sentence per step, in the UI language: what this event means for autograd. Pure: it reads
// the folded state and a string table, so the same words can be tested without a browser.
import { tr } from './i18n.js';
import { short, flat, num } from './format.js';
import { errorOrigin } from './explain.js';
import { OPTIM_SENTENCES } from './trace_optim.js';
import { bumpOf } from './chain.js';

/** @typedef {import('./trace.js').State} State */

// Intermediate results have no name in the program; their trace id (t11) would mean nothing
// to a learner, so they are called "an intermediate result" in the UI language.
function nameOf(state, id, S) {
  const t = state.tensors[id];
  return (t && t.name) || tr(S, 'unnamed');
}

function savedValue(state, node, name) {
  const s = node && node.saved.find((x) => x.name === name);
  if (!s) return null;
  return s.tensor ? (state.tensors[s.tensor] || {}).value || null : s.value;
}

const isSmall = (v) => v && v.data !== null && flat(v.data).length <= 3;

function applySentence(state, ev, S) {
  const node = state.nodes[ev.node];
  const gin = ev.grads_in[0];
  const outs = ev.grads_out.filter(Boolean);
  const p = { name: ev.name, gin: short(gin), gout: short(outs[0]), rule: ev.rule || '' };
  let text;
  if (ev.name === 'MulBackward0' && isSmall(gin) && isSmall(ev.grads_out[0])) {
    const other = savedValue(state, node, 'other');
    text = other && isSmall(other) ? tr(S, 'narr.mul', { ...p, other: short(other) }) : null;
  }
  if (!text && /^AddBackward/.test(ev.name)) text = tr(S, 'narr.add', p);
  if (!text && /^SumBackward/.test(ev.name)) text = tr(S, 'narr.sum', p);
  if (!text && /^MeanBackward/.test(ev.name)) text = tr(S, 'narr.mean', p);
  if (!text) {
    const gouts = outs.map((g) => short(g)).join(', ') || '—';
    text = tr(S, ev.rule ? 'narr.apply' : 'narr.apply_norule', { ...p, gouts });
  }
  if (state.merged) {
    const parts = state.merged.map((a) => short(a.grad)).join(' + ');
    text += ' ' + tr(S, 'narr.merged', { k: state.merged.length, parts, sum: short(gin) });
  }
  return text;
}

const SENTENCES = {
  tensor(state, ev, S) {
    const t = ev.tensor;
    const p = { name: t.name || tr(S, 'unnamed'), value: short(t.value) };
    if (['detach', 'data'].includes(ev.how)) return tr(S, `narr.tensor_${ev.how}`, p);
    if (ev.how === 'requires_grad_') return tr(S, 'narr.tensor_requires_grad', p);
    if (ev.how === 'grad' || ev.how === 'backward') return tr(S, 'narr.tensor_grad', p);
    if (ev.how === 'recompute') return tr(S, 'narr.tensor_recompute', p);
    if (!ev.grad_mode) return tr(S, 'narr.tensor_nograd', p);
    return tr(S, t.requires_grad ? 'narr.tensor_leaf' : 'narr.tensor_const', p);
  },
  op(state, ev, S) {
    const p = { out: ev.output.name || tr(S, 'unnamed'), op: ev.op, value: short(ev.output.value),
      node: ev.node ? ev.node.name : '' };
    // forward mode: the op also pushed its inputs' tangents forward
    if (ev.tangent) return tr(S, 'narr.op_tangent', { ...p, tangent: short(ev.tangent) });
    if (!ev.node && !ev.grad_mode && ev.output.requires_grad && ev.inputs.includes(ev.output.id)) {
      // `with torch.no_grad(): w -= lr * w.grad`: the leaf itself is updated and stays a leaf
      return tr(S, 'narr.op_nograd_update', p);
    }
    if (!ev.node && !ev.grad_mode && !ev.output.name) {
      // `0.01 * w.grad` in an update has no name, but its inputs do: say it by them
      const args = ev.inputs.map((x) => (typeof x === 'string' ? (state.tensors[x] || {}).name : num(x)));
      if (args.every(Boolean)) return tr(S, 'narr.op_nograd_of', { ...p, args: args.join(', ') });
    }
    if (!ev.node) return tr(S, ev.grad_mode ? 'narr.op_untracked' : 'narr.op_nograd', p);
    const by = ev.in_backward && ev.by && state.nodes[ev.by];
    // torch.utils.checkpoint runs the forward again for a node whose saved tensor it dropped
    if (ev.recompute) return by ? tr(S, 'narr.op_recompute_for', { ...p, by: by.name }) : tr(S, 'narr.op_recompute', p);
    if (by) return tr(S, 'narr.op_backward_by', { ...p, by: by.name });
    return tr(S, ev.in_backward ? 'narr.op_backward' : 'narr.op', p);
  },
  inplace(state, ev, S) {
    const p = { name: nameOf(state, ev.tensor, S), op: ev.op, version: ev.version, from: ev.version - 1,
      node: ev.node ? ev.node.name : '' };
    return tr(S, ev.node ? 'narr.inplace_node' : 'narr.inplace', p);
  },
  grad_mode(state, ev, S) {
    if (ev.exit && !ev.enabled) return tr(S, 'narr.grad_off_still', { mode: ev.mode });
    return tr(S, ev.enabled ? 'narr.grad_on' : 'narr.grad_off', { mode: ev.mode });
  },
  backward_begin(state, ev, S) {
    const p = { root: ev.roots.map((r) => nameOf(state, r, S)).join(', '),
      value: short(ev.root_values[0]), v: short(ev.seeds[0]), api: ev.api };
    if (ev.api === 'grad') return tr(S, 'narr.grad_begin', p);
    return tr(S, ev.implicit_seed ? 'narr.backward_scalar' : 'narr.backward_v', p);
  },
  node_apply: applySentence,
  accumulate(state, ev, S) {
    const p = { name: nameOf(state, ev.tensor, S), before: short(ev.before), added: short(ev.added),
      after: short(ev.after) };
    let text = tr(S, ev.before ? 'narr.accumulate' : 'narr.accumulate_first', p);
    if (state.merged) {
      const parts = state.merged.map((a) => short(a.grad)).join(' + ');
      text += ' ' + tr(S, 'narr.merged', { k: state.merged.length, parts, sum: short(ev.added) });
    }
    return text;
  },
  graph_freed(state, ev, S) { return tr(S, 'narr.freed', { n: ev.nodes.length }); },
  backward_end(state, ev, S) {
    const pass = state.lastPass;
    if (!pass || pass.api !== 'grad') return tr(S, 'narr.backward_end', {});
    const results = (pass.inputs || []).filter((id) => state.passAdded[id])
      .map((id) => `${nameOf(state, id, S)}: ${short(state.passAdded[id])}`).join(', ');
    return tr(S, 'narr.grad_end', { results: results || tr(S, 'grad_results_none') });
  },
  grad_reset(state, ev, S) {
    return tr(S, `narr.reset_${ev.how}`, { name: nameOf(state, ev.tensor, S), grad: short(ev.grad),
      op: ev.op || '' });
  },
  hook(state, ev, S) {
    const on = ev.tensors.length ? ev.tensors.map((id) => nameOf(state, id, S)).join(', ')
      : ev.module || (ev.node && state.nodes[ev.node] ? state.nodes[ev.node].name : '?');
    const list = (vs) => vs.map((v) => (v ? short(v) : 'None')).join(', ');
    const p = { kind: tr(S, `hook_kind.${ev.hook}`), on, fn: ev.fn, got: list(ev.received),
      gave: ev.returned ? list(ev.returned) : '' };
    return tr(S, ev.returned ? 'narr.hook_changed' : 'narr.hook_same', p);
  },
  optimizer_step(state, ev, S) {
    // each optimizer by what its rule does with .grad (SGD alone moves against it)
    const p = { optimizer: ev.optimizer, lr: ev.lr, n: ev.params.length, momentum: ev.momentum };
    if (ev.optimizer === 'SGD') return tr(S, ev.momentum ? 'narr.step_momentum' : 'narr.step', p);
    if (/^(Adam|AdamW|NAdam|RAdam|Adamax)$/.test(ev.optimizer)) return tr(S, 'narr.step_adam', p);
    if (ev.optimizer === 'RMSprop' || ev.optimizer === 'Adagrad') return tr(S, 'narr.step_rms', p);
    return tr(S, 'narr.step_other', p);
  },
  stdout(state, ev, S) { return tr(S, 'narr.stdout', { text: ev.text.trim() }); },
  warning(state, ev, S) { return tr(S, 'narr.warning', { category: ev.category }); },
  error(state, ev, S) {
    const origin = errorOrigin(ev);
    if (origin !== 'pytorch' && !ev.caught) {
      return tr(S, `narr.error_${origin}`, { type: ev.type, line: ev.line ?? '?' });
    }
    const node = ev.node && state.nodes[ev.node];
    // a saved tensor changed in place: name the bump that did it (chain.js)
    const b = bumpOf(state, { unnamed: tr(S, 'unnamed'), input: '' });
    if (b && b.bump) {
      return tr(S, 'narr.error_bump', { type: ev.type, node: b.node, saved: b.saved || b.name,
        expected: b.expected, version: b.version, name: b.bumpName, op: b.bump.op, line: b.bump.line ?? '?' });
    }
    if (node && !ev.caught) return tr(S, 'narr.error_node', { type: ev.type, node: node.name, line: ev.line });
    return tr(S, ev.caught ? 'narr.error_caught' : 'narr.error', { type: ev.type });
  },
  elided(state, ev, S) {
    if (ev.reason === 'library' && ev.call) {
      // a library function on the gradients, one step with its result (clip_grad_norm_)
      const names = (ev.updates || []).filter((u) => 'grad' in u)
        .map((u) => `${nameOf(state, u.tensor, S)}.grad`).join(', ');
      const p = { fn: ev.call.fn, line: ev.line, names: names || '—',
        total: ev.call.total ? short(ev.call.total) : '', scale: ev.call.scale ? short(ev.call.scale) : '' };
      return tr(S, ev.call.total && ev.call.scale ? 'narr.library_call' : 'narr.library_call_plain', p);
    }
    if (ev.reason === 'library') {
      const n = (ev.carried || []).filter((c) => c.kind === 'tensor' && c.how === 'Parameter').length;
      return tr(S, 'narr.library', { line: ev.line, n, what: tr(S, 'library_what_model') });
    }
    const passes = ev.passes ? ev.passes[1] - ev.passes[0] + 1 : 0;
    return tr(S, passes ? 'narr.elided' : 'narr.elided_cap', { n: passes });
  },
  end(state, ev, S) { return tr(S, ev.exit_code ? 'narr.end_error' : 'narr.end', {}); },
  transform_begin(state, ev, S) {
    const which = ev.mode === 'product' ? `product_${ev.api === 'jvp' ? 'jvp' : 'vjp'}` : ev.mode;
    return tr(S, `narr.tf_begin_${which}`, { api: ev.api, rows: ev.rows, cols: ev.cols ?? '' });
  },
  transform_step(state, ev, S) {
    const t = (state.transforms || {})[ev.transform];
    const mode = t ? t.begin.mode : 'product';
    return tr(S, `narr.tf_step_${mode}`, { i: ev.index, seed: short(ev.seed), result: short(ev.result),
      api: t ? t.begin.api : '' });
  },
  dual_level(state, ev, S) { return tr(S, ev.entered ? 'narr.dual_enter' : 'narr.dual_exit', {}); },
  ...OPTIM_SENTENCES,
  transform_end(state, ev, S) {
    const t = (state.transforms || {})[ev.transform];
    return tr(S, 'narr.tf_end', { api: t ? t.begin.api : '', result: short(ev.result) });
  },
};

/**
 * The sentence for the state's current event.
 * @param {State} state @param {Object<string,string>} strings
 */
export function narrate(state, strings) {
  const ev = state.event;
  if (!ev) return tr(strings, 'narr.start', {});
  const f = SENTENCES[ev.kind];
  const text = f ? f(state, ev, strings) : ev.kind;
  // "an intermediate result …" opens a sentence; program names (x, params.grad) keep their case
  const unnamed = tr(strings, 'unnamed');
  return text.startsWith(unnamed) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}
