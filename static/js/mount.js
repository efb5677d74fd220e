// Mounts a player inside any root element (the app page, a lesson page): it finds its parts
// through that root only, creates the editor, the step controller and the views, and repaints
// the views from the controller's model after every change.
import * as api from './api.js';
import { createPlayer } from './player.js';
import { createEditor, showCodeStrip } from './code_view.js';
import { createStage, readyInTurns } from './graph/stage.js';
import { prepareFirstPicture } from './graph/views.js';
import { describeBox } from './graph/values.js';
import { renderInspector } from './panels/inspector.js';
import { renderVjp } from './panels/vjp.js';
import { renderJvp } from './panels/jvp.js';
import { renderTransforms } from './panels/transforms.js';
import { renderConsole } from './panels/console.js';
import { renderPlot } from './panels/plot.js';
import { renderGrads } from './panels/grads.js';
import { renderNames } from './panels/names.js';
import { drawTimeline, markTimeline } from './panels/timeline.js';
import { narrate } from './narrate.js';
import { nextUpdate } from './trace_optim.js';
import { chainAt, elementName } from './chain.js';
import { tr, applyStrings } from './i18n.js';
import { h, fill } from './dom.js';
import { createRunStatus } from './run_status.js';
import { createSplitter } from './splitter.js';
import { afterPaint, pause, runInTurns, runNow } from './turns.js';

// The graph's labels are 11 layout points; at one screen pixel a point they are 11 px, the
// smallest that reads well (graph/viewport.js).
const LABEL_PT = 11;
const READABLE_SCALE = 0.995;

const PRESENTER_TEXT_PX = 16.5;
const BACKWARD_KINDS = new Set(['backward_begin', 'node_apply', 'accumulate', 'graph_freed', 'backward_end']);

/**
 * @param {HTMLElement} root
 * @param {{strings:Object, lang:string, onStep?:(index:number)=>void,
 *   onInput?:(code:string)=>void, onRun?:(code:string)=>void}} options
 */
// a `for` or `while` statement of the program (a comprehension is no loop of steps)
const LOOP = /^[ \t]*(for|while)\b/m;

