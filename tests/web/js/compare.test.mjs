// Two runs side by side: which steps correspond, which boxes differ, which loss points differ,
// and which lines changed, from the golden traces and edited copies of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';
import { validate, foldTo } from '../../../static/js/trace.js';
import { align, differences, summarise, changedLines, lossPoints, nextDifference, signature }
  from '../../../static/js/compare.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'traces');
const load = (name) => validate(JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8')));
const copy = (trace) => JSON.parse(JSON.stringify(trace));
// a trace with some events left out, renumbered as a run without them would be
const without = (trace, drop) => {
  const t = copy(trace);
  t.events = t.events.filter((e) => !drop(e)).map((e, i) => ({ ...e, seq: i }));
  return validate(t);
};

test('a run compared with itself: every step pairs with its twin and nothing differs', () => {
  const a = load('training_loop_optim');
  const b = validate(copy(a));
  const al = align(a, b);
  assert.equal(al.rows.length, a.events.length);
  assert.ok(al.rows.every((r, i) => r.a === i && r.b === i && !r.only && !r.differs));
  const s = summarise(a, b);
  assert.deepEqual([s.differing, s.values, s.grads, s.loss, s.onlyA, s.onlyB, s.first], [0, 0, 0, 0, 0, 0, 0]);
  assert.equal(nextDifference(al, -1), -1);
});

test('a changed value pairs every step and marks the steps and boxes that differ', () => {
  const a = load('first_trace');
  const b = validate(copy(a));
  const op = b.events.find((e) => e.kind === 'op' && e.output.value && Array.isArray(e.output.value.data));
  op.output.value.data = op.output.value.data.map((x) => (Array.isArray(x) ? x : x + 1));
  const al = align(a, b);
  assert.ok(al.rows.every((r) => !r.only));
  const row = nextDifference(al, -1);
  assert.equal(al.rows[row].b, op.seq);
  const diff = differences(al, foldTo(a, op.seq), foldTo(b, op.seq));
  assert.deepEqual(diff.b.get(op.output.id), ['value']);
  assert.deepEqual(diff.a.get(al.bToA.get(op.output.id)), ['value']);
  // one step before, the box does not exist yet in either run: nothing is marked
  const earlier = differences(al, foldTo(a, op.seq - 1), foldTo(b, op.seq - 1));
  assert.equal(earlier.b.size, 0);
});

test('a step only one run has: the other run holds its last step', () => {
  const b = load('first_trace');
  const gone = b.events.find((e) => e.kind === 'op' && e.seq > 0 && !e.node);
  const dropped = gone || b.events.find((e) => e.kind === 'stdout');
  const a = without(b, (e) => e.seq === dropped.seq);
  const al = align(a, b);
  const lonely = al.rows.filter((r) => r.only);
  assert.equal(lonely.length, 1);
  assert.equal(lonely[0].only, 'b');
  assert.equal(lonely[0].b, dropped.seq);
  assert.equal(lonely[0].a, dropped.seq - 1);          // the run without it waits on the step before
  assert.ok(lonely[0].differs);
  assert.equal(al.rows.length, b.events.length);
});

test('loss points pair by pass and say which differ', () => {
  const points = lossPoints([[0, 5], [1, 3.2], [2, 2]], [[0, 5], [1, 0.8]]);
  assert.deepEqual(points.map((p) => [p.pass, p.a, p.b, p.differs]),
    [[0, 5, 5, false], [1, 3.2, 0.8, true], [2, 2, null, true]]);
});

test('the changed lines of two programs, each side numbered in its own program', () => {
  const before = 'import torch\nx = 1\ny = x * 3\nprint(y)\n';
  const after = 'import torch\nx = 1\ny = x * 4\ny = y + 1\nprint(y)\n';
  assert.deepEqual(changedLines(before, after), { a: [3], b: [3, 4] });
  assert.deepEqual(changedLines(before, before), { a: [], b: [] });
});

test('a step signature leaves the numbers out but keeps what the step does', () => {
  const t = load('training_loop_optim');
  const op = t.events.find((e) => e.kind === 'op');
  const edited = { ...op, output: { ...op.output, value: { ...op.output.value, data: 42 } } };
  assert.equal(signature(op), signature(edited));
  assert.notEqual(signature(op), signature({ ...op, op: 'something_else' }));
});
