// The lessons, in order. This list drives the menu, the URL state (which
// fields a lesson keeps, their defaults and ranges) and which module draws
// the page. A lesson module is loaded through `module()`, so Node can read
// this list without a DOM.
//
// Entry: id; module() → import of the lesson; controls: the state fields the
// lesson uses (only these go into its URL, in field-registry order);
// own: those of them the lesson draws itself (not in the shared control
// panel); defaults; limits: narrower [min, max] per field; values: values
// an enum field takes besides the field's own; steps: coarser slider steps; probe(pe, state):
// the package call the lesson makes, at its smallest size, which throws the
// package's RangeError when the state's d_model is not accepted.
import { presetCall } from '../model/variants.js';
import { SEQUENTIAL_COLORMAPS } from '../model/fields.js';

// lessons 0–7 draw the vaswani encoding (the package's default preset), in the lesson's layout
const vaswani = (pe, s) => pe.table(1, s.d, s.layout ? { layout: s.layout } : {});

// Fields every lesson keeps besides its own: its controls panel open or folded.
const EVERY_LESSON = ['panel'];

const ENTRIES = [
  {
    id: 'attention',
    module: () => import('./attention/index.js'),
    // the head is drawn small enough to read every number: d_model 8 … 16
    controls: ['d', 'tokens', 'seed', 'enc', 'order', 'dpos', 'span'],
    own: ['enc', 'order', 'dpos', 'span'],
    defaults: { d: 8, tokens: 'dog bites man', dpos: '64', span: 64 },
    limits: { d: [8, 16], span: [4, 512] },
    probe: vaswani,
  },
  {
    id: 'formula',
    module: () => import('./formula.js'),
    controls: ['d', 'len', 'base'],
    defaults: { d: 4, len: 3 },
    limits: { d: [2, 32], len: [1, 32] },
    probe: vaswani,
  },
  {
    id: 'heatmap',
    module: () => import('./heatmap.js'),
    controls: ['d', 'len', 'base', 'layout', 'cmap', 'start'],
    own: ['layout'],
    defaults: { d: 128, len: 100, layout: 'concat' },
    // a 2048-wide range: the slider moves in steps of 4 (the number box takes any even d)
    limits: { d: [4, 2048], len: [1, 4096] },
    steps: { d: 4 },
    probe: vaswani,
  },
  {
    id: 'waves',
    module: () => import('./waves.js'),
    // pos: the position of the clock picture, drawn in its own section
    controls: ['d', 'len', 'base', 'cols', 'pos'],
    own: ['pos'],
    defaults: { d: 32, len: 60, pos: 5 },
    limits: { d: [2, 512], len: [2, 1024] },
    probe: vaswani,
  },
  {
    id: 'binary',
    module: () => import('./binary.js'),
    controls: ['d', 'bits', 'base', 'cmap'],
    defaults: { d: 16, bits: 3 },
    limits: { d: [2, 64] },
    probe: vaswani,
  },
  {
    id: 'embeddings',
    module: () => import('./embeddings.js'),
    controls: ['d', 'len', 'tokens', 'edit', 'scale', 'dropout', 'seed', 'cmap'],
    own: ['edit'],
    defaults: { d: 16, len: 1000, dropout: 0.1 },
    limits: { d: [2, 64], len: [1, 4096] },
    probe: vaswani,
  },
  {
    id: 'relative',
    module: () => import('./relative.js'),
    controls: ['d', 'len', 'base', 'pos', 'k', 'cmap'],
    // the dot products are drawn on a sequential colormap
    defaults: { d: 64, len: 64, pos: 3, k: 2, cmap: 'viridis' },
    values: { cmap: () => SEQUENTIAL_COLORMAPS },
    limits: { d: [2, 256], len: [2, 256] },
    probe: vaswani,
  },
  {
    id: 'pitfalls',
    module: () => import('./pitfalls.js'),
    controls: ['d', 'len', 'start', 'tol', 'cmap'],
    defaults: { d: 16, len: 8, start: 0 },
    limits: { d: [2, 512], len: [1, 512] },
    probe: vaswani,
  },
  {
    id: 'variants',
    module: () => import('./variants.js'),
    controls: ['d', 'len', 'preset', 'layout', 'cmap'],
    own: ['layout'],
    defaults: { d: 64, len: 64, preset: 'vaswani', layout: 'preset' },
    // 'preset': each preset's own layout
    values: { layout: ['preset'] },
    limits: { d: [4, 512], len: [1, 512] },
    steps: { d: 1 },
    // the selected preset's own call decides (the cards of presets that refuse this d say why)
    probe: (pe, s) => presetCall(s.preset, 1, s.d, s.layout).run(pe),
  },
  {
    id: 'rope',
    module: () => import('./rope/index.js'),
    // every control sits beside the figure it drives; there is no d_model
    controls: ['base', 'seed', 'pos', 'k', 'factor', 'ctx', 'measure', 'model', 'at', 'merge', 'imgT', 'imgRows', 'imgCols', 'textBefore', 'textAfter', 'msec', 'gridH', 'gridW', 'patch', 'upto'],
    own: ['base', 'seed', 'pos', 'k', 'factor', 'ctx', 'measure', 'model', 'at', 'merge', 'imgT', 'imgRows', 'imgCols', 'textBefore', 'textAfter', 'msec', 'gridH', 'gridW', 'patch', 'upto'],
    defaults: { pos: 1, k: 2 },
    limits: { base: [2, 1e7] },
    // no d_model here: the lesson's smallest call, for the registry's shape
    probe: (pe, s) => pe.ropeFrequencies(2, { base: s.base }),
  },
];

export const LESSONS = Object.freeze(
  ENTRIES.map((lesson) => ({ ...lesson, controls: [...lesson.controls, ...EVERY_LESSON], own: [...(lesson.own ?? []), ...EVERY_LESSON] })),
);

export const LESSON_IDS = Object.freeze(LESSONS.map((l) => l.id));

/** The registry entry of a lesson id (undefined if there is none). */
export function lessonById(id) {
  return LESSONS.find((l) => l.id === id);
}
