// Text over an image: /v1/image/text-contrast measures one text color against every pixel under a
// box the person drags over the picture, and answers the fixes; its heat map and the picture with
// a scrim come back as PNGs, drawn on canvases (no blob: URLs, so the strict CSP holds).
import { api, problemText, isAbort, debounced } from './api.js';
import { $, h, clear, setFieldError, fmt, onFileChosenOrDropped } from './dom.js';

let file = null;        // the File shown
let size = null;        // { width, height } of the displayed image, in image pixels
let region = null;      // { x, y, width, height } in image pixels
let worstArea = null;   // the measured worst area, in image pixels (outlined in red)
let seq = 0;

function contentType(f) {
  return /^image\/(png|jpeg|jpg|webp)$/.test(f.type) ? f.type : 'application/octet-stream';
}

/** Draws a blob on a canvas at most `max` CSS pixels wide; returns the bitmap's own size. */
async function draw(canvas, blob, max) {
  const bitmap = await createImageBitmap(blob);   // EXIF orientation applied, as the server does
  const scale = Math.min(1, max / bitmap.width);
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext('2d').drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  const out = { width: bitmap.width, height: bitmap.height };
  bitmap.close();
  return out;
}

/** Image pixels per CSS pixel of the shown canvas. */
function scale() {
  const c = $('#ti-canvas');
  return size.width / Math.max(1, c.getBoundingClientRect().width);
}

function clampRegion(r) {
  const x = Math.max(0, Math.min(Math.round(r.x), size.width - 1));
  const y = Math.max(0, Math.min(Math.round(r.y), size.height - 1));
  return {
    x, y,
    width: Math.max(1, Math.min(Math.round(r.width), size.width - x)),
    height: Math.max(1, Math.min(Math.round(r.height), size.height - y)),
  };
}

const regionText = (r) => `${r.x},${r.y},${r.width},${r.height}`;

/** Places `el` over the image-pixel rectangle `r` at the canvas's current scale, each side at
 *  least `least` CSS pixels. */
function placeOver(el, r, least = 0) {
  const s = scale();
  el.style.left = `${r.x / s}px`;
  el.style.top = `${r.y / s}px`;
  el.style.width = `${Math.max(least, r.width / s)}px`;
  el.style.height = `${Math.max(least, r.height / s)}px`;
  el.hidden = false;
}

function placeBox() {
  placeOver($('#ti-box'), region);
  $('#ti-region').value = regionText(region);
}

/** Outlines the worst area in red, at the canvas's current scale (placed again on resize: a new
 *  user's pass widened the window and the outline stayed where it was, out in the sky). */
function placeWorst() {
  if (worstArea) placeOver($('#ti-worst'), worstArea, 2);
  else $('#ti-worst').hidden = true;
}

/** A share of pixels as a percentage: one decimal, but never 0.0% when some fail (a new user's
 *  pass read "0.0% of the pixels fail" beside a heat map with red pixels). */
function percent(share) {
  if (share > 0 && share < 0.001) return 'under 0.1%';
  if (share < 1 && share > 0.999) return 'over 99.9%';
  return `${fmt(share * 100, 1)}%`;
}

function setRegion(r, measureNow = true) {
  region = clampRegion(r);
  placeBox();
  worstArea = null;
  $('#ti-worst').hidden = true;
  if (measureNow) measure();
}

function query(extra = {}) {
  const q = { textColor: $('#ti-color').value.trim() || 'white', region: regionText(region), target: $('#ti-target').value, ...extra };
  const px = $('#ti-size').value.trim();
  if (px) { q.fontSize = px; q.fontSizeUnit = 'px'; }
  const overlay = $('#ti-overlay').value.trim();
  if (overlay) q.overlay = overlay;
  return q;
}

