// Narration, number formatting, error explanations and the string lookup: pure modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';
import { foldTo } from '../../../static/js/trace.js';
import { narrate } from '../../../static/js/narrate.js';
import { num, short, close, shapeText } from '../../../static/js/format.js';
import { explanationKey, errorOrigin, learnerMessage } from '../../../static/js/explain.js';
import { tr } from '../../../static/js/i18n.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const strings = (lang) => JSON.parse(readFileSync(join(ROOT, 'static', 'i18n', `${lang}.json`), 'utf8'));
const fixture = (name) => JSON.parse(readFileSync(join(ROOT, 'tests', 'fixtures', 'traces', `${name}.json`), 'utf8'));
const EN = strings('en');
const ZH = strings('zh');

test('both languages have the same keys and the same placeholders', () => {
  assert.deepEqual(Object.keys(ZH).sort(), Object.keys(EN).sort());
  const holes = (s) => (s.match(/\{\w+\}/g) || []).sort().join();
  for (const key of Object.keys(EN)) assert.equal(holes(ZH[key]), holes(EN[key]), key);
});

test('tr fills placeholders and shows a missing key rather than nothing', () => {
  assert.equal(tr({ a: 'x = {v}' }, 'a', { v: 3 }), 'x = 3');
  assert.equal(tr({}, 'nope'), 'nope');
  assert.equal(tr({ a: '{k} {k}' }, 'a', {}), '{k} {k}');
});

test('numbers and values are short and PyTorch-like', () => {
  assert.equal(num(512), '512');
  assert.equal(num(1 / 3), '0.3333');
  assert.equal(num(1e-5), '1e-5');
  assert.equal(num(123456), '1.23e5');
  assert.equal(num('nan'), 'nan');
  assert.equal(short({ shape: [2], data: [3, 3] }), '[3, 3]');
  assert.equal(short({ shape: [], data: 9 }), '9');
  assert.equal(short({ shape: [2, 2], data: [[1, 0], [0, 1]] }), '[[1, 0], [0, 1]]');
  assert.equal(short({ shape: [100], data: null }), '(100,) …');
  assert.equal(short(null), 'None');
  assert.equal(shapeText([3]), '(3,)');
  assert.ok(close({ data: [512, 1] }, { data: [512.00001, 1] }));
  assert.ok(!close({ data: [512, 1] }, { data: [511, 1] }));
});

test('every step of every fixture has a sentence in both languages, with no holes left', () => {
  for (const name of ['first_trace', 's000_backward_twice_error', 's001_grad_accumulate',
    'training_loop_elided', 's001_copyslices_m_n', 's000_higher_order_grad']) {
    const trace = fixture(name);
    for (const ev of trace.events) {
      const state = foldTo(trace, ev.seq);
      for (const S of [EN, ZH]) {
        const text = narrate(state, S);
        assert.ok(text.length > 5, `${name}#${ev.seq}`);
        assert.doesNotMatch(text, /\{\w+\}|narr\.|undefined/, `${name}#${ev.seq}: ${text}`);
      }
    }
  }
});

test('narration says the numbers: x.grad = before + added = after', () => {
  const trace = fixture('s001_grad_accumulate');
  const second = trace.events.filter((e) => e.kind === 'accumulate')[1];
  const text = narrate(foldTo(trace, second.seq), EN);
  assert.match(text, /\[1, 1\] \+ \[1, 1\] = \[2, 2\]/);
  assert.match(narrate(foldTo(trace, second.seq), ZH), /累加/);
});

test('PyTorch errors get a plain explanation key', () => {
  const msg = 'Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed).';
  assert.equal(explanationKey({ type: 'RuntimeError', message: msg }), 'explain.second_backward');
  assert.equal(explanationKey({ type: 'RuntimeError', message: 'grad can be implicitly created only for scalar outputs' }), 'explain.scalar_only');
  assert.equal(explanationKey({ type: 'ImportError', message: 'x', kind: 'refused' }), 'explain.refused');
  assert.equal(explanationKey({ type: 'ValueError', message: 'something else' }), null);
  for (const key of ['explain.second_backward', 'explain.scalar_only', 'explain.refused']) {
    assert.ok(EN[key] && ZH[key], key);
  }
});

test('the time limits are told apart: the program\'s CPU time, or a busy server', () => {
  const cpu = 'line 3: CPU time limit exceeded (5 s): the program used 5.0 s of CPU time';
  const wall = 'wall time limit exceeded (20 s): the program ran for 20 s but used only 0.4 s';
  assert.equal(explanationKey({ type: 'LimitExceeded', message: cpu, error_kind: 'limit' }), 'explain.limit_cpu');
  assert.equal(explanationKey({ type: 'LimitExceeded', message: wall, kind: 'limit' }), 'explain.limit_wall');
  assert.equal(explanationKey({ type: 'LimitExceeded', message: 'stdout limit exceeded', kind: 'limit' }), 'explain.limit');
  // the words only count for a limit: a program's own exception saying them is not one
  assert.equal(explanationKey({ type: 'RuntimeError', message: cpu, kind: 'exception' }), null);
  for (const key of ['explain.limit_cpu', 'explain.limit_wall']) assert.ok(EN[key] && ZH[key], key);
});

test('errors are told apart by who raised them, and Python names no file', () => {
  assert.equal(errorOrigin({ type: 'RuntimeError', error_kind: 'exception', origin: 'pytorch' }), 'pytorch');
  assert.equal(errorOrigin({ type: 'TypeError', error_kind: 'exception', origin: 'python' }), 'python');
  // traces and results without `origin`: by kind, then by the types only Python raises
  assert.equal(errorOrigin({ type: 'LimitExceeded', kind: 'limit' }), 'gradstep');
  assert.equal(errorOrigin({ type: 'NameError', error_kind: 'exception' }), 'python');
  assert.equal(errorOrigin({ type: 'RuntimeError', error_kind: 'exception' }), 'pytorch');
  const syntax = { type: 'SyntaxError', origin: 'python', message: "'(' was never closed (main.py, line 2)" };
  assert.equal(learnerMessage(syntax), "'(' was never closed (line 2)");
  const torch = { type: 'RuntimeError', origin: 'pytorch', message: 'x (main.py, line 2)' };
  assert.equal(learnerMessage(torch), torch.message);   // PyTorch's words stay verbatim
});

test('a create_graph op and the end of autograd.grad are narrated by what they are', () => {
  const trace = fixture('s000_higher_order_grad');
  const i = trace.events.findIndex((e) => e.kind === 'op' && e.in_backward && e.by);
  assert.ok(i > 0);
  const state = foldTo(trace, i);
  assert.equal(state.active, trace.events[i].by);
  assert.match(narrate(state, EN), /PowBackward0 runs its backward formula/);
  const end = trace.events.findIndex((e) => e.kind === 'backward_end');
  assert.match(narrate(foldTo(trace, end), EN), /autograd\.grad returns/);
});
