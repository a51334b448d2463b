// The lessons, in order. This list drives the menu, the URL state (which
// fields a lesson keeps, their defaults and ranges) and which module draws
// the page. A lesson module is loaded through `module()`, so Node can read
// this list without a DOM.
//
// Entry: id (also the lesson's folder, lessons/<id>/); module() → import
// of the lesson (its index.js); strings: the lesson's own strings per
// language (lessons/<id>/strings.<lang>.js, merged into the site's table);
// letters: the letters of its formulas, in the order of its notation table
// (each with its one meaning for the whole course, model/notation.js); controls: the state fields the
// lesson uses (only these go into its URL, in field-registry order);
// own: those of them the lesson draws itself (not in the shared control
// panel); defaults; limits: narrower [min, max] per field; values: values
// an enum field takes besides the field's own; steps: coarser slider steps; probe(pe, state):
// the package call the lesson makes, at its smallest size, which throws the
// package's RangeError when the state's d_model is not accepted; sections: the
// lesson's sections a link can open it at (`#lesson=rope&section=precision`), in the
// page's order, each with the string key of its heading.
import { presetCall } from '../model/variants.js';
import { SEQUENTIAL_COLORMAPS } from '../model/fields.js';
import attentionEn from './attention/strings.en.js';
import attentionZh from './attention/strings.zh.js';
import formulaEn from './formula/strings.en.js';
import formulaZh from './formula/strings.zh.js';
import heatmapEn from './heatmap/strings.en.js';
import heatmapZh from './heatmap/strings.zh.js';
import wavesEn from './waves/strings.en.js';
import wavesZh from './waves/strings.zh.js';
import binaryEn from './binary/strings.en.js';
import binaryZh from './binary/strings.zh.js';
import embeddingsEn from './embeddings/strings.en.js';
import embeddingsZh from './embeddings/strings.zh.js';
import relativeEn from './relative/strings.en.js';
import relativeZh from './relative/strings.zh.js';
import pitfallsEn from './pitfalls/strings.en.js';
import pitfallsZh from './pitfalls/strings.zh.js';
import variantsEn from './variants/strings.en.js';
import variantsZh from './variants/strings.zh.js';
import ropeEn from './rope/strings.en.js';
import ropeZh from './rope/strings.zh.js';

// the probe of the lessons that draw the vaswani encoding (the package's default preset), in the lesson's layout
const vaswani = (pe, s) => pe.table(1, s.d, s.layout ? { layout: s.layout } : {});

// Fields every lesson keeps besides its own: its controls panel open or folded.
const EVERY_LESSON = ['panel'];