const measure = debounced(async (signal) => {
  if (!file || !region) return;
  const mine = ++seq;
  const input = $('#ti-color');
  const error = $('#ti-error');
  for (const sel of ['#ti-size', '#ti-region', '#ti-target', '#ti-overlay']) $(sel).removeAttribute('aria-invalid');
  setFieldError(input, error, '');
  $('#ti-status').textContent = 'Measuring…';
  document.body.dataset.tiState = 'busy';
  try {
    const body = file;
    const type = contentType(file);
    const answer = await api('/v1/image/text-contrast', { method: 'POST', query: query(), body, contentType: type, signal });
    if (mine !== seq) return;
    if (!answer.ok) {
      $('#ti-status').textContent = '';
      $('#ti-results').hidden = true;
      const field = { textColor: '#ti-color', fontSize: '#ti-size', region: '#ti-region', target: '#ti-target', overlay: '#ti-overlay' }[answer.data && answer.data.parameter];
      setFieldError(field ? $(field) : input, error, problemText(answer));
      document.body.dataset.tiState = 'error';
      return;
    }
    render(answer.data);
    const [heat, preview] = await Promise.all([
      api('/v1/image/text-contrast', { method: 'POST', query: query({ heatmap: 'true' }), body, contentType: type, signal, as: 'blob' }),
      api('/v1/image/text-contrast', { method: 'POST', query: query({ preview: 'true', scrim: $('#ti-scrim').value }), body, contentType: type, signal, as: 'blob' }),
    ]);
    if (mine !== seq) return;
    if (heat.ok) await draw($('#ti-heatmap'), heat.data, 420);
    if (preview.ok) {
      await draw($('#ti-preview'), preview.data, 420);
      const scrim = preview.response.headers.get('X-Scrim') || '';
      $('#ti-preview').dataset.scrim = scrim;
      // Said, not only drawn: when no such scrim passes the image is shown unchanged (a new
      // user's pass, stop 39: the page drew the image as it was and said nothing).
      // "none (the text already passes)" needs no scrim; other "none" answers found none that
      // passes (a new user's pass: a passing text was told no scrim makes it pass).
      $('#ti-scrim-status').textContent = scrim.startsWith('none') && scrim.includes('already passes')
        ? 'No scrim is needed: the text already passes, and the image is shown unchanged.'
        : scrim.startsWith('none')
          ? `No ${$('#ti-scrim').value === 'recommended' ? '' : $('#ti-scrim').value + ' '}scrim makes the text pass: the image is shown unchanged.`
          : scrim ? `Applied: ${scrim}` : '';
    }
    $('#ti-status').textContent = `${file.name}: box ${regionText(region)} measured.`;
    document.body.dataset.tiState = 'ready';
  } catch (e) {
    if (!isAbort(e)) setFieldError(input, error, 'The server did not answer.');
  }
}, 250);

function metricRow(dl, name, m, unit) {
  const v = (x) => unit === ':1' ? `${fmt(x, 2)}:1` : `Lc ${fmt(x, 1)}`;
  const failing = m.failingShare === null ? '' : `; ${percent(m.failingShare)} of the pixels fail`;
  dl.append(h('dt', { text: name }),
    h('dd', { text: `5th percentile ${v(m.percentile5)} · minimum ${v(m.minimum)} · median ${v(m.median)}${failing}` }));
}

function render(d) {
  $('#ti-verdict').textContent = d.passes
    ? `Passes ${d.target.basis} (judged on the 5th percentile).`
    : `Fails ${d.target.basis} (judged on the 5th percentile).`;
  $('#ti-verdict').dataset.passes = String(d.passes);
  const dl = clear($('#ti-facts'));
  metricRow(dl, 'WCAG ratio', d.wcag, ':1');
  metricRow(dl, 'APCA |Lc|', d.apca, 'Lc');
  const w = d.worstArea;
  // The mean in the target's metric, written as that metric is (a new user's pass read "mean 1.05").
  const mean = d.target && d.target.metric === 'apca' ? `Lc ${fmt(w.mean, 1)}` : `${fmt(w.mean, 2)}:1`;
  dl.append(h('dt', { text: 'Worst area' }), h('dd', { text: `${w.width} × ${w.height} px at ${w.x},${w.y} (mean ${mean}), outlined in red` }));
  for (const n of d.notes || []) dl.append(h('dt', { text: 'Note' }), h('dd', { text: n }));
  worstArea = { x: w.x, y: w.y, width: w.width, height: w.height };
  placeWorst();

  const fixes = clear($('#ti-fixes'));
  // After a fix: its 5th percentile, the pixels that still fail (a fix passes on the 5th
  // percentile, so up to 5% may), and a reversed polarity with the API's note (a new user's
  // pass: a text color that turned white text dark was shown as a plain pass).
  const after = (f) => {
    const m = d.target.metric === 'apca' ? f.after.apca : f.after.wcag;
    const value = d.target.metric === 'apca' ? `Lc ${fmt(m.percentile5, 1)}` : `${fmt(m.percentile5, 2)}:1`;
    const still = m.failingShare > 0 ? `, ${percent(m.failingShare)} of the pixels still fail` : '';
    return `→ 5th percentile ${value}${still}${f.reversesPolarity && f.note ? `. Note: ${f.note}` : ''}`;
  };
  // A scrim of alpha 0 over a text that passes is no fix to list (a new user's pass).
  const fix = (term, f, text) => fixes.append(h('dt', { text: term }), h('dd', {
    text: f && !(d.passes && f.alpha === 0) ? `${text(f)} ${after(f)}` : (d.passes ? 'not needed: the text already passes' : 'none passes') }));
  const sc = d.fixes.scrim;
  fix('Black scrim', sc.black, (f) => `alpha ${f.alpha}: ${f.css}`);
  fix('White scrim', sc.white, (f) => `alpha ${f.alpha}: ${f.css}`);
  fix('Gradient scrim', sc.gradient, (f) => `from the image's ${f.edge} edge, alpha ${f.alpha} up to the box and ${f.alphaAtFarEdge} at its far side, on an element at x ${f.element.x}, y ${f.element.y}, ${f.element.width} × ${f.element.height} px: ${f.css}`);
  fix('Brightness', d.fixes.brightness, (f) => f.css);
  const t = d.fixes.textColor;
  if (t && t.unchanged) fixes.append(h('dt', { text: 'Text color' }), h('dd', { text: `${t.hex} already passes` }));
  else fix('Text color', t, (f) => f.css);
  $('#ti-results').hidden = false;
}

