// A small palette: the contrast grid (/v1/contrast/matrix as JSON and SVG), and when the server has
// them, dark and increased-contrast variants (/v1/palette/dark) and exports (/v1/palette/export).
import { api, problemText, isAbort } from './api.js';
import { $, $$, h, clear, verdict, setFieldError, download, dispositionName, importSVG } from './dom.js';
import { features } from './state.js';

const ROLES = ['text', 'secondaryText', 'tint', 'accent', 'icon', 'nonText', 'fill', 'background'];

/**
 * Parses the textarea: one color per line, `name: color`, `name (role): color` or a bare color;
 * blank lines are skipped. Roles are those of /v1/palette/dark (text, secondaryText, tint, icon,
 * nonText, background).
 */
export function parsePalette(text) {
  const colors = [];
  // Each color's line in the text (blank lines count), so an error names the line it is on.
  const lines = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    lines.push(index + 1);
    const m = /^([A-Za-z_][\w .-]*?)\s*(?:\(\s*([A-Za-z]+)\s*\))?\s*:\s*(.+)$/.exec(line);
    if (m && !/^(rgb|rgba|hsl|hsla|hwb|lab|lch|oklab|oklch|color)$/i.test(m[1])) {
      const entry = { name: m[1], color: m[3].trim() };
      if (m[2]) entry.role = m[2];
      colors.push(entry);
    } else {
      colors.push(line);
    }
  });
  Object.defineProperty(colors, 'lines', { value: lines, enumerable: false });
  return colors;
}

/** "Line N: " for a problem whose pointer names `/colors/i`, with the API's pointers in its text
 * said as lines too ("'/colors/4' repeats the name … of '/colors/2'"). */
function lineMessage(colors, p, text) {
  const lines = colors.lines || [];
  const lineOf = (i) => lines[i] || i + 1;
  const where = typeof p.pointer === 'string' && /^\/colors\/(\d+)/.exec(p.pointer);
  const said = text.replace(/'\/colors\/(\d+)(\/\w+)?'/g, (_, i) => `line ${lineOf(Number(i))}`);
  // A message that starts by naming its own line is not prefixed again (a new user's pass read
  // "Line 3: line 3 is not a valid CSS color").
  const line = where ? lineOf(Number(where[1])) : null;
  if (line !== null && said.startsWith(`line ${line} `)) return `Line ${line}${said.slice(`line ${line}`.length)}`;
  return (where ? `Line ${line}: ` : '') + said;
}

/** The palette for /v1/contrast/matrix: names and colors only. */
function forMatrix(colors) {
  return colors.map((c) => (typeof c === 'string' ? c : { name: c.name, color: c.color }));
}

function paletteError(message) {
  setFieldError($('#palette-input'), $('#palette-error'), message);
}

let lastColors = null;

export async function runPalette() {
  const colors = parsePalette($('#palette-input').value);
  paletteError('');
  if (!colors.length) {
    paletteError('Enter at least one color.');
    return;
  }
  lastColors = colors;
  let r;
  try {
    r = await api('/v1/contrast/matrix', { method: 'POST', json: { colors: forMatrix(colors) } });
  } catch (e) {
    if (!isAbort(e)) paletteError('The server did not answer.');
    return;
  }
  if (!r.ok) {
    paletteError(lineMessage(colors, r.data || {}, problemText(r)));
    // Nothing of an earlier palette stays beside the error (a new user's pass: its variants and
    // export buttons did, and an export then failed on this palette).
    $('#palette-results').hidden = true;
    for (const id of ['#variants-block', '#export-block', '#swatch-sheet-block']) { const el = $(id); if (el) el.hidden = true; }
    lastColors = null;
    return;
  }
  renderMatrix(r.data);
  $('#palette-results').hidden = false;
  await Promise.all([loadSVG(colors), features.paletteDark ? runVariants(colors) : null]);
  if (features.paletteExport) $('#export-block').hidden = false;
}

function chip(hex) {
  const c = h('span', { class: 'chip', 'aria-hidden': 'true' });
  c.style.backgroundColor = hex;
  return c;
}

