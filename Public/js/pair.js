// The main result: ratio, WCAG verdicts, APCA Lc and a preview of the pair, from /v1/contrast.
import { api, problemText, problemField, isAbort } from './api.js';
import { $, $$, h, clear, verdict, setFieldError, fmt } from './dom.js';
import { state, textQuery, contextQuery } from './state.js';

const FIELD_INPUTS = {
  foreground: ['#fg-text', '#fg-error'],
  background: ['#bg-text', '#bg-error'],
  fontSize: ['#font-size', '#font-size-error'],
  fontSizeUnit: ['#font-size', '#font-size-error'],
};

function clearErrors() {
  for (const [input, error] of Object.values(FIELD_INPUTS)) setFieldError($(input), $(error), '');
}

/** Shows a problem next to the field it names (or at the top of the page for any other). */
export function showProblem(result) {
  const field = problemField(result);
  const text = problemText(result);
  const target = FIELD_INPUTS[field];
  if (target) {
    setFieldError($(target[0]), $(target[1]), text);
    return;
  }
  $('#global-status').textContent = text;
}

function setVerdictCells(wcag) {
  for (const cell of $$('[data-verdict]')) {
    const [level, use] = cell.dataset.verdict.split('.');
    clear(cell).append(verdict(wcag && wcag[level] ? wcag[level][use] : null));
  }
}

let seq = 0;

/** Asks for the pair's contrast and shows it. Resolves to the answer, or null on a problem. */
export async function updatePair(signal) {
  const mine = ++seq;
  // A size the browser cannot read as a number ("e", "1e") reaches the page as an empty value:
  // sent so, the API asked for a size "when the weight is given" (a new user's pass). Said here.
  const size = $('#font-size');
  if (size.validity && size.validity.badInput && !state.textStyle) {
    clearErrors();
    state.result = null;
    renderEmpty();
    setFieldError(size, $('#font-size-error'), 'The text size must be a number, such as 16.');
    $('#summary').textContent = 'Error: the text size must be a number.';
    return null;
  }
  const [appearance, level] = state.context.split('/');
  const query = { foreground: state.fg, background: state.bg, ...textQuery(), ...contextQuery(appearance, level) };
  let r;
  try {
    r = await api('/v1/contrast', { query, signal });
  } catch (e) {
    if (isAbort(e)) return undefined;
    $('#global-status').textContent = 'The server did not answer. Is it still running?';
    return null;
  }
  if (mine !== seq) return undefined;
  clearErrors();
  if (r.status !== 401) $('#global-status').textContent = '';
  $('#result').classList.toggle('stale', !r.ok);
  if (!r.ok) {
    state.result = null;
    renderEmpty();
    showProblem(r);
    $('#summary').textContent = 'Error: ' + problemText(r);
    return null;
  }
  state.result = r.data;
  render(r.data);
  return r.data;
}

/** No numbers while the input is invalid: old ones next to an error would mislead. */
function renderEmpty() {
  $('#ratio').textContent = '–';
  $('#ratio-range').hidden = true;
  $('#apca-lc').textContent = '–';
  $('#apca-use').textContent = '';
  setVerdictCells(null);
  for (const id of ['#your-text-aa', '#your-text-aaa']) clear($(id)).append(verdict(null));
  clear($('#result-notes'));
  // The preview would still show the last valid colors beside the error (a new user's pass).
  $('#preview').hidden = true;
}

