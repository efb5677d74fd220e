// The loss plot's data side: runs split where the leaves change, ticks that read well.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pickSeries, splitPrinted, splitRoots, linearTicks, logTicks, logScaleFits } from '../../../static/js/panels/plot_series.js';

const begin = (pass, leaves) => ({ kind: 'backward_begin', pass, leaves });

test('two training runs with a summarised middle are two curves, split at the rise', () => {
  // run 1: passes 0-5 fall from 80; run 2: passes 6-9 start again at 1764
  const roots = [[0, 80], [1, 37], [2, 30], [3, 29], [4, 28], [5, 27], [6, 1764], [7, 300], [8, 60], [9, 29]];
  const events = [begin(0, ['t3']), begin(1, ['t3']), { kind: 'elided', passes: [2, 7] }, begin(8, ['t99']), begin(9, ['t99'])];
  const runs = splitRoots(roots, events);
  assert.deepEqual(runs.map((r) => r.map((p) => p[0])), [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9]]);
});

test('one run stays one curve; a leaf change between adjacent passes splits exactly there', () => {
  const roots = [[0, 5], [1, 4], [2, 3], [3, 9], [4, 2]];
  assert.equal(splitRoots(roots, [begin(0, ['a']), begin(4, ['a'])]).length, 1);
  const runs = splitRoots(roots, [begin(0, ['a']), begin(2, ['a']), begin(3, ['b'])]);
  assert.deepEqual(runs.map((r) => r.length), [3, 2]);
  // a new leaf every epoch (detach().requires_grad_()) with a falling loss: still one run
  const falling = [[0, 9], [1, 8], [2, 7], [3, 6], [4, 5]];
  assert.equal(splitRoots(falling, falling.map((p) => begin(p[0], [`t${p[0]}`]))).length, 1);
});

test('printed epochs that restart begin a new run', () => {
  const runs = splitPrinted([[500, 7.8], [1000, 3.8], [500, 29.06], [1000, 29.02]]);
  assert.deepEqual(runs, [[[500, 7.8], [1000, 3.8]], [[500, 29.06], [1000, 29.02]]]);
  const picked = pickSeries({ printed: [{ line: 22, rows: [[500, 7.8], [1000, 3.8], [500, 29.06], [1000, 29.02]] }] });
  assert.equal(picked.source, 'printed');
  assert.equal(picked.runs.length, 2);
});

test('fewer than five passes is not a curve', () => {
  assert.equal(pickSeries({ roots: [[0, 1], [1, 2]] }), null);
});

test('ticks are round numbers that cover the range', () => {
  assert.deepEqual(linearTicks(0.007406, 0.05), [0, 0.02, 0.04, 0.06]);
  assert.deepEqual(linearTicks(1, 2000, 3), [0, 1000, 2000]);
  assert.deepEqual(linearTicks(2.9, 29.5), [0, 10, 20, 30]);
  assert.deepEqual(logTicks(2.9, 1764), [1, 10, 100, 1000, 10000]);
});

test('log scale: offered for positive values, preferred across two decades', () => {
  assert.deepEqual(logScaleFits([1764, 2.9]), { possible: true, preferred: true });
  assert.deepEqual(logScaleFits([3, 2.9]), { possible: true, preferred: false });
  assert.deepEqual(logScaleFits([-1, 2]), { possible: false, preferred: false });
});

// lesson_story.js's pure helpers live here too: small, and beside the other panel data tests
import { passageAt, sameAnswer } from '../../../static/js/lesson_story.js';

test('the current passage is the last one whose step has been reached', () => {
  assert.equal(passageAt([0, 5, 12, -1], 0), 0);
  assert.equal(passageAt([0, 5, 12, -1], 11), 1);
  assert.equal(passageAt([3, 5], 1), -1);
});

test('a typed answer matches on its numbers, or on its words without spaces', () => {
  assert.ok(sameAnswer('tensor([1.,1.])', 'tensor([1., 1.])'));
  assert.ok(sameAnswer('[1, 1]', 'tensor([1., 1.])'));
  assert.ok(!sameAnswer('[2, 2]', 'tensor([1., 1.])'));
  assert.ok(sameAnswer('mulbackward0', 'MulBackward0 '));
});