function renderMatrix(data) {
  const table = clear($('#matrix-table'));
  table.append(h('caption', { class: 'visually-hidden', text: 'Contrast of every palette color as text (rows) on every palette color as background (columns)' }));
  const head = h('tr', {}, h('th', { scope: 'col', text: 'Text ↓ / background →' }));
  for (const c of data.colors) head.append(h('th', { scope: 'col' }, chip(c.hex), c.name));
  table.append(h('thead', {}, head));
  const body = h('tbody');
  data.rows.forEach((row, i) => {
    const tr = h('tr', {}, h('th', { scope: 'row' }, chip(data.colors[i].hex), data.colors[i].name));
    row.forEach((cell, j) => {
      if (i === j) { tr.append(h('td', { class: 'na', text: '—' })); return; }
      const sample = h('span', { class: 'cell specimen', text: 'Aa' });
      sample.style.color = data.colors[i].hex;
      sample.style.backgroundColor = data.colors[j].hex;
      tr.append(h('td', { dataset: { row: i, col: j } }, sample,
        h('span', { class: 'cell-ratio', text: `${cell.ratioText}:1` }), verdict(cell.AA.normalText, 'AA', 'AA')));
    });
    body.append(tr);
  });
  table.append(body);
}

async function loadSVG(colors) {
  const box = clear($('#matrix-svg'));
  const r = await api('/v1/contrast/matrix', { method: 'POST', query: { format: 'svg' }, json: { colors: forMatrix(colors) }, as: 'text' });
  if (!r.ok) { box.append(h('p', { class: 'field-error', text: problemText(r) })); return; }
  const svg = importSVG(r.data);
  if (svg) {
    svg.setAttribute('aria-hidden', 'true');
    box.append(svg);
  }
}

async function downloadMatrix(format) {
  if (!lastColors) return;
  const r = await api('/v1/contrast/matrix', { method: 'POST', query: { format }, json: { colors: forMatrix(lastColors) }, as: 'blob' });
  if (!r.ok) { paletteError(problemText(r)); return; }
  const blob = r.data instanceof Blob ? r.data : new Blob([JSON.stringify(r.data, null, 2)], { type: 'application/json' });
  download(blob, dispositionName(r.response, `contrast-matrix.${format}`));
}

// ---- Dark and increased-contrast variants (feature-detected) ----

/**
 * The role a color's name suggests: text placed on something (`primary-foreground`,
 * `onPrimary`, `on-surface`, `fg`, `…-text`) is text; then paper/background/surface/card/page →
 * background, accent/tint/link/primary → tint, icon → icon, fill/separator/border → nonText,
 * and everything else is text. (`primary-foreground` had been read as a tint by its
 * `primary`: a new user's pass.)
 */
export function suggestedRole(name) {
  // Text first: `…foreground`, `fg…`, `on…`/`…OnSurface`, and names that start with `text` or
  // end in a text word (`cardTitle`, `surfaceText`, `page-heading`: a new user's pass had read
  // `cardTitle` as a background by its `card`, `textPrimary` as a tint by its `primary`).
  if (/foreground|^fg([-_ ]|$)|^text|(text|title|heading|label|caption)$/i.test(name) || /^on[-_ A-Z]|[a-z]On[A-Z]/.test(name)) return 'text';
  if (/background|paper|surface|card|page|canvas|^bg/i.test(name)) return 'background';
  if (/accent|tint|link|primary/i.test(name)) return 'tint';
  if (/icon/i.test(name)) return 'icon';
  if (/fill|separator|border/i.test(name)) return 'nonText';
  return 'text';
}

/**
 * The palette as /v1/palette/* takes it: named colors with a role (a role given in the text
 * wins, else `suggestedRole`). With `surfaces` `palette` (a web page), every color that is not
 * a background is placed `on` all the palette's backgrounds, and there is no elevated level.
 */
