// Numbers and tensor values as short text for labels, the inspector and narration. Pure.

/** A number in at most 4 significant digits, without trailing zeros ("512", "0.3333"). */
export function num(x) {
  if (typeof x === 'string') return x;             // "nan", "inf", "-inf" from the trace
  if (typeof x === 'boolean') return x ? 'True' : 'False';
  if (typeof x !== 'number' || Number.isNaN(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e5 || a < 1e-3) return x.toExponential(2).replace(/\.?0+e/, 'e').replace('e+', 'e');
  return String(Number(x.toPrecision(4)));
}

/** Flatten nested lists (a 0-d value is a bare number). */
export function flat(data) {
  if (!Array.isArray(data)) return [data];
  return data.flat(Infinity);
}

/** The number of elements of a shape. */
export function numel(shape) {
  return (shape || []).reduce((a, b) => a * b, 1);
}

/** "(2, 3)" like PyTorch's torch.Size, "()" for 0-d. */
export function shapeText(shape) {
  const s = shape || [];
  return `(${s.join(', ')}${s.length === 1 ? ',' : ''})`;
}

/**
 * A value in one short line: "3", "[1, 2]", "[[1, 0], [0, 1]]", or "(100,) …" when the trace
 * left the numbers out. `max` bounds how many numbers are written.
 */
export function short(value, max = 6) {
  if (value === null || value === undefined) return 'None';
  if (value.data === null || value.data === undefined) return `${shapeText(value.shape)} …`;
  if (!Array.isArray(value.data)) return num(value.data);
  if (numel(value.shape) > max) {
    const head = flat(value.data).slice(0, max).map(num).join(', ');
    return `[${head}, …] ${shapeText(value.shape)}`;
  }
  const walk = (d) => (Array.isArray(d) ? `[${d.map(walk).join(', ')}]` : num(d));
  return walk(value.data);
}

/** Elementwise equality of two values' numbers within a relative tolerance. */
export function close(a, b, rtol = 1e-4) {
  if (!a || !b || a.data === null || b.data === null) return false;
  const x = flat(a.data);
  const y = flat(b.data);
  return x.length === y.length && x.every((v, i) => Math.abs(v - y[i]) <= rtol * Math.max(1, Math.abs(v), Math.abs(y[i])));
}
