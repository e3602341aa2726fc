// Small DOM helpers. No inline HTML from data: text goes in with textContent.

/** `h('p', {class: 'x', text: 'hi'}, child…)`. Attributes named `on…` are not supported on purpose. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') el.textContent = v;
    else if (k === 'class') el.className = v;
    else if (k === 'style') Object.assign(el.style, v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

/** Calls `onFile` with the file chosen in `input` or dropped on `zone` (which shows `dragging` meanwhile). */
export function onFileChosenOrDropped(input, zone, onFile) {
  input.addEventListener('change', () => { if (input.files && input.files[0]) onFile(input.files[0]); });
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('dragging'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('dragging');
    const file = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (file) onFile(file);
  });
}

export function clear(el) { while (el.firstChild) el.firstChild.remove(); return el; }

/** A "✓ Pass" / "✗ Fail" span: the mark and the word, never color alone. */
export function verdict(ok, passWord = 'Pass', failWord = 'Fail') {
  if (ok === undefined || ok === null) return h('span', { class: 'na', text: '–' });
  return h('span', { class: 'verdict ' + (ok ? 'pass' : 'fail') },
    h('span', { class: 'mark', 'aria-hidden': 'true', text: ok ? '✓ ' : '✗ ' }), ok ? passWord : failWord);
}

/** Shows `message` as the error of the field `input` (by `aria-describedby` → `errorEl`), or clears it. */
export function setFieldError(input, errorEl, message) {
  if (!errorEl) return;
  errorEl.textContent = message || '';
  if (input) {
    if (message) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
}

/** Saves a Blob under `name` through a temporary link (no inline script, works under a strict CSP). */
export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30000);
}

/** The file name in a Content-Disposition header, if any. */
export function dispositionName(response, fallback) {
  const cd = response && response.headers.get('Content-Disposition');
  const m = cd && /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(cd);
  return m ? decodeURIComponent(m[1]) : fallback;
}

/** Formats an API number for display (rounding for reading only; the numbers are the API's). */
export function fmt(n, digits = 1) {
  return typeof n === 'number' && Number.isFinite(n) ? n.toFixed(digits) : '–';
}

/**
 * Parses an SVG document that the API made and returns a sanitized copy that can live in the page:
 * no scripts, no foreignObject, no event-handler attributes, no external references.
 */
export function importSVG(text) {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const svg = doc.documentElement;
  if (!svg || svg.nodeName.toLowerCase() !== 'svg' || doc.querySelector('parsererror')) return null;
  for (const bad of svg.querySelectorAll('script, foreignObject, iframe, image, use')) bad.remove();
  for (const node of [svg, ...svg.querySelectorAll('*')]) {
    for (const attr of Array.from(node.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on') || name === 'style' || name.endsWith('href')) node.removeAttribute(attr.name);
    }
  }
  return document.importNode(svg, true);
}
