// The field registry: every value of the site's state, with its type, range,
// default, display format and the kind of control that edits it. Parsing,
// URL serialisation and the controls all read this one table and dispatch on
// a field's `type` (and its `control`), never on its name.
//
// Ranges may depend on the rest of the state (`min`/`max` as functions of it):
// fields are validated in the order of this table, so a range only depends on
// fields listed before it.
//
// Pure module: no DOM, so Node tests import it.
import { presets, layouts, vocabulary } from 'sinpe.wasm';
import { CONFIG_EXAMPLE_IDS } from './rope-lesson.js';
import { ENCODINGS, isPermutation } from './attention.js';
import { MROPE_SECTIONS } from './rope-multimodal.js';

// The package's limit on |position| (exclusive), from its vocabulary.
export const MAX_POSITION = vocabulary.limits.maxAbsPosition;
export const LAYOUTS = layouts;
export const PRESETS = presets;
// blues: d2l's figures (matplotlib 'Blues')
export const COLORMAPS = Object.freeze(['rdbu', 'puor', 'viridis', 'cividis', 'blues']);
// the colormaps whose colours run one way (no centre): for quantities of one sign
export const SEQUENTIAL_COLORMAPS = Object.freeze(COLORMAPS.filter((c) => ['viridis', 'cividis', 'blues'].includes(c)));
export const EDIT_LIMIT = 24; // edited embedding cells kept in the URL

const fixed2 = (v) => v.toFixed(2);
// a number as typed: the shortest text that reads back as the same number (0.001, 1e-7)
const plain = (v) => String(v);

/**
 * type: 'enum' (one of `values`), 'int', 'number', 'dModel' (an int the
 *   package must accept for the lesson's call, see state.js), 'intlist',
 *   'tokens', 'edits'.
 * control: 'slider' (range + number box), 'log-slider' (range over log10 of
 *   the value + number box), 'select', 'radio', 'text', 'none' (drawn by the
 *   lesson itself or not at all).
 * step: the slider's step (in log10 units for a log slider); sliderMin /
 *   sliderMax narrow the slider where the number box takes the whole range.
 */
