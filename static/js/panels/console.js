// The console: what the program printed, its warnings, and errors in PyTorch's words verbatim
// with a plain explanation in the UI language underneath. Entries after the current step are
// not shown, so the console reads like the program at that moment.
import { h, fill } from '../dom.js';
import { tr } from '../i18n.js';
import { consoleEntries } from '../trace.js';
import { explanationKey, errorOrigin, learnerMessage } from '../explain.js';

// the heading names who raised the error: PyTorch's words are verbatim, Python's are the
// language's, and gradstep's own stops are not PyTorch's at all
const HEADINGS = { pytorch: 'console_verbatim', python: 'console_from_python',
  gradstep: 'console_from_gradstep' };

function errorBlock(error, S) {
  const key = explanationKey(error);
  const origin = errorOrigin(error);
  return h('div', { class: 'console-error', role: 'alert', dataset: { origin } },
    h('p', { class: 'lbl' }, tr(S, HEADINGS[origin]), error.line ? ` · ${tr(S, 'f_line')} ${error.line}` : ''),
    h('pre', { class: 'verbatim', lang: 'en' }, `${error.type}: ${learnerMessage(error)}`),
    key ? h('p', { class: 'explain' }, h('strong', {}, tr(S, 'console_explain'), ': '), tr(S, key)) : null);
}

function entryElement(e, S) {
  if (e.kind === 'stdout') return h('pre', { class: 'out' }, e.text);
  if (e.kind === 'warning') return h('pre', { class: 'out out-warning' }, `⚠ ${e.text}`);
  if (e.kind === 'elided') return h('p', { class: 'out-elided' }, tr(S, 'console_elided'));
  if (e.kind === 'error') return errorBlock(e.event, S);
  return null;
}

// What each console element shows, so that a step that printed nothing costs nothing and a
// step that printed one line adds one element, instead of rebuilding every line (a loop's
// thousand prints made each step pay for all of them).
const shown = new WeakMap();

/** The entries of `list` after `old` (oldest first), or null when `list` does not extend it. */
function newSince(old, list) {
  const added = [];
  let node = list;
  while (node && node.length > old.length) { added.push(node.entry); node = node.prev; }
  return node === old ? added.reverse() : null;
}

/**
 * @param {HTMLElement} el
 * @param {import('../trace.js').State|null} state
 * @param {{error?:Object|null, stdout?:string}|null} result the run's result, for runs that
 *   left no trace (a refused program)
 */
export function renderConsole(el, state, result, S) {
  const list = state ? state.console : null;
  const last = shown.get(el);
  // anything else that wrote into the console (a network error, Stop) means a full repaint
  const intact = last && last.S === S && last.result === result && last.traced === !!state
    && el.firstChild === last.first && el.childNodes.length === last.count;
  if (intact && last.list === list) return;
  const added = intact && list && last.list ? newSince(last.list, list) : null;
  // a step back: the entries shown are the new list's and a few more (one element each)
  const dropped = intact && list && last.list && !added ? newSince(list, last.list) : null;
  let kept = list;
  if (added) {
    for (const e of added) el.append(entryElement(e, S) || h('p', { hidden: true }));
  } else if (dropped) {
    for (let k = 0; k < dropped.length; k++) el.lastChild.remove();
  } else {
    const out = (state ? consoleEntries(list) : []).map((e) => entryElement(e, S) || h('p', { hidden: true }));
    if (!state && result) {
      if (result.stdout) out.push(h('pre', { class: 'out' }, result.stdout));
      if (result.error) out.push(errorBlock(result.error, S));
    }
    // an empty console shows a placeholder, which the next printed line must replace
    if (!out.length) { out.push(h('p', { class: 'empty' }, tr(S, 'console_empty'))); kept = null; }
    fill(el, out);
  }
  shown.set(el, { list: kept, S, result, traced: !!state, first: el.firstChild,
    count: el.childNodes.length });
  el.scrollTop = el.scrollHeight;
}
