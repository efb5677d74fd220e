// A run in progress, made visible: after a short delay a "Running… 2.4 s" timer and a Stop
// button appear over the graph pane, and the player root carries `is-running`, which dims the
// previous program's picture (css). Stop asks the server to end the run (api.stopRun kills
// its sandbox worker) and aborts the request. While the server has no free worker the run
// waits in line, and the timer says so, with its place (asked of the server once a second).
// Only the root given is touched.
import * as api from './api.js';
import { tr } from './i18n.js';

// A quick run should not flash a timer. The player root's `data-show-timer-after-ms`, when
// set, replaces the delay (tests set a long one, so a run on a slow machine stays "quick").
const SHOW_AFTER_MS = 400;
const ASK_EVERY_MS = 1000;    // how often a run that has not answered asks for its place

/** @param {HTMLElement} root */
function showAfterMs(root) {
  const ms = Number(root.dataset.showTimerAfterMs);
  return Number.isFinite(ms) && ms >= 0 && root.dataset.showTimerAfterMs !== '' ? ms : SHOW_AFTER_MS;
}

/** @param {HTMLElement} root the player root @param {() => Object} strings
 * @param {() => void} onStop called when the learner stopped the run */
export function createRunStatus(root, strings, onStop) {
  const box = /** @type {HTMLElement} */ (root.querySelector('#run-status'));
  const timer = root.querySelector('#run-timer');
  const stopButton = root.querySelector('#stop');
  let current = null;   // {runId, controller, started, tick, delay, asking, place}

  function show() {
    // the ticks start with the run; the box waits for the delay
    if (!current || performance.now() - current.started < current.delay) return;
    box.hidden = false;
    const seconds = ((performance.now() - current.started) / 1000).toFixed(1);
    timer.textContent = current.place
      ? tr(strings(), 'waiting_place', { n: current.place, s: seconds })
      : tr(strings(), 'running_for', { s: seconds });
    box.classList.toggle('is-waiting', Boolean(current.place));
  }

  /** Ask where the run stands; the answer only matters while that run is still current. */
  function ask(run) {
    api.runProgress(run.runId).then((progress) => {
      if (current !== run) return;
      run.place = progress.state === 'waiting' ? progress.place : null;
      show();
    }).catch(() => { /* the answer itself will come or fail; the timer goes on */ });
  }

  function end() {
    if (current) {
      clearInterval(current.tick);
      clearInterval(current.asking);
    }
    current = null;
    box.hidden = true;
    root.classList.remove('is-running');
  }

  stopButton.addEventListener('click', () => {
    if (!current) return;
    const { runId, controller } = current;
    end();
    root.dataset.stopped = String(Number(root.dataset.stopped || 0) + 1);
    api.stopRun(runId).catch(() => { /* the run ends at its time limit anyway */ });
    controller.abort();
    onStop();
  });

  return {
    /** A run starts: returns its id and the AbortSignal for its request. */
    begin() {
      end();
      const controller = new AbortController();
      const runId = api.newRunId();
      const run = { runId, controller, started: performance.now(), tick: 0,
        delay: showAfterMs(root), asking: 0, place: null };
      current = run;
      current.tick = setInterval(show, 100);
      current.asking = setInterval(() => ask(run), ASK_EVERY_MS);
      root.classList.add('is-running');
      return { runId, signal: controller.signal, stopped: () => controller.signal.aborted };
    },
    /** The run answered, failed or was stopped; a later run may already have begun. */
    end(runId) { if (current && current.runId === runId) end(); },
    /** True while a run is in progress. */
    busy: () => current !== null,
    /** Abort the run in progress on the client only (a newer run replaces it). */
    abort() {
      if (!current) return;
      api.stopRun(current.runId).catch(() => {});
      current.controller.abort();
      end();
    },
  };
}
