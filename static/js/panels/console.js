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

/**
 * @param {HTMLElement} el
 * @param {import('../trace.js').State|null} state
 * @param {{error?:Object|null, stdout?:string}|null} result the run's result, for runs that
 *   left no trace (a refused program)
 */
export function renderConsole(el, state, result, S) {
  const entries = state ? consoleEntries(state.console) : [];
  const out = [];
  for (const e of entries) {
    if (e.kind === 'stdout') out.push(h('pre', { class: 'out' }, e.text));
    else if (e.kind === 'warning') out.push(h('pre', { class: 'out out-warning' }, `⚠ ${e.text}`));
    else if (e.kind === 'elided') out.push(h('p', { class: 'out-elided' }, tr(S, 'console_elided')));
    else if (e.kind === 'error') out.push(errorBlock(e.event, S));
  }
  if (!state && result) {
    if (result.stdout) out.push(h('pre', { class: 'out' }, result.stdout));
    if (result.error) out.push(errorBlock(result.error, S));
  }
  if (!out.length) out.push(h('p', { class: 'empty' }, tr(S, 'console_empty')));
  fill(el, out);
  el.scrollTop = el.scrollHeight;
}
