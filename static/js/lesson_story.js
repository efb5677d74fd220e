// A lesson that moves with its text: each passage is bound to a step, so reading (scrolling the
// passage into the middle of the text column) or clicking it moves the player there, and
// stepping lights the passage of the current step and scrolls it to the middle of the column. "Predict, then
// step" questions take a choice or a typed answer, then step to the step that shows the
// answer and say whether the prediction was right. Everything is found through `page`.
import { tr } from './i18n.js';

/** The index of the last passage whose step is at or before `index` (-1: none yet). */
export function passageAt(steps, index) {
  let found = -1;
  steps.forEach((s, i) => { if (s >= 0 && s <= index) found = i; });
  return found;
}

/** A typed answer matches when its numbers (or, without numbers, its words) are the same. */
export function sameAnswer(typed, expected) {
  const nums = (s) => (s.match(/-?\d+(\.\d*)?(e-?\d+)?/gi) || []).map(Number);
  const a = nums(typed);
  const b = nums(expected);
  if (b.length) return a.length === b.length && a.every((x, i) => Math.abs(x - b[i]) < 1e-9);
  const words = (s) => s.toLowerCase().replace(/\s+/g, '');
  return words(typed) === words(expected);
}

/**
 * @param {HTMLElement} page the lesson's <main> @param {Object} player mountPlayer's controller
 * @param {Object} lesson /api/lessons/{id}/run's lesson @param {(seq:number)=>number} stepOf
 * @param {Object} strings
 * @returns {(index:number) => void} call after every step
 */
export function wireStory(page, player, lesson, stepOf, strings) {
  const passages = [...page.querySelectorAll('[data-passage]')];
  const steps = (lesson.passages || []).map((p) => stepOf(p.seq));
  let scrolling = false;     // the player moved because of the text: do not scroll the text
  let placed = null;         // where stepping last scrolled the text: not the reader's doing

  const column = page.querySelector('.lesson-text');
  // scroll the text column only (scrollIntoView would scroll the page as well)
  const center = (el) => {
    if (!column) return;
    column.scrollTop = el.offsetTop - column.clientHeight / 2 + el.offsetHeight / 2;
    placed = column.scrollTop;
  };
  passages.forEach((el, i) => {
    const go = () => { if (steps[i] >= 0) { player.player.go(steps[i]); center(el); } };
    el.addEventListener('click', go);
    el.addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => { if (e.key === 'Enter') { e.preventDefault(); go(); } });
  });
  let settle = 0;
  if (column && passages.length) {
    // reading: when the text stops scrolling, the passage nearest the middle of the column
    // is the one being read, and the player goes to its step
    column.addEventListener('scroll', () => {
      clearTimeout(settle);
      settle = setTimeout(() => {
        if (placed !== null && Math.abs(column.scrollTop - placed) < 2) return;
        const box = column.getBoundingClientRect();
        const middle = box.top + box.height / 2;
        let best = -1;
        let gap = Infinity;
        passages.forEach((el, k) => {
          const r = el.getBoundingClientRect();
          const d = Math.abs((r.top + r.bottom) / 2 - middle);
          if (d < box.height / 4 && d < gap) { gap = d; best = k; }   // in the middle half
        });
        if (best >= 0 && steps[best] >= 0 && !passages[best].classList.contains('is-current')) {
          scrolling = true;
          player.player.go(steps[best]);
          scrolling = false;
        }
      }, 120);
    }, { passive: true });
  }

  for (const box of /** @type {NodeListOf<HTMLElement>} */ (page.querySelectorAll('[data-question]'))) {
    const q = lesson.questions[Number(box.dataset.question)];
    const step = q ? stepOf(q.seq) : -1;
    const check = /** @type {HTMLButtonElement} */ (box.querySelector('.check'));
    const verdict = box.querySelector('.verdict');
    const input = /** @type {HTMLInputElement|null} */ (box.querySelector('.typed-answer'));
    let chosen = null;
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (box.querySelectorAll('[data-choice]'))) {
      b.addEventListener('click', () => {
        chosen = Number(b.dataset.choice);
        for (const o of box.querySelectorAll('[data-choice]')) o.setAttribute('aria-pressed', String(o === b));
        check.disabled = step < 0;
      });
    }
    if (input) input.addEventListener('input', () => { check.disabled = step < 0 || !input.value.trim(); });
    check.addEventListener('click', () => {
      const right = q.choices.length ? chosen === q.answer : sameAnswer(input.value, String(q.answer));
      const answer = q.choices.length ? q.choices[q.answer] : String(q.answer);
      scrolling = true;        // the reader is at the question: keep the text where it is
      player.player.go(step);
      scrolling = false;
      if (column) placed = column.scrollTop;
      box.dataset.verdict = right ? 'right' : 'wrong';
      verdict.textContent = tr(strings, right ? 'predict_right' : 'predict_wrong', { answer });
    });
  }

  return (index) => {
    const i = passageAt(steps, index);
    passages.forEach((el, k) => el.classList.toggle('is-current', k === i));
    if (i >= 0 && !scrolling) {
      center(passages[i]);
    }
  };
}
