// Nearest passing colors (/v1/suggest, when the server has it): one click applies one.
import { api, problemText, isAbort } from './api.js';
import { $, h, clear, fmt, verdict } from './dom.js';
import { state, contextQuery } from './state.js';

/** The target for /v1/suggest: a name, or the text size chosen above. */
function target() {
  const v = $('#suggest-target').value;
  if (v !== 'yours') return v;
  const d = state.result;
  if (d && d.textStyle) return { level: 'AA', fontSize: d.textStyle.size, fontSizeUnit: 'pt', fontWeight: d.textStyle.cssWeight };
  if (d && d.text) return { level: 'AA', fontSize: d.text.fontSize, fontSizeUnit: d.text.fontSizeUnit, fontWeight: d.text.fontWeight };
  return 'AA';
}

let seq = 0;
let apply = () => {};

/** `fn({foreground?, background?})` is called when the person applies a suggestion. */
export function onApply(fn) { apply = fn; }

export async function updateSuggestions(signal) {
  const mine = ++seq;
  const list = $('#suggestions');
  const status = $('#suggest-status');
  if (!state.result) return;
  if (state.result.gradient) {
    // Suggestions move one color against one color; a gradient's fixes come with its answer.
    clear(list);
    status.textContent = 'The background is a gradient: suggestions take one background color. ' +
      'The fixes measured for the whole gradient (a scrim, a text color) are listed under the result.';
    return;
  }
  const [appearance, level] = state.context.split('/');
  const body = { foreground: state.fg, background: state.bg, target: target(), move: $('#suggest-move').value,
    ...contextQuery(appearance, level) };
  let r;
  try {
    r = await api('/v1/suggest', { method: 'POST', json: body, signal });
  } catch (e) {
    if (!isAbort(e)) status.textContent = 'The server did not answer.';
    return;
  }
  if (mine !== seq) return;
  clear(list);
  if (!r.ok) {
    status.textContent = problemText(r);
    return;
  }
  const d = r.data;
  const goal = d.target.minimum === null ? 'a contrast no color reaches'
    : d.target.metric === 'apca' ? `Lc ${d.target.minimum}` : `${d.target.minimum}:1`;
  status.textContent = d.passes
    ? `The pair already meets ${goal} (${d.target.basis}).`
    : `Target ${goal}: ${d.target.basis}. Now ${d.current.ratioText}:1, Lc ${fmt(d.current.apcaLc, 1)}.`;
  if (d.passes) return;
  for (const s of d.suggestions || []) list.append(s.found ? item(s) : missing(s));
}

function item(s) {
  const swatch = h('div', { class: 'swatch specimen', text: 'Sample text Aa' });
  swatch.style.color = s.foreground.hex;
  swatch.style.backgroundColor = s.background.hex;
  const change = {};
  if (s.foreground.changed) change.foreground = s.foreground.hex;
  if (s.background.changed) change.background = s.background.hex;
  const what = Object.entries(change).map(([side, hex]) => `${side} ${hex}`).join(' and ');
  const button = h('button', { type: 'button', class: 'apply', text: `Use ${what}` });
  button.addEventListener('click', () => apply(change));
  return h('li', { dataset: { direction: s.direction, foreground: s.foreground.hex, background: s.background.hex } },
    h('h3', { text: s.direction === 'lighter' ? 'Lighter' : s.direction === 'darker' ? 'Darker' : s.direction }),
    swatch,
    h('p', {}, h('strong', { text: `${s.ratioText}:1` }), ` · Lc ${fmt(s.apcaLc, 1)} · `, verdict(s.passes, 'passes', 'fails')),
    h('p', { text: `ΔE OK ${fmt(s.deltaEOK, 3)} · ΔE 2000 ${fmt(s.deltaE2000, 2)} from the original` }),
    button);
}

function missing(s) {
  return h('li', { class: 'not-found', dataset: { direction: s.direction } },
    h('h3', { text: s.direction === 'lighter' ? 'Lighter' : s.direction === 'darker' ? 'Darker' : s.direction }),
    h('p', { text: `Nothing found: ${s.reason}.` }));
}
