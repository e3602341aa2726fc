// The pair as seen with each color-vision deficiency (/v1/simulate).
import { api, problemText, isAbort } from './api.js';
import { $, h, clear, verdict, fmt } from './dom.js';
import { state } from './state.js';

const TYPES = [
  { type: 'protanopia', title: 'Protanopia', note: 'no red cones' },
  { type: 'deuteranopia', title: 'Deuteranopia', note: 'no green cones' },
  { type: 'tritanopia', title: 'Tritanopia', note: 'no blue cones' },
  { type: 'achromatopsia', title: 'Achromatopsia', note: 'no color vision' },
];

let seq = 0;

export function severityLabel(value) {
  const v = Number(value);
  return v >= 1 ? '1.0 (full)' : v <= 0 ? '0.0 (none)' : `${value} (anomalous trichromacy)`;
}

export async function updateCVD(signal) {
  const mine = ++seq;
  const grid = $('#cvd-grid');
  const error = $('#cvd-error');
  const d = state.result;
  if (!d) return;
  // The colors as the main result resolved them (system names in the chosen context, gamut mapped).
  const colors = [
    { name: 'foreground', color: d.foreground.hex },
    { name: 'background', color: (d.effectiveBackground || d.background).hex },
  ];
  const severity = Number($('#cvd-severity').value);
  try {
    // One at a time: four at once, beside the page's other heavy requests, passed the server's
    // per-client limit (a 429, retried, but logged in the console: a new user's pass).
    const answers = [];
    for (const t of TYPES) {
      answers.push(await api('/v1/simulate', {
        method: 'POST', signal,
        json: { colors, type: t.type, severity, pairs: [{ foreground: 'foreground', background: 'background' }] },
      }));
      if (mine !== seq) return;
    }
    if (mine !== seq) return;
    const failed = answers.find((r) => !r.ok);
    error.textContent = failed ? problemText(failed) : '';
    clear(grid);
    TYPES.forEach((t, i) => {
      const r = answers[i];
      if (!r.ok) return;
      grid.append(card(t, r.data, d));
    });
  } catch (e) {
    if (!isAbort(e)) error.textContent = 'The server did not answer.';
  }
}

function card(t, data, original) {
  const byName = Object.fromEntries(data.colors.map((c) => [c.name, c]));
  const pair = data.pairs[0];
  const swatch = h('div', { class: 'swatch specimen', text: 'Sample text Aa' });
  swatch.style.color = byName.foreground.simulated.hex;
  swatch.style.backgroundColor = byName.background.simulated.hex;
  const confusable = (data.confusable || []).find((c) => (c.a === 'foreground' && c.b === 'background') || (c.a === 'background' && c.b === 'foreground'));
  return h('article', { class: 'cvd-card', dataset: { type: t.type } },
    h('h3', { text: `${t.title}` }, h('span', { class: 'hint', text: ` (${t.note})` })),
    swatch,
    h('p', { class: 'facts-line' },
      h('strong', { class: 'cvd-ratio', text: `${pair.simulatedRatioText}:1` }), ` (was ${original.ratioText}:1) · AA `,
      verdict(pair.simulatedWcag.AA.normalText), ` · Lc ${fmt(pair.simulatedApcaLc, 1)}`),
    h('p', { class: 'facts-line', text: `${byName.foreground.simulated.hex} on ${byName.background.simulated.hex}` +
      (original.gradient ? ` (the gradient's weakest point, ${original.gradient.min.background})` : '') }),
    confusable
      ? h('p', { class: 'facts-line', text: `Hard to tell apart: ΔE OK ${fmt(confusable.simulatedDeltaEOK, 3)} (was ${fmt(confusable.deltaEOK, 3)}).` })
      : null,
  );
}
