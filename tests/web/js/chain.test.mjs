// The chain rule read off the trace (static/js/chain.js) against the golden traces
// tests/fixtures/traces/chain_rule.json (x * x + x) and inplace_bump.json (a saved sigmoid
// result changed by mul_): the card's numbers are the events' own, picks follow the learner,
// paths meeting show their sum, and the in-place error names the bump behind it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';
import { foldTo } from '../../../static/js/trace.js';
import { narrate } from '../../../static/js/narrate.js';
import { chainAt, meetAt, bumpOf, elementName, formula } from '../../../static/js/chain.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const load = (name) => JSON.parse(readFileSync(join(HERE, '..', '..', 'fixtures', 'traces', `${name}.json`), 'utf8'));
const strings = (lang) => JSON.parse(readFileSync(join(HERE, '..', '..', '..', 'static', 'i18n', `${lang}.json`), 'utf8'));
const words = { unnamed: 'tmp', input: 'input' };
const chain = load('chain_rule');
const bump = load('inplace_bump');
const at = (trace, kind, name) => trace.events.find((e) => e.kind === kind && (!name || e.name === name));

test('element names follow the shape, row-major', () => {
  assert.equal(elementName('x', [], 0), 'x');
  assert.equal(elementName('x', [3], 2), 'x[2]');
  assert.equal(elementName('W', [2, 3], 4), 'W[1, 1]');
  assert.equal(formula([{ i: 0, d: 2, up: 1 }, { i: 1, d: 1, up: 0.5 }], 2.5), '2 × 1 + 1 × 0.5 = 2.5');
  assert.equal(formula([], 0), '0 = 0');
});

test('MulBackward0 of x * x: local × upstream = sent with the event\'s numbers', () => {
  const ev = at(chain, 'node_apply', 'MulBackward0');
  const state = foldTo(chain, ev.seq);
  const c = chainAt(state, null, words);
  assert.equal(c.out, 'y');
  assert.deepEqual(c.up, ev.grads_in[0].data);
  assert.equal(c.edges.length, 2);
  assert.deepEqual([c.edges[0].name, c.edges[0].which], ['x', 'input 0']);     // both are x
  // the default pick: the last element of the first input
  assert.deepEqual([c.k, c.j], [0, 1]);
  const c1 = chainAt(state, { node: ev.node, k: 1, j: 1 }, words);
  assert.deepEqual(c1.terms, [{ i: 1, d: ev.local[1][1][0][1], up: ev.grads_in[0].data[1] }]);
  assert.equal(c1.sent, ev.grads_out[1].data[1]);
  assert.equal(c1.formula, '2 × 1 = 2');            // ∂(x·x)/∂x[1] through `other` is x[1] = 2
  // a pass whose gradients a hook replaced says so beside the product
  assert.equal(c.hooked, false);
  assert.equal(chainAt({ ...state, passHooked: true }, null, words).hooked, true);
  // a pick of another node's step is not carried over
  assert.deepEqual([chainAt(state, { node: 'n999', k: 1, j: 1 }, words).k], [0]);
});

test('picking an element of the upstream gradient lists where it goes', () => {
  const ev = at(chain, 'node_apply', 'AddBackward0');
  const c = chainAt(foldTo(chain, ev.seq), { node: ev.node, i: 1 }, words);
  assert.equal(c.i, 1);
  assert.deepEqual(c.reaches.map((r) => r.name), ['y[1]', 'x[1]']);
  assert.deepEqual(c.reaches.map((r) => r.d), [1, 1]);
});

test('where the three paths to x meet, the contributions add up to what accumulated', () => {
  const ev = at(chain, 'accumulate');
  const state = foldTo(chain, ev.seq);
  const m = meetAt(state, 1, words);
  assert.deepEqual(m.parts.map((p) => p.value), [1, 2, 2]);
  assert.equal(m.sum, ev.added.data[1]);
  assert.equal(m.sum, 5);
});

test('a step without local numbers has no chain card', () => {
  for (const e of chain.events.filter((x) => x.kind !== 'node_apply')) {
    assert.equal(chainAt(foldTo(chain, e.seq), null, words), null);
  }
});

test('the in-place error points at the bump that caused it', () => {
  const inplace = at(bump, 'inplace');
  const err = at(bump, 'error');
  const state = foldTo(bump, err.seq);
  assert.deepEqual(state.versions[inplace.tensor].map((v) => v.version), [1]);
  const b = bumpOf(state, words);
  assert.equal(b.saved, 'result');
  assert.deepEqual([b.expected, b.version], [0, 1]);
  assert.equal(b.bump.seq, inplace.seq);
  assert.equal(b.bump.op, 'mul_');
  assert.equal(b.bumpName, 'b');
  for (const lang of ['en', 'zh']) {
    const text = narrate(state, strings(lang));
    assert.match(text, /v0/);
    assert.match(text, /mul_/);
    assert.ok(!/\{\w+\}/.test(text), text);
    const bumped = narrate(foldTo(bump, inplace.seq), strings(lang));
    assert.match(bumped, /v0 → v1/);
  }
});

test('every chain string exists in both languages', () => {
  const en = strings('en');
  const zh = strings('zh');
  const keys = Object.keys(en).filter((k) => k.startsWith('chain.'));
  assert.ok(keys.length > 10);
  for (const k of keys) assert.ok(zh[k], k);
});
