// Two runs side by side: a pane for each run (its program with the changed lines marked, its
// graph, its step's sentence) under one set of step controls, so both play step for step.
// Boxes whose value or gradient differs from the other run's twin at this step are outlined,
// and the loss points of both runs share one plot. What corresponds to what comes from
// compare.js; this module only draws it and owns the shared step.
import { align, differences, nextDifference, changedLines, summarise } from './compare.js';
import { createComparePane } from './compare_pane.js';
import { renderCompareLoss } from './panels/compare_loss.js';
import { tr } from './i18n.js';
import { h, fill } from './dom.js';

const BASE_INTERVAL_MS = 900;
const LISTED = 6;           // boxes named in a pane's "differs here" line before "and n more"
const ICONS = {
  first: 'M6 5h2v14H6zM19 5v14L9 12z', prev: 'M16 5v14L6 12z', play: 'M8 5v14l11-7z',
  pause: 'M7 5h4v14H7zM13 5h4v14h-4z', next: 'M8 5v14l10-7z', last: 'M16 5h2v14h-2zM5 5v14l10-7z',
};

const icon = (name) => h('svg:svg', { class: 'icon', viewBox: '0 0 24 24', width: 18, height: 18,
  'aria-hidden': 'true', focusable: 'false' }, h('svg:path', { d: ICONS[name] }));

/**
 * @param {HTMLElement} host where the view is built (hidden until `open`)
 * @param {{strings:Object, onClose?:()=>void, onStep?:(row:number)=>void,
 *   canClose?:boolean}} options
 */
