// Design tokens: /v1/tokens/audit reads a design system's token files (DTCG, Tokens Studio, Figma
// variables, Style Dictionary, Material, a CSS or Tailwind theme) and checks every text/background
// pair a convention (a preset) or the person's own rule names, in every mode. The page sends the
// files as they are and shows the API's pairs, verdicts and fixes; it reads no token itself.
import { api, problemText, isAbort } from './api.js';
import { $, h, clear, verdict, setFieldError, download, fmt } from './dom.js';

/** The API's own limits (docs/api/tokens.md): 64 files, 8 MiB in all by default. */
const MAX_FILES = 64;
const MAX_BYTES = 8 * 1024 * 1024;
/** Rows drawn at most; the rest stay in the downloadable JSON answer. */
const MAX_ROWS = 400;

let files = [];          // [{ name, content }] as chosen, in order
let answer = null;       // the last audit's JSON answer
let controller = null;   // the audit in flight

function status(text) { $('#tokens-status').textContent = text; }
function fail(text) { setFieldError($('#tokens-file'), $('#tokens-error'), text); }

/** Reads the chosen or dropped files as text (the API wants the text, so lines survive). */
async function take(list) {
  const chosen = Array.from(list || []);
  if (!chosen.length) return;
  if (chosen.length > MAX_FILES) { fail(`At most ${MAX_FILES} files at once; ${chosen.length} were chosen.`); return; }
  const bytes = chosen.reduce((n, f) => n + f.size, 0);
  if (bytes > MAX_BYTES) { fail(`The files hold ${(bytes / 1048576).toFixed(1)} MiB; the audit takes 8 MiB at most.`); return; }
  fail('');
  files = await Promise.all(chosen.map(async (f) => ({ name: f.webkitRelativePath || f.name, content: await f.text() })));
  $('#tokens-files').textContent = `Audited: ${files.map((f) => f.name).join(', ')}.`;
  run();
}

/** The request: the files, and the pairs to check (a preset, or the person's one rule). */
function request() {
  const body = { files, policy: $('#tokens-policy').value, unresolved: 'report' };
  const preset = $('#tokens-preset').value;
  if (preset === 'custom') {
    const foreground = $('#tokens-rule-fg').value.trim(), background = $('#tokens-rule-bg').value.trim();
    if (!foreground || !background) return null;
    body.rules = [{ foreground, background }];
  } else {
    body.preset = preset;
  }
  return body;
}

async function run() {
  $('#tokens-rule').hidden = $('#tokens-preset').value !== 'custom';
  if (!files.length) return;
  const body = request();
  if (!body) { fail('Give both patterns of the rule: which tokens are text, and which are their backgrounds.'); return; }
  if (controller) controller.abort();
  controller = new AbortController();
  const signal = controller.signal;
  fail('');
  status('Auditing…');
  $('#tokens-panel').dataset.state = 'busy';
  let r;
  try {
    r = await api('/v1/tokens/audit', { method: 'POST', json: body, signal });
  } catch (e) {
    if (isAbort(e)) return;
    status('');
    fail('The server could not be reached.');
    $('#tokens-panel').dataset.state = 'error';
    return;
  }
  if (signal.aborted) return;
  if (!r.ok) {
    answer = null;
    $('#tokens-results').hidden = true;
    status('');
    fail(problemText(r));
    $('#tokens-panel').dataset.state = 'error';
    return;
  }
  answer = r.data;
  status('');
  show(answer);
  $('#tokens-panel').dataset.state = 'ready';
}

/** The measured value as the pair's target judges it: a ratio, or an APCA Lc. */
function valueText(p) {
  if (p.passes === null) return 'not measured';
  if (p.target && p.target.metric === 'apca') return `Lc ${fmt(p.apcaLc, 1)}`;
  const range = p.ratioRange ? ` (up to ${fmt(p.ratioRange.max, 2)}:1)` : '';
  return `${p.ratioText}:1${range}`;
}

function needText(t) {
  if (!t || t.minimum === null || t.minimum === undefined) return '';
  return t.metric === 'apca' ? `Lc ${t.minimum}` : `${t.minimum}:1`;
}

/** A token's name with its value's color as a chip (the API's hex; no chip without one). */
function tokenCell(t) {
  const cell = h('td', { class: 'token' });
  if (t && t.hex) cell.append(h('span', { class: 'chip specimen', style: { background: t.hex.slice(0, 7) }, 'aria-hidden': 'true' }));
  cell.append(h('code', { text: t ? t.token : '' }));
  if (t && t.hex) cell.append(' ', h('span', { class: 'hint', text: t.hex }));
  return cell;
}

/** "Aa" in the text's color on the background's, as the API measured them (composited when translucent). */
function sample(p) {
  const fg = p.effectiveForeground || (p.foreground && p.foreground.hex);
  const bg = p.effectiveBackground || (p.background && p.background.hex);
  if (!fg || !bg) return h('td', { class: 'na', text: '–' });
  return h('td', {}, h('span', { class: 'token-sample specimen', style: { color: fg.slice(0, 7), background: bg.slice(0, 7) }, 'aria-hidden': 'true', text: 'Aa' }));
}

