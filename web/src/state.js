// The one state object of the site and its URL form.
//
// Every control reads and writes this object; every lesson draws itself from
// it. It is serialised into the location hash (`#lesson=heatmap&d=128&…`) so
// any view can be shared. Values coming from a URL are untrusted: each one is
// parsed strictly, clamped into its range (or rejected), and every change is
// reported as a message the page shows. No URL value ever reaches the DOM
// except as a validated number or one of a fixed list of names.
//
// Pure module: no DOM access, so Node tests can import it.

import { presets, layouts } from 'sinpe.wasm';

export const LESSONS = Object.freeze([
  'formula',
  'heatmap',
  'waves',
  'binary',
  'embeddings',
  'relative',
  'pitfalls',
  'variants',
]);
export const LANGS = Object.freeze(['en', 'zh']);
// The package's own lists, so the site offers exactly what the API accepts.
export const LAYOUTS = layouts;
// lesson 8: 'preset' = each preset's own layout, or one layout for all of them
export const VARIANT_LAYOUTS = Object.freeze(['preset', ...LAYOUTS]);
export const PRESETS = presets;
export const COLORMAPS = Object.freeze(['rdbu', 'puor', 'viridis', 'cividis']);

export const MAX_POSITION = 2 ** 24; // sinpe's contract: |position| < 2^24
export const EDIT_LIMIT = 24; // edited embedding cells kept in the URL

// Field types. `min`/`max` are the widest ranges; lessons narrow some of them.
const FIELDS = {
  lesson: { type: 'enum', values: LESSONS },
  lang: { type: 'enum', values: LANGS },
  d: { type: 'int', min: 4, max: 2048, step: 4 }, // d_model
  len: { type: 'int', min: 1, max: 4096 }, // max_len, the number of rows shown
  base: { type: 'number', min: 2, max: 1e8 },
  layout: { type: 'enum', values: LAYOUTS },
  preset: { type: 'enum', values: PRESETS },
  cmap: { type: 'enum', values: COLORMAPS },
  start: { type: 'int', min: 0, max: MAX_POSITION - 1 }, // first position shown
  cols: { type: 'intlist', min: 0, max: 2047, maxItems: 8 }, // columns plotted as curves
  bits: { type: 'int', min: 2, max: 8 },
  tokens: { type: 'tokens', maxChars: 80, maxItems: 12 },
  // edited cells of the token embeddings X: `row.col_value` items joined by `*`
  // (characters URLSearchParams leaves as they are), e.g. `0.3_1.5*2.7_-0.25`
  edit: { type: 'edits', min: -4, max: 4, maxItems: EDIT_LIMIT },
  scale: { type: 'number', min: 0, max: 4 }, // size of the token embeddings
  dropout: { type: 'number', min: 0, max: 0.9 },
  seed: { type: 'int', min: 0, max: 9999 },
  pos: { type: 'int', min: 0, max: MAX_POSITION - 4097 },
  k: { type: 'int', min: -4096, max: 4096 }, // relative offset
  tol: { type: 'number', min: -8, max: 0 }, // log10 of the tolerance
};

const COMMON_DEFAULTS = {
  lang: 'en',
  d: 128,
  len: 100,
  base: 10000,
  layout: 'interleaved',
  preset: 'vaswani',
  cmap: 'rdbu',
  start: 0,
  cols: [6, 7, 8, 9],
  bits: 3,
  tokens: 'the cat sat on the mat',
  edit: '',
  scale: 1,
  dropout: 0,
  seed: 1,
  pos: 3,
  k: 2,
  tol: -3,
};

// What each lesson uses (only these are written to its URL), its defaults
// and its narrower ranges.
export const LESSON_SPECS = {
  formula: { keys: ['d', 'len', 'base'], defaults: { d: 4, len: 3 }, limits: { d: [4, 32], len: [1, 32] } },
  heatmap: {
    keys: ['d', 'len', 'base', 'layout', 'cmap', 'start'],
    defaults: { d: 128, len: 100, layout: 'concat' },
    limits: { d: [4, 2048], len: [1, 4096] },
  },
  waves: { keys: ['d', 'len', 'base', 'cols'], defaults: { d: 32, len: 60 }, limits: { d: [4, 512], len: [2, 1024] } },
  binary: { keys: ['d', 'bits', 'base', 'cmap'], defaults: { d: 16, bits: 3 }, limits: { d: [4, 64] } },
  embeddings: {
    keys: ['d', 'len', 'tokens', 'edit', 'scale', 'dropout', 'seed', 'cmap'],
    defaults: { d: 16, len: 1000, dropout: 0.1 },
    limits: { d: [4, 64], len: [1, 4096] },
  },
  relative: {
    keys: ['d', 'len', 'base', 'pos', 'k', 'cmap'],
    defaults: { d: 64, len: 64, pos: 3, k: 2 },
    limits: { d: [4, 256], len: [2, 256] },
  },
  pitfalls: {
    keys: ['d', 'len', 'start', 'tol', 'cmap'],
    defaults: { d: 16, len: 8, start: 0 },
    limits: { d: [4, 512], len: [1, 512] },
  },
  variants: {
    keys: ['d', 'len', 'preset', 'layout', 'cmap'],
    defaults: { d: 64, len: 64, preset: 'vaswani', layout: 'preset' },
    values: { layout: VARIANT_LAYOUTS },
    limits: { d: [4, 512], len: [1, 512] },
  },
};