export function paletteForVariants(colors, surfaces = 'system') {
  const list = colors.map((c, i) => {
    const name = typeof c === 'string' ? `color${i + 1}` : c.name;
    const color = typeof c === 'string' ? c : c.color;
    const role = typeof c !== 'string' && c.role ? c.role : suggestedRole(name);
    return { name, color, role };
  });
  if (surfaces !== 'palette') return list;
  // A text named after another color (`primary-foreground`, `onPrimary`) is that color's text:
  // judged on it alone, and that color is a fill, a background for its text only (a new user's
  // pass: shadcn's pairs were never checked, and `foreground` was judged on the blue button).
  const byName = new Map(list.map((c, i) => [c.name.toLowerCase(), i]));
  const given = (i) => typeof colors[i] !== 'string' && colors[i].role;
  const fillOf = list.map((c) => {
    if (c.role === 'background') return -1;
    const m = /^(.+?)[-_ ]?foreground$/i.exec(c.name) || /^on[-_ ]?(.+)$/i.exec(c.name);
    const j = m ? byName.get(m[1].toLowerCase()) : undefined;
    return j === undefined || j === byName.get(c.name.toLowerCase()) ? -1 : j;
  });
  const fills = new Set(fillOf.filter((j) => j >= 0));
  for (const j of fills) if (!given(j)) list[j] = { ...list[j], role: 'background' };
  const backgrounds = list.filter((c, i) => c.role === 'background' && !fills.has(i)).map((c) => c.name);
  return list.map((c, i) => {
    if (c.role === 'background') return c;
    if (fillOf[i] >= 0 && list[fillOf[i]].role === 'background') return { ...c, on: [list[fillOf[i]].name] };
    return backgrounds.length ? { ...c, on: backgrounds } : c;
  });
}

function variantsBody(colors) {
  const surfaces = $('#palette-surfaces').value;
  const body = { colors: paletteForVariants(colors, surfaces), policy: $('#palette-policy').value };
  if (surfaces === 'palette') body.elevated = false;
  // The API's adjustLight, as a control of the page (a new user's pass: the page showed the
  // API's "send adjustLight: true" hint, with nothing on the page to send it).
  if ($('#palette-adjust').checked) body.adjustLight = true;
  return body;
}

async function runVariants(colors) {
  const status = $('#variants-status');
  const table = clear($('#variants-table'));
  $('#variants-block').hidden = false;
  status.textContent = 'Generating the dark and increased-contrast variants…';
  const [r, sheet] = await Promise.all([
    api('/v1/palette/dark', { method: 'POST', json: variantsBody(colors) }),
    features.paletteExport
      ? api('/v1/palette/export', { method: 'POST', json: { ...variantsBody(colors), format: 'svg' }, as: 'text' })
      : Promise.resolve(null),
  ]);
  if (!r.ok) { status.textContent = lineMessage(colors, r.data || {}, problemText(r)); return; }
  const d = r.data;
  const sum = d.summary || {};
  const web = $('#palette-surfaces').value === 'palette';
  const noBackground = web && !paletteForVariants(colors, 'palette').some((c) => c.role === 'background');
  status.textContent = `${sum.passing} of ${sum.colors} colors reach their targets in every variant` +
    (sum.failing ? ` (${sum.failing} do not: see ✗ below)` : '') + `; ${sum.changedInDark} change in dark. Policy: ${d.policy}.` +
    (noBackground ? ' No color has the role background, so text is judged on Apple’s system backgrounds: give your page and card colors the role (name: color → name (background): color).' : '');
  const kinds = (d.variants || []).map((v) => ({ key: v.variant, title: v.title }));
  table.append(h('caption', { class: 'visually-hidden', text: 'Each palette color in light, dark and increased contrast, on its hardest surface' }));
  table.append(h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Color' }),
    ...kinds.map((k) => h('th', { scope: 'col', text: k.title })))));
  const body = h('tbody');
  for (const c of d.colors || []) {
    const tr = h('tr', { dataset: { name: c.name } }, h('th', { scope: 'row' }, c.name, h('span', { class: 'hint', text: ` ${c.role}` })));
    for (const k of kinds) {
      const v = c.variants[k.key];
      tr.append(v ? variantCell(v, k.key) : h('td', { text: '–' }));
    }
    body.append(tr);
  }
  table.append(body);
  const box = clear($('#swatch-sheet'));
  if (sheet && sheet.ok) {
    const svg = importSVG(sheet.data);
    if (svg) { svg.setAttribute('aria-hidden', 'true'); box.append(svg); }
  }
  $('#swatch-sheet-block').hidden = !box.firstChild;
}

