// The graph's pure parts: the numbers written into boxes, and which picture and alias a step
// of a looped run is drawn with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compact, valueText, fitText, describeBox } from '../../../static/js/graph/values.js';
import { createViews } from '../../../static/js/graph/views.js';
import { tr } from '../../../static/js/i18n.js';

test('numbers in a box take 3 significant digits and few characters', () => {
  assert.equal(compact(2.6666667), '2.67');
  assert.equal(compact(-0.58691), '-0.587');
  assert.equal(compact(0), '0');
  assert.equal(compact(0.0000123), '1.2e-5');
  assert.equal(compact(123456), '1.2e5');
  assert.equal(compact('nan'), 'nan');
});

test('a small tensor shows its numbers, a larger one its range', () => {
  assert.equal(valueText({ shape: [3], data: [1, 2.5, -3] }), '[1, 2.5, -3]');
  assert.equal(valueText({ shape: [2, 2], data: [[1, 0], [0, 1]] }), '[[1, 0], [0, 1]]');
  assert.equal(valueText({ shape: [], data: 28.8316 }), '28.8');
  assert.equal(valueText({ shape: [5], data: [3, -1, 4, 1, 5] }), '∈ [-1, 5]');
  assert.equal(valueText({ shape: [100], data: null }), '…');
  assert.equal(valueText(null), 'None');
});

test('a row longer than its room is cut with an ellipsis', () => {
  assert.equal(fitText('data [1, 2]', 20), 'data [1, 2]');
  assert.equal(fitText('saved: self_sym_numel, self_sym_sizes', 20), 'saved: self_sym_num…');
  assert.equal(fitText('saved: self_sym_numel, self_sym_sizes', 20).length, 20);
});

test('the tooltip has the full value and says whether saved tensors were freed', () => {
  const S = { tip_value: 'value', tip_grad: 'grad', tip_saved: 'saved', tip_freed: 'freed', tip_alive: 'alive' };
  const state = {
    tensors: { t0: { name: 'x', shape: [5], dtype: 'torch.float32', value: { shape: [5], data: [1, 2, 3, 4, 5] } } },
    grads: { t0: { shape: [5], data: [2, 2, 2, 2, 2] } },
    nodes: { n0: { name: 'MulBackward0', freed: true, saved: [{ name: 'self', value: null, freed: true }] } },
  };
  assert.deepEqual(describeBox(state, 't0', S, tr),
    ['x (5,) torch.float32', 'value: [1, 2, 3, 4, 5]', 'grad: [2, 2, 2, 2, 2]']);
  assert.deepEqual(describeBox(state, 'n0', S, tr), ['MulBackward0', 'saved self: freed']);
  assert.deepEqual(describeBox(state, 't9', S, tr), []);
});

test('a step is drawn with its iteration\'s picture and aliases', () => {
  const layout = {
    svg: '', nodes: {}, edges: [], width: 1, height: 1,
    views: [{ svg: '', nodes: {}, edges: [], width: 1, height: 1 }],
    iterations: [{ view: 0, passes: [0, 0] }, { view: 0, passes: [1, 1], alias: { n1: 'n7', t2: 't9' } },
      { view: 1, passes: [2, 47], summarised: true }],
    steps: [[0, 0], [12, 1], [30, 2]],
  };
  const views = createViews(layout);
  assert.equal(views.count, 3);
  assert.deepEqual([0, 11, 12, 29, 30, 500].map(views.at), [0, 0, 1, 1, 2, 2]);
  const m = views.maps(1);
  assert.equal(m.actual('n1'), 'n7');
  assert.equal(m.actual('t0'), 't0');      // an anchor stands for itself
  assert.equal(m.drawn('t9'), 't2');
  assert.equal(views.firstStep(2), 30);
  assert.deepEqual(views.passes(2), [2, 47]);
  assert.equal(views.summarised(2), true);
  assert.equal(views.summarised(0), false);
});

test('on a compact picture a module box stands for the boxes inside it, aliases too', () => {
  const compactPicture = { svg: '', nodes: {}, edges: [], width: 1, height: 1,
    folded: { 'g_model.5b.0.5d.': ['n1', 't2'] } };
  const layout = {
    svg: '', nodes: {}, edges: [], width: 1, height: 1, compact: compactPicture,
    iterations: [{ view: 0 }, { view: 0, alias: { n1: 'n7', t2: 't9' } }],
    steps: [[0, 0], [12, 1]],
  };
  const views = createViews(layout);
  assert.deepEqual(views.folded(1), compactPicture.folded);
  const first = views.compactMaps(0);
  assert.equal(first.drawn('t2'), 'g_model.5b.0.5d.');
  assert.equal(first.drawn('t0'), 't0');
  assert.equal(first.actual('g_model.5b.0.5d.'), 'n1');   // there once its first box is
  assert.equal(first.isBox('g_model.5b.0.5d.'), true);
  assert.equal(first.isBox('n1'), false);
  const later = views.compactMaps(1);    // the same picture reused by a later iteration
  assert.equal(later.drawn('t9'), 'g_model.5b.0.5d.');
  assert.equal(later.actual('g_model.5b.0.5d.'), 'n7');
  assert.equal(createViews({ ...layout, compact: undefined }).folded(0), null);
  assert.equal(createViews({ ...layout, compact: undefined }).compact(0), null);
});
