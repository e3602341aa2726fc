// The only place that talks HTTP. Every number the page shows comes through here from the API;
// the page does no color math of its own.

const TOKEN_KEY = 'contrast-service-token';
const listeners = { unauthorized: [] };

/** Calls `fn()` whenever the server answers 401 (auth enabled and no or a wrong token). */
export function onUnauthorized(fn) { listeners.unauthorized.push(fn); }

export function getToken() {
  try { return sessionStorage.getItem(TOKEN_KEY) || ''; } catch { return ''; }
}
export function setToken(value) {
  try { value ? sessionStorage.setItem(TOKEN_KEY, value) : sessionStorage.removeItem(TOKEN_KEY); } catch { /* private mode */ }
}

/**
 * One request. Resolves to `{ ok, status, data, response }`:
 * `data` is the parsed JSON (a problem-details object when `ok` is false), or a Blob/text when
 * asked with `as: 'blob' | 'text'` and the answer is not a problem.
 * Rejects only when the server could not be reached (or the request was aborted).
 */
export async function api(path, { method = 'GET', query, json, body, contentType, signal, as = 'json' } = {}) {
  let url = path;
  if (query) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined && v !== null && v !== '') q.append(k, String(v));
    }
    const s = q.toString();
    if (s) url += (url.includes('?') ? '&' : '?') + s;
  }
  const headers = { Accept: as === 'json' ? 'application/json, application/problem+json' : '*/*' };
  const token = getToken();
  if (token) headers.Authorization = 'Bearer ' + token;
  let payload = body;
  if (json !== undefined) {
    payload = JSON.stringify(json);
    headers['Content-Type'] = 'application/json';
  } else if (contentType) {
    headers['Content-Type'] = contentType;
  }
  // The page sends several heavy requests at once (four color-vision simulations beside the
  // main answer), more than a server's `heavyPerClientLimit` may take from one client: a 429
  // or 503 that says when to retry is tried again then (at most 2 s later, 5 times), as the
  // server asks (a new user's pass: one card in ten page loads was missing, the 429 shown).
  let response;
  for (let attempt = 0; ; attempt++) {
    response = await fetch(url, { method, headers, body: payload, signal, credentials: 'same-origin' });
    const after = Number(response.headers.get('Retry-After'));
    if (!(response.status === 429 || response.status === 503) || !(after >= 0) || attempt >= 5) break;
    await pause(Math.min(after, 2) * 1000 + Math.random() * 250, signal);
  }
  if (response.status === 401) listeners.unauthorized.forEach((fn) => fn());
  const type = response.headers.get('Content-Type') || '';
  let data = null;
  if (!response.ok || as === 'json') {
    if (type.includes('json')) {
      // An abort while the body is read rejects like one before the answer: a caller must not
      // take `ok` with no data (the suggestions panel read `null.target` when typing fast).
      try { data = await response.json(); } catch (e) { if (isAbort(e)) throw e; data = null; }
    } else {
      const text = await response.text();
      data = response.ok ? text : { title: response.statusText, status: response.status, detail: text.slice(0, 300) };
    }
  } else if (as === 'blob') {
    data = await response.blob();
  } else {
    data = await response.text();
  }
  return { ok: response.ok, status: response.status, data, response };
}

/** Words for a failed answer: the problem's `detail`, else its title, else the status. */
/** What the page calls the fields the API's messages name by their parameter. */
const FIELD_WORDS = {
  foreground: 'the text color', background: 'the background', fontSize: 'the text size', fontWeight: 'the weight',
  fontSizeUnit: 'the size unit', textStyle: 'the text style', contentSizeCategory: 'the text size category',
  // The image panel's parameters, said as that panel labels them (a new user's pass: its errors
  // started "query parameter 'textColor'" where the pair's said "The text color").
  textColor: 'the text color', region: 'the text box', overlay: 'the overlay', backdrop: 'the backdrop',
};

export function problemText(result) {
  const p = result && result.data;
  if (p && typeof p === 'object') {
    // "query parameter 'foreground' …" is how the API names what the page calls the text
    // color (a new user's pass: every color error on the page started so).
    let text = (p.detail || p.title || `HTTP ${result.status}`)
      .replace(/query parameter '(\w+)'/g, (all, name) => FIELD_WORDS[name] || all)
      .replace(/^the /, 'The ');
    // The detail may name its suggestion already ("did you mean the CSS color 'red'?").
    if (Array.isArray(p.suggestions) && p.suggestions.length && !/did you mean/i.test(text)) {
      text += ` Did you mean ${p.suggestions.slice(0, 3).join(', ')}?`;
    }
    return text;
  }
  return `The server answered HTTP ${result ? result.status : '?'}.`;
}

/** Which request field a problem is about: its `parameter`, or the first segment of its JSON `pointer`. */
export function problemField(result) {
  const p = result && result.data;
  if (!p || typeof p !== 'object') return null;
  if (typeof p.parameter === 'string') return p.parameter;
  if (typeof p.pointer === 'string') return p.pointer.split('/')[1] || null;
  return null;
}

/**
 * Whether an endpoint exists on this server, without side effects: a 404 from the router means
 * absent; anything else (204 to OPTIONS, 200, 401, 405) means present. OPTIONS by default: an
 * empty POST was a 400 or 415 in the console at every page load (a new user's pass).
 */
export async function probe(path, method = 'OPTIONS') {
  try {
    const r = method === 'POST'
      ? await api(path, { method, json: {} })
      : await api(path, { method });
    return { present: r.status !== 404, result: r };
  } catch {
    return { present: false, result: null };
  }
}

/** Runs `fn` `delay` ms after the last call; a newer call aborts the older run at once. */
export function debounced(fn, delay = 200) {
  let timer = null;
  let controller = null;
  return (...args) => {
    clearTimeout(timer);
    // A newer change supersedes the run in flight at once, not when its own delay ends: left
    // running, the old run could finish inside the delay and mark the page ready (or draw its
    // stale answer) while the newer change is still waiting.
    if (controller) { controller.abort(); controller = null; }
    timer = setTimeout(() => {
      controller = new AbortController();
      fn(controller.signal, ...args);
    }, delay);
  };
}

export function isAbort(error) { return error && error.name === 'AbortError'; }

/** Waits `ms`, or rejects with an AbortError as soon as `signal` aborts. */
function pause(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) { reject(new DOMException('Aborted', 'AbortError')); return; }
    const timer = setTimeout(resolve, ms);
    if (signal) signal.addEventListener('abort', () => { clearTimeout(timer); reject(new DOMException('Aborted', 'AbortError')); }, { once: true });
  });
}