export function createCompareView(host, options) {
  let S = options.strings;
  let runs = null;          // {a, b}: the two panes (compare_pane.js)
  let alignment = null;
  let row = 0;
  let timer = null;
  let speed = 1;

  const button = (id, key, name, onclick) => h('button', { type: 'button', id, class: 'btn btn-icon',
    title: tr(S, key), 'aria-label': tr(S, key), dataset: { i18nTitle: key, i18nLabel: key }, onclick }, icon(name));
  const el = {
    title: h('h2', { class: 'pane-title', id: 'compare-title', dataset: { i18n: 'compare_title' } }, tr(S, 'compare_title')),
    summary: h('p', { class: 'compare-summary', id: 'compare-summary', 'aria-live': 'polite' }),
    swap: /** @type {HTMLButtonElement} */ (h('button', { type: 'button', id: 'compare-swap', class: 'btn btn-small', onclick: () => swap() })),
    close: /** @type {HTMLButtonElement} */ (h('button', { type: 'button', id: 'compare-close', class: 'btn btn-small', onclick: () => close() })),
    panes: h('div', { class: 'compare-panes' }),
    slider: /** @type {HTMLInputElement} */ (h('input', { type: 'range', id: 'compare-slider', class: 'slider',
      min: 0, max: 0, value: 0, oninput: () => go(Number(el.slider.value)) })),
    label: h('output', { id: 'compare-step', class: 'step-label', 'aria-live': 'off' }),
    play: /** @type {HTMLButtonElement} */ (h('button', { type: 'button', id: 'compare-play', class: 'btn btn-icon btn-play', onclick: () => toggle() },
      h('span', { class: 'when-paused' }, icon('play')), h('span', { class: 'when-playing' }, icon('pause')))),
    nextDiff: /** @type {HTMLButtonElement} */ (h('button', { type: 'button', id: 'compare-next-diff', class: 'btn btn-small', onclick: () => goNextDifference() })),
    here: h('p', { class: 'compare-here', id: 'compare-here', 'aria-live': 'polite' }),
    loss: /** @type {HTMLElement} */ (h('div', { class: 'compare-loss', id: 'compare-loss' })),
    legendDiffers: h('span', {}),
    legendOnly: h('span', {}),
  };
  const legend = h('ul', { class: 'compare-legend' },
    h('li', {}, h('span', { class: 'key key-differs', 'aria-hidden': 'true' }), el.legendDiffers),
    h('li', {}, h('span', { class: 'key key-only-here', 'aria-hidden': 'true' }), el.legendOnly));
  const controls = h('div', { class: 'compare-controls', role: 'toolbar', id: 'compare-controls' },
    button('compare-first', 'step_first', 'first', () => go(0)),
    button('compare-prev', 'step_prev', 'prev', () => go(row - 1)),
    el.play,
    button('compare-next', 'step_next', 'next', () => go(row + 1)),
    button('compare-last', 'step_last', 'last', () => go(count() - 1)),
    el.slider, el.label, el.nextDiff);
  const section = h('section', { class: 'compare', 'aria-labelledby': 'compare-title' },
    h('div', { class: 'compare-head' }, el.title, el.summary, el.swap, options.canClose === false ? null : el.close),
    el.panes,
    h('div', { class: 'compare-foot' }, h('div', { class: 'compare-foot-steps' }, controls,
      h('div', { class: 'compare-here-row' }, el.here, legend)), el.loss));
  fill(host, section);
  host.hidden = true;

  const count = () => (alignment ? alignment.rows.length : 0);

  function words() {
    el.swap.textContent = tr(S, 'compare_swap');
    el.close.textContent = tr(S, 'compare_close');
    el.nextDiff.textContent = tr(S, 'compare_next_difference');
    el.nextDiff.title = tr(S, 'compare_next_difference_hint');
    el.slider.setAttribute('aria-label', tr(S, 'compare_slider'));
    controls.setAttribute('aria-label', tr(S, 'compare_controls'));
    const playKey = timer ? 'pause' : 'play';
    el.play.setAttribute('aria-label', tr(S, playKey));
    el.play.title = tr(S, playKey);
    el.title.textContent = tr(S, 'compare_title');
    el.legendDiffers.textContent = tr(S, 'compare_legend_differs');
    el.legendOnly.textContent = tr(S, 'compare_legend_only');
    legend.setAttribute('aria-label', tr(S, 'legend'));
    for (const b of controls.querySelectorAll('[data-i18n-title]')) {
      const key = /** @type {HTMLElement} */ (b).dataset.i18nTitle;
      b.setAttribute('title', tr(S, key));
      b.setAttribute('aria-label', tr(S, key));
    }
  }

  function destroyPanes() {
    if (!runs) return;
    runs.a.destroy();
    runs.b.destroy();
    runs = null;
  }

  /** Show `before` and `after` (two run answers) side by side, at the first shared step. */
  function open(before, after) {
    pause();
    destroyPanes();
    host.hidden = false;
    const srcA = before.trace ? before.trace.program.source : '';
    const srcB = after.trace ? after.trace.program.source : '';
    const changed = changedLines(srcA, srcB);
    runs = { a: createComparePane('a', before, changed.a, S), b: createComparePane('b', after, changed.b, S) };
    fill(el.panes, runs.a.el.pane, runs.b.el.pane);
    alignment = align(runs.a.trace || { events: [] }, runs.b.trace || { events: [] });
    host.dataset.rows = String(count());
    row = -1;
    words();
    summary();
    go(0);
  }

  function summary() {
    const s = summarise(runs.a.trace || { events: [] }, runs.b.trace || { events: [] });
    const parts = [tr(S, s.differing ? 'compare_summary' : 'compare_summary_same', s)];
    if (s.values || s.grads) parts.push(tr(S, 'compare_summary_boxes', s));
    if (s.onlyA || s.onlyB) parts.push(tr(S, 'compare_summary_only', { a: s.onlyA, b: s.onlyB }));
    if (s.lossTotal) parts.push(tr(S, 'compare_summary_loss', { n: s.loss, total: s.lossTotal }));
    el.summary.textContent = parts.join(' · ');
    host.dataset.differing = String(s.differing);
    host.dataset.values = String(s.values);
    host.dataset.grads = String(s.grads);
    host.dataset.loss = String(s.loss);
    el.nextDiff.disabled = s.differing === 0;
  }

  function close() {
    pause();
    destroyPanes();
    host.hidden = true;
    fill(el.panes);
    if (options.onClose) options.onClose();
  }

  function swap() {
    if (!runs) return;
    const at = row;
    open(runs.b.answer, runs.a.answer);
    go(Math.min(at, count() - 1));
  }

  // the names of the boxes that differ, as a learner reads them (`w` for its value, `w.grad`
  // for its gradient); results without a name in the program are counted, not listed
  function listed(state, entries) {
    const names = entries.flatMap(([id, what]) => {
      const t = state.tensors[id];
      const n = state.nodes[id];
      const name = (t && t.name) || (n && n.name) || null;
      if (!name) return [null];
      return [what.includes('value') ? name : null, what.includes('grad') ? `${name}.grad` : null]
        .filter(Boolean);
    });
    const unique = [...new Set(names.filter(Boolean))];
    const more = unique.length - LISTED;
    const parts = unique.slice(0, LISTED);
    const unnamed = names.filter((x) => !x).length;
    if (unnamed) parts.push(tr(S, 'compare_unnamed', { n: unnamed }));
    return parts.join(', ') + (more > 0 ? ` ${tr(S, 'compare_more', { n: more })}` : '');
  }

  function go(target) {
    if (!runs || !count()) return;
    const next = Math.max(0, Math.min(count() - 1, target));
    if (next === row) return;
    row = next;
    const shared = alignment.rows[row];
    const sa = runs.a.stateAt(shared.a);
    const sb = runs.b.stateAt(shared.b);
    const diff = differences(alignment, sa, sb);
    runs.a.paint(shared.a, sa, diff.a, shared.only !== 'b', S);
    runs.b.paint(shared.b, sb, diff.b, shared.only !== 'a', S);
    const here = [];
    const changedB = [...diff.b.entries()].filter(([, w]) => w.includes('value') || w.includes('grad'));
    if (shared.only) here.push(tr(S, shared.only === 'a' ? 'compare_only_before' : 'compare_only_after'));
    if (changedB.length) here.push(tr(S, 'compare_here_differs', { names: listed(sb, changedB) }));
    else if (!shared.only) here.push(tr(S, shared.differs ? 'compare_here_step_differs' : 'compare_here_same'));
    el.here.textContent = here.join(' ');
    el.slider.max = String(count() - 1);
    el.slider.value = String(row);
    const text = tr(S, 'compare_step_label', { i: row + 1, n: count() });
    el.label.textContent = text;
    el.slider.setAttribute('aria-valuetext', text);
    host.dataset.row = String(row);
    host.dataset.here = String(changedB.length);
    const pass = sb.lastPass ? sb.lastPass.pass : (sa.lastPass ? sa.lastPass.pass : null);
    renderCompareLoss(el.loss, diff.loss, pass, S);
    if (row >= count() - 1) pause();
    if (options.onStep) options.onStep(row);
  }

  function goNextDifference() {
    let i = nextDifference(alignment, row);
    if (i < 0) i = nextDifference(alignment, -1);
    if (i >= 0) go(i);
  }

  function play() {
    if (!runs) return;
    if (row >= count() - 1) go(0);
    timer = setInterval(() => go(row + 1), BASE_INTERVAL_MS / speed);
    el.play.classList.add('is-playing');
    words();
  }

  function pause() {
    if (timer) clearInterval(timer);
    timer = null;
    el.play.classList.remove('is-playing');
    words();
  }

  function toggle() { if (timer) pause(); else play(); }

  /** Keyboard stepping while the view is open; true when the key was used. */
  function handleKey(e) {
    if (host.hidden || e.ctrlKey || e.metaKey || e.altKey) return false;
    const target = /** @type {HTMLElement} */ (e.target);
    if (target && ['TEXTAREA', 'INPUT', 'SELECT'].includes(target.tagName) && /** @type {HTMLInputElement} */ (target).type !== 'range') return false;
    if (target && target.tagName === 'BUTTON' && (e.key === ' ' || e.key === 'Enter')) return false;
    const keys = {
      ArrowRight: () => go(row + 1), ArrowLeft: () => go(row - 1), Home: () => go(0),
      End: () => go(count() - 1), ' ': () => toggle(), d: () => goNextDifference(),
      Escape: () => { if (options.canClose !== false) close(); },
    };
    const f = keys[e.key];
    if (!f) return false;
    e.preventDefault();
    f();
    return true;
  }

  return {
    open, close, go, handleKey,
    get isOpen() { return !host.hidden; },
    get row() { return row; },
    /** The two programs shown, earlier first, for a permalink or an export. */
    get sources() {
      if (!runs) return null;
      const src = (r) => (r.trace ? r.trace.program.source : '');
      return { before: src(runs.a), after: src(runs.b) };
    },
    setSpeed(s) { speed = s; if (timer) { pause(); play(); } },
    setStrings(strings) {
      S = strings;
      words();
      if (!runs) return;
      summary();
      const at = row;
      row = -1;
      go(at);
    },
  };
}