async function show(f) {
  file = f;
  const input = $('#ti-file');
  setFieldError(input, $('#ti-error'), '');
  $('#ti-results').hidden = true;
  try {
    size = await draw($('#ti-canvas'), f, 640);
  } catch {
    $('#ti-work').hidden = true;
    setFieldError(input, $('#ti-error'), 'This browser cannot draw the image; choose a PNG, JPEG or WebP file.');
    return;
  }
  $('#ti-work').hidden = false;
  // Start with a box over the lower third, where captions usually sit.
  setRegion({ x: size.width * 0.05, y: size.height * 0.62, width: size.width * 0.9, height: size.height * 0.3 });
}

function setupDragging() {
  const stage = $('#ti-stage');
  let drag = null;
  const point = (e) => {
    const rect = $('#ti-canvas').getBoundingClientRect();
    const s = scale();
    return { x: (e.clientX - rect.left) * s, y: (e.clientY - rect.top) * s };
  };
  stage.addEventListener('pointerdown', (e) => {
    if (!size) return;
    const p = point(e);
    const mode = e.target.id === 'ti-handle' ? 'resize' : e.target.id === 'ti-box' ? 'move' : 'draw';
    drag = { mode, start: p, from: { ...region } };
    if (mode === 'draw') setRegion({ x: p.x, y: p.y, width: 1, height: 1 }, false);
    stage.setPointerCapture(e.pointerId);
    e.preventDefault();
  });
  stage.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const p = point(e);
    const dx = p.x - drag.start.x, dy = p.y - drag.start.y;
    if (drag.mode === 'move') {
      setRegion({ ...drag.from, x: Math.max(0, Math.min(drag.from.x + dx, size.width - drag.from.width)),
        y: Math.max(0, Math.min(drag.from.y + dy, size.height - drag.from.height)) }, false);
    } else if (drag.mode === 'resize') {
      setRegion({ ...drag.from, width: drag.from.width + dx, height: drag.from.height + dy }, false);
    } else {
      setRegion({ x: Math.min(p.x, drag.start.x), y: Math.min(p.y, drag.start.y), width: Math.abs(dx), height: Math.abs(dy) }, false);
    }
  });
  const end = () => { if (drag) { drag = null; measure(); } };
  stage.addEventListener('pointerup', end);
  stage.addEventListener('pointercancel', end);
  stage.addEventListener('keydown', (e) => {
    if (!size) return;
    const step = Math.max(1, Math.round(size.width / 100));
    const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
    if (!d) return;
    e.preventDefault();
    if (e.shiftKey) setRegion({ ...region, width: region.width + d[0], height: region.height + d[1] });
    else setRegion({ ...region, x: Math.max(0, Math.min(region.x + d[0], size.width - region.width)), y: Math.max(0, Math.min(region.y + d[1], size.height - region.height)) });
  });
}

export function setupTextImage() {
  onFileChosenOrDropped($('#ti-file'), $('#ti-dropzone'), show);
  for (const sel of ['#ti-color', '#ti-size', '#ti-overlay']) $(sel).addEventListener('input', () => measure());
  for (const sel of ['#ti-target', '#ti-scrim']) $(sel).addEventListener('change', () => measure());
  $('#ti-region').addEventListener('change', () => {
    const parts = $('#ti-region').value.split(',').map((v) => Number(v.trim()));
    if (!size) return;
    const inside = parts.length === 4 && parts.every((v) => Number.isInteger(v)) && parts[0] >= 0 && parts[1] >= 0
      && parts[2] >= 1 && parts[3] >= 1 && parts[0] + parts[2] <= size.width && parts[1] + parts[3] <= size.height;
    if (!inside) {
      // Let the server name the problem, as for every other field.
      measureRaw($('#ti-region').value);
      return;
    }
    setRegion({ x: parts[0], y: parts[1], width: parts[2], height: parts[3] });
  });
  window.addEventListener('resize', () => { if (size && region) { placeBox(); placeWorst(); } });
  setupDragging();
}

/** A region as typed, sent as it is so the server's problem names it. */
async function measureRaw(text) {
  if (!file) return;
  const answer = await api('/v1/image/text-contrast', { method: 'POST', query: { textColor: $('#ti-color').value.trim() || 'white', region: text }, body: file, contentType: contentType(file) });
  if (!answer.ok) {
    $('#ti-results').hidden = true;
    // Nothing says the earlier box was measured beside the error (a new user's pass), and the
    // dashed box is hidden until a box is measured again.
    $('#ti-status').textContent = '';
    const drawn = $('#ti-box');
    if (drawn) drawn.hidden = true;
    setFieldError($('#ti-region'), $('#ti-error'), problemText(answer));
  }
}
