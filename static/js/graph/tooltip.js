// The full value of a box on hover or keyboard focus: the boxes show short numbers (a
// handful of elements, or a range), and this says everything the step knows about the box.
// One element for the whole graph, filled when asked, so a step costs nothing here.
import { h, fill } from '../dom.js';

/**
 * @param {HTMLElement} host the graph's container
 * @param {(id:string)=>Array<string>} describe the lines for a drawn box's id, at this step
 * @returns {{hide:()=>void, destroy:()=>void}}
 */
export function createTooltip(host, describe) {
  const tip = /** @type {HTMLElement} */ (h('div', { class: 'graph-tip', role: 'tooltip', id: 'graph-tip', hidden: true }));
  host.append(tip);
  const listening = new AbortController();
  const signal = listening.signal;
  let shownFor = null;

  function show(node) {
    const lines = describe(node.dataset.id);
    if (!lines.length) { hide(); return; }
    fill(tip, lines.map((line, k) => h(k ? 'div' : 'strong', {}, line)));
    tip.hidden = false;
    const r = node.getBoundingClientRect();
    const hr = host.getBoundingClientRect();
    // beside the box, kept inside the pane: below it, or above when there is no room
    const x = Math.max(4, Math.min(r.left - hr.left, hr.width - tip.offsetWidth - 4));
    const below = r.bottom - hr.top + 6;
    const y = below + tip.offsetHeight < hr.height ? below : Math.max(4, r.top - hr.top - tip.offsetHeight - 6);
    tip.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
    node.setAttribute('aria-describedby', 'graph-tip');
    shownFor = node;
  }

  function hide() {
    tip.hidden = true;
    if (shownFor) shownFor.removeAttribute('aria-describedby');
    shownFor = null;
  }

  const nodeOf = (e) => (e.target && e.target.closest ? e.target.closest('.node[data-id]') : null);
  host.addEventListener('pointerover', (e) => { const n = nodeOf(e); if (n) show(n); }, { signal });
  host.addEventListener('pointerout', (e) => { if (nodeOf(e) && !nodeOf({ target: e.relatedTarget })) hide(); }, { signal });
  host.addEventListener('focusin', (e) => { const n = nodeOf(e); if (n) show(n); else hide(); }, { signal });
  host.addEventListener('focusout', hide, { signal });
  host.addEventListener('pointerdown', hide, { signal });

  return {
    hide,
    destroy() { listening.abort(); tip.remove(); },
  };
}
