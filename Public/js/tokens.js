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
/** Takes the last answer away (it was for other files or choices), and the audit in flight. */
function forget() {
  if (controller) controller.abort();
  answer = null;
  $('#tokens-results').hidden = true;
}

/** Refuses the selection: its reason at the files, and the last answer (for other files) taken away. */
function refuse(text) {
  fail(text);
  forget();
  files = [];
  $('#tokens-files').textContent = '';
}

async function take(list, fromFolder = false) {
  const chosen = Array.from(list || []);
  if (!chosen.length) {
    if (fromFolder) refuse('The folder holds no token files (.json, .tokens or .css).');
    return;
  }
  if (chosen.length > MAX_FILES) { refuse(`At most ${MAX_FILES} files at once; ${chosen.length} were chosen.`); return; }
  const bytes = chosen.reduce((n, f) => n + f.size, 0);
  if (bytes > MAX_BYTES) { refuse(`The files hold ${(bytes / 1048576).toFixed(1)} MiB; the audit takes 8 MiB at most.`); return; }
  // Files from a folder keep their paths (Tokens Studio keeps one folder per set, so
  // `light/colors.json` and `dark/colors.json` share a base name); two files of one name
  // cannot be told apart in the report.
  const named = chosen.map((f) => ({ file: f, name: f.webkitRelativePath || f.name }));
  const seen = new Set();
  const twice = named.find((f) => seen.has(f.name) || !seen.add(f.name));
  if (twice) {
    refuse(`Two files are named ${twice.name}: choose the folder that holds them instead (“Choose a folder”), so that each keeps its path.`);
    return;
  }
  const read = await Promise.all(named.map(async (f) => ({ name: f.name, content: await f.file.text() })));
  // `text()` turns bytes that are not UTF-8 into U+FFFD: the audit would read other characters
  // than the file holds (a hostile pass: a Latin-1 file was audited without a word).
  const garbled = read.find((f) => f.content.includes('\uFFFD'));
  if (garbled) { refuse(`${garbled.name} is not UTF-8 text (or holds U+FFFD): save it as UTF-8 and choose it again.`); return; }
  fail('');
  files = read;
  $('#tokens-files').textContent = `Audited: ${files.map((f) => f.name).join(', ')}.`;
  run();
}

