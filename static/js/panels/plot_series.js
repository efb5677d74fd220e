// What the loss plot draws, as data (no DOM): the series worth plotting, split into runs, and
// the axes' ticks. A program that trains twice (two learning rates) makes one list of backward
// passes; drawn as one curve, the second run's first loss looks like a spike. A run starts
// where the leaves a backward pass reaches change (a new `params` tensor) and the loss starts
// again from high up (a fresh model); inside a stretch of passes the trace summarises, the
// leaves are known only at its ends, so the new run is put at the steepest rise in it.

// A handful of backward passes (a lesson calling backward() twice) is not a training curve.
export const MIN_PASSES = 5;

/** The curve worth plotting: {runs: [[[x, y], …], …], source, line?, title?}, or null:
 * what the program plotted with matplotlib (`series.plotted`), else the backward passes'
 * roots, else numbers it printed each epoch. */
export function pickSeries(series, events = []) {
  if (!series) return null;
  // the program's own plt.plot says what it meant to show: its first figure's lines, its title
  const fig = (series.plotted || []).find((f) => f.lines.some((l) => l.rows.length >= 2));
  if (fig) {
    const lines = fig.lines.filter((l) => l.rows.length >= 2);
    return { runs: lines.map((l) => l.rows), source: 'plotted',
      title: fig.title || lines[0].label || null, xlabel: fig.xlabel || null,
      ylabel: fig.ylabel || null, label: lines[0].label || null };
  }
  if (series.roots && series.roots.length >= MIN_PASSES) {
    return { runs: splitRoots(series.roots, events), source: 'roots' };
  }
  const printed = (series.printed || []).find((p) => p.rows.length >= 3 && p.rows[0].length >= 1);
  if (!printed) return null;
  const points = printed.rows.map((r, i) => (r.length >= 2 ? [r[0], r[r.length - 1]] : [i, r[0]]));
  return { runs: splitPrinted(points), source: 'printed', line: printed.line };
}

/** Printed rows restart their first number (the epoch) when a new run begins. */
export function splitPrinted(points) {
  const runs = [[]];
  for (const p of points) {
    const run = runs.at(-1);
    if (run.length && p[0] <= run.at(-1)[0]) runs.push([]);
    runs.at(-1).push(p);
  }
  return runs;
}

/** Split `[[pass, loss], …]` into runs, from the leaves of the backward_begin events kept in
 * the trace (the passes between two kept ones were summarised). A change of leaves alone is not
 * a new run: the classic loop makes a new `params` every epoch (detach().requires_grad_()), and
 * its loss keeps falling; a new run also starts its loss again, well above where it was. */
export function splitRoots(roots, events) {
  const leavesOf = new Map();     // pass -> "t3,t5": what that pass reached
  for (const e of events) {
    if (e.kind === 'backward_begin' && e.leaves) leavesOf.set(e.pass, [...e.leaves].sort().join(','));
  }
  const value = new Map(roots);
  const starts = new Set();
  const known = [...leavesOf.keys()].sort((a, b) => a - b);
  for (let i = 1; i < known.length; i++) {
    const [a, b] = [known[i - 1], known[i]];
    if (leavesOf.get(a) === leavesOf.get(b)) continue;
    let best = null;               // the pass after the steepest rise in (a, b]
    let rise = 0;
    for (let p = a + 1; p <= b; p++) {
      const r = restart(value.get(p - 1), value.get(p));
      if (r > rise) { rise = r; best = p; }
    }
    if (best !== null) starts.add(best);
  }
  const runs = [[]];
  for (const p of roots) {
    if (starts.has(p[0]) && runs.at(-1).length) runs.push([]);
    runs.at(-1).push(p);
  }
  return runs;
}

/** How strongly the loss going from `before` to `after` looks like a fresh start: the ratio
 * after / before when it more than doubles (positive losses), else 0. */
function restart(before, after) {
  if (!Number.isFinite(before) || !Number.isFinite(after)) return 0;
  if (before > 0 && after > 2 * before) return after / before;
  return 0;
}

/** About `count` round tick values from a multiple of the step at or below `lo` to one at or
 * above `hi` (the axis then spans them, so its ends are labelled). */
export function linearTicks(lo, hi, count = 4) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const ticks = [];
  const last = Math.ceil(hi / step - 1e-9) * step;
  for (let t = Math.floor(lo / step + 1e-9) * step; t <= last + step * 1e-9; t += step) {
    ticks.push(Number(t.toPrecision(12)));
  }
  return ticks;
}

/** Powers of ten covering [lo, hi] (lo > 0), thinned to at most 6. */
export function logTicks(lo, hi) {
  const a = Math.floor(Math.log10(lo));
  const b = Math.ceil(Math.log10(hi));
  const every = Math.max(1, Math.ceil((b - a + 1) / 6));
  const ticks = [];
  for (let e = a; e <= b; e += every) ticks.push(10 ** e);
  return ticks;
}

/** Log scale is offered when every value is positive, and chosen by default when they span
 * more than two decades (a loss that falls from 1764 to 3). */
export function logScaleFits(ys) {
  const pos = ys.filter((y) => Number.isFinite(y));
  if (!pos.length || pos.some((y) => y <= 0)) return { possible: false, preferred: false };
  return { possible: true, preferred: Math.max(...pos) / Math.min(...pos) > 100 };
}
