// The "Check a model" page's pure parts (no DOM, so Node tests can import
// them): which dropped file is which, the i18n keys of the inspector's codes,
// and the deviation of a cache from exact, row by row.

/** The roles of dropped files: { model, config, data: [...] , ignored: [...] } by name. */
export function sortFiles(files) {
  const out = { models: [], configs: [], data: [] };
  for (const f of files) {
    const name = f.name.toLowerCase();
    if (name.endsWith('.onnx')) out.models.push(f);
    else if (name.endsWith('.json')) out.configs.push(f);
    else out.data.push(f);
  }
  return out;
}

// The fields of an ONNX ModelProto (onnx.proto) and their protobuf wire types
// (0: varint, 2: length-delimited): what the first bytes of a model can hold.
const MODEL_FIELDS = new Map([
  [1, 0], // ir_version
  [2, 2], // producer_name
  [3, 2], // producer_version
  [4, 2], // domain
  [5, 0], // model_version
  [6, 2], // doc_string
  [7, 2], // graph
  [8, 2], // opset_import
  [14, 2], // metadata_props
  [20, 2], // training_info
  [25, 2], // functions
  [26, 2], // configuration
]);

/**
 * Whether bytes (the first few KiB of a file of `size` bytes) can start an ONNX
 * model: a protobuf whose fields, read from the start, are ModelProto's with
 * their wire types (an exporter writes ir_version first: 0x08 and a small
 * varint), lengths inside the file, at least one field. Text (a .txt, a
 * config) and raw tensor bytes fail at the first or second field.
 */
export function looksLikeModel(bytes, size = bytes.length) {
  let i = 0;
  let fields = 0;
  const varint = () => {
    let v = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      if (i >= bytes.length) return null;
      const b = bytes[i++];
      v += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return v;
    }
    return null;
  };
  while (i < bytes.length) {
    const tag = varint();
    if (tag === null) return fields > 0;
    const [field, wire] = [Math.floor(tag / 8), tag % 8];
    if (MODEL_FIELDS.get(field) !== wire) return false;
    const value = varint();
    if (value === null) return fields > 0;
    if (field === 1 && (value < 1 || value > 100)) return false; // an IR version (1 … 11 today)
    if (wire === 2) {
      if (i + value > size) return false;
      i += value;
    }
    fields++;
  }
  return fields > 0;
}

/**
 * The external data files a model names (`wanted`, its locations) against
 * those given (a Map name → file): { used: names given and named, missing:
 * named but not given, unused: given but not named }.
 */
export function externalPlan(wanted, given) {
  const want = [...wanted];
  return {
    used: want.filter((n) => given.has(n)),
    missing: want.filter((n) => !given.has(n)),
    unused: [...given.keys()].filter((n) => !wanted.has(n)),
  };
}

/**
 * What the extend form proposes: the rows the caches hold now (each distinct
 * count, ascending) and the config's length (max_position_embeddings) when it
 * is more than they hold, else null (the page asks).
 */
export function extendProposal(rows, maxPositions) {
  const now = [...new Set(rows)].sort((a, b) => a - b);
  const proposal = Number.isInteger(maxPositions) && maxPositions > Math.max(...now) ? maxPositions : null;
  return { now, proposal };
}

// The inspector's codes (docs/onnx.md) → the page's string keys. A code the
// page does not know is shown through the 'other' key, never as the raw code.
export const VERDICTS = ['exact', 'float32', 'mismatch', 'unchecked'];
export const MISTAKES = [
  'default-rope-type',
  'wrong-base',
  'wrong-factor',
  'wrong-attention-factor',
  'wrong-rotary-dim',
  'layout-half-vs-interleaved',
  'cos-sin-swapped',
  'rounded-twice',
  'short-long-exchanged',
  'other-layer-type',
  'mrope-section',
  'layout-attribute',
  'no-rope-found',
  'unknown',
];
export const GROUPS = ['default', 'small', 'large', 'global', 'local', 'concat'];
export const ERRORS = ['bad_protobuf', 'missing_external', 'external_out_of_range', 'bad_tensor', 'no_rope', 'bad_json', 'no_model', 'two_models', 'bad_rows'];

