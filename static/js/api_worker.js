// The fetching and parsing of a run's answer, off the page's thread (api.js starts it). A
// 2,000-box answer is 3 MB of JSON: decoding and parsing it in the page held the page for
// hundreds of milliseconds on a crowded core. Here it is parsed whole, then sent to the page
// in pieces, each a message (and so a task) of its own: the answer with its big lists and
// maps left empty first, then their items a slice at a time, then `done`. The page puts the
// items back in order, so it ends with the same object JSON.parse would have given it.

const SLICE = 100;                  // items of a big list or map in one message
const running = new Map();          // request id -> AbortController

/** `value` with every list or map of more than SLICE items left empty, the items kept in
 * `parts` with where they belong ({path, items}; a map's items are [key, value] pairs). */
function split(value, path, parts) {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (value.length > SLICE) { parts.push({ path, items: value, map: false }); return []; }
    return value.map((v, i) => split(v, [...path, i], parts));
  }
  const keys = Object.keys(value);
  if (keys.length > SLICE) { parts.push({ path, items: Object.entries(value), map: true }); return {}; }
  const out = {};
  for (const k of keys) out[k] = split(value[k], [...path, k], parts);
  return out;
}

async function answer(id, url, init) {
  const controller = new AbortController();
  running.set(id, controller);
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    const text = await response.text();
    let body = null;
    try { body = JSON.parse(text); } catch { /* not JSON: the page reports the status */ }
    const parts = [];
    const head = split(body, [], parts);
    postMessage({ id, status: response.status, ok: response.ok, head });
    for (const { path, items, map } of parts) {
      for (let i = 0; i < items.length; i += SLICE) postMessage({ id, path, map, items: items.slice(i, i + SLICE) });
    }
    postMessage({ id, done: true });
  } catch (err) {
    postMessage({ id, error: { name: err.name, message: err.message } });
  } finally {
    running.delete(id);
  }
}

onmessage = (e) => {
  const { id, url, init, abort } = e.data;
  if (abort) {
    const controller = running.get(id);
    if (controller) controller.abort();
  } else {
    answer(id, url, init);
  }
};
