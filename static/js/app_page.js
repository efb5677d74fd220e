// The app page around the player: where the first program comes from (the URL, the last
// session, the first example), the examples menu, the language switch, the permalink, export,
// presenter mode, and the comparison of the last two runs. Everything is found through the page
// root and the controls it contains.
import * as api from './api.js';
import { mountPlayer } from './mount.js';
import { encodeProgram, decodeProgram, parseLocation, buildHash } from './permalink.js';
import { exportSvg, exportPng, exportJson, download } from './export.js';
import { tr, applyStrings } from './i18n.js';
import { waitsForRun, showWaitForRun } from './wait_for_run.js';
import { createCompareView } from './compare_view.js';

const STORE_CODE = 'gradstep.code';
const STORE_LANG = 'gradstep.lang';
const STORE_Z = 'gradstep.z';     // the fragment this browser itself last wrote

const store = {
  get(k) { try { return localStorage.getItem(k); } catch { return null; } },
  set(k, v) { try { localStorage.setItem(k, v); } catch { /* private mode: nothing to keep */ } },
};

function debounce(f, ms) {
  let t = null;
  return (...args) => { clearTimeout(t); t = setTimeout(() => f(...args), ms); };
}

/**
 * @param {Document} doc
 * @param {HTMLElement} playerRoot the [data-gs-player] element
 */
