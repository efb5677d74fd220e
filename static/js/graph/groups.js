// Modules as groups that fold: a module's cluster (the layout's `groups`) can be closed to one
// box and opened again, by a click on its title or Enter/Space when it has focus. A folded
// group hides its boxes and the arrows inside it; arrows from outside still reach its box.
// Library modules (the learner did not write them) start folded once a graph is big.

const SVG_NS = 'http://www.w3.org/2000/svg';
const BIG = 40;   // boxes in a picture above which library modules open folded

/**
 * @param {import('./layout.js').GraphIndex} index
 * @param {Object<string, {label:string, user:boolean, parent:(string|null), members:string[]}>} groups
 * @param {{fold:string, open:string}} words the toggle's spoken names
 * @param {string[]} [initial] the groups that start folded (default: the library modules of a
 *   big picture)
 */
export function createGroups(index, groups = {}, words = { fold: 'fold', open: 'open' }, initial = undefined) {
  const found = new Map();    // group id -> {el, info, box}
  const clusters = new Map([...index.scene.querySelectorAll('g.cluster')].map((el) => [el.id, el]));
  for (const [gid, info] of Object.entries(groups)) {
    const el = /** @type {SVGElement|undefined} */ (clusters.get(gid));
    if (!el) continue;
    el.setAttribute('tabindex', '0');
    el.setAttribute('role', 'button');
    el.dataset.group = gid;
    const title = el.querySelector(':scope > text');
    if (title) title.classList.add('gs-group-title');
    found.set(gid, { el, info, box: null, title: title ? title.textContent : info.label });
  }
  const folded = new Set();
  const insideFolded = new Set();     // ids hidden because a group around them is folded

  function apply() {
    insideFolded.clear();
    const hiddenGroups = new Set();
    for (const gid of folded) {
      for (const id of found.get(gid).info.members) insideFolded.add(id);
      for (const [other, g] of found) {
        // a group inside a folded one is hidden with it
        for (let p = g.info.parent; p; p = groups[p] && groups[p].parent) {
          if (p === gid) { hiddenGroups.add(other); break; }
        }
      }
    }
    for (const [id, el] of index.nodes) el.toggleAttribute('data-folded', insideFolded.has(id));
    for (const e of index.edgeList) {
      const el = index.edges.get(e.id);
      if (el) el.toggleAttribute('data-folded', insideFolded.has(e.from) && insideFolded.has(e.to));
    }
    for (const [gid, g] of found) {
      const isFolded = folded.has(gid);
      g.el.toggleAttribute('data-folded', hiddenGroups.has(gid));
      g.el.classList.toggle('is-folded', isFolded);
      g.el.setAttribute('aria-expanded', String(!isFolded));
      g.el.setAttribute('aria-label', `${g.title}: ${isFolded ? words.open : words.fold}`);
      if (isFolded && !g.box) g.box = foldBox(g);
      if (g.box) g.box.hidden = !isFolded;
      if (g.box) g.box.style.display = isFolded ? '' : 'none';
    }
  }

  // The folded look: a box over the whole frame, saying how many boxes it holds.
  function foldBox(g) {
    const frame = g.el.querySelector(':scope > path, :scope > polygon');
    const b = frame && frame.getBBox ? frame.getBBox() : null;
    const box = document.createElementNS(SVG_NS, 'g');
    box.setAttribute('class', 'gs-fold');
    if (b) {
      const rect = document.createElementNS(SVG_NS, 'rect');
      for (const [k, v] of Object.entries({ x: b.x, y: b.y, width: b.width, height: b.height, rx: 6 })) rect.setAttribute(k, String(v));
      const text = document.createElementNS(SVG_NS, 'text');
      text.setAttribute('x', String(b.x + b.width / 2));
      text.setAttribute('y', String(b.y + b.height / 2 + 4));
      text.setAttribute('text-anchor', 'middle');
      text.textContent = `▸ ${g.info.members.length}`;
      box.append(rect, text);
    }
    // under the title, so the title stays readable and clickable
    const title = g.el.querySelector(':scope > text');
    g.el.insertBefore(box, title || null);
    return box;
  }

  function toggle(gid) {
    if (!found.has(gid)) return;
    if (folded.has(gid)) folded.delete(gid); else folded.add(gid);
    apply();
  }

  if (initial) {
    for (const gid of initial) if (found.has(gid)) folded.add(gid);
  } else if (index.nodes.size > BIG) {
    for (const [gid, g] of found) if (!g.info.user) folded.add(gid);
  }
  apply();

  return {
    toggle,
    isFolded: (gid) => folded.has(gid),
    /** The group a drawn id is hidden in (the outermost folded one), or null. */
    foldedAround(id) {
      if (!insideFolded.has(id)) return null;
      let best = null;
      for (const gid of folded) {
        if (found.get(gid).info.members.includes(id) && !(best && isInside(best, gid))) best = gid;
      }
      return best;
    },
    /** Light a folded group when the step works inside it. */
    mark(ids) {
      const lit = new Set();
      for (const id of ids) { const g = this.foldedAround(id); if (g) lit.add(g); }
      for (const [gid, g] of found) g.el.classList.toggle('is-working', lit.has(gid));
    },
  };

  function isInside(outer, inner) {
    for (let p = groups[inner] && groups[inner].parent; p; p = groups[p] && groups[p].parent) {
      if (p === outer) return true;
    }
    return false;
  }
}