export const FIELDS = {
  d: { type: 'dModel', min: 2, max: 2048, step: 2, default: 128, format: plain, control: 'slider' },
  len: { type: 'int', min: 1, max: 4096, step: 1, default: 100, format: plain, control: 'slider' },
  base: { type: 'number', min: 2, max: 1e8, step: 0.01, default: 10000, format: plain, control: 'log-slider' },
  layout: { type: 'enum', values: LAYOUTS, default: 'interleaved', control: 'radio' },
  preset: { type: 'enum', values: PRESETS, default: 'vaswani', control: 'select' },
  cmap: { type: 'enum', values: COLORMAPS, default: 'rdbu', control: 'select' },
  // first position shown: the rows shown stay inside |position| < MAX_POSITION
  start: { type: 'int', min: 0, max: (s) => MAX_POSITION - (s.len ?? 1), step: 1, sliderMax: 100000, default: 0, format: plain, control: 'slider' },
  // columns plotted as curves
  cols: { type: 'intlist', min: 0, max: (s) => (s.d ?? 2048) - 1, maxItems: 8, default: [6, 7, 8, 9], control: 'text' },
  bits: { type: 'int', min: 2, max: 8, step: 1, default: 3, format: plain, control: 'slider' },
  tokens: { type: 'tokens', maxChars: 80, maxItems: 12, default: 'the cat sat on the mat', control: 'text' },
  // edited cells of the token embeddings X: `row.col_value` items joined by `*`
  // (characters URLSearchParams leaves as they are), e.g. `0.3_1.5*2.7_-0.25`
  edit: { type: 'edits', min: -4, max: 4, maxItems: EDIT_LIMIT, default: '', control: 'none' },
  scale: { type: 'number', min: 0, max: 4, step: 0.05, default: 1, format: fixed2, control: 'slider' }, // size of the token embeddings
  dropout: { type: 'number', min: 0, max: 0.9, step: 0.05, default: 0, format: fixed2, control: 'slider' },
  seed: { type: 'int', min: 0, max: 9999, step: 1, default: 1, format: plain, control: 'slider' },
  pos: { type: 'int', min: 0, max: MAX_POSITION - 4097, step: 1, sliderMax: 1000, default: 3, format: plain, control: 'slider' },
  k: { type: 'int', min: -4096, max: 4096, step: 1, sliderMin: -64, sliderMax: 64, default: 2, format: plain, control: 'slider' }, // relative offset
  tol: { type: 'number', min: 1e-8, max: 1, step: 0.25, default: 1e-3, format: plain, control: 'log-slider' }, // NumPy-style tolerance
  // the rope lesson (RoPE): long-context scaling factor s and original context L, the
  // chart's measure, the config.json example shown, the position whose angle
  // precision is inspected
  factor: { type: 'number', min: 1, max: 64, step: 0.01, default: 8, format: plain, control: 'log-slider' },
  ctx: { type: 'int', min: 256, max: 1048576, step: 0.01, default: 8192, format: plain, control: 'log-slider' },
  measure: { type: 'enum', values: ['wavelength', 'rotations'], default: 'wavelength', control: 'radio' },
  model: { type: 'enum', values: CONFIG_EXAMPLE_IDS, default: 'llama31', control: 'none' },
  at: { type: 'int', min: 1, max: MAX_POSITION - 1, step: 0.01, default: 65535, format: plain, control: 'log-slider' },
  // the attention lesson: the position encoding of its head, the order its
  // tokens are shuffled into (token i of the shuffled sentence is token
  // order[i] of the typed one; [] = as typed), and the width and the largest
  // distance of its position-only chart
  enc: { type: 'enum', values: ENCODINGS, default: 'none', control: 'radio' },
  order: { type: 'perm', default: [], control: 'none' },
  dpos: { type: 'enum', values: ['8', '16', '32', '64', '128', '256', '512'], default: '64', control: 'select' },
  span: { type: 'int', min: 4, max: 1024, step: 1, default: 64, format: plain, control: 'slider' },
  // the rope lesson's multimodal sections: a text + image sequence (text tokens
  // before and after; the image's frames G_t and its rows and columns of tokens,
  // each token μ × μ patches for the spatial merge size μ, so the patch grid
  // G_t × G_h × G_w has G_h and G_w multiples of μ as the processor makes them), the mrope_section
  // its pairs are split by, Pixtral's patch grid and the patch looked at
  // (row-major index), and the last position of the half-precision chart
  merge: { type: 'int', min: 1, max: 4, step: 1, default: 2, format: plain, control: 'slider' },
  imgT: { type: 'int', min: 1, max: 3, step: 1, default: 1, format: plain, control: 'slider' },
  imgRows: { type: 'int', min: 1, max: 8, step: 1, default: 2, format: plain, control: 'slider' },
  imgCols: { type: 'int', min: 1, max: 8, step: 1, default: 3, format: plain, control: 'slider' },
  textBefore: { type: 'int', min: 0, max: 8, step: 1, default: 3, format: plain, control: 'slider' },
  textAfter: { type: 'int', min: 0, max: 8, step: 1, default: 2, format: plain, control: 'slider' },
  msec: { type: 'enum', values: MROPE_SECTIONS, default: MROPE_SECTIONS[0], control: 'select' },
  gridH: { type: 'int', min: 1, max: 8, step: 1, default: 3, format: plain, control: 'slider' },
  gridW: { type: 'int', min: 1, max: 8, step: 1, default: 4, format: plain, control: 'slider' },
  patch: { type: 'int', min: 0, max: (s) => (s.gridH ?? 8) * (s.gridW ?? 8) - 1, step: 1, default: 6, format: plain, control: 'none' },
  upto: { type: 'int', min: 16, max: 32768, step: 0.01, default: 4096, format: plain, control: 'log-slider' },
  // every lesson: whether its controls panel, pinned at the top of a phone's
  // screen, is open or folded to its toggle (lib/panel.js)
  panel: { type: 'enum', values: ['open', 'closed'], default: 'open', control: 'none' },
};

