// ContrastService page: wires the controls to the API. Asks the API for every number; no color math here.
import { api, probe, debounced, onUnauthorized, getToken, setToken } from './js/api.js';
import { $, h, clear } from './js/dom.js';
import { state, features } from './js/state.js';
import { updatePair } from './js/pair.js';
import { updateSamples } from './js/samples.js';
import { updateCVD, severityLabel } from './js/cvd.js';
import { updateSuggestions, onApply } from './js/suggest.js';
import { setupPalette, setupExports } from './js/palette.js';
import { setupImage } from './js/image.js';
import { setupTextImage } from './js/textimage.js';
import { setupTokens } from './js/tokens.js';

const fgText = $('#fg-text');
const bgText = $('#bg-text');
const fgPicker = $('#fg-picker');
const bgPicker = $('#bg-picker');

// ---- Everything that depends on the pair, debounced as the person types ----

const refresh = debounced(async (signal) => {
  const d = await updatePair(signal);
  if (d === undefined) return; // superseded by a newer change
  saveToHash();
  if (!d) {                     // the pair is invalid: the error is shown next to its field
    document.body.dataset.state = 'error';
    return;
  }
  syncPickers(d);
  await Promise.all([
    updateSamples(signal),
    updateCVD(signal),
    features.suggest ? updateSuggestions(signal) : null,
  ]);
  if (!signal.aborted) document.body.dataset.state = 'ready';
}, 200);

let wasStyled = false;

function readControls() {
  state.fg = fgText.value.trim();
  state.bg = bgText.value.trim();
  state.textStyle = $('#text-style').value;
  state.category = $('#size-category').value;
  state.fontSize = $('#font-size').value.trim();
  state.fontUnit = $('#font-unit').value;
  state.fontWeight = $('#font-weight').value;
  state.context = $('#apple-context').value;
  state.increased = $('#increased-contrast').checked;
  state.customLabels = $('#custom-labels').checked;
  state.tileBackground = $('#tile-background').value;
  const styled = Boolean(state.textStyle);
  if (styled !== wasStyled) {
    // Switching between a Dynamic Type style and a custom size: start from the natural weight.
    $('#font-weight').value = styled ? '' : '400';
    state.fontWeight = $('#font-weight').value;
    wasStyled = styled;
  }
  $('#size-field').hidden = styled;
  $('#category-field').hidden = !styled || !features.textStyles;
  for (const o of $('#font-weight').options) if (o.dataset.styleOnly) o.hidden = !styled;
}

/** `#rgb` or `#rrggbb` as the 6-digit hex a color picker holds, else null (no other color is read
 *  here: the API reads every other form). */
function pickerHex(text) {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim());
  if (!m) return null;
  const d = m[1].length === 3 ? m[1].split('').map((c) => c + c).join('') : m[1];
  return '#' + d.toLowerCase();
}

function changed() {
  // A plain hex moves its picker at once, even while the other field is invalid and no answer
  // comes to sync them (a new user's pass: '#fff' beside a broken background left #000000).
  for (const [text, picker] of [[fgText, fgPicker], [bgText, bgPicker]]) {
    const hex = pickerHex(text.value);
    if (hex && document.activeElement !== picker) picker.value = hex;
  }
  readControls();
  document.body.dataset.state = 'busy';
  refresh();
}

/** The pickers follow the text fields with the 8-bit hex the API resolved (alpha dropped: a picker has none). */
function syncPickers(d) {
  if (document.activeElement !== fgPicker) fgPicker.value = d.foreground.hex.slice(0, 7);
  // A gradient has no one color for the picker: it keeps what it had.
  if (document.activeElement !== bgPicker && !d.gradient) bgPicker.value = (d.effectiveBackground || d.background).hex.slice(0, 7);
}

function applyColors(change) {
  if (change.foreground) fgText.value = change.foreground;
  if (change.background) bgText.value = change.background;
  changed();
  // The button that was pressed is replaced by new suggestions: keep focus on the field that changed.
  (change.foreground ? fgText : bgText).focus();
}

// ---- Shareable state in the URL fragment ----

function saveToHash() {
  const q = new URLSearchParams({ fg: state.fg, bg: state.bg });
  history.replaceState(null, '', '#' + q.toString());
}

function loadFromHash() {
  const q = new URLSearchParams(location.hash.slice(1));
  if (q.get('fg')) fgText.value = q.get('fg');
  if (q.get('bg')) bgText.value = q.get('bg');
}

// ---- Optional endpoints: ask the server what it has ----

