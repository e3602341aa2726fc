// What the person has chosen, and which optional endpoints this server has.

export const features = {
  apple: false,        // system color names and contexts (/v1/system-colors)
  textStyles: null,    // the /v1/text-styles answer, when present
  labels: false,       // /v1/labels
  suggest: false,      // /v1/suggest
  paletteDark: false,  // /v1/palette/dark
  paletteExport: false, // /v1/palette/export
  image: false,        // /v1/image/analyze and /v1/image/dim
  textImage: false,    // /v1/image/text-contrast
  tokens: false,       // /v1/tokens/audit
};

export const state = {
  fg: '#777777',
  bg: '#ffffff',
  textStyle: '',        // '' = custom size and weight
  category: '',         // content size category for a text style
  fontSize: '16',
  fontUnit: 'px',
  fontWeight: '400',
  context: 'light/base', // how system color names resolve in the main result
  increased: false,
  customLabels: false,
  tileBackground: 'systemBackground',
  /** The last successful /v1/contrast answer for the pair, or null while the input is invalid. */
  result: null,
};

/** Query members for the text size: a Dynamic Type style, or a size and weight. */
export function textQuery() {
  if (state.textStyle && features.textStyles) {
    const q = { textStyle: state.textStyle };
    if (state.category) q.contentSizeCategory = state.category;
    if (state.fontWeight) q.fontWeight = state.fontWeight;
    return q;
  }
  const q = {};
  if (state.fontSize !== '') {
    q.fontSize = state.fontSize;
    q.fontSizeUnit = state.fontUnit;
  }
  if (state.fontWeight) q.fontWeight = state.fontWeight;
  return q;
}

/** Query members that say how Apple system color names resolve (only when the server knows them). */
export function contextQuery(appearance, level) {
  if (!features.apple) return {};
  return { appearance, level, contrast: state.increased ? 'increased' : 'standard' };
}

/** The three iOS surfaces the tiles show. */
export const TILE_CONTEXTS = [
  { id: 'light', appearance: 'light', level: 'base', title: 'Light', fallback: '#ffffff' },
  { id: 'dark-base', appearance: 'dark', level: 'base', title: 'Dark base', fallback: '#000000' },
  { id: 'dark-elevated', appearance: 'dark', level: 'elevated', title: 'Dark elevated', fallback: '#1c1c1e' },
];