export const FIELD_KEYS = Object.freeze(Object.keys(FIELDS));

/** The default value of every field. */
export function fieldDefaults() {
  return Object.fromEntries(FIELD_KEYS.map((key) => [key, structuredClone(FIELDS[key].default)]));
}

const bound = (b, state) => (typeof b === 'function' ? b(state) : b);

/**
 * The range [min, max] of a numeric field for a state: the field's range,
 * narrowed by the lesson's `limits` (lesson = the registry entry).
 */
export function rangeOf(key, state, lesson) {
  const field = FIELDS[key];
  const [lmin, lmax] = lesson?.limits?.[key] ?? [-Infinity, Infinity];
  return [Math.max(lmin, bound(field.min, state)), Math.min(lmax, bound(field.max, state))];
}

/**
 * The values an enum field may take in a lesson: a lesson's `values` entry is
 * either a list of values added in front, or a function of the field's values.
 */
export function valuesOf(key, lesson) {
  const own = lesson?.values?.[key];
  if (typeof own === 'function') return own(FIELDS[key].values);
  return own ? [...own, ...FIELDS[key].values] : FIELDS[key].values;
}

/** The slider step of a field in a lesson (lessons may coarsen a slider). */
export function stepOf(key, lesson) {
  return lesson?.steps?.[key] ?? FIELDS[key].step;
}

/** How a value is shown in a number box, a slider's aria-valuetext and messages. */
export function formatField(key, value) {
  const field = FIELDS[key];
  if (Array.isArray(value)) return value.join(', ');
  return field?.format ? field.format(value) : String(value);
}

