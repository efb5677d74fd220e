// Work in turns without a page: a generator run at once or in turns gives the same result,
// and in turns other work gets the thread between its steps once the budget has passed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runNow, runInTurns, BUDGET_MS } from '../../../static/js/turns.js';

function* sum(n, log) {
  let total = 0;
  for (let i = 1; i <= n; i++) {
    total += i;
    if (log) log.push('step');
    yield;
  }
  return total;
}

// a step that keeps the thread for `ms`
function* busy(steps, ms, log) {
  for (let i = 0; i < steps; i++) {
    const end = performance.now() + ms;
    while (performance.now() < end) { /* hold the thread */ }
    log.push('step');
    yield;
  }
  return steps;
}

test('runNow runs every step in this task and returns what the generator returns', () => {
  const log = [];
  assert.equal(runNow(sum(100, log)), 5050);
  assert.equal(log.length, 100);
});

test('runInTurns runs every step and returns what the generator returns', async () => {
  const log = [];
  assert.equal(await runInTurns(sum(1000, log)), 500500);
  assert.equal(log.length, 1000);
});

test('runInTurns lets other work run between steps once the budget has passed', async () => {
  const log = [];
  const steps = 6;
  const ms = BUDGET_MS / 2 + 5;      // two steps pass the budget
  const channel = new MessageChannel();
  const other = new Promise((resolve) => {
    channel.port1.onmessage = () => { log.push('other'); channel.port1.close(); resolve(); };
  });
  channel.port2.postMessage(null);
  assert.equal(await runInTurns(busy(steps, ms, log)), steps);
  await other;
  const at = log.indexOf('other');
  assert.ok(at > 0 && at < steps, `the other work ran at ${at} of ${log.length}`);
});
