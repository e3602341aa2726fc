// Sample text on light, dark base and dark elevated surfaces, with the label hierarchy on each
// (/v1/contrast with an Apple context per tile, /v1/labels when the server has it).
import { api, problemText, isAbort } from './api.js';
import { $, h, clear, verdict, fmt } from './dom.js';
import { state, features, textQuery, contextQuery, TILE_CONTEXTS } from './state.js';

let seq = 0;

function tileBackground(ctx) {
  if (state.tileBackground === '@background') return state.bg;
  return features.apple ? state.tileBackground : ctx.fallback;
}

export async function updateSamples(signal) {
  const mine = ++seq;
  const error = $('#samples-error');
  try {
    const contrastCalls = TILE_CONTEXTS.map((ctx) => api('/v1/contrast', {
      signal,
      query: { foreground: state.fg, background: tileBackground(ctx), ...textQuery(), ...contextQuery(ctx.appearance, ctx.level) },
    }));
    const labelsCall = features.labels
      ? api('/v1/labels', {
        signal,
        query: {
          contrast: state.increased ? 'increased' : 'standard',
          background: state.tileBackground === '@background' ? state.bg : state.tileBackground,
          labelColor: state.customLabels ? state.fg : undefined,
        },
      })
      : Promise.resolve(null);
    const [answers, labels] = await Promise.all([Promise.all(contrastCalls), labelsCall]);
    if (mine !== seq) return;
    const failed = answers.find((r) => !r.ok) || (labels && !labels.ok ? labels : null);
    error.textContent = failed ? problemText(failed) : '';
    TILE_CONTEXTS.forEach((ctx, i) => {
      const tile = $(`.tile[data-context="${ctx.id}"]`);
      renderTile(tile, answers[i].ok ? answers[i].data : null, labels && labels.ok ? findContext(labels.data, ctx) : null);
    });
  } catch (e) {
    if (!isAbort(e)) error.textContent = 'The server did not answer.';
  }
}

function findContext(data, ctx) {
  return (data.contexts || []).find((c) => c.context.appearance === ctx.appearance &&
    (c.context.level === ctx.level || (ctx.appearance === 'light' && c.context.level === 'base'))) || null;
}

function renderTile(tile, d, labelCtx) {
  const body = clear(tile.querySelector('.tile-body'));
  const facts = clear(tile.querySelector('.tile-facts'));
  if (!d) {
    body.style.backgroundColor = '';
    facts.append(h('p', { class: 'hint', text: 'No result for these colors.' }));
    return;
  }
  const surface = (d.effectiveBackground || d.background).hex;
  body.style.backgroundColor = surface;
  const ts = d.textStyle;
  const tx = d.text;
  const sample = h('p', { class: 'sample', text: ts ? `${ts.title}: The quick brown fox` : 'The quick brown fox jumps' });
  sample.style.color = d.foreground.hex;
  if (ts) { sample.style.fontSize = `${ts.size}px`; sample.style.fontWeight = String(ts.cssWeight); }
  else if (tx) { sample.style.fontSize = `${tx.px}px`; sample.style.fontWeight = String(tx.fontWeight); }
  body.append(sample);

  const passes = ts ? ts.passes : tx ? tx.passes : null;
  facts.append(
    h('p', {}, h('strong', { text: `${d.ratioText}:1` }), ` on ${d.background.input} (${surface})`),
    h('p', {}, 'AA normal ', verdict(d.wcag.AA.normalText), ' · large ', verdict(d.wcag.AA.largeText),
      ' · non-text ', verdict(d.wcag.AA.nonText)),
    passes ? h('p', {}, 'Your text: AA ', verdict(passes.AA), ' AAA ', verdict(passes.AAA),
      ts && 'hig' in passes ? [' HIG ', verdict(passes.hig)] : null) : null,
    h('p', { text: `APCA Lc ${fmt(d.apca.lc, 1)}` }),
  );

  if (labelCtx) {
    body.append(labelList(labelCtx.labels.map((l) => ({ name: l.name, row: l.on[0] })), 'System labels'));
    if (labelCtx.custom) {
      body.append(labelList(labelCtx.custom.labels.map((l) => ({ name: l.level, row: l.on[0] })), 'Your foreground as labels'));
    }
  }
}

function labelList(items, title) {
  const group = h('div', { class: 'label-group' });
  group.append(h('p', { class: 'label-title', text: title }));
  for (const { name, row } of items) {
    if (!row) continue;
    const nameEl = h('span', { text: name });
    nameEl.style.color = row.effectiveForeground;
    // The ratio is written in the page's own colors so it stays readable however faint the label is.
    group.append(h('p', { class: 'label-row', dataset: { label: name } }, nameEl,
      h('span', { class: 'num', text: `${row.ratioText}:1` })));
  }
  return group;
}
