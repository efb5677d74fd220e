// Optimizer steps against the golden trace of SGD with momentum and Adam
// (tests/fixtures/traces/optimizer_steps.json): the fold moves each parameter at its own
// step, the rule's lines carry the event's own numbers, and every sentence is filled in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';
import { foldTo } from '../../../static/js/trace.js';
import { narrate } from '../../../static/js/narrate.js';
import { ruleLines, nextUpdate } from '../../../static/js/trace_optim.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const trace = JSON.parse(readFileSync(join(HERE, '..', '..', 'fixtures', 'traces', 'optimizer_steps.json'), 'utf8'));
const strings = (lang) => JSON.parse(readFileSync(join(HERE, '..', '..', '..', 'static', 'i18n', `${lang}.json`), 'utf8'));
const updates = trace.events.filter((e) => e.kind === 'optimizer_update');

test('each update moves its own parameter, and only it', () => {
  assert.equal(updates.length, 4);
  for (const ev of updates) {
    const before = foldTo(trace, ev.seq - 1);
    const after = foldTo(trace, ev.seq);
    assert.deepEqual(after.tensors[ev.tensor].value.data, ev.after.data);
    assert.equal(after.active, ev.tensor);
    for (const id of Object.keys(before.tensors)) {
      if (id !== ev.tensor) assert.deepEqual(after.tensors[id].value, before.tensors[id].value);
    }
  }
});

test('the rule lines show the event\'s numbers, not new ones', () => {
  const [sgd1, adam1, sgd2, adam2] = updates;
  const keys = (ev) => ruleLines(ev).map((l) => l.key);
  assert.deepEqual(keys(sgd1), ['grad', 'momentum_buffer', 'direction', 'after']);
  assert.equal(ruleLines(sgd1)[1].rule, 'buf ← g');          // the first step copies g
  assert.equal(ruleLines(sgd2)[1].rule, 'buf ← momentum·buf + (1 − dampening)·g');
  assert.deepEqual(keys(adam2), ['grad', 'step', 'exp_avg', 'exp_avg_sq', 'm_hat', 'v_hat', 'step_size', 'after']);
  const lines = ruleLines(adam2);
  const by = (k) => lines.find((l) => l.key === k);
  assert.equal(by('exp_avg').value, adam2.state.find((s) => s.name === 'exp_avg').value);
  assert.equal(by('exp_avg').was, adam2.state_before.find((s) => s.name === 'exp_avg').value);
  assert.equal(by('m_hat').given[1], adam2.terms.find((t) => t.name === 'bias_correction1').number);
  assert.equal(by('after').value, adam2.after);
  assert.equal(ruleLines(adam1).find((l) => l.key === 'exp_avg').was, null);
  assert.equal(sgd2.lr, 0.05);
  assert.deepEqual(sgd2.scheduler, { name: 'StepLR', epoch: 1 });
});

test('every optimizer step has a complete sentence in both languages', () => {
  for (const lang of ['en', 'zh']) {
    const S = strings(lang);
    for (const ev of trace.events.filter((e) => ['optimizer_update', 'zero_grad', 'lr_step'].includes(e.kind))) {
      const text = narrate(foldTo(trace, ev.seq), S);
      assert.doesNotMatch(text, /[{}]|narr\.|optim\./, text);
    }
  }
  const S = strings('en');
  const z = trace.events.filter((e) => e.kind === 'zero_grad');
  assert.match(narrate(foldTo(trace, z[2].seq), S), /sets the \.grad of w to None/);
  assert.match(narrate(foldTo(trace, z[3].seq), S), /set_to_none=False\) fills the \.grad of v with zeros/);
  assert.match(narrate(foldTo(trace, updates[2].seq), S), /lr from StepLR, epoch 1/);
});

test('O goes to the next update and wraps around', () => {
  assert.equal(nextUpdate(trace, 0), updates[0].seq);
  assert.equal(nextUpdate(trace, updates[0].seq + 1), updates[1].seq);
  assert.equal(nextUpdate(trace, updates[3].seq + 1), updates[0].seq);
});
