// A program from elsewhere (a link, a teacher's lesson folder) on a server whose sandbox lacks
// its OS layers is shown, not run, until the learner presses Run: there the language layer is
// the only wall between a program and the computer. The server marks such pages with
// data-sandbox="partial" (app/services/pages.py, sandbox_is_partial); the line says why.
import { tr } from './i18n.js';

/** @param {HTMLElement|null} el the page's main element @returns {boolean} */
export function waitsForRun(el) {
  return Boolean(el && el.dataset.sandbox === 'partial');
}

/**
 * Show the line above the program; it goes when a run starts (the Run button turns busy).
 * @param {HTMLElement} playerRoot @param {Object<string,string>} strings
 * @param {'link'|'lesson'} reason
 * @returns {() => void} removes the line
 */
export function showWaitForRun(playerRoot, strings, reason) {
  const key = reason === 'lesson' ? 'wait_run_lesson' : 'wait_run_link';
  const run = /** @type {HTMLElement} */ (playerRoot.querySelector('#run'));
  const head = playerRoot.querySelector('.pane-code .pane-head');
  let line = /** @type {HTMLElement|null} */ (playerRoot.querySelector('.wait-run'));
  if (!line) {
    line = document.createElement('p');
    line.className = 'wait-run';
    line.setAttribute('role', 'status');
    head.after(line);
  }
  line.dataset.i18n = key;          // a language switch rewrites it (i18n.js applyStrings)
  line.textContent = tr(strings, key);
  playerRoot.dataset.waiting = reason;
  run.classList.add('is-waiting');
  const done = () => {
    observer.disconnect();
    if (line) line.remove();
    delete playerRoot.dataset.waiting;
    run.classList.remove('is-waiting');
  };
  const observer = new MutationObserver(() => {
    if (run.getAttribute('aria-busy') === 'true') done();
  });
  observer.observe(run, { attributes: true, attributeFilter: ['aria-busy'] });
  return done;
}

/**
 * Resolve on the next press of Run, keeping that press from starting the player's own run.
 * @param {HTMLElement} run the Run button @returns {Promise<void>}
 */
export function nextRunPress(run) {
  return new Promise((resolve) => {
    run.addEventListener('click', (e) => {
      e.stopImmediatePropagation();
      resolve();
    }, { capture: true, once: true });
  });
}
