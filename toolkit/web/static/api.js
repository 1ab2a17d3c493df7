// The JSON API of `toolkit serve` (docs/web.md): every answer the page shows comes from here.

// A query string from an object; an array value repeats the key, empty values are left out.
function query(params) {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const v of [].concat(value)) {
      if (v !== undefined && v !== null && v !== "" && v !== false) q.append(key, v === true ? "1" : v);
    }
  }
  return q.toString();
}

export function url(path, params = {}) {
  const q = query(params);
  return q ? `${path}?${q}` : path;
}

// The server's `error` text when there is one, else the HTTP status.
async function answer(response) {
  const text = await response.text();
  let data = null;
  try { data = JSON.parse(text); } catch { /* not JSON: reported below */ }
  if (!response.ok) {
    const err = new Error((data && data.error) || `${response.status} ${response.statusText}: ${text.slice(0, 200)}`);
    err.data = data;   // what a refusal carries besides its text (a choice the player must make)
    throw err;
  }
  if (data === null) throw new Error(`the server's answer to ${response.url} is not JSON`);
  return data;
}

// `signal` (an AbortController's) cancels the request: a newer question supersedes it.
export async function getJSON(path, params = {}, signal = undefined) {
  return answer(await fetch(url(path, params), {signal}));
}

// POST `path` with the query `params` (no body): a change (undo, redo, seats).
export async function postJSON(path, params = {}) {
  return answer(await fetch(url(path, params), {method: "POST"}));
}

// A question asked again and again (the selected unit's moves, a layer, a line of sight, the check): each new
// ask aborts the one before, and only the latest ask's answer is returned; a superseded or cancelled ask
// resolves to null.  An answer is thus always the answer to the page's current question, never a late one drawn
// over a newer.
export class Latest {
  constructor() { this.controller = null; }

  // `work(signal)`'s result when no newer ask (or `cancel`) came meanwhile, else null.
  async run(work) {
    this.cancel();
    const controller = this.controller = new AbortController();
    try {
      const data = await work(controller.signal);
      return controller === this.controller ? data : null;
    } catch (err) {
      if (controller !== this.controller) return null;
      throw err;
    }
  }

  get(path, params) { return this.run((signal) => getJSON(path, params, signal)); }

  // Forget the question asked: its answer, when it comes, is dropped.
  cancel() {
    this.controller?.abort();
    this.controller = null;
  }
}

// POST /api/open: the file's bytes, its name in X-Filename (percent-encoded: a header carries no other
// non-ASCII name); the new source's /api/source answer.
export async function openFile(file) {
  const body = await file.arrayBuffer();
  const headers = {"X-Filename": encodeURIComponent(file.name)};
  return answer(await fetch("/api/open", {method: "POST", body, headers}));
}

// GET /api/hex, each hex asked once per source.
const hexCache = new Map();
export function hexInfo(source, hex) {
  const key = `${source}\n${hex}`;
  if (!hexCache.has(key)) {
    const pending = getJSON("/api/hex", {source, hex});
    pending.catch(() => hexCache.delete(key));
    hexCache.set(key, pending);
  }
  return hexCache.get(key);
}