/** The URL form of a value. */
export function serializeField(key, value) {
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;
const TOKEN_RE = /^[\p{L}\p{N}' -]*$/u;
const EDIT_RE = /^(\d{1,2})\.(\d{1,4})_([+-]?(\d+(\.\d*)?|\.\d+))$/;

const rejected = { value: null, problem: 'rejected' };

/** A number from a string (URL or text box) or a number; null if it is not one. */
function toNumber(raw) {
  let v = raw;
  if (typeof v === 'string') {
    const s = v.trim().replace(/\u2212/g, '-');
    if (s.length > 24 || !NUMBER_RE.test(s)) return null;
    v = Number(s);
  }
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

// One validator per type: (raw, field, state, lesson, key) → { value, problem }.
const VALIDATORS = {
  enum(raw, field, state, lesson, key) {
    return valuesOf(key, lesson).includes(raw) ? { value: raw, problem: null } : rejected;
  },
  int(raw, field, state, lesson, key) {
    const v = toNumber(raw);
    if (v === null) return rejected;
    const [min, max] = rangeOf(key, state, lesson);
    const value = Math.min(max, Math.max(min, Math.round(v)));
    return { value, problem: value === v ? null : 'clamped' };
  },
  number(raw, field, state, lesson, key) {
    const v = toNumber(raw);
    if (v === null) return rejected;
    const [min, max] = rangeOf(key, state, lesson);
    const value = Math.min(max, Math.max(min, v));
    return { value, problem: value === v ? null : 'clamped' };
  },
  // the range here; whether the package accepts the value is checked with the whole state (state.js)
  dModel(raw, field, state, lesson, key) {
    return VALIDATORS.int(raw, field, state, lesson, key);
  },
  intlist(raw, field, state, lesson, key) {
    if (String(raw).length > 200) return rejected;
    const parts = Array.isArray(raw) ? raw.map(String) : String(raw).split(',');
    const [min, max] = rangeOf(key, state, lesson);
    const values = [];
    let problem = null;
    for (const part of parts) {
      const s = part.trim();
      if (s === '') continue;
      if (!/^\d{1,6}$/.test(s)) return rejected;
      const n = Number(s);
      const c = Math.min(max, Math.max(min, n));
      if (c !== n) problem = 'clamped';
      if (!values.includes(c)) values.push(c);
    }
    if (values.length === 0) return rejected;
    if (values.length > field.maxItems) {
      values.length = field.maxItems;
      problem = 'clamped';
    }
    return { value: values, problem };
  },
  tokens(raw, field) {
    if (typeof raw !== 'string' || raw.length > field.maxChars || !TOKEN_RE.test(raw)) return rejected;
    const words = raw.split(/\s+/).filter(Boolean);
    if (words.length === 0) return rejected;
    if (words.length > field.maxItems) return { value: words.slice(0, field.maxItems).join(' '), problem: 'clamped' };
    return { value: words.join(' '), problem: null };
  },
  // An order of the state's tokens: a permutation of 0 … n−1 (n = the number
  // of tokens), as a list or its comma-separated text; the identity is [].
  perm(raw, field, state) {
    const text = Array.isArray(raw) ? raw.join(',') : raw;
    if (typeof text !== 'string' || text.length > 60) return rejected;
    if (text === '') return { value: [], problem: null };
    if (!/^\d{1,2}(,\d{1,2})*$/.test(text)) return rejected;
    const order = text.split(',').map(Number);
    const n = String(state.tokens ?? '').split(' ').filter(Boolean).length;
    if (!isPermutation(order, n)) return rejected;
    return { value: order.every((v, i) => v === i) ? [] : order, problem: null };
  },
  // Edited cells: each inside the current tokens × d_model table (others are
  // dropped), values clamped to [min, max] and rounded to 3 decimals, at most
  // maxItems of them; a later edit of the same cell wins.
  edits(raw, field, state) {
    if (typeof raw !== 'string' || raw.length > 400) return rejected;
    if (raw === '') return { value: '', problem: null };
    const rows = String(state.tokens ?? '').split(' ').filter(Boolean).length;
    const columns = state.d ?? 0;
    const cells = new Map();
    let problem = null;
    for (const item of raw.split('*')) {
      const m = item.match(EDIT_RE);
      if (!m) return rejected;
      const row = Number(m[1]);
      const col = Number(m[2]);
      const v = Number(m[3]);
      if (row >= rows || col >= columns) {
        problem = 'clamped';
        continue;
      }
      const value = +Math.min(field.max, Math.max(field.min, v)).toFixed(3);
      if (value !== v) problem = 'clamped';
      cells.delete(`${row}.${col}`);
      cells.set(`${row}.${col}`, { row, col, value });
    }
    let edits = [...cells.values()];
    if (edits.length > field.maxItems) {
      edits = edits.slice(0, field.maxItems);
      problem = 'clamped';
    }
    return { value: formatEdits(edits), problem };
  },
};

/**
 * Validates one field. Returns { value, problem } where problem is null,
 * 'clamped' (value changed to fit) or 'rejected' (value is null: keep the old one).
 * `raw` may be a string (from a URL or a text box) or an already typed value.
 */
export function validateField(key, raw, state, lesson) {
  const field = FIELDS[key];
  if (!field) return rejected;
  return VALIDATORS[field.type](raw, field, state ?? {}, lesson, key);
}

/** Edited cells as [{ row, col, value }] (the string must be valid). */
export function parseEdits(text) {
  if (!text) return [];
  return text.split('*').map((item) => {
    const [, row, col, value] = item.match(EDIT_RE);
    return { row: Number(row), col: Number(col), value: Number(value) };
  });
}

/** The URL form of edited cells (sorted by row then column, values rounded to 3 decimals). */
export function formatEdits(edits) {
  return [...edits]
    .sort((a, b) => a.row - b.row || a.col - b.col)
    .map((e) => `${e.row}.${e.col}_${+e.value.toFixed(3)}`)
    .join('*');
}