// The lesson section that teaches each verdict and diagnosis: the page links to it beside the sentence
// that explains it (`#lesson=rope&section=…`, state.js's sectionHash). null: no section teaches it —
// 'mismatch' only says that neither rule fits (its diagnosis, below it, links to what went wrong);
// 'no-rope-found' is about finding the cache in the graph and 'unknown' names no mistake, which no lesson covers.
export const TEACHES = Object.freeze({
  verdict: {
    exact: { lesson: 'rope', section: 'half' }, // the exact values rounded once to the element type
    float32: { lesson: 'rope', section: 'precision' }, // the float32 angle's error at long positions
    mismatch: null,
    unchecked: { lesson: 'rope', section: 'config' }, // what a config.json says about the RoPE
  },
  mistake: {
    'default-rope-type': { lesson: 'rope', section: 'scaling' },
    'wrong-base': { lesson: 'rope', section: 'dials' }, // ω_j = b^(−2j/r): the base sets every dial's speed
    'wrong-factor': { lesson: 'rope', section: 'scaling' },
    'wrong-attention-factor': { lesson: 'rope', section: 'scaling' }, // YaRN's 0.1 ln s + 1
    'wrong-rotary-dim': { lesson: 'rope', section: 'config' }, // head_dim, partial_rotary_factor
    'layout-half-vs-interleaved': { lesson: 'rope', section: 'layouts' },
    'cos-sin-swapped': { lesson: 'rope', section: 'dials' }, // a pair turned by p·ω_j: (cos, sin) of its angle
    'rounded-twice': { lesson: 'rope', section: 'half' },
    'short-long-exchanged': { lesson: 'rope', section: 'config' }, // LongRoPE's short_factor and long_factor, both drawn
    'other-layer-type': { lesson: 'rope', section: 'config' }, // a config's base and scaling (per layer kind: not taught)
    'mrope-section': { lesson: 'rope', section: 'multimodal' },
    'layout-attribute': { lesson: 'rope', section: 'layouts' },
    'no-rope-found': null,
    unknown: null,
  },
});

/** The lesson section ({ lesson, section }) that teaches a verdict (kind 'verdict') or diagnosis ('mistake'), or null. */
export function teachingSection(kind, code) {
  const table = TEACHES[kind];
  if (!table) throw new RangeError(`teachingSection: kind must be 'verdict' or 'mistake', got ${String(kind)}`);
  return Object.hasOwn(table, code) ? table[code] : null;
}

export const verdictKey = (v) => `checkModel.verdict.${VERDICTS.includes(v) ? v : 'other'}`;
export const mistakeKey = (m) => `checkModel.mistake.${MISTAKES.includes(m) ? m : 'other'}`;
export const groupKey = (g) => `checkModel.group.${GROUPS.includes(g) ? g : 'other'}`;
export const errorKey = (code) => `checkModel.error.${ERRORS.includes(code) ? code : 'other'}`;
export const layoutKey = (interleaved) => `checkModel.layout.${interleaved === 1 ? 'interleaved' : interleaved === 0 ? 'half' : 'unknown'}`;

/** The names an error message quotes ('name' in single quotes), without repeats. */
export function quotedNames(message) {
  return [...new Set([...String(message).matchAll(/'([^']+)'/g)].map((m) => m[1]))];
}

/**
 * |a − ref| per row (max over the row's `width` columns of cos and sin),
 * and where the largest is: { perRow: Float64Array(rows), max: { value, row, col, which } }.
 */
export function rowDeviation(a, ref, rows, width) {
  const perRow = new Float64Array(rows);
  const max = { value: 0, row: 0, col: 0, which: 'cos' };
  for (const which of ['cos', 'sin']) {
    const x = a[which];
    const y = ref[which];
    for (let i = 0; i < rows * width; i++) {
      const d = Math.abs(x[i] - y[i]);
      const row = Math.floor(i / width);
      if (d > perRow[row]) perRow[row] = d;
      if (d > max.value) Object.assign(max, { value: d, row, col: i % width, which });
    }
  }
  return { perRow, max };
}

/**
 * A row series for a log-axis chart: at most `buckets` points, each the
 * largest value of its bucket of rows at the bucket's first row, zeros (a
 * row equal to exact) drawn at `floor`.
 */
export function chartPoints(perRow, buckets = 600, floor = 1e-10) {
  const n = perRow.length;
  const step = Math.max(1, Math.ceil(n / buckets));
  const points = [];
  for (let start = 0; start < n; start += step) {
    let m = 0;
    for (let i = start; i < Math.min(n, start + step); i++) m = Math.max(m, perRow[i]);
    points.push([start, Math.max(floor, m)]);
  }
  return points;
}

/** Element values of a float tensor's little-endian bytes (float32, float16, bfloat16) as float64. */
export function decodeCache(bytes, dtype) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dtype === 'float32') return Float64Array.from({ length: bytes.byteLength / 4 }, (_, i) => view.getFloat32(4 * i, true));
  const n = bytes.byteLength / 2;
  const out = new Float64Array(n);
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  for (let i = 0; i < n; i++) {
    const b = view.getUint16(2 * i, true);
    if (dtype === 'bfloat16') {
      u[0] = b << 16;
      out[i] = f[0];
    } else {
      const s = b & 0x8000 ? -1 : 1;
      const e = (b >> 10) & 0x1f;
      const m = b & 0x3ff;
      out[i] = e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
    }
  }
  return out;
}
