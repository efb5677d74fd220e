// Pan and zoom with a CSS transform on the SVG element: drag to pan, wheel or buttons to zoom,
// fit to show everything. The SVG itself keeps a fixed viewBox and a fixed pixel size, because
// Chrome lays out every label of an SVG again when its viewBox or a percentage size changes —
// about 10 ms per step on a 500-box graph — while a transform only recomposites.
// Two framings: `fit` never shrinks text below what a learner can read (labels are 11 points,
// the pills and value rows 10 to 10.5; below one screen pixel a point it stops shrinking and
// frames the working region instead, following the step), and is how a picture opens;
// `whole` shows every box of the picture whatever the size of its words (the Fit button), and
// says whether they went below the reading size, so that the page can say so.

const MAX_BLOWUP = 2.1;     // a tiny graph is not drawn larger than this: huge boxes look wrong
const MIN_READABLE = 1.0;   // screen pixels per layout point: 11 pt labels stay >= 11 px
const MAX_SCALE = 8;

/**
 * @param {HTMLElement} host the element the SVG sits in (receives pointer events)
 * @param {SVGSVGElement} svg
 * @param {{width:number, height:number}} size the layout's own size in user units
 * @param {{minScale?: () => number, onTouch?: () => void,
 *   onView?: (rect:{x:number, y:number, w:number, h:number}) => void}} [options] minScale: a
 *   scale the readable framing must not go below (presenter mode asks for labels a projector
 *   shows at 16 px); the view then follows the work instead of showing everything. onTouch:
 *   told when the learner pans or zooms. onView: told the region around the view (layout
 *   units) whenever it moves (graph/culling.js)
 */
