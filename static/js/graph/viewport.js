// Pan and zoom with a CSS transform on the SVG element: drag to pan, wheel or buttons to zoom,
// fit to show everything. The SVG itself keeps a fixed viewBox and a fixed pixel size, because
// Chrome lays out every label of an SVG again when its viewBox or a percentage size changes —
// about 10 ms per step on a 500-box graph — while a transform only recomposites.

const MAX_BLOWUP = 2.1;     // a tiny graph is not drawn larger than this: huge boxes look wrong
const MIN_READABLE = 0.7;   // screen pixels per layout point below which labels are unreadable
const MAX_SCALE = 8;

/**
 * @param {HTMLElement} host the element the SVG sits in (receives pointer events)
 * @param {SVGSVGElement} svg
 * @param {{width:number, height:number}} size the layout's own size in user units
 * @param {{minScale?: () => number, whole?: boolean}} [options] minScale: a scale the opening
 *   view must not go below (presenter mode asks for labels a projector shows at 16 px); the
 *   view then follows the work instead of showing everything. whole: always open showing
 *   everything (a lesson's small graph beside its text)
 */
export function createViewport(host, svg, size, options = {}) {
  const pad = 30;   // room for the pills drawn above the top boxes
  const full = { x: -pad, y: -pad, w: size.width + 2 * pad, h: size.height + 2 * pad };
  svg.setAttribute('viewBox', `${full.x} ${full.y} ${full.w} ${full.h}`);
  svg.setAttribute('width', String(full.w));
  svg.setAttribute('height', String(full.h));
  let view = { s: 1, tx: 0, ty: 0 };   // screen = t + s · (user − full.origin)
  let touched = false;                 // the learner panned or zoomed: stop re-fitting

  const apply = () => {
    svg.style.transform = `translate(${view.tx}px, ${view.ty}px) scale(${view.s})`;
  };
  const hostSize = () => ({ w: host.clientWidth || full.w, h: host.clientHeight || full.h });
  const fitScale = () => {
    const { w, h } = hostSize();
    return Math.min(w / full.w, h / full.h);
  };

  /**
   * `whole`: show everything however small. Otherwise (on load) a graph too big to read at
   * full view (a training loop's iterations side by side) opens at a readable scale at its
   * top-left corner, and stepping pans to where the work happens.
   */
  function fit(whole = true) {
    whole = whole || Boolean(options.whole);
    const { w, h } = hostSize();
    touched = false;
    const floor = Math.max(MIN_READABLE, options.minScale ? options.minScale() : 0);
    const s = Math.min(fitScale(), Math.max(MAX_BLOWUP, floor));
    if (!whole && s < floor) {
      // centred across when it fits across, else from the left edge
      view = { s: floor, tx: Math.max(0, (w - floor * full.w) / 2), ty: 0 };
    } else {
      view = { s, tx: (w - s * full.w) / 2, ty: (h - s * full.h) / 2 };
    }
    apply();
  }

  function zoom(factor, cx = 0.5, cy = 0.5) {
    const { w, h } = hostSize();
    touched = true;
    const s = Math.min(MAX_SCALE, Math.max(fitScale() / 8, view.s * factor));
    const px = cx * w;
    const py = cy * h;
    view = { s, tx: px - (px - view.tx) * (s / view.s), ty: py - (py - view.ty) * (s / view.s) };
    apply();
  }

  /**
   * Bring a point of the layout (user units) into view, panning as little as possible; a graph
   * that fits on screen never moves.
   */
  function reveal(x, y) {
    const { w, h } = hostSize();
    if (view.s * full.w <= w && view.s * full.h <= h && !touched) return;
    const m = Math.min(60, w / 4, h / 4);
    const sx = view.tx + view.s * (x - full.x);
    const sy = view.ty + view.s * (y - full.y);
    const dx = sx < m ? m - sx : sx > w - m ? w - m - sx : 0;
    const dy = sy < m ? m - sy : sy > h - m ? h - m - sy : 0;
    if (dx || dy) {
      view = { ...view, tx: view.tx + dx, ty: view.ty + dy };
      apply();
    }
  }

  let drag = null;
  host.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || e.target.closest('.node')) return;
    drag = { x: e.clientX, y: e.clientY, view: { ...view } };
    touched = true;
    host.setPointerCapture(e.pointerId);
    host.classList.add('is-dragging');
  });
  host.addEventListener('pointermove', (e) => {
    if (!drag) return;
    view = { ...drag.view, tx: drag.view.tx + e.clientX - drag.x, ty: drag.view.ty + e.clientY - drag.y };
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

  fit(false);
  // the pane changes size (presenter mode, a resized window, the page settling): fit again
  // unless the learner has chosen a view of their own
  if (typeof ResizeObserver !== 'undefined') {
    new ResizeObserver(() => { if (!touched) fit(false); }).observe(host);
  }
  return { fit, zoom, reveal, get view() { return { ...view }; } };
}
