// Pan and zoom by rewriting the SVG's viewBox: drag to pan, wheel or buttons to zoom, fit to
// show everything. Keeping the picture vector (no CSS transforms) keeps text sharp at any zoom.

/**
 * @param {HTMLElement} host the element the SVG sits in (receives pointer events)
 * @param {SVGSVGElement} svg
 * @param {{width:number, height:number}} size the layout's own size in user units
 */
const MAX_BLOWUP = 2.1;
const MIN_READABLE = 0.7;   // screen pixels per layout point below which labels are unreadable

export function createViewport(host, svg, size) {
  const pad = 16;
  const full = { x: -pad, y: -pad, w: size.width + 2 * pad, h: size.height + 2 * pad };
  let box = { ...full };

  const apply = () => svg.setAttribute('viewBox', `${box.x} ${box.y} ${box.w} ${box.h}`);

  // `whole`: show everything however small. Otherwise (on load) a graph too big to read at
  // full view (a training loop's iterations side by side) opens at a readable scale at its
  // top-left corner, and stepping pans to where the work happens.
  function fit(whole = true) {
    const r = host.getBoundingClientRect();
    const minW = r.width ? r.width / MAX_BLOWUP : full.w;
    const minH = r.height ? r.height / MAX_BLOWUP : full.h;
    box = { ...full };
    if (box.w < minW && box.h < minH) {
      // never blow a tiny graph up past MAX_BLOWUP× its natural size: huge boxes look wrong
      const s = Math.max(minW / box.w, minH / box.h);
      box = { x: full.x - (full.w * s - full.w) / 2, y: full.y - (full.h * s - full.h) / 2,
        w: full.w * s, h: full.h * s };
    } else if (!whole && r.width) {
      const scale = Math.min(r.width / full.w, r.height / full.h);
      if (scale < MIN_READABLE) {
        box = { x: full.x, y: full.y, w: r.width / MIN_READABLE, h: r.height / MIN_READABLE };
      }
    }
    apply();
  }

  function zoom(factor, cx = 0.5, cy = 0.5) {
    const w = Math.min(full.w * 8, Math.max(20, box.w / factor));
    const h = box.h * (w / box.w);
    box = { x: box.x + (box.w - w) * cx, y: box.y + (box.h - h) * cy, w, h };
    apply();
  }

  /** Bring a point of the layout (user units) into view if it is outside. */
  function reveal(x, y) {
    const margin = 0.1;
    if (x < box.x + box.w * margin || x > box.x + box.w * (1 - margin)
      || y < box.y + box.h * margin || y > box.y + box.h * (1 - margin)) {
      box = { ...box, x: x - box.w / 2, y: y - box.h / 2 };
      apply();
    }
  }

  let drag = null;
  host.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || e.target.closest('.node')) return;
    drag = { x: e.clientX, y: e.clientY, box: { ...box } };
    host.setPointerCapture(e.pointerId);
    host.classList.add('is-dragging');
  });
  host.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const r = host.getBoundingClientRect();
    const scale = Math.max(box.w / r.width, box.h / r.height);
    box = { ...drag.box, x: drag.box.x - (e.clientX - drag.x) * scale,
      y: drag.box.y - (e.clientY - drag.y) * scale };
    apply();
  });
  const stop = () => { drag = null; host.classList.remove('is-dragging'); };
  host.addEventListener('pointerup', stop);
  host.addEventListener('pointercancel', stop);
  host.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = host.getBoundingClientRect();
    zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, (e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height);
  }, { passive: false });

  // Pixel sizes, not 100%: Chrome re-lays out a percentage-sized SVG (all its text) whenever
  // anything around it changes, which made a step cost tens of milliseconds on big graphs.
  const resize = () => {
    svg.setAttribute('width', String(host.clientWidth));
    svg.setAttribute('height', String(host.clientHeight));
  };
  resize();
  if (typeof ResizeObserver !== 'undefined') new ResizeObserver(resize).observe(host);

  fit(false);
  return { fit, zoom, reveal, get box() { return { ...box }; } };
}