function variantCell(v, key) {
  const worst = v.worst;
  const sample = h('span', { class: 'cell specimen', text: 'Aa' });
  sample.style.color = worst ? worst.effectiveForeground : v.hex;
  sample.style.backgroundColor = worst ? worst.surfaceHex : '';
  const lines = [
    h('span', { class: 'variant-hex' }, chip(v.hex), v.hex),
    // ΔE is from the light color as given, whatever the variant started from (a new user's
    // pass read "unchanged · ΔE OK 0.837" as a contradiction).
    h('span', { class: 'hint', text: v.method + (v.deltaEOK ? ` · ΔE OK ${v.deltaEOK.toFixed(3)} from the color given` : '') }),
  ];
  if (worst) lines.push(h('span', {}, `worst ${worst.ratioText}:1 `, verdict(v.passes, 'passes', 'fails')));
  const failing = v.failingSurfaces || [];
  if (failing.length) {
    lines.push(h('details', { class: 'failing' },
      h('summary', { text: `fails on ${failing.length} surface${failing.length > 1 ? 's' : ''}` }),
      h('ul', {}, failing.map((f) => h('li', { text: f })))));
  } else if (worst) {
    lines.push(h('span', { class: 'hint', text: `hardest surface ${worst.surfaceHex} (${worst.context})` }));
  }
  // The fix the answer already holds (a new user's pass: a failing light color showed only
  // "fails", where the API gave a passing suggestion).
  if (v.suggestion && v.suggestion.hex) {
    lines.push(h('span', { class: 'suggestion' }, 'try ', chip(v.suggestion.hex), v.suggestion.hex,
      h('span', { class: 'hint', text: ' (passes on every light surface, the other colors as they are; tick “Use the suggested light color” to apply it)' })));
  }
  return h('td', { dataset: { variant: key, hex: v.hex } }, sample, ...lines);
}

// ---- Exports (feature-detected) ----

const EXPORTS = [
  { format: 'xcassets', label: 'Xcode asset catalog (.zip)', file: 'Colors.xcassets.zip' },
  { format: 'swift', label: 'Swift: UIKit and SwiftUI', file: 'Palette.swift' },
  { format: 'css', label: 'CSS custom properties', file: 'palette.css' },
  { format: 'tokens', label: 'Design tokens (JSON)', file: 'palette.tokens.json' },
  { format: 'android', label: 'Android colors.xml (.zip)', file: 'android-colors.zip' },
  { format: 'svg', label: 'SVG swatch sheet', file: 'palette-swatches.svg' },
];

export function setupExports() {
  const box = clear($('#export-buttons'));
  for (const e of EXPORTS) {
    const b = h('button', { type: 'button', dataset: { exportFormat: e.format }, text: e.label });
    b.addEventListener('click', () => exportPalette(e));
    box.append(b);
  }
}

async function exportPalette(e) {
  const status = $('#export-status');
  if (!lastColors) return;
  status.textContent = `Preparing ${e.label}…`;
  const r = await api('/v1/palette/export', { method: 'POST', json: { ...variantsBody(lastColors), format: e.format }, as: 'blob' });
  if (!r.ok) { status.textContent = problemText(r); return; }
  const name = dispositionName(r.response, e.file);
  download(r.data, name);
  const passes = r.response.headers.get('X-Palette-Passes');
  status.textContent = `Downloaded ${name}.` + (passes === 'false' ? ' Some variants miss their target: the file says which.' : '');
}

export function setupPalette(addPair) {
  $('#palette-form').addEventListener('submit', (ev) => { ev.preventDefault(); runPalette(); });
  $('#palette-use-pair').addEventListener('click', () => {
    const ta = $('#palette-input');
    const pair = addPair();
    if (!pair) return;
    // Names the palette does not hold yet (a new user's pass: a second click, or a shadcn
    // palette, repeated `foreground` and `background`); a gradient is no palette color, so
    // only the text is added then, with a word why.
    const taken = new Set(parsePalette(ta.value).map((c) => (typeof c === 'string' ? c : c.name).toLowerCase()));
    const free = (base) => { let n = base, k = 2; while (taken.has(n.toLowerCase())) n = `${base}-${k++}`; taken.add(n.toLowerCase()); return n; };
    const lines = [`${free('pair-text')}: ${pair.fg}`];
    const gradient = /gradient\s*\(/i.test(pair.bg);
    if (!gradient) lines.push(`${free('pair-background')} (background): ${pair.bg}`);
    ta.value = ta.value.replace(/\s*$/, '\n') + lines.join('\n');
    runPalette().then(() => { if (gradient) paletteError('The pair’s background is a gradient, which a palette cannot hold as a color: only its text was added.'); });
  });
  $('#palette-policy').addEventListener('change', () => { if (lastColors) runPalette(); });
  $('#palette-surfaces').addEventListener('change', () => { if (lastColors) runPalette(); });
  for (const b of $$('[data-matrix-download]')) b.addEventListener('click', () => downloadMatrix(b.dataset.matrixDownload));
}
