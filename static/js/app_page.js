// The app page around the player: where the first program comes from (the URL, the last
// session, the first example), the examples menu, the language switch, the permalink, export,
// presenter mode. Everything is found through the page root and the controls it contains.
import * as api from './api.js';
import { mountPlayer } from './mount.js';
import { encodeProgram, decodeProgram, parseLocation, buildHash } from './permalink.js';
import { exportSvg, exportPng, exportJson, download } from './export.js';
import { tr, applyStrings } from './i18n.js';
import { waitsForRun, showWaitForRun } from './wait_for_run.js';

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

  const player = mountPlayer(playerRoot, {
    strings, lang,
    onInput: debounce((code) => store.set(STORE_CODE, code), 300),
    onRun: (code) => store.set(STORE_CODE, code),
    onStep: (index) => writeHash(index),
  });

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
    return { code, z: want.z, step: want.step ? want.step - 1 : 0, lang: want.lang };
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
      const z = await encodeProgram(code);
      // the step only makes sense for the program that was run
      const hash = buildHash(z, code === ranSource() ? player.player.model.index + 1 : 0);
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
          download(await api.exportHtml(ranSource(), lang), 'gradstep.html');
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
    if (player.handleKey(e)) return;
    const tag = e.target && /** @type {HTMLElement} */ (e.target).tagName;
    if ((e.key === 'p' || e.key === 'P') && !['TEXTAREA', 'INPUT', 'SELECT'].includes(tag)
      && !e.ctrlKey && !e.metaKey && !e.altKey) togglePresenter();
  });
  // without the sandbox's OS layers, a program from a link waits for Run (wait_for_run.js)
  const waits = waitsForRun(doc.getElementById('app'));
  window.addEventListener('hashchange', async () => {
    const { code, step } = await loadFromLocation();
    if (code !== null && code !== player.editor.value) {
      player.editor.value = code;
      if (waits) showWaitForRun(playerRoot, strings, 'link');
      else await player.run(step);
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
  if (code === null || (ownHash && stored !== null && stored !== code)) {
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