const ENTRIES = [
  {
    id: 'attention',
    module: () => import('./attention/index.js'),
    strings: { en: attentionEn, zh: attentionZh },
    letters: ['p', "p'", 'm', 'd', 'x', 'q', 'k', 'v', 'W', 'α', 'PE', 'R', 'i', 'ω'],
    // the head is drawn small enough to read every number: d_model 8 … 16
    controls: ['d', 'tokens', 'seed', 'enc', 'order', 'dpos', 'span'],
    own: ['enc', 'order', 'dpos', 'span'],
    defaults: { d: 8, tokens: 'dog bites man', dpos: '64', span: 64 },
    limits: { d: [8, 16], span: [4, 512] },
    probe: vaswani,
  },
  {
    id: 'formula',
    module: () => import('./formula/index.js'),
    strings: { en: formulaEn, zh: formulaZh },
    letters: ['PE', 'pos', 'd', 'i', 'c', 'ω', 'θ'],
    controls: ['d', 'len', 'base'],
    defaults: { d: 4, len: 3 },
    limits: { d: [2, 32], len: [1, 32] },
    probe: vaswani,
  },
  {
    id: 'heatmap',
    module: () => import('./heatmap/index.js'),
    strings: { en: heatmapEn, zh: heatmapZh },
    letters: ['d', 'i', 'ω', 'λ'],
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
    module: () => import('./waves/index.js'),
    strings: { en: wavesEn, zh: wavesZh },
    letters: ['p', 'd', 'i', 'ω', 'λ'],
    // pos: the position of the clock picture, drawn in its own section
    controls: ['d', 'len', 'base', 'cols', 'pos'],
    own: ['pos'],
    defaults: { d: 32, len: 60, pos: 5 },
    limits: { d: [2, 512], len: [2, 1024] },
    probe: vaswani,
  },
  {
    id: 'binary',
    module: () => import('./binary/index.js'),
    strings: { en: binaryEn, zh: binaryZh },
    letters: ['n', 'd', 'i', 'm'],
    controls: ['d', 'bits', 'base', 'cmap'],
    defaults: { d: 16, bits: 3 },
    limits: { d: [2, 64] },
    probe: vaswani,
  },
  {
    id: 'embeddings',
    module: () => import('./embeddings/index.js'),
    strings: { en: embeddingsEn, zh: embeddingsZh },
    letters: ['d', 'p'],
    controls: ['d', 'len', 'tokens', 'edit', 'scale', 'dropout', 'seed', 'cmap'],
    own: ['edit'],
    defaults: { d: 16, len: 1000, dropout: 0.1 },
    limits: { d: [2, 64], len: [1, 4096] },
    probe: vaswani,
  },
  {
    id: 'relative',
    module: () => import('./relative/index.js'),
    strings: { en: relativeEn, zh: relativeZh },
    letters: ['p', "p'", 'pos', 'm', 'd', 'i', 'ω', 'M', 'PE', 'φ', 'ψ'],
    controls: ['d', 'len', 'base', 'pos', 'k', 'cmap'],
    // the dot products are drawn on a sequential colormap
    defaults: { d: 64, len: 64, pos: 3, k: 2, cmap: 'viridis' },
    values: { cmap: () => SEQUENTIAL_COLORMAPS },
    limits: { d: [2, 256], len: [2, 256] },
    probe: vaswani,
  },
  {
    id: 'pitfalls',
    module: () => import('./pitfalls/index.js'),
    strings: { en: pitfallsEn, zh: pitfallsZh },
    letters: ['d', 'i', 'c', 'ω'],
    controls: ['d', 'len', 'start', 'tol', 'cmap'],
    defaults: { d: 16, len: 8, start: 0 },
    limits: { d: [2, 512], len: [1, 512] },
    probe: vaswani,
  },
  {
    id: 'variants',
    module: () => import('./variants/index.js'),
    strings: { en: variantsEn, zh: variantsZh },
    letters: ['d', 'D', 'i', 'c', 'ω', 'e'],
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
    strings: { en: ropeEn, zh: ropeZh },
    letters: ['p', 'm', 'q', 'k', 'x', "x'", 'b', 'W', 'r', 'j', 'ω', 'θ', 'λ', 'R', 'PE', 's', 'L', 'N', 'β', 'γ', 'κ', 'ℓ', 'h', 'l', 'f', 'g', "b'", 'S', 'a', 'G', 'μ', 'τ', 'η', 'υ', 'z', 'F', 'E'],
    // every control sits beside the figure it drives; there is no d_model
    controls: ['base', 'seed', 'pos', 'k', 'factor', 'ctx', 'measure', 'model', 'at', 'merge', 'imgT', 'imgRows', 'imgCols', 'textBefore', 'textAfter', 'msec', 'gridH', 'gridW', 'patch', 'upto'],
    own: ['base', 'seed', 'pos', 'k', 'factor', 'ctx', 'measure', 'model', 'at', 'merge', 'imgT', 'imgRows', 'imgCols', 'textBefore', 'textAfter', 'msec', 'gridH', 'gridW', 'patch', 'upto'],
    defaults: { pos: 1, k: 2 },
    limits: { base: [2, 1e7] },
    sections: [
      { id: 'dials', title: 'lessons.rope.dialsTitle' },
      { id: 'check', title: 'lessons.rope.checkTitle' },
      { id: 'layouts', title: 'lessons.rope.layoutsTitle' },
      { id: 'scaling', title: 'lessons.rope.scalingTitle' },
      { id: 'config', title: 'lessons.rope.configTitle' },
      { id: 'multimodal', title: 'lessons.rope.mm.title' },
      { id: 'grid', title: 'lessons.rope.grid.title' },
      { id: 'precision', title: 'lessons.rope.precisionTitle' },
      { id: 'half', title: 'lessons.rope.half.title' },
    ],
    // no d_model here: the lesson's smallest call, for the registry's shape
    probe: (pe, s) => pe.ropeFrequencies(2, { base: s.base }),
  },
];

export const LESSONS = Object.freeze(
  ENTRIES.map((lesson) => ({ ...lesson, controls: [...lesson.controls, ...EVERY_LESSON], own: [...(lesson.own ?? []), ...EVERY_LESSON], sections: lesson.sections ?? [] })),
);

export const LESSON_IDS = Object.freeze(LESSONS.map((l) => l.id));

/** The registry entry of a lesson id (undefined if there is none). */
export function lessonById(id) {
  return LESSONS.find((l) => l.id === id);
}

/** Every lesson's own strings in a language, in the registry's order (merged into i18n/<lang>.js). */
export function lessonStrings(lang) {
  return LESSONS.map((l) => l.strings[lang]);
}
