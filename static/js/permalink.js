// The program in the URL: `#z=<deflate-raw, base64url>&step=<n>` (made by the app), or plain
// `?code=<text>` / `#code=<text>` (easy to write by hand). A link to two runs side by side adds
// the earlier program as `vs=<deflate-raw, base64url>` (its `step` is then the shared step);
// a link without `vs` is a link to one run, as links always were. Uses the platform's own
// CompressionStream, so there is no compression library to vendor. No DOM.

const toB64url = (bytes) => {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

const fromB64url = (text) => {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
};

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** @param {string} code @returns {Promise<string>} the compressed, URL-safe form */
export async function encodeProgram(code) {
  const packed = await pipe(new TextEncoder().encode(code), new CompressionStream('deflate-raw'));
  return toB64url(packed);
}

/** @param {string} token @returns {Promise<string>} the program text */
export async function decodeProgram(token) {
  const bytes = await pipe(fromB64url(token), new DecompressionStream('deflate-raw'));
  return new TextDecoder().decode(bytes);
}

/**
 * What a URL asks for. The fragment wins over the query, as it is what the app itself writes.
 * @param {string} search location.search @param {string} hash location.hash
 * @returns {{z?:string, code?:string, step?:number, lang?:string, vs?:string}}
 */
export function parseLocation(search, hash) {
  const q = new URLSearchParams(search || '');
  const h = new URLSearchParams((hash || '').replace(/^#/, ''));
  const out = {};
  if (h.get('z')) out.z = h.get('z');
  else if (h.get('code') !== null) out.code = h.get('code');
  else if (q.get('code') !== null) out.code = q.get('code');
  if (h.get('vs')) out.vs = h.get('vs');
  const step = parseInt(h.get('step') || q.get('step') || '', 10);
  if (Number.isFinite(step) && step > 0) out.step = step;
  const lang = q.get('lang');
  if (lang === 'en' || lang === 'zh') out.lang = lang;
  return out;
}

/** @returns {string} the fragment for a compressed program and a 1-based step, and for a
 * comparison the compressed earlier program `vs` */
export function buildHash(z, step, vs) {
  const h = new URLSearchParams();
  h.set('z', z);
  if (vs) h.set('vs', vs);
  if (step) h.set('step', String(step));
  return `#${h.toString()}`;
}