/** The default state of a lesson. */
export function defaultState(lesson = 'formula', lang = 'en') {
  const spec = LESSON_SPECS[lesson];
  return { ...structuredClone(COMMON_DEFAULTS), ...structuredClone(spec.defaults), lesson, lang };
}

/** The range [min, max] of a numeric field in a lesson (and given the rest of the state). */
export function rangeOf(key, state) {
  const field = FIELDS[key];
  let [min, max] = LESSON_SPECS[state.lesson]?.limits?.[key] ?? [field.min, field.max];
  // Rows shown must stay inside |position| < 2^24.
  if (key === 'start') max = Math.min(max, MAX_POSITION - (state.len ?? 1));
  if (key === 'cols') max = Math.min(max, (state.d ?? 2048) - 1);
  return [min, max];
}

const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;
const TOKEN_RE = /^[\p{L}\p{N}' -]*$/u;

/**
 * Validates one field. Returns { value, problem } where problem is null,
 * 'clamped' (value changed to fit) or 'rejected' (value is null: keep the old one).
 * `raw` may be a string (from a URL or a text box) or an already typed value.
 */
export function validateField(key, raw, state) {
  const field = FIELDS[key];
  if (!field) return { value: null, problem: 'rejected' };
  if (field.type === 'enum') {
    const values = LESSON_SPECS[state?.lesson]?.values?.[key] ?? field.values;
    return values.includes(raw) ? { value: raw, problem: null } : { value: null, problem: 'rejected' };
  }
  if (field.type === 'int' || field.type === 'number') {
    let v = raw;
    if (typeof v === 'string') {
      if (v.length > 24 || !NUMBER_RE.test(v.trim())) return { value: null, problem: 'rejected' };
      v = Number(v);
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) return { value: null, problem: 'rejected' };
    const [min, max] = rangeOf(key, state);
    let value = v;
    if (field.type === 'int') {
      value = Math.round(value);
      if (field.step) value = Math.round(value / field.step) * field.step;
    }
    value = Math.min(max, Math.max(min, value));
    if (field.type === 'int' && field.step) {
      // clamping may have left a value off the step grid (e.g. max 2047)
      value = Math.min(Math.floor(max / field.step) * field.step, Math.max(Math.ceil(min / field.step) * field.step, value));
    }
    return { value, problem: value === v ? null : 'clamped' };
  }
  if (field.type === 'intlist') {
    const parts = Array.isArray(raw) ? raw.map(String) : String(raw).split(',');
    if (String(raw).length > 200) return { value: null, problem: 'rejected' };
    const [min, max] = rangeOf(key, state);
    const values = [];
    let problem = null;
    for (const part of parts) {
      const s = part.trim();
      if (s === '') continue;
      if (!/^\d{1,6}$/.test(s)) return { value: null, problem: 'rejected' };
      const n = Number(s);
      const c = Math.min(max, Math.max(min, n));
      if (c !== n) problem = 'clamped';
      if (!values.includes(c)) values.push(c);
    }
    if (values.length === 0) return { value: null, problem: 'rejected' };
    if (values.length > field.maxItems) {
      values.length = field.maxItems;
      problem = 'clamped';
    }
    return { value: values, problem };
  }
  if (field.type === 'tokens') {
    if (typeof raw !== 'string' || raw.length > field.maxChars || !TOKEN_RE.test(raw))
      return { value: null, problem: 'rejected' };
    let words = raw.split(/\s+/).filter(Boolean);
    let problem = null;
    if (words.length === 0) return { value: null, problem: 'rejected' };
    if (words.length > field.maxItems) {
      words = words.slice(0, field.maxItems);
      problem = 'clamped';
    }
    const value = words.join(' ');
    return { value, problem: problem ?? (value === raw ? null : null) };
  }
  if (field.type === 'edits') return validateEdits(raw, field, state);
  return { value: null, problem: 'rejected' };
}

const EDIT_RE = /^(\d{1,2})\.(\d{1,4})_([+-]?(\d+(\.\d*)?|\.\d+))$/;

/** Edited cells as [{ row, col, value }] sorted by row then column (the string must be valid). */
export function parseEdits(text) {
  if (!text) return [];
  return text.split('*').map((item) => {
    const [, row, col, value] = item.match(EDIT_RE);
    return { row: Number(row), col: Number(col), value: Number(value) };
  });
}

/** The URL form of edited cells (sorted, values rounded to 3 decimals). */
export function formatEdits(edits) {
  return [...edits]
    .sort((a, b) => a.row - b.row || a.col - b.col)
    .map((e) => `${e.row}.${e.col}_${+e.value.toFixed(3)}`)
    .join('*');
}

/**
 * Edited cells: each inside the current tokens × d_model table (others are
 * dropped), values clamped to [min, max] and rounded to 3 decimals, at most
 * maxItems of them; a later edit of the same cell wins.
 */
function validateEdits(raw, field, state) {
  if (typeof raw !== 'string' || raw.length > 400) return { value: null, problem: 'rejected' };
  if (raw === '') return { value: '', problem: null };
  const rows = String(state.tokens ?? '').split(' ').filter(Boolean).length;
  const columns = state.d ?? 0;
  const cells = new Map();
  let problem = null;
  for (const item of raw.split('*')) {
    const m = item.match(EDIT_RE);
    if (!m) return { value: null, problem: 'rejected' };
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
  const value = formatEdits(edits);
  return { value, problem: problem ?? (value === raw ? null : null) };
}

/**
 * Brings every field of a state into the ranges of its lesson (used after a
 * lesson change or a change of d/len, which move other fields' ranges).
 */
export function normalize(state) {
  const out = { ...state };
  const keys = LESSON_SPECS[state.lesson]?.keys ?? [];
  for (const key of ['d', 'len', 'start', 'pos', 'k', 'bits', 'base', 'scale', 'dropout', 'seed', 'tol', 'cols', 'edit']) {
    if (!keys.includes(key)) continue;
    const { value } = validateField(key, out[key], out);
    if (value !== null) out[key] = value;
  }
  return out;
}

/**
 * Parses a location hash. Returns { state, messages }; messages are
 * { key, problem: 'clamped'|'rejected', value } for known keys (value is the
 * value now in use) and { problem: 'unknown', count } for unknown keys.
 * `fallbackLang` is used when the hash names no language.
 */
export function parseHash(hash, fallbackLang = 'en') {
  const params = new URLSearchParams(String(hash ?? '').replace(/^#/, '').slice(0, 2000));
  const messages = [];
  let lesson = params.get('lesson');
  if (lesson !== null && !LESSONS.includes(lesson)) {
    messages.push({ key: 'lesson', problem: 'rejected', value: 'formula' });
    lesson = null;
  }
  let lang = params.get('lang');
  if (lang !== null && !LANGS.includes(lang)) {
    messages.push({ key: 'lang', problem: 'rejected', value: fallbackLang });
    lang = null;
  }
  const state = defaultState(lesson ?? 'formula', lang ?? (LANGS.includes(fallbackLang) ? fallbackLang : 'en'));
  let unknown = 0;
  // d and len first: other ranges depend on them.
  const order = ['d', 'len', ...Object.keys(FIELDS).filter((k) => k !== 'd' && k !== 'len')];
  const seen = new Set();
  for (const key of order) {
    if (key === 'lesson' || key === 'lang') continue;
    const raw = params.get(key);
    if (raw === null) continue;
    seen.add(key);
    const { value, problem } = validateField(key, raw, state);
    if (value !== null) state[key] = value;
    if (problem) messages.push({ key, problem, value: state[key] });
  }
  for (const key of params.keys()) if (!(key in FIELDS) && !seen.has(key)) unknown++;
  if (unknown > 0) messages.push({ problem: 'unknown', count: unknown });
  return { state: normalize(state), messages };
}

function formatValue(v) {
  if (Array.isArray(v)) return v.join(',');
  return String(v);
}

/** The hash of a state: the lesson, the language and what differs from the lesson's defaults. */
export function toHash(state) {
  const defaults = defaultState(state.lesson, state.lang);
  const params = new URLSearchParams();
  params.set('lesson', state.lesson);
  for (const key of LESSON_SPECS[state.lesson].keys) {
    if (formatValue(state[key]) !== formatValue(defaults[key])) params.set(key, formatValue(state[key]));
  }
  params.set('lang', state.lang);
  return '#' + params.toString();
}
