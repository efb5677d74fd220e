// The chain-rule card in the inspector: at a node's backward step, its upstream gradient and
// what it sent to each input, element by element (buttons); for the picked element, the
// engine's `local × upstream = sent` (chain.js picks the numbers out of the trace); where paths
// meet, the sum; and at an in-place error, the bump that broke the saved tensor.
import { h } from '../dom.js';
import { tr } from '../i18n.js';
import { num } from '../format.js';
import { elementName } from '../chain.js';

/** Element buttons laid out as the tensor's last dimension (a row of a matrix per line). */
function grid(S, label, name, shape, xs, isOn, onPick, key) {
  const cols = shape && shape.length > 1 ? shape[shape.length - 1] : 0;
  return h('div', { class: 'chain-grid', role: 'group', 'aria-label': label },
    xs.map((x, n) => {
      const el = elementName(name, shape, n);
      const button = h('button', { type: 'button', class: 'chain-el', 'aria-pressed': String(isOn(n)),
        title: tr(S, 'chain.pick', { el }), dataset: { pick: `${key}:${n}` },
        onclick: () => onPick(n) }, h('span', { class: 'sr-only' }, `${el} = `), num(x));
      // a matrix's rows start on lines of their own (a row too wide for the panel wraps)
      const rowEnd = cols && (n + 1) % cols === 0 && n + 1 < xs.length;
      return rowEnd ? [button, h('span', { class: 'chain-break', 'aria-hidden': 'true' })] : button;
    }));
}

// "x (input 1)" when both inputs are x; an unnamed input by its place
const edgeLabel = (e, S) => (e.which ? `${e.name || tr(S, 'unnamed_short')} (${e.which})` : e.name);

/**
 * The card for a node_apply with local derivatives.
 * @param {import('../chain.js').Chain} c @param {Object<string,string>} S
 * @param {(pick:Object)=>void} onPick
 */
export function chainView(c, S, onPick) {
  const edge = c.edges.find((e) => e.k === c.k) || c.edges[0];
  const target = elementName(edge.name, edge.shape, c.j);
  const outName = c.out || tr(S, 'unnamed_short');
  const rows = c.terms.map((t) => h('tr', {},
    h('td', {}, h('code', {}, elementName(c.out, c.upShape, t.i))),
    h('td', { class: 'chain-num' }, num(t.d)),
    h('td', { class: 'chain-num' }, `× ${num(t.up ?? '?')}`)));
  return [
    h('h3', { class: 'inspect-title' }, tr(S, 'chain.title'), h('span', { class: 'chip' }, c.name)),
    c.rule ? h('p', { class: 'chain-rule' }, h('code', {}, c.rule)) : null,
    h('p', { class: 'chain-label' }, tr(S, 'chain.upstream', { out: outName })),
    grid(S, tr(S, 'chain.upstream', { out: outName }), c.out, c.upShape, c.up,
      (i) => c.i === i, (i) => onPick({ node: c.node, i }), 'in'),
    c.edges.map((e) => [
      h('p', { class: 'chain-label' }, tr(S, 'chain.sent', { name: edgeLabel(e, S) })),
      grid(S, tr(S, 'chain.sent', { name: edgeLabel(e, S) }), e.name, e.shape, e.sent,
        (j) => c.i === null && e.k === c.k && j === c.j, (j) => onPick({ node: c.node, k: e.k, j }), `out${e.k}`),
    ]),
    h('div', { class: 'chain-formula', 'aria-live': 'polite' },
      h('p', { class: 'chain-formula-head' }, tr(S, 'chain.formula_head', { el: target })),
      h('p', { class: 'chain-formula-text' }, h('code', {}, c.formula)),
      c.terms.length ? h('table', { class: 'chain-terms' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, tr(S, 'chain.col_from')),
          h('th', { scope: 'col' }, tr(S, 'chain.col_local')),
          h('th', { scope: 'col' }, tr(S, 'chain.col_up')))),
        h('tbody', {}, rows)) : h('p', { class: 'note' }, tr(S, 'chain.zero', { el: target }))),
    c.i !== null ? h('p', { class: 'chain-reaches' }, tr(S, 'chain.reaches', {
      el: elementName(c.out, c.upShape, c.i),
      list: c.reaches.map((r) => `${r.name} (${num(r.d)} × ${num(c.up[c.i])})`).join(', ') || '—' })) : null,
    c.meet ? meetView(c.meet, c.out || outName, S) : null,
    // a hook that returned new gradients: what was sent is the hook's, not the product
    c.hooked ? h('p', { class: 'note' }, tr(S, 'chain.hooked')) : null,
    h('p', { class: 'note' }, tr(S, 'chain.engine')),
  ];
}

/** Where paths meet: element i of each contribution, and the sum the engine made. */
export function meetView(m, name, S) {
  const parts = m.parts.map((p) => `${num(p.value ?? '?')} (${p.from})`).join(' + ');
  return h('div', { class: 'chain-meet' },
    h('p', { class: 'chain-label' }, tr(S, 'chain.meet', { k: m.parts.length, el: elementName(name, m.shape, m.i) })),
    h('p', { class: 'chain-formula-text' }, h('code', {}, `${parts} = ${num(m.sum ?? '?')}`)));
}

/**
 * The error's in-place bump: the saved tensor, its versions, and a button to the bump's step.
 * @param {Object} b chain.js bumpOf() @param {Object<string,string>} S @param {(seq:number)=>void} onGo
 */
export function bumpView(b, S, onGo) {
  const p = { name: b.name, saved: b.saved || '?', node: b.node, expected: b.expected, version: b.version };
  return [
    h('h3', { class: 'inspect-title' }, tr(S, 'chain.bump_title'), h('span', { class: 'chip chip-freed' },
      `v${b.expected} → v${b.version}`)),
    h('p', {}, tr(S, 'chain.bump_saved', p)),
    b.bump ? h('p', {}, tr(S, 'chain.bump_by', { name: b.bumpName, op: b.bump.op, line: b.bump.line ?? '?',
      from: b.bump.version - 1, to: b.bump.version })) : h('p', { class: 'note' }, tr(S, 'chain.bump_unseen')),
    b.bump ? h('button', { type: 'button', class: 'btn btn-small chain-go', onclick: () => onGo(b.bump.seq) },
      tr(S, 'chain.bump_go', { line: b.bump.line ?? '?' })) : null,
    h('p', { class: 'note' }, tr(S, 'chain.bump_fix')),
  ];
}
