// The only module that talks to the server (docs/architecture.md section 4, docs/api.md).

/** @typedef {{result:Object, trace:(import('./trace.js').Trace|null), layout:(Object|null),
 *   layout_note?:(string|null),
 *   layout_budget?:{max_bytes:number, pictures:number, drawn:number},
 *   layout_timeout?:number}} RunAnswer */

/** The body as JSON, or null. Read as text first: Chromium's Response.json() took several
 * times JSON.parse's time on a 3 MB answer, in one task. @param {Response} response */
async function parsed(response) {
  try {
    return JSON.parse(await response.text());
  } catch {
    return null;
  }
}

/** `body` when the status is a success, else the server's error as an Error with `status` and
 * `code`. @param {{ok:boolean, status:number, body:any}} reply */
function checked({ ok, status, body }) {
  if (!ok) {
    const message = body && body.error ? body.error.message : `HTTP ${status}`;
    /** @type {Error & {status?: number, code?: string|null}} */
    const err = new Error(message);
    err.status = status;
    err.code = body && body.error ? body.error.code : null;
    throw err;
  }
  return body;
}

async function json(response) {
  return checked({ ok: response.ok, status: response.status, body: await parsed(response) });
}

// A run's answer can be megabytes: it is fetched and parsed in a worker (api_worker.js) and
// arrives in pieces, each in a task of its own, so the page never holds for it. Where no
// worker can start, it is fetched here.
/** @type {Worker|null|false} null: not started yet; false: none to be had */
let worker = null;
let lastId = 0;
/** @type {Map<number, {resolve:Function, reject:Function, reply:any, again:()=>void}>} */
const waiting = new Map();

function answerWorker() {
  if (worker === null) {
    try {
      worker = new Worker(new URL('./api_worker.js', import.meta.url));
      worker.onmessage = (e) => receive(e.data);
      // the worker could not start or broke: what it was doing is fetched here instead
      worker.onerror = () => {
        worker = false;
        const jobs = [...waiting.values()];
        waiting.clear();
        for (const job of jobs) job.again();
      };
    } catch {
      worker = false;
    }
  }
  return worker || null;
}

/** One message of the worker: the answer's head, a slice of a big list or map, done, or a
 * failure of the fetch itself. */
function receive(m) {
  const job = waiting.get(m.id);
  if (!job) return;             // aborted meanwhile
  if (m.error) {
    waiting.delete(m.id);
    job.reject(Object.assign(new Error(m.error.message), { name: m.error.name }));
  } else if (m.done) {
    waiting.delete(m.id);
    job.resolve(job.reply);
  } else if (m.path) {
    const into = m.path.reduce((o, k) => o[k], job.reply.body);
    if (m.map) for (const [k, v] of m.items) into[k] = v;
    else into.push(...m.items);
  } else {
    job.reply = { ok: m.ok, status: m.status, body: m.head };
  }
}

/** fetch(url, init) answered with JSON, parsed in the worker where there is one.
 * @param {string} url @param {{method?:string, headers?:Object, body?:string}} init
 * @param {AbortSignal} [signal] @returns {Promise<any>} */
async function fetchBig(url, init, signal) {
  const here = async () => {
    const response = await fetch(url, { ...init, signal });
    return { ok: response.ok, status: response.status, body: await parsed(response) };
  };
  const w = answerWorker();
  if (!w) return checked(await here());
  if (signal && signal.aborted) throw new DOMException('The request was aborted.', 'AbortError');
  const id = ++lastId;
  const reply = await new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject, reply: null, again: () => here().then(resolve, reject) });
    w.postMessage({ id, url: new URL(url, location.href).href, init });
    if (signal) {
      signal.addEventListener('abort', () => {
        if (!waiting.delete(id)) return;
        w.postMessage({ id, abort: true });
        reject(new DOMException('The request was aborted.', 'AbortError'));
      }, { once: true });
    }
  });
  return checked(reply);
}

const LEARNER_KEY = 'gradstep.learner';
let sessionLearner = '';

/** A random id for this browser, kept in localStorage and sent with every run: the server
 * counts each learner's fair share of the sandbox by it, so a class behind one address is
 * not one client (docs/api.md). */
export function learnerId() {
  try {
    let id = localStorage.getItem(LEARNER_KEY);
    if (!id || !/^[A-Za-z0-9_-]{16,64}$/.test(id)) {
      id = newRunId();
      localStorage.setItem(LEARNER_KEY, id);
    }
    return id;
  } catch {            // storage refused (private mode, a sandboxed frame): one per page
    sessionLearner = sessionLearner || newRunId();
    return sessionLearner;
  }
}

/** @param {Object<string,string>} [headers] */
function withLearner(headers = {}) {
  return { ...headers, 'X-Gradstep-Learner': learnerId() };
}

/** POST /api/run. @param {string} code @param {string} lang @param {AbortSignal} signal
 * @param {string} [runId] names the run for stopRun @returns {Promise<RunAnswer>} */
export async function run(code, lang, signal, runId) {
  return fetchBig('/api/run', {
    method: 'POST', headers: withLearner({ 'Content-Type': 'application/json' }),
    body: JSON.stringify(runId ? { code, lang, run_id: runId } : { code, lang }),
  }, signal);
}

/** POST /api/export: the run of `code` as one standalone HTML player; with `before`, the runs
 * of both programs side by side. @returns {Promise<Blob>} */
export async function exportHtml(code, lang, before) {
  const response = await fetch('/api/export', {
    method: 'POST', headers: withLearner({ 'Content-Type': 'application/json' }),
    body: JSON.stringify(before === undefined ? { code, lang } : { code, lang, before }),
  });
  if (!response.ok) await json(response);     // throws the server's error message
  return response.blob();
}

/** A random name for a run (128 bits, URL-safe), so that only its page can stop it. */
export function newRunId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** POST /api/run/{runId}/stop: end that run on the server. */
export async function stopRun(runId) {
  return json(await fetch(`/api/run/${encodeURIComponent(runId)}/stop`, { method: 'POST' }));
}

/** GET /api/run/{runId}/progress: {state: 'waiting'|'running'|'unknown', place, waiting}. */
export async function runProgress(runId) {
  return json(await fetch(`/api/run/${encodeURIComponent(runId)}/progress`));
}

/** GET /api/examples: [{id, title}] in the UI language. */
export async function examples(lang) {
  return json(await fetch(`/api/examples?lang=${encodeURIComponent(lang)}`));
}

/** GET /api/examples/{id}: one example with its code. */
export async function example(id, lang) {
  return json(await fetch(`/api/examples/${encodeURIComponent(id)}?lang=${encodeURIComponent(lang)}`));
}

/** The UI string table of a language (the same file the server renders the page with). */
export async function strings(lang) {
  return json(await fetch(`/static/i18n/${encodeURIComponent(lang)}.json`));
}

/** GET /api/lessons/{id}/run: a lesson's text, its program's run answer, and each "watch for"
 * pointer with the `seq` of the trace event it lands on. */
/** A lesson's text and program, without running it. */
export async function lesson(id, lang) {
  return json(await fetch(`/api/lessons/${encodeURIComponent(id)}?lang=${encodeURIComponent(lang)}`));
}

export async function lessonRun(id, lang) {
  return fetchBig(`/api/lessons/${encodeURIComponent(id)}/run?lang=${encodeURIComponent(lang)}`,
    { headers: withLearner() });
}