export function createViewport(host, svg, size, options = {}) {
  const pad = 14;   // room for pills beside the outermost boxes (graph/render.js keeps them inside)
  const full = { x: -pad, y: -pad, w: size.width + 2 * pad, h: size.height + 2 * pad };
  svg.setAttribute('viewBox', `${full.x} ${full.y} ${full.w} ${full.h}`);
  svg.setAttribute('width', String(full.w));
  svg.setAttribute('height', String(full.h));
  let view = { s: 1, tx: 0, ty: 0 };   // screen = t + s · (user − full.origin)
  let touched = false;                 // the learner panned or zoomed: stop re-fitting
  let showing = 'fit';                 // the framing a resized pane gets again: 'fit' or 'whole'
  let focus = null;                    // the working region's centre, in user units
  const listening = new AbortController();
  const signal = listening.signal;

  const apply = () => {
    svg.style.transform = `translate(${view.tx}px, ${view.ty}px) scale(${view.s})`;
    if (options.onView) {
      // what is on screen in layout units, and half a pane more each way to pan into
      const { w, h } = hostSize();
      const x = full.x - view.tx / view.s;
      const y = full.y - view.ty / view.s;
      options.onView({ x: x - w / (2 * view.s), y: y - h / (2 * view.s), w: 2 * w / view.s, h: 2 * h / view.s });
    }
  };
  // the pane's size, read once and then kept by the resize observer: reading clientWidth at
  // every step would force the browser to lay out the whole picture there and then
  let known = null;
  const hostSize = () => {
    if (!known) known = { w: host.clientWidth || full.w, h: host.clientHeight || full.h };
    return known;
  };
  const fitScale = () => {
    const { w, h } = hostSize();
    return Math.min(w / full.w, h / full.h);
  };

  /**
   * Show the whole graph when it can be read whole; otherwise show it at the smallest
   * readable scale, centred on the working region (the top left before any step has one),
   * and keep following the step.
   */
  function fit() {
    const { w, h } = hostSize();
    touched = false;
    showing = 'fit';
    const floor = Math.max(MIN_READABLE, options.minScale ? options.minScale() : 0);
    const s = Math.min(fitScale(), Math.max(MAX_BLOWUP, floor));
    if (s >= floor) {
      view = { s, tx: (w - s * full.w) / 2, ty: (h - s * full.h) / 2 };
    } else {
      const s2 = floor;
      // centred where the graph is narrower than the pane, else kept from leaving it empty
      const clampT = (t, room, size) => (s2 * size <= room ? (room - s2 * size) / 2
        : Math.min(0, Math.max(room - s2 * size, t)));
      const c = focus || { x: full.x + w / (2 * s2), y: full.y + h / (2 * s2) };
      view = { s: s2, tx: clampT(w / 2 - s2 * (c.x - full.x), w, full.w),
        ty: clampT(h / 2 - s2 * (c.y - full.y), h, full.h) };
    }
    apply();
  }

  let below = 0;    // px kept free at the foot of the pane in the whole framing (its note)

  /**
   * Show every box of the picture, centred, however small its words get, above `room` px
   * kept free at the foot of the pane; returns the screen pixels a layout point now takes
   * (its 11 pt labels are 11 times that in px).
   */
  function whole(room = 0) {
    const { w, h } = hostSize();
    touched = false;
    showing = 'whole';
    below = Math.min(room, h / 2);
    const s = Math.min(w / full.w, (h - below) / full.h, MAX_BLOWUP);
    view = { s, tx: (w - s * full.w) / 2, ty: (h - below - s * full.h) / 2 };
    apply();
    return s;
  }

  const touch = () => {
    touched = true;
    if (options.onTouch) options.onTouch();
  };

  function zoom(factor, cx = 0.5, cy = 0.5) {
    const { w, h } = hostSize();
    touch();
    const s = Math.min(MAX_SCALE, Math.max(fitScale() / 8, view.s * factor));
    const px = cx * w;
    const py = cy * h;
    view = { s, tx: px - (px - view.tx) * (s / view.s), ty: py - (py - view.ty) * (s / view.s) };
    apply();
  }

  /**
   * Bring a box of the layout (centre and size in user units) wholly into view, panning as
   * little as possible; a graph that fits on screen never moves.
   */
  function reveal(x, y, bw = 0, bh = 0) {
    focus = { x, y };
    const { w, h } = hostSize();
    if (view.s * full.w <= w && view.s * full.h <= h && !touched) return;
    const m = Math.min(60, w / 4, h / 4);
    // how far the box's near edges are from the room kept along the pane's edges; a box
    // larger than that room is centred
    const shift = (centre, half, room) => {
      if (2 * (half + m) >= room) return room / 2 - centre;
      return centre - half < m ? m - (centre - half) : centre + half > room - m ? room - m - (centre + half) : 0;
    };
    const dx = shift(view.tx + view.s * (x - full.x), (view.s * bw) / 2, w);
    const dy = shift(view.ty + view.s * (y - full.y), (view.s * bh) / 2, h);
    if (dx || dy) {
      // unless the learner moved it, a picture larger than the pane never shows empty room
      // beyond its edges
      const keep = (t, room, size) => (touched || view.s * size <= room ? t
        : Math.min(0, Math.max(room - view.s * size, t)));
      view = { ...view, tx: keep(view.tx + dx, w, full.w), ty: keep(view.ty + dy, h, full.h) };
      apply();
    }
  }

  let drag = null;
  host.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || /** @type {Element} */ (e.target).closest('.node, .gs-group-title, .gs-fold, .graph-scale')) return;
    drag = { x: e.clientX, y: e.clientY, view: { ...view } };
    touch();
    host.setPointerCapture(e.pointerId);
    host.classList.add('is-dragging');
  }, { signal });
  host.addEventListener('pointermove', (e) => {
    if (!drag) return;
    view = { ...drag.view, tx: drag.view.tx + e.clientX - drag.x, ty: drag.view.ty + e.clientY - drag.y };
    apply();
  }, { signal });
  const stop = () => { drag = null; host.classList.remove('is-dragging'); };
  host.addEventListener('pointerup', stop, { signal });
  host.addEventListener('pointercancel', stop, { signal });
  host.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = host.getBoundingClientRect();
    zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, (e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height);
  }, { passive: false, signal });

  fit();
  // the pane changes size (presenter mode, a resized window, the page settling): fit again
  // unless the learner has chosen a view of their own
  const resize = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(() => {
    known = null;
    if (!touched) {
      if (showing === 'whole') whole(below); else fit();
    }
  }) : null;
  if (resize) resize.observe(host);

  /** Let go of the host: its listeners and the size observer (a new graph replaces this). */
  function destroy() {
    listening.abort();
    if (resize) resize.disconnect();
    drag = null;
  }
  return { fit, whole, zoom, reveal, destroy, get view() { return { ...view }; },
    /** The framing shown: 'fit', 'whole', or 'own' once the learner panned or zoomed. */
    get showing() { return touched ? 'own' : showing; } };
}