export function mountPlayer(root, options) {
  let S = options.strings;
  let lang = options.lang;
  const $ = (sel) => root.querySelector(sel);
  const el = {
    run: $('#run'), graph: $('#graph'), inspector: $('#inspector'), vjp: $('#vjp'), jvp: $('#jvp'),
    transforms: $('#transforms'),
    console: $('#console'), grads: $('#grads'), plot: $('#plot'), label: $('#step-label'),
    slider: $('#step-slider'), narration: $('#narration'), play: $('#play'), speed: $('#speed'),
    mode: $('#mode-badge'), passBadge: $('#pass-badge'), timeline: $('#timeline'),
    iteration: $('#iteration'), strip: $('#code-strip'), names: $('#names'),
  };
  let graph = null;      // the graph pane's stage for the current run (graph/stage.js)
  const shown = { values: true, saved: true };   // the graph's optional rows
  const status = createRunStatus(root, () => S, () => showStopped());
  const splitter = createSplitter(root, () => S);

  const editor = createEditor($('[data-gs-editor]'), {
    onInput: (code) => options.onInput && options.onInput(code),
    onRun: () => run(),
  });
  const player = createPlayer(repaint);
  let panelsLater = false;     // a new run's panels wait until its picture is painted

  // pictures left out to keep the answer within its size (docs/api.md, layout_budget)
  function budgetSizes(answer) {
    const budget = answer.layout_budget;
    return budget && { ...budget, mb: Number((budget.max_bytes / 1e6).toFixed(2)) };
  }

  // what the graph pane of `answer` says and does, for createStage (graph/stage.js)
  function stageOptions(answer) {
    const sizes = budgetSizes(answer);
    return {
      shown, describe: (state, id) => describeBox(state, id, S, tr),
      words: { fold: tr(S, 'group_fold'), open: tr(S, 'group_open'), root: tr(S, 'graph_root'),
        run: tr(S, 'graph_run', { n: '{n}' }),
        dropped: sizes ? tr(S, 'layout_view_dropped', sizes) : '',
        gates: Object.fromEntries(['i', 'f', 'g', 'o'].map((g) => [g, tr(S, `gate_${g}`)])) },
      onIteration: (g) => { if (el.iteration) el.iteration.value = String(g); },
      graphLabel: tr(S, 'graph_label'),
      viewport: { minScale: presenterScale, onTouch: () => scaleNote(null) },
    };
  }

  // A new run's graph replaces the old one entirely: its listeners and observers go with it,
  // so nothing keeps the old SVG alive.
  function mountGraph(answer) {
    if (graph) graph.destroy();
    graph = null;
    fillIterations(null);
    const sizes = budgetSizes(answer);
    if (!answer.layout) {
      const note = answer.layout_note || (answer.trace ? '' : tr(S, 'graph_none'));
      const text = sizes ? tr(S, 'layout_over_budget', sizes)
        : answer.layout_timeout ? tr(S, 'layout_timed_out', { seconds: answer.layout_timeout })
        : note ? tr(S, 'layout_missing', { note }) : tr(S, 'graph_none');
      fill(el.graph, h('p', { class: 'graph-empty' }, text));
      return;
    }
    fill(el.graph);
    graph = createStage(el.graph, answer.layout, stageOptions(answer));
    fillIterations(graph.views);
  }

  // Fit shows the whole picture. Where that makes its words smaller than they read well, the
  // pane says how small and offers the readable framing (what a picture opens on: words at
  // 11 px or more, following the step), so neither the overview nor the reading is lost.
  function showWhole() {
    if (!graph) return;
    let s = graph.viewport.whole();
    if (s >= READABLE_SCALE) { scaleNote(null); return; }
    // the note sits at the foot of the pane: the picture is fitted again above it
    const note = scaleNote(LABEL_PT * s);
    s = graph.viewport.whole(note.getBoundingClientRect().height + 12);
    scaleNote(LABEL_PT * s);
  }

  function showReadable() {
    if (!graph) return;
    scaleNote(null);
    graph.viewport.fit();
    const focus = graph.boxOf(focusOf(player.model.state));
    if (focus) graph.viewport.reveal(focus.x, focus.y, focus.w, focus.h);
  }

  /** Say how small the whole picture's words are (`px`), or put the note away (null). */
  function scaleNote(px) {
    const old = el.graph.querySelector(':scope > .graph-scale');
    if (old) old.remove();
    if (px === null) return null;
    const button = h('button', { type: 'button', class: 'btn', id: 'zoom-readable' }, tr(S, 'graph_readable'));
    button.addEventListener('click', showReadable);
    const note = h('p', { class: 'graph-scale', id: 'graph-scale', role: 'status' },
      tr(S, 'graph_whole_small', { px: Math.round(px * 10) / 10 }), ' ', button);
    el.graph.append(note);
    return note;
  }

  // The iteration picker: one entry per stretch the graph is drawn in (hidden for one, and
  // for a program with no loop: its stretches are passes, not iterations).
  function fillIterations(views) {
    if (!el.iteration) return;
    const trace = player.model.trace;
    const looped = !trace || LOOP.test(trace.program.source);
    el.iteration.hidden = !views || views.count < 2 || !looped;
    if (!views) { fill(el.iteration); return; }
    const options = [];
    let last = -1;      // the last pass of the stretches so far
    for (let g = 0; g < views.count; g++) {
      const p = views.passes(g);
      const key = views.summarised(g) ? 'iteration_summary' : 'iteration_range';
      // a stretch with no backward pass (the code after a loop, or before it) is named by
      // the iteration it follows, never counted as an iteration of its own
      const label = !p ? (last < 0 ? tr(S, 'iteration_before', {})
        : tr(S, 'iteration_after', { n: last + 1 }))
        : p[1] > p[0] ? tr(S, key, { a: p[0] + 1, b: p[1] + 1 })
          : tr(S, 'iteration_one', { n: p[0] + 1 });
      if (p) last = p[1];
      options.push(h('option', { value: String(g) }, label));
    }
    fill(el.iteration, options);
  }

  function toggleRows(which, button) {
    shown[which] = !shown[which];
    button.setAttribute('aria-pressed', String(shown[which]));
    if (graph) graph.setRows(which, shown[which]);
  }

  // In presenter mode a projector must show the boxes' words at 16 px or more.
  function presenterScale() {
    if (!root.closest('.is-presenter')) return 0;
    const sizes = [...el.graph.querySelectorAll('svg text[font-size]')]
      .map((t) => Number(t.getAttribute('font-size')));
    return PRESENTER_TEXT_PX / Math.min(...sizes.filter((x) => x > 0), 14);
  }

  // What the eye should follow at this step: the working node, else what the step created.
  function focusOf(state) {
    const ev = state.event;
    if (state.active) return state.active;
    if (!ev) return null;
    if (ev.kind === 'op') return ev.node ? ev.node.id : ev.output.id;
    if (ev.kind === 'tensor' || ev.kind === 'inplace') return ev.tensor.id || ev.tensor;
    if (['accumulate', 'grad_reset', 'optimizer_update'].includes(ev.kind)) return ev.tensor;
    if (ev.kind === 'backward_begin' && ev.roots && ev.roots.length) return ev.roots[0];
    return null;
  }

  function lineKind(state) {
    const ev = state.event;
    if (!ev) return '';
    if (state.error && (ev.kind === 'error' || (ev.kind === 'end' && !state.error.caught))) return 'is-error';
    return BACKWARD_KINDS.has(ev.kind) ? 'is-backward' : 'is-forward';
  }

  function repaint(model, why) {
    if (why === 'load') {
      mountGraph(model.answer);
      drawTimeline(el.timeline, model.trace, (i) => player.go(i));
    }
    const { state, trace } = model;
    const n = trace ? trace.events.length : 0;
    const i = trace ? model.index + 1 : 0;
    el.label.textContent = tr(S, 'step_label', { i, n });
    el.label.dataset.step = String(i);     // automation reads these, not the translated text
    el.label.dataset.steps = String(n);
    el.label.setAttribute('aria-label', tr(S, 'step_aria', { i, n }));
    el.slider.max = String(Math.max(0, n - 1));
    el.slider.value = String(Math.max(0, model.index));
    markTimeline(el.timeline, model.index, n);
    el.slider.setAttribute('aria-valuetext', tr(S, 'step_aria', { i, n }));
    const playKey = model.playing ? 'pause' : 'play';
    el.play.setAttribute('aria-label', tr(S, playKey));
    el.play.title = tr(S, playKey);
    el.play.dataset.i18nLabel = playKey;
    el.play.dataset.i18nTitle = playKey;
    el.play.classList.toggle('is-playing', model.playing);
    if (why === 'play') return;
    el.narration.textContent = trace ? narrate(state, S) : '';
    editor.setLine(state.line, lineKind(state));
    showCodeStrip(el.strip, trace, state.line);
    el.mode.hidden = state.mode;
    const pass = state.pass;
    el.passBadge.hidden = !pass;
    if (pass) {   // the title shows the whole text where a narrow pane cuts the badge short
      el.passBadge.textContent = `${tr(S, 'pass_label', { n: pass.pass + 1 })} · ${pass.api}()`;
      el.passBadge.title = el.passBadge.textContent;
    }
    if (graph) {
      const words = { unnamed: tr(S, 'unnamed_short'), input: tr(S, 'chain.input') };
      const c = !model.selected || model.selected === state.active ? chainAt(state, model.pick, words) : null;
      const e = c && (c.edges.find((x) => x.k === c.k) || c.edges[0]);
      graph.render(state, model.selected, e && { to: e.to, formula: `${elementName(e.name, e.shape, c.j)}: ${c.formula}` });
      const focus = graph.boxOf(focusOf(state));
      if (focus && why !== 'select') graph.viewport.reveal(focus.x, focus.y, focus.w, focus.h);
    }
    if (!panelsLater) runNow(panelSteps(model));
    if (why !== 'select' && options.onStep && trace) options.onStep(model.index);
  }

  // The panels beside the graph, one at a time (a new run's are drawn after its picture,
  // in turns of their own: loadInTurns).
  function* panelSteps(model) {
    // `model` is the player's live model, read at each turn: a step may move it meanwhile
    renderInspector(el.inspector, model.state, model.selected, S,
      { pick: model.pick, onPick: (p) => player.pickElement(p), onGo: (seq) => player.go(seq) });
    renderVjp(el.vjp, model.state, S);
    if (el.jvp) renderJvp(el.jvp, model.state, S);
    if (el.transforms) renderTransforms(el.transforms, model.state, S);
    yield;
    renderGrads(el.grads, model.state, S, (id) => player.select(id));
    yield;
    if (el.names) renderNames(el.names, model.trace, model.state, S, showBox, model.selected);
    yield;
    renderConsole(el.console, model.trace ? model.state : null, model.answer && model.answer.result, S);
    yield;
    renderPlot(el.plot, model.trace, model.state, S, (pass) => {
      // passes summarised by an `elided` step have no steps of their own: go to that step
      const events = player.model.trace.events;
      const begin = events.find((e) => e.kind === 'backward_begin' && e.pass === pass);
      const summary = events.find((e) => e.kind === 'elided' && e.passes && e.passes[0] <= pass && pass <= e.passes[1]);
      const target = begin || summary;
      if (target) player.go(target.seq);
    });
  }

  /**
   * Show `answer` without holding the page: its first picture built ahead in turns, then the
   * picture and the step, then (after a frame is painted) the panels, each in a turn.
   * Resolves false when `signal` aborted it before the picture went up.
   * @param {Object} answer @param {number} step @param {AbortSignal} [signal]
   */
  async function loadInTurns(answer, step, signal) {
    if (answer.layout) {
      await prepareFirstPicture(answer.layout, step, (p) => readyInTurns(p, stageOptions(answer)));
    }
    // the picture goes up in a task of its own (not the tail of the last one that built it)
    await pause();
    if (signal && signal.aborted) return false;
    panelsLater = true;
    try {
      player.load(answer, step);
    } finally {
      panelsLater = false;
    }
    await afterPaint();
    // a step taken meanwhile drew the panels for its own step already; these are of that step
    await runInTurns(panelSteps(player.model));
    return true;
  }

  async function run(step = 0) {
    const code = editor.value;
    status.abort();
    const { runId, signal } = status.begin();
    player.pause();
    el.run.disabled = true;
    el.run.setAttribute('aria-busy', 'true');
    try {
      const answer = await api.run(code, lang, signal, runId);
      // a big answer is shown a piece at a time, so the page never freezes for it
      if (!await loadInTurns(answer, step, signal)) return;
      // a counter tests and embedding pages can wait on: "a run has been drawn"
      root.dataset.runs = String(Number(root.dataset.runs || 0) + 1);
      if (options.onRun) options.onRun(code);
    } catch (err) {
      if (err.name === 'AbortError') return;
      if (err.code === 'stopped') return;   // answered after Stop: the console already says so
      const key = err.status ? 'error_server' : 'error_network';
      fill(el.console, h('div', { class: 'console-error', role: 'alert' },
        h('p', {}, tr(S, key, { message: err.message }))));
    } finally {
      status.end(runId);
      if (!status.busy()) {
        el.run.disabled = false;
        el.run.removeAttribute('aria-busy');
      }
    }
  }

  // Select a box and bring it into view, opening the module group it is folded in.
  function showBox(id) {
    const folded = graph && graph.foldedAround(id);
    if (folded) graph.toggleGroup(folded);
    player.select(id);
    const b = graph && graph.boxOf(id);
    if (b) graph.viewport.reveal(b.x, b.y, b.w, b.h);
  }

  // A folded module group is one step: stepping on from a step that works inside it goes on
  // to the first step outside it (opening the group brings its steps back).
  function step(dir) {
    const inside = graph && graph.foldedAround(focusOf(player.model.state));
    const move = () => (dir > 0 ? player.next() : player.prev());
    move();
    for (let guard = player.count(); inside && guard > 0; guard--) {
      const at = player.model.index;
      if (graph.foldedAround(focusOf(player.model.state)) !== inside) break;
      move();
      if (player.model.index === at) break;
    }
  }

  // Stop leaves the page on the program that was stopped: the last program's picture,
  // sentence and timeline go, and the console says what happened (no trace came back).
  function showStopped() {
    el.run.disabled = false;
    el.run.removeAttribute('aria-busy');
    player.load({ trace: null, layout: null, layout_note: tr(S, 'run_stopped_graph'),
      result: { stdout: '', error: { type: 'Stopped', message: tr(S, 'run_stopped'),
        kind: 'limit', origin: 'gradstep', line: null } } });
  }

  // controls
  el.run.addEventListener('click', () => run());
  $('#step-first').addEventListener('click', () => player.first());
  $('#step-prev').addEventListener('click', () => step(-1));
  $('#step-next').addEventListener('click', () => step(1));
  $('#step-last').addEventListener('click', () => player.last());
  $('#jump-backward').addEventListener('click', () => player.nextBackward());
  el.play.addEventListener('click', () => player.toggle());
  el.slider.addEventListener('input', () => player.go(Number(el.slider.value)));
  if (el.iteration) {
    el.iteration.addEventListener('change', () => graph && player.go(graph.views.firstStep(Number(el.iteration.value))));
  }
  el.speed.addEventListener('change', () => player.setSpeed(Number(el.speed.value)));
  $('#zoom-in').addEventListener('click', () => graph && graph.viewport.zoom(1.25));
  $('#zoom-out').addEventListener('click', () => graph && graph.viewport.zoom(0.8));
  $('#zoom-fit').addEventListener('click', showWhole);
  const valuesButton = $('#view-values');
  const savedButton = $('#view-saved');
  if (valuesButton) valuesButton.addEventListener('click', () => toggleRows('values', valuesButton));
  if (savedButton) savedButton.addEventListener('click', () => toggleRows('saved', savedButton));
  el.graph.addEventListener('click', (e) => {
    const node = e.target.closest('.node');
    if (node && node.dataset.id) player.select(node.dataset.id === player.model.selected ? null : node.dataset.id);
  });
  el.graph.addEventListener('keydown', (e) => {
    const node = e.target.closest && e.target.closest('.node[data-id]');
    if (node && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      e.stopPropagation();
      player.select(node.dataset.id);
    } else if ((e.key === ']' || e.key === '[') && graph) {
      // keyboard inspection without hundreds of tab stops: cycle through the boxes that exist
      const present = graph.actualIds().filter((id) => player.model.state.tensors[id] || player.model.state.nodes[id]);
      if (!present.length) return;
      const at = present.indexOf(player.model.selected);
      const next = present[(at + (e.key === ']' ? 1 : present.length - 1) + (at < 0 && e.key === '[' ? 1 : 0)) % present.length];
      player.select(next);
      const b = graph.boxOf(next);
      if (b) graph.viewport.reveal(b.x, b.y, b.w, b.h);
    } else if (e.key === '+' || e.key === '=') graph && graph.viewport.zoom(1.25);
    else if (e.key === '-') graph && graph.viewport.zoom(0.8);
    else if (e.key === '0') showWhole();
  });

  /** Keyboard stepping, for a page-level listener; returns true when the key was used. */
  function handleKey(e) {
    const target = e.target;
    if (target && (target.tagName === 'TEXTAREA' || target.tagName === 'INPUT' || target.tagName === 'SELECT')
      && !(target.type === 'range')) return false;
    if (e.ctrlKey || e.metaKey || e.altKey) return false;
    const keys = {
      ArrowRight: () => step(1), ArrowLeft: () => step(-1), Home: () => player.first(),
      End: () => player.last(), ' ': () => player.toggle(), b: () => player.nextBackward(),
      o: () => { const i = nextUpdate(player.model.trace, player.model.index + 1); if (i >= 0) player.go(i); },
    };
    if (target && target.tagName === 'BUTTON' && e.key === ' ') return false;
    const f = keys[e.key];
    if (!f) return false;
    e.preventDefault();
    f();
    return true;
  }

  const controller = {
    player, editor, run, handleKey,
    /** The run's picture whole, for a file (a big one is only partly in the page). */
    get svg() { return graph ? graph.wholeSvg() : null; },
    /** The graph pane of the current run (graph/stage.js), for tests; null without one. */
    get stage() { return graph; },
    /** Switch the language of every string in this root, and of the step's sentence. */
    setStrings(strings, newLang) {
      S = strings;
      lang = newLang;
      applyStrings(root, S);
      splitter.label();
      if (graph) {
        fillIterations(graph.views);
        el.iteration.value = String(graph.iteration);
        graph.relabel(tr(S, 'graph_run', { n: '{n}' }));
      }
      if (player.model.trace || player.model.answer) repaint(player.model, 'lang');
    },
    /** Render a run answer fetched elsewhere (a lesson page, a test). */
    load(answer, step = 0) { player.load(answer, step); },
    /** As load, a task at a time, so the page stays free (a big picture, then the panels). */
    async loadInTurns(answer, step = 0) { await loadInTurns(answer, step); },
  };
  /** @type {any} */ (root).gsPlayer = controller;   // for tests and the benchmark, scoped to this root
  return controller;
}
