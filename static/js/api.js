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

async function json(response) {
  const body = await parsed(response);
  if (!response.ok) {
    const message = body && body.error ? body.error.message : `HTTP ${response.status}`;
    /** @type {Error & {status?: number, code?: string|null}} */
    const err = new Error(message);
    err.status = response.status;
    err.code = body && body.error ? body.error.code : null;
    throw err;
  }
  return body;
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
  const response = await fetch('/api/run', {
    method: 'POST', headers: withLearner({ 'Content-Type': 'application/json' }),
    body: JSON.stringify(runId ? { code, lang, run_id: runId } : { code, lang }), signal,
  });
  return json(response);
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
  return json(await fetch(`/api/lessons/${encodeURIComponent(id)}/run?lang=${encodeURIComponent(lang)}`,
    { headers: withLearner() }));
}
