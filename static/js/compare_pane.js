// One run's pane of the comparison (compare_view.js): its tag, its step, its program with the
// changed lines marked, its graph, its step's sentence. It folds its own trace and outlines
// the boxes the comparison says differ; which boxes those are is compare.js's business.
import { validate, foldTo, initialState } from './trace.js';
import { createStage } from './graph/stage.js';
import { describeBox } from './graph/values.js';
import { narrate } from './narrate.js';
import { tr } from './i18n.js';
import { h, fill } from './dom.js';

const PRESENTER_TEXT_PX = 16.5;     // as in mount.js: a projector shows the boxes' words at 16 px
const CHECKPOINT = 256;

// One run's states, folded on demand with checkpoints (as player.js does for the one run).
function stepper(trace) {
  const checkpoints = new Map();
  let last = { index: -1, state: initialState() };
  return (i) => {
    if (i < 0 || !trace) return initialState();
    if (i === last.index) return last.state;
    let base = i > last.index && last.index >= 0 ? last.state : undefined;
    for (let c = Math.floor(i / CHECKPOINT) * CHECKPOINT; !base && c > 0; c -= CHECKPOINT) {
      if (checkpoints.has(c)) base = checkpoints.get(c);
    }
    let state = base;
    const from = base ? base.index : -1;
    for (let c = (Math.floor(from / CHECKPOINT) + 1) * CHECKPOINT; c <= i; c += CHECKPOINT) {
      state = foldTo(trace, c, state);
      checkpoints.set(c, state);
    }
    state = foldTo(trace, i, state);
    last = { index: i, state };
    return state;
  };
}

// In presenter mode the picture keeps its words readable and follows the work instead.
function presenterScale(graph) {
  if (!graph.closest('.is-presenter')) return 0;
  const sizes = [...graph.querySelectorAll('svg text[font-size]')].map((t) => Number(t.getAttribute('font-size')));
  return PRESENTER_TEXT_PX / Math.min(...sizes.filter((x) => x > 0), 14);
}

// What the eye should follow in a pane: the working node, else what the step made, else the
// first box that differs from the other run.
function focusOf(state, differs) {
  return state.active || (state.fresh && state.fresh[0]) || differs[0] || null;
}

/**
 * @param {'a'|'b'} which the earlier (a) or the later (b) run
 * @param {Object} answer the run's answer from the server
 * @param {number[]} changed its lines (1-based) that the other program lacks
 * @param {Object} S the string table
 */
export function createComparePane(which, answer, changed, S) {
  const shown = { values: true, saved: true };
  const trace = answer.trace ? validate(answer.trace) : null;
  const source = trace ? trace.program.source : (answer.source || '');
  const lines = source.replace(/\n$/, '').split('\n');
  const marked = new Set(changed);
  // a scrolling list is a tab stop, so the keyboard can scroll it too
  const code = h('ol', { class: 'compare-code', tabindex: '0', 'aria-label': tr(S, 'compare_code', { run: tr(S, `compare_${which === 'a' ? 'before' : 'after'}`) }) },
    lines.map((text, i) => h('li', { class: marked.has(i + 1) ? 'is-changed' : null, dataset: { line: String(i + 1) } },
      h('span', { class: 'compare-mark', 'aria-hidden': 'true' }, marked.has(i + 1) ? (which === 'a' ? '−' : '+') : ' '),
      h('code', {}, text || ' '))));
  const graph = /** @type {HTMLElement} */ (h('div', { class: 'graph compare-graph', tabindex: '0', role: 'group',
    'aria-label': tr(S, 'graph_label') }));
  const tag = h('span', { class: `compare-tag compare-tag-${which}` });
  const step = h('span', { class: 'compare-pane-step' });
  const error = answer.result && answer.result.error;
  const status = h('span', { class: error ? 'compare-status is-error' : 'compare-status' });
  const narration = h('p', { class: 'narration compare-narration', 'aria-live': 'off' });
  const pane = h('section', { class: `compare-pane compare-pane-${which}`, dataset: { run: which } },
    h('div', { class: 'compare-pane-head' }, tag, status, step), code, graph, narration);
  let stage = null;
  if (answer.layout) {
    stage = createStage(graph, answer.layout, {
      shown, describe: (state, id) => describeBox(state, id, S, tr),
      words: { fold: tr(S, 'group_fold'), open: tr(S, 'group_open'), root: tr(S, 'graph_root') },
      graphLabel: tr(S, 'graph_label'), viewport: { minScale: () => presenterScale(graph) },
    });
  } else {
    fill(graph, h('p', { class: 'graph-empty' }, answer.layout_note || tr(S, 'graph_none')));
  }
  // the same zoom keys as the player's graph (mount.js)
  graph.addEventListener('keydown', (e) => {
    const zoom = { '+': 1.25, '=': 1.25, '-': 0.8 }[e.key];
    if (stage && zoom) stage.viewport.zoom(zoom);
    else if (stage && e.key === '0') stage.viewport.fit();
  });
  const el = { pane, tag, step, status, narration, code, graph };
  const stateAt = stepper(trace);

  function paint(index, state, diff, current, strings) {
    S = strings;
    const n = trace ? trace.events.length : 0;
    el.tag.textContent = tr(S, which === 'a' ? 'compare_before' : 'compare_after');
    el.step.textContent = index < 0 ? tr(S, 'compare_not_started')
      : tr(S, 'step_label', { i: index + 1, n });
    el.step.classList.toggle('is-holding', !current);
    el.pane.dataset.step = String(index + 1);
    el.pane.classList.toggle('is-holding', !current);
    el.status.textContent = error ? `${error.type}` : '';
    el.narration.textContent = index < 0 ? tr(S, 'compare_not_started')
      : `${current ? '' : `${tr(S, 'compare_holding')} `}${narrate(state, S)}`;
    for (const li of el.code.children) {
      li.classList.toggle('is-current', Number(/** @type {HTMLElement} */ (li).dataset.line) === state.line);
    }
    const line = el.code.querySelector('.is-current');
    if (line) line.scrollIntoView({ block: 'nearest' });
    if (!stage) return;
    stage.render(state, null);
    const having = (what) => [...diff.entries()].filter(([, w]) => w.includes(what)).map(([id]) => id);
    const values = having('value');
    const grads = having('grad');
    const differs = [...new Set([...values, ...grads])];
    stage.mark(differs, 'is-differs');
    // which row differs, the value or the gradient, is marked on the row itself
    stage.mark(values, 'is-value-differs');
    stage.mark(grads, 'is-grad-differs');
    stage.mark(having('only'), 'is-only-here');
    const focus = stage.boxOf(focusOf(state, differs));
    if (focus) stage.viewport.reveal(focus.x, focus.y, focus.w, focus.h);
    el.pane.dataset.differs = String(differs.length);
  }

  return {
    answer, trace, stateAt, paint, el,
    destroy() { if (stage) stage.destroy(); },
  };
}

