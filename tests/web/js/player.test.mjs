// The step controller without a page: stepping, jumping across checkpoints, bounds, the next
// backward pass, and the loss series it feeds the plot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';
import { createPlayer } from '../../../static/js/player.js';
import { foldTo } from '../../../static/js/trace.js';
import { pickSeries } from '../../../static/js/panels/plot_series.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'traces');
const load = (name) => JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8'));

function player() {
  const calls = [];
  const p = createPlayer((model, why) => calls.push([why, model.index]));
  return { p, calls };
}

test('stepping and jumping give the same states as a fresh fold', () => {
  const trace = load('training_loop_elided');
  const { p, calls } = player();
  p.load({ trace, layout: null, result: {} });
  assert.equal(p.model.index, 0);
  assert.deepEqual(calls.slice(0, 2), [['load', -1], ['jump', 0]]);
  for (const i of [5, 300, 3, trace.events.length - 1, 257, 256, 0]) {
    if (i >= trace.events.length) continue;
    p.go(i);
    const fresh = foldTo(trace, i);
    assert.equal(p.model.index, i);
    assert.deepEqual(p.model.state.grads, fresh.grads, `step ${i}`);
    assert.deepEqual(Object.keys(p.model.state.tensors), Object.keys(fresh.tensors), `step ${i}`);
  }
  p.first();
  p.next();
  p.next();
  assert.equal(p.model.index, 2);
  p.prev();
  assert.equal(p.model.index, 1);
  assert.deepEqual(p.model.state.grads, foldTo(trace, 1).grads);
});

test('stepping stops at both ends', () => {
  const trace = load('first_trace');
  const { p } = player();
  p.load({ trace, layout: null, result: {} });
  p.prev();
  assert.equal(p.model.index, 0);
  p.last();
  assert.equal(p.model.index, trace.events.length - 1);
  p.next();
  assert.equal(p.model.index, trace.events.length - 1);
  p.go(10_000);
  assert.equal(p.model.index, trace.events.length - 1);
});

test('next backward goes to each pass in turn and wraps around', () => {
  const trace = load('s001_grad_accumulate');
  const begins = trace.events.filter((e) => e.kind === 'backward_begin').map((e) => e.seq);
  const { p } = player();
  p.load({ trace, layout: null, result: {} });
  const seen = [];
  for (let k = 0; k <= begins.length; k++) {
    p.nextBackward();
    seen.push(p.model.index);
  }
  assert.deepEqual(seen, [...begins, begins[0]]);
});

test('a run without a trace loads without steps', () => {
  const { p } = player();
  p.load({ trace: null, layout: null, result: { error: { type: 'SecurityError' } } });
  assert.equal(p.model.trace, null);
  assert.equal(p.count(), 0);
  p.next();
  assert.equal(p.model.index, -1);
});

test('the loss plot takes the backward roots of a training loop, not of two calls', () => {
  const loop = load('training_loop_elided');
  const picked = pickSeries(loop.series, loop.events);
  assert.equal(picked.source, 'roots');
  assert.equal(picked.runs.length, 1);          // one model trained once: one curve
  assert.ok(picked.runs[0].length >= 5);
  assert.equal(pickSeries({ roots: [[0, 1], [1, 1]], printed: [] }), null);
  const printed = pickSeries({ roots: [], printed: [{ line: 3, rows: [[1, 9], [2, 4], [3, 1]] }] });
  assert.deepEqual(printed, { runs: [[[1, 9], [2, 4], [3, 1]]], source: 'printed', line: 3 });
  const plotted = pickSeries({ roots: loop.series.roots, printed: [], plotted: [
    { title: 'Loss', xlabel: null, ylabel: null, lines: [{ label: 'train', rows: [[0, 2], [1, 1]] }] }] });
  assert.deepEqual(plotted, { runs: [[[0, 2], [1, 1]]], source: 'plotted', title: 'Loss',
    xlabel: null, ylabel: null, label: 'train' });
  // the axes' words come with the curve: the program's xlabel, else nothing (the panel's x)
  const labelled = pickSeries({ roots: [], printed: [], plotted: [
    { title: null, xlabel: 'step', ylabel: null, lines: [{ label: null, rows: [[0, 2], [1, 1]] }] }] });
  assert.equal(labelled.xlabel, 'step');
  assert.equal(labelled.ylabel, null);
});

test('the timeline merges runs of one phase and covers every step once', async () => {
  const { phases } = await import('../../../static/js/panels/timeline.js');
  const trace = load('training_loop_elided');
  const bands = phases(trace.events);
  assert.equal(bands[0].from, 0);
  assert.equal(bands.at(-1).to, trace.events.length - 1);
  bands.slice(1).forEach((b, i) => {
    assert.equal(b.from, bands[i].to + 1);
    assert.notEqual(b.phase, bands[i].phase);
  });
  const passes = trace.events.filter((e) => e.kind === 'backward_begin').length;
  assert.equal(bands.filter((b) => b.phase === 'backward').length, passes);
  assert.ok(bands.some((b) => b.phase === 'elided'));
  assert.ok(bands.length < trace.events.length / 3);
});
