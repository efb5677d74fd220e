// The fold of transform events against the golden trace of jacrev, jvp and vmap
// (tests/fixtures/traces/transforms_jacrev_jvp.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';
import { foldTo } from '../../../static/js/trace.js';
import { shownTransform, workingOn } from '../../../static/js/trace_transforms.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'traces');
const trace = JSON.parse(readFileSync(join(DIR, 'transforms_jacrev_jvp.json'), 'utf8'));
const seqs = (kind) => trace.events.filter((e) => e.kind === kind).map((e) => e.seq);
const matrixLike = (mode) => mode !== 'product';

test('jacrev fills its rows one step at a time, each with its one-hot seed', () => {
  const [begin] = seqs('transform_begin');
  const steps = seqs('transform_step').slice(0, 3);
  let state = foldTo(trace, begin);
  let t = shownTransform(state, matrixLike);
  assert.equal(t.begin.api, 'jacrev');
  assert.deepEqual(t.cells, {});
  assert.deepEqual(workingOn(t, state.index), { index: 0, done: false });
  steps.forEach((seq, i) => {
    state = foldTo(trace, seq);
    t = shownTransform(state, matrixLike);
    assert.equal(Object.keys(t.cells).length, i + 1);
    assert.deepEqual(workingOn(t, state.index), { index: i, done: true });
    assert.deepEqual(t.seed.data, [0, 1, 2].map((k) => (k === i ? 1 : 0)));
  });
  assert.deepEqual(t.cells[2].data, [0, 4]);
  // between row 0 and row 1 the next row is the one at work
  const mid = foldTo(trace, steps[0] + 1);
  assert.deepEqual(workingOn(shownTransform(mid, matrixLike), mid.index), { index: 1, done: false });
});

test('the product and the batch are kept apart, and earlier states are left as they were', () => {
  const end = trace.events.length - 1;
  const before = foldTo(trace, seqs('transform_end')[0]);
  const snapshot = JSON.stringify(before.transforms);
  const last = foldTo(trace, end, before);
  assert.equal(JSON.stringify(before.transforms), snapshot);
  const product = shownTransform(last, (mode) => mode === 'product');
  assert.equal(product.begin.api, 'jvp');
  assert.deepEqual(product.cells[0].data, [2, 0.540302, 0]);
  assert.equal(product.begin.jacobian.length, 3);
  const batch = shownTransform(last, matrixLike);
  assert.equal(batch.begin.mode, 'batch');
  assert.equal(batch.done, true);
  assert.equal(workingOn(batch, last.index), null);
  assert.deepEqual(batch.seeds[1].data, [0, 3]);
});
