// Entry point of an exported player (`gradstep export`, the notebook magic): one HTML file that
// holds a run's answer and both string tables, played with no server and no network. The Run
// button has nothing to call, so the program is shown read-only; everything else is the page's.
// A file made from two runs (an export of a comparison, `gradstep.compare`) holds the earlier
// answer too and opens on both side by side; closing that shows the later run's player.
import { mountPlayer } from './mount.js';
import { applyStrings } from './i18n.js';
import { createCompareView } from './compare_view.js';

function data(doc, id) {
  const el = doc.getElementById(id);
  return el ? JSON.parse(el.textContent || 'null') : null;
}

function start(doc) {
  const root = doc.querySelector('[data-gs-player]');
  if (!root) return;
  const tables = data(doc, 'gs-all-strings') || {};
  const answer = data(doc, 'gs-answer');
  const before = data(doc, 'gs-answer-before');
  let lang = doc.documentElement.dataset.lang === 'zh' ? 'zh' : 'en';
  const player = mountPlayer(root, { strings: tables[lang], lang });
  const textarea = root.querySelector('textarea');
  if (textarea) textarea.readOnly = true;
  const run = root.querySelector('#run');
  if (run) run.hidden = true;
  let compare = null;
  if (before && answer) {
    const host = doc.createElement('div');
    host.id = 'compare';
    host.className = 'compare-host';
    root.after(host);
    compare = createCompareView(host, { strings: tables[lang], onClose: () => { root.hidden = false; } });
  }
  doc.addEventListener('keydown', (e) => {
    if (compare && compare.isOpen) compare.handleKey(e);
    else player.handleKey(e);
  });

  const select = doc.getElementById('lang');
  if (select) {
    select.value = lang;
    select.addEventListener('change', () => {
      const next = select.value === 'zh' ? 'zh' : 'en';
      if (next === lang) return;
      lang = next;
      doc.documentElement.lang = next === 'zh' ? 'zh-Hans' : 'en';
      doc.documentElement.dataset.lang = next;
      applyStrings(doc.body, tables[next]);
      player.setStrings(tables[next], next);
      if (compare) compare.setStrings(tables[next]);
    });
  }
  if (answer) {
    player.editor.value = answer.trace ? answer.trace.program.source : (answer.source || '');
    // an exported run may be big: its picture is built without holding the page
    player.loadInTurns(answer, 0).then(() => { root.dataset.runs = '1'; });
  }
  if (compare) {
    root.hidden = true;
    compare.open(before, answer);
  }
}

start(document);