/** The request: the files, and the pairs to check (a preset, or the person's one rule). */
function request() {
  // `unresolved: report`: a token that cannot be resolved is listed with its reason and the
  // other pairs are still measured (the headline then says the audit is incomplete).
  const body = { files, policy: $('#tokens-policy').value, unresolved: 'report' };
  if ($('#tokens-format').value) body.tokenFormat = $('#tokens-format').value;
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

/** A rule's missing pattern, shown at its own field (the first one empty). */
function ruleError(message) {
  const fg = $('#tokens-rule-fg'), bg = $('#tokens-rule-bg');
  const missing = !message ? null : !fg.value.trim() ? fg : bg;
  for (const el of [fg, bg]) {
    if (el === missing) el.setAttribute('aria-invalid', 'true'); else el.removeAttribute('aria-invalid');
  }
  $('#tokens-rule-error').textContent = message || '';
}

/** Runs `fn` once the choices have rested 250 ms (arrowing through a select is one change). */
let resting = null;
function soon(fn) { clearTimeout(resting); resting = setTimeout(fn, 250); }

async function run(fromRuleForm = false) {
  if (!files.length) return;
  const body = request();
  if (!body) {
    if (fromRuleForm) ruleError('Give both patterns of the rule: which tokens are text, and which are their backgrounds.');
    // The last answer was for other choices (a designer's pass: another file's AA table stayed
    // under "WCAG AAA" and its name): it goes until the rule is whole.
    forget();
    status('Give the two patterns of your rule, then Check.');
    return;
  }
  ruleError('');
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

/** An Lc to one decimal, cut toward 0 as the API's summaries and `ratioText` cut (89.96 is
 *  "89.9", never "90.0" beside a verdict that it misses Lc 90: a designer's pass). */
function lcText(v) {
  return typeof v === 'number' && Number.isFinite(v) ? (Math.trunc(v * 10) / 10).toFixed(1) : '–';
}

/** The measured value as the pair's target judges it: a ratio, or an APCA Lc. */
function valueText(p) {
  if (p.passes === null) return 'not measured';
  if (p.target && p.target.metric === 'apca') return `Lc ${lcText(p.apcaLc)}`;
  const range = p.ratioRange ? ` (up to ${fmt(p.ratioRange.max, 2)}:1)` : '';
  return `${p.ratioText}:1${range}`;
}

function needText(t) {
  if (!t || t.minimum === null || t.minimum === undefined) return '';
  return t.metric === 'apca' ? `Lc ${t.minimum}` : `${t.minimum}:1`;
}

/** A color chip: the color (alpha kept) over the checkerboard. */
function chip(hex) {
  return h('span', { class: 'chip specimen', 'aria-hidden': 'true' }, h('span', { style: { backgroundColor: hex } }));
}

/** A token's name with its value's color as a chip (the API's hex, alpha kept, over a
 *  checkerboard so that a translucent color shows as one; no chip without a hex). */
function tokenCell(t) {
  const cell = h('td', { class: 'token' });
  if (t && t.hex) cell.append(chip(t.hex));
  cell.append(h('code', { text: t ? t.token : '' }));
  if (t && t.hex) cell.append(' ', h('span', { class: 'hint', text: t.hex }));
  return cell;
}

/** "Aa" in the text's color on the background's, as the API measured them (composited when translucent). */
function sample(p) {
  // Composited by the API when it knew what lies behind (effective…); else as written, alpha
  // kept, over the checkerboard: measured over every backdrop, no one sample is right.
  const fg = p.effectiveForeground || (p.foreground && p.foreground.hex);
  const bg = p.effectiveBackground || (p.background && p.background.hex);
  if (!fg || !bg) return h('td', { class: 'na', text: '–' });
  return h('td', {}, h('span', { class: 'token-sample specimen' + (p.ratioRange ? ' any-backdrop' : ''), 'aria-hidden': 'true' },
    h('span', { style: { color: fg, backgroundColor: bg }, text: 'Aa' })));
}

function fixCell(p) {
  const cell = h('td', { class: 'fix' });
  if (p.unresolved) { cell.append(h('span', { class: 'hint', text: p.unresolved.reason })); return cell; }
  const measured = (s) => ` (${p.target && p.target.metric === 'apca' ? 'Lc ' + lcText(s.apcaLc) : s.ratioText + ':1'})`;
  // Each fix says where its token is written: the background's line for a background fix (a
  // designer's pass edited the text's line, the row's "Where"), and, for DTCG files, the color
  // object to paste as `$value`.
  const at = (t) => { const l = t && t.location; return l ? ` at ${l.file}${l.line ? ':' + l.line : ''}` : ''; };
  const line = (s, prefix, after = '', token = null) => h('div', {},
    prefix, chip(s.hex),
    // The value to paste into `token`, the pair's own (docs/api/tokens.md "What to change"): not
    // into `definedBy`, the token its alias leads to, which others may share (a designer read
    // `definedBy` and saw one token given two colors).
    h('code', { text: s.token }), ': ', h('code', { text: s.css }),
    h('span', { class: 'hint', text: measured(s) + after + (s.definedBy && s.definedBy !== s.token ? `, in place of its alias to ${s.definedBy}` : '') + at(token) }),
    s.dtcgValue ? h('div', { class: 'hint' }, 'as $value: ', h('code', { text: JSON.stringify(s.dtcgValue) })) : null,
    s.conflict ? h('div', { class: 'hint', text: s.conflict }) : null);
  // Where the text's fix would turn it from light to dark (or back), the API moves the
  // background instead: that fix first, as the reports give it, the text's after it.
  if (p.backgroundSuggestion) {
    cell.append(line(p.backgroundSuggestion, 'background ', '', p.background));
    if (p.suggestion) cell.append(line(p.suggestion, 'or text ', ', which turns the text from light to dark or back', p.foreground));
  } else if (p.suggestion) {
    cell.append(line(p.suggestion, '', '', p.foreground));
  } else {
    cell.append(h('span', { class: 'na', text: '–' }));
  }
  return cell;
}

function locationText(p) {
  const l = (p.unresolved && p.unresolved.location) || (p.foreground && p.foreground.location);
  return l ? `${l.file}${l.line ? ':' + l.line : ''}` : '';
}

function show(d) {
  const s = d.summary || {};
  // The API passes an audit whose unresolved pairs it only lists (`unresolved: report`); the
  // page does not call that a pass: what was not measured is not known to pass.
  const warnings = d.warnings || [];
  const why = warnings.find((w) => w.startsWith('no pair was checked')) || warnings[warnings.length - 1] || 'no token matched the pairs asked for';
  const unmeasured = s.unresolved ? `; ${s.unresolved} could not be measured` : '';
  const verdictText = !s.pairs ? `No pair was checked: ${why.replace(/^no pair was checked: /, '')}`
    : s.failing ? `${s.failing} of ${s.pairs} pairs fail${unmeasured}`
      : s.unresolved ? `${s.unresolved} of ${s.pairs} pairs could not be measured; the others pass`
        : 'Every pair passes';
  const complete = d.passes && !s.unresolved;
  const modes = s.pairs ? (s.byMode || []).map((m) => `${m.mode}: ${m.failing} of ${m.pairs} fail${m.unresolved ? `, ${m.unresolved} not measured` : ''}`) : [];
  clear($('#tokens-summary')).append(
    verdict(complete, 'Pass', s.failing || !s.pairs ? 'Fail' : 'Incomplete'), ' ',
    `${verdictText} (${d.format}; ${s.tokens} tokens; modes ${(d.modes || []).join(', ') || '–'})`,
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
      h('td', { class: 'num' }, valueText(p), p.hexNote ? h('div', { class: 'hint wrap', text: `⚠ ${p.hexNote}` }) : null),
      h('td', { class: 'num', text: needText(p.target) }),
      h('td', {}, p.passes === null ? h('span', { class: 'na', text: 'not measured' }) : verdict(p.passes)),
      fixCell(p), h('td', { class: 'hint', text: locationText(p) })));
  }
  table.append(body);
  list('#tokens-warnings', d.warnings, 'Warnings');
  $('#tokens-warnings').open = !complete;
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
  const input = $('#tokens-file'), folder = $('#tokens-folder'), zone = $('#tokens-dropzone');
  input.addEventListener('change', () => take(input.files));
  // A folder's token files (JSON, DTCG's .tokens and CSS), each with its path in the folder.
  // `.tokens` is the extension DTCG recommends (`.tokens.json` too).
  folder.addEventListener('change', () => take(Array.from(folder.files || []).filter((f) => /\.(json|tokens|css)$/i.test(f.name)), true));
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('dragging'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('dragging');
    if (e.dataTransfer) take(e.dataTransfer.files);
  });
  $('#tokens-preset').addEventListener('change', () => {
    $('#tokens-rule').hidden = $('#tokens-preset').value !== 'custom';
    // A rule of one's own waits for its patterns (`run` takes the last answer away meanwhile).
    soon(() => run());
  });
  for (const sel of ['#tokens-policy', '#tokens-format']) $(sel).addEventListener('change', () => soon(() => run()));
  $('#tokens-rule-form').addEventListener('submit', (e) => { e.preventDefault(); run(true); });
  $('#tokens-download').addEventListener('click', () => {
    if (answer) download(new Blob([JSON.stringify(answer, null, 2)], { type: 'application/json' }), 'token-audit.json');
  });
}