export async function startApp(doc, playerRoot) {
  let strings = JSON.parse(doc.getElementById('gs-strings').textContent || '{}');
  let lang = doc.documentElement.dataset.lang || 'en';
  // the page's controls are of several kinds (select, input, a); each use knows which it reads
  /** @type {(id: string) => any} */
  const byId = (id) => doc.getElementById(id);
  const toastEl = byId('toast');
  let toastTimer = null;
  const toast = (text) => {
    if (!toastEl) return;
    toastEl.textContent = text;
    toastEl.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toastEl.hidden = true; }, 2600);
  };

  let hashCode = null;   // the program the fragment currently holds, compressed
  // The fragment names the program that made the trace on screen (its own copy of the
  // source), so a link's step always belongs to its program, even while the learner types.
  const ranSource = () => {
    const trace = player.player.model.trace;
    return trace ? trace.program.source : player.editor.value;
  };
  const writeHash = debounce(async (index) => {
    const code = ranSource();
    if (!code) return;
    if (!hashCode || hashCode.code !== code) hashCode = { code, z: await encodeProgram(code) };
    const hash = buildHash(hashCode.z, index >= 0 ? index + 1 : 0);
    store.set(STORE_Z, hashCode.z);
    history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
    const full = byId('open-full');
    if (full) full.href = `/${hash}`;
  }, 250);

  // The last two runs of different programs, earlier first: what Compare puts side by side.
  // An answer is kept as the server sent it; the comparison reads only its trace and layout.
  let runs = [];
  let pendingBefore = null;       // a comparison link's earlier program, run after the later one
  let pendingStep = 0;            // and the shared step the link names
  const compareHost = doc.createElement('div');
  compareHost.id = 'compare';
  compareHost.className = 'compare-host';
  playerRoot.after(compareHost);
  const compareButton = byId('compare-open');
  const compare = createCompareView(compareHost, {
    strings,
    onClose: () => {
      playerRoot.hidden = false;
      if (compareButton) compareButton.setAttribute('aria-pressed', 'false');
      writeHash(player.player.model.index);
    },
    onStep: (row) => writeCompareHash(row),
  });
  const writeCompareHash = debounce(async (row) => {
    const pair = compare.sources;
    if (!pair || !compare.isOpen) return;
    const [z, vs] = await Promise.all([encodeProgram(pair.after), encodeProgram(pair.before)]);
    history.replaceState(null, '', `${location.pathname}${location.search}${buildHash(z, row + 1, vs)}`);
  }, 250);

  function openCompare(step = 0) {
    if (runs.length < 2) { toast(tr(strings, 'compare_need_two')); return; }
    player.player.pause();
    playerRoot.hidden = true;
    compare.open(runs[0], runs[1]);
    if (step) compare.go(step);
    if (compareButton) compareButton.setAttribute('aria-pressed', 'true');
  }
  const toggleCompare = () => (compare.isOpen ? compare.close() : openCompare());

  async function remember(answer) {
    if (!answer) return;
    const source = (a) => (a.trace ? a.trace.program.source : a.source);
    const last = runs[runs.length - 1];
    if (last && source(last) === source(answer)) runs[runs.length - 1] = answer;
    else runs = [...runs, answer].slice(-2);
    playerRoot.dataset.kept = String(runs.length);
    if (pendingBefore === null) return;
    const before = pendingBefore;
    pendingBefore = null;
    try {
      const earlier = await api.run(before, lang, undefined);
      runs = [earlier, answer];
      playerRoot.dataset.kept = '2';
      openCompare(pendingStep);
    } catch (err) {
      toast(tr(strings, 'error_server', { message: err.message }));
    }
  }

  const player = mountPlayer(playerRoot, {
    strings, lang,
    onInput: debounce((code) => store.set(STORE_CODE, code), 300),
    onRun: (code) => {
      store.set(STORE_CODE, code);
      if (compare.isOpen) compare.close();
      remember(player.player.model.answer);
    },
    onStep: (index) => writeHash(index),
  });
  if (compareButton) compareButton.addEventListener('click', () => toggleCompare());

  async function setLang(next, remember = true) {
    if (next !== 'en' && next !== 'zh') return;
    if (remember) store.set(STORE_LANG, next);
    if (next === lang) return;
    strings = await api.strings(next);
    lang = next;
    doc.documentElement.lang = next === 'zh' ? 'zh-Hans' : 'en';
    doc.documentElement.dataset.lang = next;
    applyStrings(doc.body, strings);     // the page chrome around the player
    player.setStrings(strings, next);
    compare.setStrings(strings);
    const select = byId('lang');
    if (select) select.value = next;
    const url = new URL(location.href);
    url.searchParams.set('lang', next);
    history.replaceState(null, '', url);
    const menu = byId('examples');
    if (menu) {
      const list = await api.examples(next);
      for (const opt of menu.options) {
        const found = list.find((e) => e.id === opt.value);
        if (found) opt.textContent = found.title;
      }
    }
  }

  async function loadFromLocation() {
    const want = parseLocation(location.search, location.hash);
    let code = null;
    if (want.z) {
      try { code = await decodeProgram(want.z); } catch { toast(tr(strings, 'link_broken')); }
    } else if (want.code !== undefined) code = want.code;
    let before = null;
    if (want.vs) {
      try { before = await decodeProgram(want.vs); } catch { toast(tr(strings, 'link_broken')); }
    }
    return { code, z: want.z, step: want.step ? want.step - 1 : 0, lang: want.lang, before };
  }

  // wiring
  const langSelect = byId('lang');
  if (langSelect) langSelect.addEventListener('change', () => setLang(langSelect.value));
  const examples = byId('examples');
  if (examples) {
    examples.addEventListener('change', async () => {
      if (!examples.value) return;
      const ex = await api.example(examples.value, lang);
      player.editor.value = ex.code;
      store.set(STORE_CODE, ex.code);
      await player.run();
      examples.value = '';
    });
  }
  const permalink = byId('permalink');
  if (permalink) {
    permalink.addEventListener('click', async () => {
      const code = player.editor.value;
      const pair = compare.isOpen ? compare.sources : null;
      const z = await encodeProgram(pair ? pair.after : code);
      // the step only makes sense for the program that was run
      const hash = pair ? buildHash(z, compare.row + 1, await encodeProgram(pair.before))
        : buildHash(z, code === ranSource() ? player.player.model.index + 1 : 0);
      history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
      try {
        await navigator.clipboard.writeText(location.href);
        toast(tr(strings, 'permalink_copied'));
      } catch {
        toast(tr(strings, 'permalink_ready'));
      }
    });
  }
  const exportButton = byId('export');
  if (exportButton) {
    const list = /** @type {HTMLElement} */ (exportButton.parentElement.querySelector('.menu-list'));
    const close = () => { list.hidden = true; exportButton.setAttribute('aria-expanded', 'false'); };
    exportButton.addEventListener('click', () => {
      list.hidden = !list.hidden;
      exportButton.setAttribute('aria-expanded', String(!list.hidden));
      if (!list.hidden) list.querySelector('button').focus();
    });
    list.addEventListener('keydown', (e) => { if (e.key === 'Escape') { close(); exportButton.focus(); } });
    doc.addEventListener('click', (e) => { if (!exportButton.parentElement.contains(/** @type {Node} */ (e.target))) close(); });
    byId('export-svg').addEventListener('click', () => { close(); if (player.svg) exportSvg(player.svg); });
    byId('export-png').addEventListener('click', () => { close(); if (player.svg) exportPng(player.svg); });
    byId('export-json').addEventListener('click', () => {
      close();
      if (player.player.model.answer) exportJson(player.player.model.answer);
    });
    const exportHtml = byId('export-html');
    if (exportHtml) {
      exportHtml.addEventListener('click', async () => {
        close();
        try {
          // a comparison exports both runs, side by side
          const pair = compare.isOpen ? compare.sources : null;
          const file = pair ? await api.exportHtml(pair.after, lang, pair.before)
            : await api.exportHtml(ranSource(), lang);
          download(file, 'gradstep.html');
        } catch (err) {
          toast(tr(strings, 'export_failed', { message: err.message }));
        }
      });
    }
  }
  const togglePresenter = () => doc.body.classList.toggle('is-presenter');
  const presenterButton = byId('presenter-toggle');
  if (presenterButton) presenterButton.addEventListener('click', togglePresenter);
  doc.addEventListener('keydown', (e) => {
    if (compare.isOpen ? compare.handleKey(e) : player.handleKey(e)) return;
    const tag = e.target && /** @type {HTMLElement} */ (e.target).tagName;
    if (['TEXTAREA', 'INPUT', 'SELECT'].includes(tag) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'p' || e.key === 'P') togglePresenter();
    else if (e.key === 'c' || e.key === 'C') toggleCompare();
  });
  // without the sandbox's OS layers, a program from a link waits for Run (wait_for_run.js)
  const waits = waitsForRun(doc.getElementById('app'));
  window.addEventListener('hashchange', async () => {
    const { code, step, before } = await loadFromLocation();
    if (code !== null && (code !== player.editor.value || before !== null)) {
      player.editor.value = code;
      pendingBefore = before;
      pendingStep = before !== null ? step : 0;
      if (waits) showWaitForRun(playerRoot, strings, 'link');
      else await player.run(before !== null ? 0 : step);
    }
  });

  // the first program: the URL, else the last session, else the first example
  const first = await loadFromLocation();
  const storedLang = store.get(STORE_LANG);
  if (first.lang) store.set(STORE_LANG, first.lang);
  else if (storedLang && storedLang !== lang) await setLang(storedLang, false);
  let code = first.code;
  // A fragment this browser wrote itself is older than the editor's text if the learner typed
  // after their last run; a link from someone else (another token) always wins.
  const stored = store.get(STORE_CODE);
  const ownHash = first.z && first.z === store.get(STORE_Z);
  let fromLink = false;
  if (first.before !== null) {
    // a link to two runs: both programs come from it, the later one into the editor
    pendingBefore = first.before;
    pendingStep = first.step;
    first.step = 0;
    fromLink = !ownHash;
  } else if (code === null || (ownHash && stored !== null && stored !== code)) {
    if (ownHash && stored !== code) first.step = 0;
    code = stored;
  } else fromLink = !ownHash;
  if (code === null) {
    // the examples menu is absent in embed mode; ask the server for the list instead
    const firstId = examples && examples.options.length > 1 ? examples.options[1].value
      : ((await api.examples(lang))[0] || {}).id;
    if (firstId) code = (await api.example(firstId, lang)).code;
  }
  player.editor.value = code || '';
  if (code && fromLink && waits) showWaitForRun(playerRoot, strings, 'link');
  else if (code) await player.run(first.step);
  doc.body.classList.add('is-ready');
  performance.mark('gradstep-ready');   // read by bench/bench_ui.py
  return player;
}