async function detectFeatures() {
  const [colors, styles, labels, suggest, dark, exp, image, textImage, tokens, health, openapi] = await Promise.all([
    api('/v1/system-colors', { query: { appearance: 'light', level: 'base', contrast: 'standard' } }).catch(() => null),
    api('/v1/text-styles', { query: { contentSizeCategory: 'Large' } }).catch(() => null),
    probe('/v1/labels', 'GET'),
    probe('/v1/suggest'),
    probe('/v1/palette/dark'),
    probe('/v1/palette/export'),
    probe('/v1/image/analyze'),
    probe('/v1/image/text-contrast'),
    probe('/v1/tokens/audit'),
    api('/healthz').catch(() => null),
    probe('/openapi.json', 'HEAD'),
  ]);
  $('#openapi-link').hidden = !(openapi.present && openapi.result && openapi.result.ok);
  if (health && health.ok) $('#version').textContent = health.data.version ? `version ${health.data.version}` : '';

  features.apple = Boolean(colors && colors.ok);
  if (features.apple) {
    const list = clear($('#system-color-names'));
    for (const c of colors.data.colors || []) list.append(h('option', { value: c.name }));
  }
  $('#context-field').hidden = !features.apple;
  $('#increased-field').hidden = !features.apple;
  // Without the Apple model the tiles use plain sRGB colors for the three surfaces.
  $('#tile-background').closest('.field').hidden = !features.apple;

  if (styles && styles.ok && Array.isArray(styles.data.styles)) {
    features.textStyles = styles.data;
    const styleSelect = $('#text-style');
    while (styleSelect.options.length > 1) styleSelect.options[1].remove();
    for (const s of styles.data.styles) styleSelect.append(h('option', { value: s.name, text: s.title || s.name }));
    const cat = clear($('#size-category'));
    for (const c of styles.data.categories || []) {
      cat.append(h('option', { value: c.name, text: c.accessibility ? `${c.name} (accessibility)` : c.name, selected: c.name === styles.data.defaultCategory }));
    }
    const weight = $('#font-weight');
    for (const o of Array.from(weight.options)) if (o.dataset.styleOnly) o.remove();
    weight.prepend(
      h('option', { value: 'emphasized', text: 'Emphasized (the style’s bold)', dataset: { styleOnly: 'true' }, hidden: true }),
      h('option', { value: '', text: 'The style’s own weight', dataset: { styleOnly: 'true' }, hidden: true }),
    );
    $('#style-field').hidden = false;
  }

  features.labels = labels.present && labels.result && labels.result.ok;
  $('#custom-labels-field').hidden = !features.labels;
  features.suggest = suggest.present;
  $('#suggest-panel').hidden = !features.suggest;
  features.paletteDark = dark.present;
  $('#palette-policy-field').hidden = !features.paletteDark;
  $('#palette-surfaces-field').hidden = !features.paletteDark;
  $('#palette-adjust-field').hidden = !features.paletteDark;
  features.paletteExport = exp.present;
  if (features.paletteExport) setupExports();
  features.image = image.present;
  $('#image-panel').hidden = !features.image;
  features.textImage = textImage.present;
  $('#ti-panel').hidden = !features.textImage;
  features.tokens = tokens.present;
  $('#tokens-panel').hidden = !features.tokens;
  document.body.dataset.features = Object.entries(features).filter(([, v]) => v).map(([k]) => k).join(' ');
}

// ---- Start ----

function wire() {
  for (const el of [fgText, bgText, $('#font-size')]) el.addEventListener('input', changed);
  for (const el of ['#text-style', '#size-category', '#font-unit', '#font-weight', '#apple-context', '#increased-contrast',
    '#custom-labels', '#tile-background', '#cvd-severity', '#suggest-target', '#suggest-move']) {
    $(el).addEventListener('change', changed);
  }
  $('#cvd-severity').addEventListener('input', () => { $('#cvd-severity-value').textContent = severityLabel($('#cvd-severity').value); });
  fgPicker.addEventListener('input', () => { fgText.value = fgPicker.value; changed(); });
  bgPicker.addEventListener('input', () => { bgText.value = bgPicker.value; changed(); });
  $('#swap').addEventListener('click', () => {
    [fgText.value, bgText.value] = [bgText.value, fgText.value];
    changed();
  });
  $('#pair-form').addEventListener('submit', (e) => { e.preventDefault(); changed(); });
  onApply(applyColors);
  setupPalette(() => {
    if (!state.result) return null;
    return { fg: state.fg, bg: state.bg };
  });
  setupImage();
  setupTextImage();
  setupTokens();

  const tokenBox = $('#token-form');
  const tokenInput = $('#api-token');
  tokenInput.value = getToken();
  onUnauthorized(() => {
    tokenBox.hidden = false;
    $('#global-status').textContent = 'This server needs an API token: enter it below.';
  });
  $('#token-form').addEventListener('submit', (e) => { e.preventDefault(); tokenInput.dispatchEvent(new Event('change')); });
  tokenInput.addEventListener('change', () => {
    setToken(tokenInput.value.trim());
    start();
  });
}

async function start() {
  document.body.dataset.state = 'busy';
  await detectFeatures();
  readControls();
  refresh();
}

loadFromHash();
wire();
window.addEventListener('hashchange', () => {
  const q = new URLSearchParams(location.hash.slice(1));
  if (q.get('fg') === state.fg && q.get('bg') === state.bg) return; // our own replaceState
  loadFromHash();
  changed();
});
start();
