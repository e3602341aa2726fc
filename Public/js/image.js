// Images in dark mode: /v1/image/analyze measures and recommends, /v1/image/dim returns the
// dimmed image. Both pictures are drawn on canvases (no blob: image URLs, so a strict CSP holds).
import { api, problemText, isAbort } from './api.js';
import { $, h, clear, setFieldError, download, dispositionName, fmt, onFileChosenOrDropped } from './dom.js';

let current = null;   // the File being shown
let dimmed = null;    // { blob, name }
let seq = 0;

function contentType(file) {
  return /^image\/(png|jpeg|jpg|webp)$/.test(file.type) ? file.type : 'application/octet-stream';
}

async function draw(canvas, blob) {
  const bitmap = await createImageBitmap(blob);
  const scale = Math.min(1, 360 / bitmap.width, 360 / bitmap.height);
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext('2d').drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
}

export async function showImage(file) {
  const mine = ++seq;
  current = file;
  dimmed = null;
  const error = $('#image-error');
  const status = $('#image-status');
  const input = $('#image-file');
  setFieldError(input, error, '');
  $('#image-results').hidden = true;
  status.textContent = `Analyzing ${file.name}…`;
  const query = { systemBackground: $('#image-background').value };
  try {
    const analysis = await api('/v1/image/analyze', { method: 'POST', query, body: file, contentType: contentType(file) });
    if (mine !== seq) return;
    if (!analysis.ok) { status.textContent = ''; setFieldError(input, error, problemText(analysis)); return; }
    const dim = await api('/v1/image/dim', { method: 'POST', query, body: file, contentType: contentType(file), as: 'blob' });
    if (mine !== seq) return;
    if (!dim.ok) { status.textContent = ''; setFieldError(input, error, problemText(dim)); return; }
    const base = file.name.replace(/\.[^.]+$/, '') || 'image';
    const served = dispositionName(dim.response, 'dimmed.png');
    const ext = (served.split('.').pop() || 'png').toLowerCase();
    dimmed = { blob: dim.data, name: `${base}-dark.${ext}` };
    const bg = analysis.data.background.hex;
    $('#image-before-stage').style.backgroundColor = bg;
    $('#image-after-stage').style.backgroundColor = bg;
    try {
      await draw($('#image-before'), file);
      await draw($('#image-after'), dim.data);
    } catch {
      setFieldError(input, error, 'This browser cannot draw the image, but the dimmed file can still be downloaded.');
    }
    renderFacts(analysis.data, dim.response);
    $('#image-results').hidden = false;
    status.textContent = `${file.name}: ${analysis.data.recommendation.dim ? 'dimmed' : 'left as it is'}.`;
  } catch (e) {
    if (!isAbort(e)) setFieldError(input, error, 'The server did not answer.');
  }
}

function renderFacts(a, response) {
  const dl = clear($('#image-facts'));
  const rec = a.recommendation;
  const row = (term, value) => dl.append(h('dt', { text: term }), h('dd', { text: value }));
  row('Image', `${a.image.format.toUpperCase()}, ${a.image.displayWidth} × ${a.image.displayHeight}, ${a.image.colorProfile.dimHandling}`);
  row('Background', `${a.background.hex} (${a.background.level || a.background.source})`);
  row('White background', a.whiteBackground.detected ? `yes (${fmt(a.whiteBackground.borderNearWhiteShare * 100, 0)}% of the border is near white)` : 'no');
  row('Recommendation', rec.reason);
  row('Factor', `${fmt(Number(response.headers.get('X-Dim-Factor') || rec.factor), 3)} of linear-light luminance (${response.headers.get('X-Dim-Basis') || 'recommendation'})`);
  if (rec.whiteLevel) {
    const b = rec.whiteLevel.before;
    const af = rec.whiteLevel.after;
    row('White level', `${b.hex} → ${af.hex}: ${fmt(b.wcagRatio, 2)}:1 → ${fmt(af.wcagRatio, 2)}:1, APCA Lc ${fmt(b.apcaLc, 1)} → ${fmt(af.apcaLc, 1)}`);
  }
  if (rec.css) row('CSS equivalent', `filter: ${rec.css.filter}`);
  for (const n of a.notes || []) row('Note', n);
}

export function setupImage() {
  onFileChosenOrDropped($('#image-file'), $('#dropzone'), showImage);
  $('#image-background').addEventListener('change', () => { if (current) showImage(current); });
  $('#image-download').addEventListener('click', () => { if (dimmed) download(dimmed.blob, dimmed.name); });
}
