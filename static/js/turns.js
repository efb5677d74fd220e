// Work that may be big, done in turns: a loop written once as a generator that yields after
// each unit of work runs either at once (runNow) or with the thread given back to the page
// whenever a few dozen milliseconds have passed (runInTurns), so the page can paint and answer
// input in between and no task of a 2,000-box picture holds it (docs/performance.md).

/** Wall-clock time of work before the page gets the thread back. Wall clock, not CPU: on a
 * crowded core the same work takes longer, and the page still gets the thread this often. */
export const BUDGET_MS = 16;

/** Give the thread back to the page for a moment (it may paint and answer input). */
export const pause = () => new Promise((resolve) => {
  // a message task comes back sooner than a timer (no 4 ms clamp) and still lets the page paint
  const channel = new MessageChannel();
  channel.port1.onmessage = () => { channel.port1.close(); resolve(undefined); };
  channel.port2.postMessage(null);
});

/**
 * Run a generator to its end in this task. @template T
 * @param {Generator<unknown, T>} steps @returns {T}
 */
export function runNow(steps) {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * Run a generator to its end, pausing whenever `BUDGET_MS` have passed. @template T
 * @param {Generator<unknown, T>} steps @returns {Promise<T>}
 */
export async function runInTurns(steps) {
  let started = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - started > BUDGET_MS) {
      await pause();
      started = performance.now();
    }
  }
}

/** Resolves once the page has painted its next frame (or after a tenth of a second where no
 * frame comes, as in a hidden tab), so that what was just put up is seen before more work. */
export const afterPaint = () => new Promise((resolve) => {
  const late = setTimeout(resolve, 100);
  // a message posted from the frame's callback is handled after that frame is painted
  requestAnimationFrame(() => { clearTimeout(late); pause().then(resolve); });
});