function render(d) {
  $('#ratio').textContent = `${d.ratioText}:1`;
  const range = $('#ratio-range');
  const g = d.gradient;
  if (g) {
    // A gradient: the number above is its weakest point; say so, where it lies, and its best.
    const at = (p) => `${Math.round(p * 100)}% along it`;
    range.hidden = false;
    range.textContent = `Gradient background: from ${g.min.ratioText}:1 at its weakest (${g.min.background}, ${at(g.min.position)}) ` +
      `to ${g.max.ratioText}:1 (${g.max.background}, ${at(g.max.position)}); the verdicts use the weakest point.`;
  } else if (d.ratioRange) {
    range.hidden = false;
    range.textContent = `Translucent background over an unknown backdrop: ${d.ratioRange.minText}:1 to ${d.ratioRange.maxText}:1; ` +
      `the verdicts use the minimum (worst backdrop ${d.ratioRange.worstCaseBackdrop}).`;
  } else {
    range.hidden = true;
    range.textContent = '';
  }
  setVerdictCells(d.wcag);

  const apca = d.apca || {};
  $('#apca-lc').textContent = fmt(apca.lc, 1);
  $('#apca-use').textContent = apca.level ? `— ${apca.level.use}` : '— below Lc 15: not enough for any use';

  // The "your text" row: a Dynamic Type style or the size the person chose.
  const ts = d.textStyle;
  const tx = d.text;
  const desc = $('#your-text-desc');
  const needs = $('#your-text-needs');
  const aa = clear($('#your-text-aa'));
  const aaa = clear($('#your-text-aaa'));
  let px = null;
  let weight = null;
  if (ts) {
    desc.textContent = `(${ts.title} at ${ts.contentSizeCategory.name}: ${ts.size} pt ${ts.weight}, ${ts.isLargeText ? 'large' : 'not large'} text)`;
    needs.textContent = `${ts.requiredRatio.AA}:1 (HIG ${ts.requiredRatio.hig}:1)`;
    aa.append(verdict(ts.passes.AA));
    aaa.append(verdict(ts.passes.AAA));
    px = ts.size; // iOS points render as CSS px
    weight = ts.cssWeight;
  } else if (tx) {
    desc.textContent = `(${fmt(tx.px, 1)} px = ${fmt(tx.points, 1)} pt, weight ${tx.fontWeight}: ${tx.isLarge ? 'large' : 'not large'} text)`;
    needs.textContent = `${tx.requiredRatio.AA}:1`;
    aa.append(verdict(tx.passes.AA));
    aaa.append(verdict(tx.passes.AAA));
    px = tx.px;
    weight = tx.fontWeight;
  } else {
    desc.textContent = '(give a size)';
    needs.textContent = '–';
  }

  // Preview in the colors as the API resolved them (system names, gamut mapping).
  const preview = $('#preview');
  preview.hidden = false;
  preview.style.color = d.foreground.hex;
  // A gradient is drawn as written, when this browser reads it; else its weakest color.
  const drawn = g && window.CSS && CSS.supports('background-image', d.background.input) ? d.background.input : null;
  preview.style.backgroundImage = drawn || '';
  preview.style.backgroundColor = (d.effectiveBackground || d.background).hex;
  const sample = $('#preview-text');
  sample.style.fontSize = px ? `${px}px` : '';
  sample.style.fontWeight = weight ? String(weight) : '';

  const notes = clear($('#result-notes'));
  const all = [...(d.notes || [])];
  if (ts) all.push(...(ts.warnings || []));
  if (apca.text && apca.text.sufficient === false) all.push(`APCA: Lc ${fmt(apca.lc, 1)} is not enough for this size and weight (font lookup).`);
  if (ts && ts.passes && ts.passes.apca === false && ts.apcaMinimumLc) all.push(`APCA: ${ts.title} needs at least Lc ${ts.apcaMinimumLc}.`);
  for (const side of ['foreground', 'background']) {
    // How the color was read: hex without '#', the light-dark() branch, a var() substitution.
    for (const n of (d[side] && d[side].notes) || []) all.push(`${side}: ${n}`);
    const sc = d[side] && d[side].systemColor;
    if (sc) all.push(`${side}: ${sc.name} is ${sc.value.hex} in ${sc.context.id} (${sc.valueGeneration}, confidence ${sc.confidence}).`);
  }
  if (d.foreground.gamutMapped || d.background.gamutMapped) all.push('Shown with the gamut-mapped sRGB color the numbers use.');
  // The fixes the API measured for a gradient (a scrim over it, or another text color).
  const fixes = d.fixes;
  if (fixes) {
    const rec = fixes.scrim && fixes.scrim.recommended;
    const scrim = rec ? fixes.scrim[rec] : null;
    if (scrim) all.push(`Fix: a ${rec} scrim at ${scrim.alpha} opacity over the gradient reaches ${scrim.after.ratioText}:1 (${fixes.target.basis}): ${scrim.css}`);
    const tc = fixes.textColor;
    if (tc && tc.hex) all.push(`Fix: text color ${tc.hex} reaches ${tc.after ? tc.after.ratioText : fixes.target.minimum}:1 at the gradient's weakest point (${fixes.target.basis}).`);
  }
  for (const n of all) notes.append(h('li', { text: n }));

  const w = d.wcag;
  $('#summary').textContent = `${d.ratioText} to 1. AA normal text ${w.AA.normalText ? 'passes' : 'fails'}, ` +
    `AA large text ${w.AA.largeText ? 'passes' : 'fails'}, non-text ${w.AA.nonText ? 'passes' : 'fails'}. APCA Lc ${fmt(apca.lc, 1)}.`;
}