function fixCell(p) {
  const cell = h('td', { class: 'fix' });
  const s = p.suggestion || p.backgroundSuggestion;
  if (p.unresolved) { cell.append(h('span', { class: 'hint', text: p.unresolved.reason })); return cell; }
  if (!s) { cell.append(h('span', { class: 'na', text: '–' })); return cell; }
  cell.append(h('span', { class: 'chip specimen', style: { background: s.hex.slice(0, 7) }, 'aria-hidden': 'true' }),
    h('code', { text: s.definedBy }), ': ', h('code', { text: s.css }),
    h('span', { class: 'hint', text: ` (${p.target && p.target.metric === 'apca' ? 'Lc ' + fmt(s.apcaLc, 1) : s.ratioText + ':1'})` }));
  if (s.conflict) cell.append(h('br'), h('span', { class: 'hint', text: s.conflict }));
  return cell;
}

function locationText(t) {
  const l = t && t.location;
  return l ? `${l.file}${l.line ? ':' + l.line : ''}` : '';
}

function show(d) {
  const s = d.summary || {};
  // An audit that checked nothing does not pass, and says why in its first warning.
  const unmeasured = s.unresolved ? `, ${s.unresolved} not measured` : '';
  const verdictText = !s.pairs ? `No pair was checked: ${(d.warnings || [])[0] || 'no token matched the pairs asked for'}`
    : d.passes ? `Every pair passes${unmeasured}`
      : s.failing ? `${s.failing} of ${s.pairs} pairs fail${unmeasured}`
        : `No pair fails, but ${s.unresolved} of ${s.pairs} could not be measured`;
  const modes = (s.byMode || []).map((m) => `${m.mode}: ${m.failing} of ${m.pairs} fail${m.unresolved ? `, ${m.unresolved} not measured` : ''}`);
  clear($('#tokens-summary')).append(
    verdict(d.passes, 'Pass', 'Fail'), ' ',
    `${verdictText} (${d.format}; ${s.tokens} color tokens; modes ${(d.modes || []).join(', ') || '–'})`,
    modes.length > 1 ? h('span', { class: 'hint', text: ` ${modes.join('; ')}.` }) : '');
  // Failing pairs first, then the unmeasured, then the passing; the API's order within each.
  const rank = (p) => (p.passes === false ? 0 : p.passes === null ? 1 : 2);
  const pairs = (d.pairs || []).map((p, i) => [p, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map(([p]) => p);
  const table = clear($('#tokens-table'));
  table.append(h('caption', { class: 'hint', text: pairs.length > MAX_ROWS
    ? `The first ${MAX_ROWS} of ${pairs.length} pairs, failing first; download the report for the rest.`
    : `${pairs.length} pairs, failing first.` }));
  table.append(h('thead', {}, h('tr', {},
    ...['Mode', 'Text', 'Background', 'Sample', 'Contrast', 'Needs', 'Verdict', 'Suggested fix', 'Where'].map((t) => h('th', { scope: 'col', text: t })))));
  const body = h('tbody');
  for (const p of pairs.slice(0, MAX_ROWS)) {
    body.append(h('tr', { class: p.passes === false ? 'failing' : '', title: p.summary },
      h('td', { text: p.mode }), tokenCell(p.foreground), tokenCell(p.background), sample(p),
      h('td', { class: 'num', text: valueText(p) }), h('td', { class: 'num', text: needText(p.target) }),
      h('td', {}, p.passes === null ? h('span', { class: 'na', text: 'not measured' }) : verdict(p.passes)),
      fixCell(p), h('td', { class: 'hint', text: locationText(p.foreground) })));
  }
  table.append(body);
  list('#tokens-warnings', d.warnings, 'Warnings');
  $('#tokens-warnings').open = !d.passes;
  list('#tokens-notes', d.notes, 'Notes');
  $('#tokens-results').hidden = false;
}

function list(sel, items, title) {
  const box = clear($(sel));
  box.hidden = !(items && items.length);
  if (box.hidden) return;
  box.append(h('summary', { text: `${title} (${items.length})` }), h('ul', {}, ...items.map((t) => h('li', { text: t }))));
}

export function setupTokens() {
  const input = $('#tokens-file'), zone = $('#tokens-dropzone');
  input.addEventListener('change', () => take(input.files));
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('dragging'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('dragging');
    if (e.dataTransfer) take(e.dataTransfer.files);
  });
  for (const sel of ['#tokens-preset', '#tokens-policy']) $(sel).addEventListener('change', run);
  $('#tokens-rule-form').addEventListener('submit', (e) => { e.preventDefault(); run(); });
  $('#tokens-download').addEventListener('click', () => {
    if (answer) download(new Blob([JSON.stringify(answer, null, 2)], { type: 'application/json' }), 'token-audit.json');
  });
}
