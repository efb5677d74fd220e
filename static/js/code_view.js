// The code editor: a plain <textarea> over a highlighted copy of its text, with line numbers
// and a bar on the line the current step came from. The textarea grows to fit its text so
// that one scroll container moves the gutter, the colours and the caret together.
import { tokenize } from './highlight.js';
import { h, fill } from './dom.js';

/**
 * @param {HTMLElement} root the [data-gs-editor] element
 * @param {{onInput?:(text:string)=>void, onRun?:()=>void}} hooks
 */
export function createEditor(root, hooks = {}) {
  const area = root.querySelector('textarea');
  const code = root.querySelector('.editor-highlight code');
  const gutter = root.querySelector('.editor-gutter');
  const mark = /** @type {HTMLElement} */ (root.querySelector('.editor-line-mark'));
  let line = null;
  let lineKind = '';

  function paint() {
    const lines = tokenize(area.value);
    fill(code, lines.map((tokens, i) => h('span', { class: 'code-line', dataset: { line: i + 1 } },
      tokens.map(([cls, text]) => (cls ? h('span', { class: cls }, text) : text)), '\n')));
    fill(gutter, lines.map((_, i) => h('span', { class: i + 1 === line ? 'is-current' : '' }, i + 1)));
    area.style.height = `calc(${lines.length} * var(--code-line) + 2 * var(--code-pad))`;
    const widest = lines.reduce((m, t) => Math.max(m, t.reduce((s, [, x]) => s + x.length, 0)), 0);
    area.style.width = `calc(${widest + 2}ch + 2 * var(--code-pad))`;
    placeMark();
  }

  function placeMark() {
    mark.hidden = !line;
    mark.className = `editor-line-mark ${lineKind}`;
    if (line) mark.style.top = `calc(${line - 1} * var(--code-line) + var(--code-pad))`;
    for (const el of gutter.children) el.classList.toggle('is-current', Number(el.textContent) === line);
  }

  area.addEventListener('input', () => { paint(); if (hooks.onInput) hooks.onInput(area.value); });
  area.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      if (hooks.onRun) hooks.onRun();
    } else if (e.key === 'Tab' && !e.shiftKey && !e.altKey) {
      // four spaces, as Python wants; Escape then Tab leaves the editor (keyboard users)
      if (root.dataset.tabEscape === '1') { root.dataset.tabEscape = '0'; return; }
      e.preventDefault();
      area.setRangeText('    ', area.selectionStart, area.selectionEnd, 'end');
      paint();
      if (hooks.onInput) hooks.onInput(area.value);
    } else if (e.key === 'Escape') {
      root.dataset.tabEscape = '1';
    }
  });

  return {
    get value() { return area.value; },
    set value(text) { area.value = text; paint(); },
    /** Mark the line of the current step; kind is '' | 'is-backward' | 'is-error'. */
    setLine(n, kind = '') {
      line = n || null;
      lineKind = kind;
      placeMark();
      if (line) {
        const scroller = root;
        const lh = mark.offsetHeight || 20;
        const top = mark.offsetTop;
        if (top < scroller.scrollTop || top + lh > scroller.scrollTop + scroller.clientHeight) {
          scroller.scrollTop = Math.max(0, top - scroller.clientHeight / 3);
        }
      }
    },
    focus() { area.focus(); },
  };
}

/** The line the current step ran, for presenter mode, where the editor is hidden. */
export function showCodeStrip(strip, trace, line) {
  if (!strip) return;
  const text = trace && line ? (trace.program.source.split('\n')[line - 1] || '') : '';
  strip.hidden = !text.trim();
  if (!text.trim()) return;
  fill(strip, h('span', { class: 'code-strip-line' }, String(line)), h('code', {}, text.trim()));
}
