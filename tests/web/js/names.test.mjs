// The names panel's data: which name refers to which tensor at a step, from the golden traces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';
import { validate, foldTo } from '../../../static/js/trace.js';
import { namesAt, bindingsOf, variableOf } from '../../../static/js/names.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'traces');
const load = (name) => validate(JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8')));
const rowsAt = (trace, i) => namesAt(trace, foldTo(trace, i));
const row = (rows, name) => rows.find((r) => r.name === name);
const seqOf = (trace, label) => trace.events.find((e) => e.kind === 'op' && e.output.name === label).seq;

test('a numbered tensor name is its variable, as the program writes it', () => {
  assert.equal(variableOf('loss₁₂'), 'loss');
  assert.equal(variableOf('params₂.grad'), 'params.grad');
  assert.equal(variableOf('model[0].weight'), 'model[0].weight');
});

test('a loop rebinds loss: the name moves to the new tensor at the step that made it', () => {
  const trace = load('training_loop_optim');
  const made = seqOf(trace, 'loss₂');
  const before = row(rowsAt(trace, made - 1), 'loss');
  assert.equal(before.label, 'loss');
  assert.equal(before.changed, false);
  const at = row(rowsAt(trace, made), 'loss');
  assert.equal(at.label, 'loss₂');
  assert.equal(at.changed, true);
  assert.equal(at.previous.label, 'loss');
  assert.equal(at.tensor, trace.events[made].output.id);
  const after = row(rowsAt(trace, made + 1), 'loss');
  assert.equal(after.label, 'loss₂');
  assert.equal(after.changed, false);
  // one row per name, never one per tensor
  const last = rowsAt(trace, trace.events.length - 1);
  assert.equal(last.filter((r) => r.name === 'loss').length, 1);
  assert.equal(row(last, 'loss').label, 'loss₂₀₀');
});

test('nothing is named before its step, and names keep the order they first appeared in', () => {
  const trace = load('training_loop_optim');
  assert.deepEqual(rowsAt(trace, 0).map((r) => r.name), ['t_c']);
  const names = rowsAt(trace, trace.events.length - 1).map((r) => r.name);
  assert.deepEqual(names.slice(0, 4), ['t_c', 't_u', 't_un', 'params']);
  assert.ok(names.indexOf('w') < names.indexOf('loss'));
});

test('NAME.grad appears with the first gradient, on the box of the tensor NAME refers to', () => {
  const trace = load('training_loop_optim');
  const acc = trace.events.find((e) => e.kind === 'accumulate');
  assert.equal(row(rowsAt(trace, acc.seq - 1), 'params.grad'), undefined);
  const rows = rowsAt(trace, acc.seq);
  const grad = row(rows, 'params.grad');
  assert.equal(grad.tensor, acc.tensor);
  assert.equal(grad.tensor, row(rows, 'params').tensor);
  assert.equal(grad.changed, true);
  assert.equal(grad.grad, true);
  assert.equal(grad.label, 'params');
});

test('a .grad the program computed with has its own box; summarised steps still rebind', () => {
  const trace = load('training_loop_elided');
  const own = trace.events.find((e) => e.kind === 'tensor' && e.tensor.name === 'params₂.grad');
  const rows = rowsAt(trace, own.seq);
  assert.equal(row(rows, 'params.grad').tensor, own.tensor.id);
  assert.equal(row(rows, 'params.grad').label, 'params₂.grad');
  assert.equal(rows.filter((r) => r.name.endsWith('.grad')).length, 1);
  const elided = trace.events.find((e) => e.kind === 'elided' && (e.carried || []).length);
  const params = row(rowsAt(trace, elided.seq), 'params');
  assert.equal(params.changed, true);
  assert.match(params.label, /^params[₀-₉]+$/);
});

test('the seed of a create_graph pass is no program name', () => {
  for (const name of ['s000_higher_order_grad', 's000_create_graph_twice']) {
    const trace = load(name);
    const labels = bindingsOf(trace).map((b) => b.label);
    assert.ok(labels.length > 0, name);
    assert.ok(labels.every((l) => !l.startsWith('∂')), name);
  }
});
