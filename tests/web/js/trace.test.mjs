// The fold against the golden traces the Python tests share (tests/fixtures/traces).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';
import { validate, foldTo, apply, initialState, consoleEntries, presentIds, findNext }
  from '../../../static/js/trace.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'traces');
const load = (name) => validate(JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8')));
const names = readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
const last = (trace) => foldTo(trace, trace.events.length - 1);
const kindAt = (trace, kind, nth = 0) => trace.events.filter((e) => e.kind === kind)[nth].seq;

test('every fixture validates and folds to its end', () => {
  assert.ok(names.length >= 5);
  for (const name of names) {
    const trace = load(name);
    const state = last(trace);
    assert.equal(state.done, true, name);
    assert.equal(state.index, trace.events.length - 1, name);
    assert.equal(state.exitCode, trace.events.at(-1).exit_code, name);
  }
});

test('validate refuses unknown versions and broken seq', () => {
  const trace = load('first_trace');
  assert.throws(() => validate({ ...trace, version: 99 }), /version/);
  assert.throws(() => validate({ ...trace, format: 'x' }), /format/);
  const events = trace.events.map((e) => ({ ...e }));
  events[2].seq = 7;
  assert.throws(() => validate({ ...trace, events }), /seq/);
});

test('stepwise apply equals a fresh fold at every step, and never mutates the earlier state', () => {
  const trace = load('s001_grad_accumulate');
  let state = initialState();
  for (const ev of trace.events) {
    const before = JSON.stringify(state);
    const next = apply(state, ev);
    assert.equal(JSON.stringify(state), before);
    state = next;
    const fresh = foldTo(trace, ev.seq);
    assert.deepEqual(Object.keys(fresh.tensors), Object.keys(state.tensors));
    assert.deepEqual(fresh.grads, state.grads);
    assert.deepEqual(fresh.flows, state.flows);
  }
});

test('folding from a checkpoint gives the same state as from the start', () => {
  const trace = load('training_loop_elided');
  const mid = foldTo(trace, 40);
  const a = foldTo(trace, trace.events.length - 1, mid);
  const b = last(trace);
  assert.deepEqual(a.grads, b.grads);
  assert.deepEqual(a.series, b.series);
  assert.equal(a.console.length, b.console.length);
  assert.equal(foldTo(trace, 40).index, 40);
});

test('first trace: nodes appear op by op, gradients flow, x.grad becomes [3, 3], buffers free', () => {
  const trace = load('first_trace');
  const [mulEv, sumEv] = trace.events.filter((e) => e.kind === 'op');
  const x = trace.events[0].tensor.id;
  assert.deepEqual([...presentIds(foldTo(trace, 0))], [x]);
  const afterMul = foldTo(trace, mulEv.seq);
  const mul = mulEv.node.id;
  const acc = mulEv.new_nodes[0].id;
  const sum = sumEv.node.id;
  assert.ok(afterMul.nodes[mul] && afterMul.nodes[acc] && !afterMul.nodes[sum]);
  assert.equal(afterMul.nodes[mul].name, 'MulBackward0');
  assert.equal(afterMul.nodes[acc].name, 'AccumulateGrad');
  assert.deepEqual(new Set(afterMul.fresh), new Set([mulEv.output.id, mul, acc]));
  assert.deepEqual(foldTo(trace, sumEv.seq + 1).fresh, []);

  const sumApply = foldTo(trace, kindAt(trace, 'node_apply', 0));
  assert.equal(sumApply.active, sum);
  assert.deepEqual(sumApply.flows.map((f) => [f.from, f.to, f.role]),
    [[sum, sumEv.output.id, 'in'], [mul, sum, 'out']]);
  assert.deepEqual(sumApply.flows[1].grad.data, [1, 1]);

  const accState = foldTo(trace, kindAt(trace, 'accumulate'));
  assert.deepEqual(accState.grads[x].data, [3, 3]);
  assert.equal(accState.history[x].length, 1);
  assert.equal(accState.history[x][0].before, null);
  assert.deepEqual(accState.passAdded[x].data, [3, 3]);
  assert.equal(accState.active, acc);
  assert.deepEqual(accState.flows.map((f) => [f.from, f.to, f.role]), [[x, acc, 'acc']]);

  const freed = foldTo(trace, kindAt(trace, 'graph_freed'));
  assert.equal(freed.nodes[mul].freed, true);
  assert.ok(freed.nodes[mul].saved.every((s) => s.freed));
  assert.equal(freed.nodes[acc].freed, false);

  const end = last(trace);
  assert.equal(end.pass, null);
  assert.equal(end.active, null);
  assert.deepEqual(consoleEntries(end.console).map((c) => c.text), ['tensor([3., 3.])\n']);
  assert.deepEqual(end.series, [[0, 9]]);
});

test('accumulation: before + added = after across passes and zero_()', () => {
  const trace = load('s001_grad_accumulate');
  const h = last(trace).history.t0;
  assert.deepEqual(h.map((c) => c.how), ['accumulate', 'accumulate', 'zero_', 'accumulate']);
  assert.deepEqual(h.map((c) => c.after.data), [[1, 1], [2, 2], [0, 0], [1, 1]]);
  assert.deepEqual(h[1].before.data, [1, 1]);
  assert.deepEqual(h[2].before.data, [2, 2]);
  assert.deepEqual(last(trace).grads.t0.data, [1, 1]);
});

test('the second backward: the error sits on a freed node and stays to the end', () => {
  const trace = load('s000_backward_twice_error');
  const errSeq = kindAt(trace, 'error');
  const at = foldTo(trace, errSeq);
  assert.match(at.error.message, /backward through the graph a second time/);
  assert.equal(at.active, at.error.node);
  assert.equal(at.nodes[at.error.node].freed, true);
  assert.equal(at.pass, null);
  assert.equal(last(trace).error.seq, errSeq);
  const entries = consoleEntries(last(trace).console);
  assert.equal(entries.at(-1).kind, 'error');
  assert.match(entries.at(-1).text, /^RuntimeError: Trying to backward/);
});

test('a caught error shows at its step and is gone at the next', () => {
  const trace = load('caught_second_backward');
  const errSeq = kindAt(trace, 'error');
  assert.equal(foldTo(trace, errSeq).error.caught, true);
  assert.equal(foldTo(trace, errSeq + 1).error, null);
});

test('v·J: the pass carries v and J, and vᵀJ equals the gradient accumulated', () => {
  const trace = load('s000_while_norm_vjp');
  const state = last(trace);
  const pass = state.lastPass;
  assert.equal(pass.implicit_seed, false);
  const [j] = pass.jacobian;
  const v = pass.seeds[0].data;
  const vj = j.rows[0].map((_, col) => j.rows.reduce((s, row, i) => s + v[i] * row[col], 0));
  assert.deepEqual(vj, j.vjp);
  assert.deepEqual(state.passAdded[j.leaf].data, j.vjp);
  assert.deepEqual(state.grads[j.leaf].data, [512, 512, 512]);
});

test('where paths meet, the partial contributions are kept and sum to grads_in', () => {
  for (const name of names) {
    const trace = load(name);
    let state = initialState();
    for (const ev of trace.events) {
      state = apply(state, ev);
      if (!['node_apply', 'accumulate'].includes(ev.kind) || !state.merged) continue;
      const parts = state.merged.map((a) => a.grad.data);
      if (parts.some((p) => p === null || Array.isArray(p))) continue;
      const sum = parts.reduce((a, b) => a + b, 0);
      const total = ev.kind === 'node_apply' ? ev.grads_in[0].data : ev.added.data;
      assert.ok(Math.abs(sum - total) < 1e-3 * Math.max(1, Math.abs(sum)), name);
    }
  }
});

test('a node of several outputs: one gradient per output is not a merge', () => {
  // `w, b = params` unbinds params: UnbindBackward0 gets w's gradient and b's, one each
  const trace = load('training_loop_elided');
  let state = initialState();
  let seen = 0;
  for (const ev of trace.events) {
    state = apply(state, ev);
    if (ev.kind !== 'node_apply' || ev.name !== 'UnbindBackward0') continue;
    seen += 1;
    assert.equal(ev.grads_in.length, 2);
    assert.equal(state.merged, null);
  }
  assert.ok(seen > 0);
});

test('create_graph: tensors made by the backward pass are marked in_backward', () => {
  const trace = load('s000_higher_order_grad');
  const state = last(trace);
  const made = Object.values(state.tensors).filter((t) => t.in_backward);
  assert.ok(made.length > 0);
  assert.ok(Object.values(state.nodes).some((n) => n.in_backward));
  assert.equal(state.passes, 2);
  // the second pass starts from a tensor the first pass built
  const second = trace.events.filter((e) => e.kind === 'backward_begin')[1];
  assert.ok(second.roots.some((r) => state.tensors[r].in_backward || state.tensors[r].how === 'backward'));
});

test('elision: carried tensors exist after the elided step, and its stdout reaches the console', () => {
  const trace = load('training_loop_elided');
  const seq = kindAt(trace, 'elided');
  const ev = trace.events[seq];
  const state = foldTo(trace, seq);
  for (const c of ev.carried) {
    if (c.kind === 'tensor') assert.ok(state.tensors[c.tensor.id]);
  }
  assert.ok(state.series.length >= ev.series.length);
  const texts = consoleEntries(state.console).map((c) => c.text).join('');
  assert.ok(texts.includes(ev.stdout));
});

test('elision: a warning inside the stretch comes where it was issued, not after its stdout', () => {
  const trace = load('training_loop_optim');
  const seq = kindAt(trace, 'elided');
  const ev = trace.events[seq];
  const w = ev.warnings[0];
  assert.equal(w.at, 0);  // the first float(loss) warns before its epoch's line is printed
  const mine = consoleEntries(foldTo(trace, seq).console).filter((c) => c.seq === seq);
  const at = mine.findIndex((c) => c.kind === 'warning');
  assert.ok(at >= 0 && at < mine.findIndex((c) => c.kind === 'stdout'));
  assert.equal(mine.filter((c) => c.kind === 'stdout').map((c) => c.text).join(''), ev.stdout);
});

test('findNext finds the next backward step', () => {
  const trace = load('first_trace');
  assert.equal(findNext(trace, 0, ['backward_begin']), kindAt(trace, 'backward_begin'));
  assert.equal(findNext(trace, 99, ['backward_begin']), -1);
});

test('after an uncaught error the last step still points at the error line', () => {
  const trace = load('s000_backward_twice_error');
  const err = trace.events.find((e) => e.kind === 'error');
  const end = last(trace);
  assert.equal(trace.events.at(-1).line, null);
  assert.equal(end.line, err.line);
});

test('an op says the grad mode it ran in: grad is on again after a Function forward', () => {
  const trace = load('first_trace');
  const op = trace.events.find((e) => e.kind === 'op' && !e.in_backward);
  let state = last(trace);
  // `with torch.no_grad():` left inside a Function's forward: grad stays off ...
  state = apply(state, { seq: 900, kind: 'grad_mode', line: 1, enabled: false, mode: 'no_grad',
    exit: true });
  assert.equal(state.mode, false);
  // ... until apply returns and the program's next op runs with grad on
  state = apply(state, { ...op, seq: 901, grad_mode: true });
  assert.equal(state.mode, true);
  state = apply(state, { ...op, seq: 902, grad_mode: false });
  assert.equal(state.mode, false);
});
