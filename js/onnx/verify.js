// Verifying each RoPE site of a model against its config.json: the exact
// recipe (the package's float64 values rounded once to the cache's dtype) and
// the float32 recipe (PyTorch's float32 steps), and when neither matches, a
// diagnosis found by trying the plausible mistakes.
import { decodeFloats, FLOAT, FLOAT16, DTYPE_NAMES, OnnxError, halfToNumber, bfloat16ToNumber } from './read.js';

const halfValue = (b, dataType) => (dataType === FLOAT16 ? halfToNumber(b) : bfloat16ToNumber(b));
import { roundTo, bitsOf, ulps, isHalf } from './dtype.js';

/** Within this many ulps of the cache's dtype a cache "is" a recipe (torch's float32 cos/sin are not correctly rounded). */
export const TOLERANCE_ULPS = 1;
/** A float32 cache is exact when within this (× max(1, att)) of the package's float32 values: their 2.5e-7 contract plus the cache's own rounding. */
export const EXACT_FLOAT32 = 4e-7;
// Rows compared when searching for a diagnosis (every mistake shows in the first rows).
const DIAGNOSIS_ROWS = 2048;

const PEERS = { small: 'large', large: 'small' };
const LAYER_TYPE = { global: 'full_attention', local: 'sliding_attention' };

/** The config's max_position_embeddings (of text_config for a multimodal config). */
function maxPositionsOf(config) {
  const c = config.text_config && typeof config.text_config === 'object' ? config.text_config : config;
  const m = c.max_position_embeddings ?? config.max_position_embeddings;
  return Number.isInteger(m) && m > 0 ? m : null;
}

/**
 * What a site should hold: { layerType, rotaryDim, options, rows } from the
 * parsed config (rope: ropeOptionsFromConfig's result).
 */
export function expectedFor(site, rope, config) {
  let layer = rope;
  let layerType = null;
  const want = LAYER_TYPE[site.group];
  if (want && rope.layerTypes?.[want]) {
    layer = rope.layerTypes[want];
    layerType = want;
  }
  const options = { ...layer.options };
  let rows = maxPositionsOf(config);
  if (options.ropeType === 'longrope') {
    const L = options.originalMaxPositions ?? options.maxPositions;
    const M = options.maxPositions ?? rows ?? L;
    if (site.group === 'small') {
      options.seqLen = L;
      rows = L;
    } else options.seqLen = Math.max(M, L + 1);
  }
  return { layerType, rotaryDim: layer.rotaryDim, options, rows };
}

// A candidate's cos and sin bit patterns in the site's dtype, rows × width.
function generate(pe, site, rows, options, recipe) {
  const dtype = DTYPE_NAMES[site.cos.dataType];
  const c = pe.ropeCacheRows(0, rows, site.rotaryDim, { ...options, dtype, recipe });
  return { cos: bitsOf(c.cos), sin: bitsOf(c.sin), attentionFactor: c.attentionFactor };
}

// Distance of a cache (its bits and values) from a candidate: max ulps of
// the dtype and max |Δ|, and where the worst ulp is.
function distance(cache, cand, rows, width, wide) {
  let max = 0;
  let maxAbs = 0;
  let at = null;
  const n = rows * width;
  const asFloat = wide ? (b) => new Float32Array(b.buffer, b.byteOffset, b.length) : null;
  for (const which of ['cos', 'sin']) {
    const a = cache[which].bits;
    const b = cand[which];
    const bv = wide ? asFloat(b) : null;
    const av = cache[which].values;
    for (let i = 0; i < n; i++) {
      if (a[i] === b[i]) continue;
      const d = ulps(a[i], b[i], wide);
      if (d > max) {
        max = d;
        at = { row: Math.floor(i / width), col: i % width, which };
      }
      const e = Math.abs(av[i] - (wide ? bv[i] : halfValue(b[i], cache.dataType)));
      if (e > maxAbs) maxAbs = e;
    }
  }
  return { maxUlp: max, maxAbs, at };
}

/**
 * Whether a distance counts as "is this recipe". Strict: half types
 * bit-identical; float32 against the float32 recipe bit-identical, against
 * exact within EXACT_FLOAT32·max(1, att) absolute (the package's float32 cache
 * is within 2.5e-7 of the float64 values, not correctly rounded). Loose
 * (tried only when nothing matches strictly, as torch's float32 cos/sin are
 * not correctly rounded): within TOLERANCE_ULPS, or for float32 2^-24·max(1, att)
 * absolute near zero.
 */
function within(d, recipe, wide, att, strict) {
  const scale = Math.max(1, Math.abs(att));
  if (wide && recipe === 'exact' && d.maxAbs <= EXACT_FLOAT32 * scale) return true;
  if (d.maxUlp === 0) return true;
  if (strict) return false;
  if (d.maxUlp <= TOLERANCE_ULPS) return true;
  return wide && recipe === 'float32' && d.maxAbs <= 2 ** -24 * scale;
}

// Largest |cache − exact| in value terms (the exact values in float64 are
// not available from the package; the exact cache rounded to float32 is within
// 2.5e-7 of them, which is what "from exact" is measured against).
function fromExact(pe, site, cache, rows, options) {
  const c = pe.ropeCacheRows(0, rows, site.rotaryDim, { ...options });
  const width = site.rotaryDim / 2;
  let max = 0;
  let at = { row: 0, col: 0, which: 'cos' };
  for (const which of ['cos', 'sin']) {
    const a = cache[which].values;
    const b = c[which];
    for (let i = 0; i < rows * width; i++) {
      const d = Math.abs(a[i] - b[i]);
      if (d > max) {
        max = d;
        at = { row: Math.floor(i / width), col: i % width, which };
      }
    }
  }
  return { maxAbs: max, ...at };
}

function slice(cache, rows, width) {
  const n = rows * width;
  const cut = (x) => ({ bits: x.bits.subarray(0, n), values: x.values.subarray(0, n) });
  return { cos: cut(cache.cos), sin: cut(cache.sin), dataType: cache.dataType };
}

// Estimates read off the cache: the attention factor (cos at position 0) and
// the base (pair 1's angle at position 1 = base^(-2/r) for unscaled pairs).
function estimates(cache, rows, width, r) {
  const att = cache.cos.values[0];
  let base = null;
  if (rows > 1 && width > 1) {
    const angle = Math.atan2(cache.sin.values[width + 1], cache.cos.values[width + 1]);
    if (angle > 0) base = angle ** (-r / 2);
  }
  return { attentionFactor: att, base };
}

const nice = (v) => {
  if (!(v > 1) || !Number.isFinite(v)) return null;
  const k = 10 ** Math.floor(Math.log10(v));
  return Math.round(v / k * 10) / 10 * k;
};

/** The plausible mistakes, each { mistake, detail, make(recipe) → candidate | null }. */
function mistakes(pe, site, expected, rows, cache, est) {
  const o = expected.options;
  const type = o.ropeType ?? 'default';
  const width = site.rotaryDim / 2;
  const list = [];
  const gen = (opts) => (recipe) => {
    try {
      return generate(pe, site, rows, opts, recipe);
    } catch {
      return null;
    }
  };
  if (type !== 'default')
    list.push({ mistake: 'default-rope-type', detail: `rope scaling '${type}' ignored: the cache is plain RoPE (ropeType 'default', base ${o.base ?? 10000})`, make: gen({ ropeType: 'default', ...(o.base === undefined ? {} : { base: o.base }) }) });
  const bases = new Set([nice(est.base), 10000, 100000, 500000, 1000000, 5000000, 10000000].filter((b) => b !== null && b !== (o.base ?? 10000)));
  for (const b of bases) list.push({ mistake: 'wrong-base', detail: `base ${o.base ?? 10000} expected, the cache fits base ${b}`, make: gen({ ...o, base: b }) });
  if ('factor' in o || ['linear', 'yarn', 'llama3', 'dynamic'].includes(type))
    for (const f of [2, 4, 8, 16, 32, 40, 64].filter((f) => f !== o.factor))
      list.push({ mistake: 'wrong-factor', detail: `factor ${o.factor ?? '(default)'} expected, the cache fits factor ${f}`, make: gen({ ...o, factor: f }) });
  list.push({
    mistake: 'wrong-attention-factor',
    detail: `attention factor ${est.expectedAttention} expected, the cache's position 0 holds ${est.attentionFactor}`,
    make: (recipe) => {
      if (Math.abs(est.attentionFactor - est.expectedAttention) <= 1e-6 * est.expectedAttention || !(est.attentionFactor > 0)) return null;
      if (type === 'yarn' || type === 'longrope') return gen({ ...o, attentionFactor: est.attentionFactor })(recipe);
      const c = gen(o)(recipe);
      if (!c) return null;
      const k = est.attentionFactor / est.expectedAttention;
      const scale = (bits) => roundTo(decodeFloats(new Uint8Array(bits.buffer, bits.byteOffset, bits.byteLength), site.cos.dataType).values.map((v) => v * k), site.cos.dataType);
      return { cos: scale(c.cos), sin: scale(c.sin) };
    },
  });
  list.push({
    mistake: 'layout-half-vs-interleaved',
    detail: 'the cache was sliced from an interleaved (repeat_interleave) table: column c holds frequency ⌊c/2⌋, where onnxruntime reads frequency c',
    make: (recipe) => {
      const c = gen(o)(recipe);
      if (!c) return null;
      const spread = (x) => {
        const y = new x.constructor(x.length);
        for (let i = 0; i < rows; i++) for (let k = 0; k < width; k++) y[i * width + k] = x[i * width + (k >> 1)];
        return y;
      };
      return { cos: spread(c.cos), sin: spread(c.sin) };
    },
  });
  list.push({
    mistake: 'cos-sin-swapped',
    detail: 'the cos cache holds the sines and the sin cache the cosines',
    make: (recipe) => {
      const c = gen(o)(recipe);
      return c && { cos: c.sin, sin: c.cos };
    },
  });
  if (isHalf(site.cos.dataType))
    list.push({
      mistake: 'rounded-twice',
      detail: `rounded twice: the exact values rounded to float32, then to ${site.dtype}`,
      // Double rounding moves a value one ulp only where its float32 rounding
      // lands on the midpoint of two neighbours of the dtype, and then the tie
      // goes to the even one (its pattern's last bit 0). The exact cache with
      // those elements taken from the cache, where the cache holds the even
      // neighbour and the float64 value (the package's float32, within
      // 2.5e-7 of it) is that close to the midpoint, is the candidate; it
      // equals the cache when every difference is a double rounding.
      make: (recipe) => {
        if (recipe !== 'exact') return null;
        const ex = generate(pe, site, rows, o, 'exact');
        const f = pe.ropeCacheRows(0, rows, site.rotaryDim, { ...o });
        const value = (b) => halfValue(b, site.cos.dataType);
        let moved = 0;
        const fix = (bits, which) => {
          const out = bits.slice();
          const got = cache[which].bits;
          for (let i = 0; i < out.length; i++) {
            if (got[i] === out[i] || (got[i] & 1) !== 0 || ulps(got[i], out[i], false) !== 1) continue;
            const mid = (value(got[i]) + value(out[i])) / 2;
            const slack = 2.5e-7 * Math.max(1, Math.abs(est.expectedAttention)) + Math.abs(mid) * 2 ** -24;
            if (Math.abs(f[which][i] - mid) <= slack) {
              out[i] = got[i];
              moved++;
            }
          }
          return out;
        };
        const c = { cos: fix(ex.cos, 'cos'), sin: fix(ex.sin, 'sin') };
        return moved > 0 ? c : null;
      },
    });
  if (type === 'longrope' && PEERS[site.group]) {
    const L = o.originalMaxPositions ?? o.maxPositions;
    const swapped = { ...o, seqLen: site.group === 'small' ? Math.max(o.maxPositions ?? L + 1, L + 1) : L };
    list.push({ mistake: 'short-long-exchanged', detail: `the ${site.group} cache holds the ${site.group === 'small' ? 'long' : 'short'} factors (short and long LongRoPE caches exchanged)`, make: gen(swapped) });
  }
  void cache;
  return list;
}

/** The report of one site (see docs/onnx.md, SiteReport). */
export async function verifySite(pe, model, site, config, rope) {
  const report = { ...site };
  for (const k of ['cos', 'sin', 'invFreq']) if (site[k]) report[k] = strip(site[k]);
  if (site.kind === 'inv_freq') return verifyFrequencies(pe, model, site, config, rope, report);
  const width = site.rotaryDim / 2;
  if (site.cos.shape.length !== 2 || site.sin.shape.length !== 2 || site.cos.shape[0] !== site.sin.shape[0] || site.cos.shape[1] !== site.sin.shape[1])
    return fail(report, 'bad_tensor', `${model.name}: cache '${site.cos.name}' / '${site.sin.name}' must be two 2-D tensors of the same shape (rows, rotaryDim/2), got [${site.cos.shape}] and [${site.sin.shape}]`);
  if (!(site.cos.dataType in DTYPE_NAMES) || site.cos.dataType === 11 || site.cos.dataType !== site.sin.dataType)
    return fail(report, 'bad_tensor', `${model.name}: cache '${site.cos.name}' has element type ${site.cos.dtype} (sin: ${site.sin.dtype}); a RoPE cache is float32, float16 or bfloat16`);
  const [cosBytes, sinBytes] = [await model.tensorBytes(site.cos.tensor), await model.tensorBytes(site.sin.tensor)];
  const cache = { cos: decodeFloats(cosBytes, site.cos.dataType), sin: decodeFloats(sinBytes, site.sin.dataType), dataType: site.cos.dataType };
  report.verdict = 'unchecked';
  report.layerType = null;
  report.expected = null;
  report.short = false;
  report.diagnosis = null;
  report.fromExact = null;
  report.maxUlp = null;
  if (!config) {
    report.message = `${site.cos.name}: ${site.rows} rows × ${width}, ${site.dtype} (no config: not checked)`;
    return report;
  }
  const expected = expectedFor(site, rope, config);
  report.layerType = expected.layerType;
  report.expected = { rotaryDim: expected.rotaryDim, options: expected.options, maxPositions: expected.rows };
  const rows = site.rows;
  report.short = expected.rows !== null && rows < expected.rows;
  const shortText = report.short ? `; ${rows} rows, ${expected.rows} expected (max_position_embeddings${site.group === 'small' ? ' L' : ''})` : '';
  if (site.rotaryDim !== expected.rotaryDim) {
    report.verdict = 'mismatch';
    report.diagnosis = { mistake: 'wrong-rotary-dim', detail: `the cache is ${width} wide (rotary dim ${site.rotaryDim}); the config says rotary dim ${expected.rotaryDim}`, recipe: null };
    report.message = `${site.cos.name}: mismatch — ${report.diagnosis.detail}`;
    return report;
  }
  if (rows === 0) {
    report.verdict = 'mismatch';
    report.diagnosis = { mistake: 'unknown', detail: 'the cache has no rows', recipe: null };
    report.message = `${site.cos.name}: mismatch — the cache has no rows`;
    return report;
  }
  const wide = site.cos.dataType === FLOAT;
  const exact = generate(pe, site, rows, expected.options, 'exact');
  const dExact = distance(cache, exact, rows, width, wide);
  const dF32 = distance(cache, generate(pe, site, rows, expected.options, 'float32'), rows, width, wide);
  report.fromExact = fromExact(pe, site, cache, rows, expected.options);
  const att = exact.attentionFactor;
  const n = Math.min(rows, DIAGNOSIS_ROWS);
  const head = slice(cache, n, width);
  const est = estimates(cache, rows, width, site.rotaryDim);
  est.expectedAttention = att;
  const list = mistakes(pe, site, expected, n, head, est);
  for (const strict of [true, false]) {
    const okExact = within(dExact, 'exact', wide, att, strict);
    const okF32 = within(dF32, 'float32', wide, att, strict);
    if (okExact || okF32) {
      const [name, d] = okExact && (!okF32 || dExact.maxUlp <= dF32.maxUlp) ? ['exact', dExact] : ['float32', dF32];
      report.verdict = name;
      report.maxUlp = d.maxUlp;
      report.matchesBoth = okExact && okF32;
      const fe = report.fromExact;
      const how = d.maxUlp === 0 ? 'bit-identical' : d.maxUlp <= TOLERANCE_ULPS ? `within ${d.maxUlp} ulp` : `within ${d.maxAbs.toExponential(1)}`;
      report.message = `${site.cos.name}: ${name === 'exact' ? 'exact' : 'float32 recipe'} (${how}${report.matchesBoth ? '; at this dtype and length the two recipes agree' : ''}); max |Δ| from exact ${fe.maxAbs.toExponential(2)} at row ${fe.row}, col ${fe.col} (${fe.which})${shortText}`;
      return report;
    }
    for (const m of list) {
      for (const recipe of ['exact', 'float32']) {
        const cand = m.cache?.[recipe] ?? (m.cache = { ...m.cache, [recipe]: m.make(recipe) })[recipe];
        if (!cand) continue;
        if (within(distance(head, cand, n, width, wide), recipe, wide, att, strict)) {
          report.verdict = 'mismatch';
          report.maxUlp = Math.min(dExact.maxUlp, dF32.maxUlp);
          report.diagnosis = { mistake: m.mistake, detail: m.detail, recipe };
          report.message = `${site.cos.name}: mismatch — ${m.detail} (${recipe} recipe)${shortText}`;
          return report;
        }
      }
    }
  }
  report.verdict = 'mismatch';
  report.maxUlp = Math.min(dExact.maxUlp, dF32.maxUlp);
  const where = dExact.at;
  report.diagnosis = {
    mistake: 'unknown',
    detail: `no known mistake reproduces it; ${dExact.maxUlp} ulp from exact at row ${where.row}, col ${where.col} (${where.which}); position 0 holds ${est.attentionFactor} (attention factor ${est.expectedAttention} expected)${est.base ? `; pair 1 fits base ≈ ${est.base.toPrecision(4)}` : ''}`,
    recipe: null,
  };
  report.message = `${site.cos.name}: mismatch — ${report.diagnosis.detail}${shortText}`;
  return report;
}

async function verifyFrequencies(pe, model, site, config, rope, report) {
  const bytes = await model.tensorBytes(site.invFreq.tensor);
  const got = decodeFloats(bytes, site.invFreq.dataType);
  Object.assign(report, { verdict: 'unchecked', layerType: null, expected: null, short: false, diagnosis: null, fromExact: null, maxUlp: null });
  if (!config) {
    report.message = `${site.invFreq.name}: ${site.rotaryDim / 2} frequencies, ${site.dtype} (no config: not checked)`;
    return report;
  }
  const expected = expectedFor(site, rope, config);
  report.layerType = expected.layerType;
  report.expected = { rotaryDim: expected.rotaryDim, options: expected.options, maxPositions: expected.rows };
  const wide = site.invFreq.dataType === FLOAT;
  const against = (opts) => {
    const f = pe.ropeFrequencies(site.rotaryDim, opts);
    const bits = roundTo(f, site.invFreq.dataType);
    let max = 0;
    let maxAbs = 0;
    let at = 0;
    let worst = 0;
    for (let j = 0; j < f.length; j++) {
      const d = site.invFreq.dataType === 11 ? (got.values[j] === f[j] ? 0 : 2) : ulps(got.bits[j], bits[j], wide);
      if (d > max) {
        max = d;
        worst = j;
      }
      if (Math.abs(got.values[j] - f[j]) > maxAbs) {
        maxAbs = Math.abs(got.values[j] - f[j]);
        at = j;
      }
    }
    // at: the largest |Δ| (fromExact); worst: the most ulps off (the diagnosis).
    return { maxUlp: max, maxAbs, at, worst };
  };
  if (site.rotaryDim !== expected.rotaryDim) {
    report.verdict = 'mismatch';
    report.diagnosis = { mistake: 'wrong-rotary-dim', detail: `${site.rotaryDim / 2} frequencies; the config says rotary dim ${expected.rotaryDim}`, recipe: null };
    report.message = `${site.invFreq.name}: mismatch — ${report.diagnosis.detail}`;
    return report;
  }
  const d = against(expected.options);
  report.fromExact = { maxAbs: d.maxAbs, row: 0, col: d.at, which: 'inv_freq' };
  if (d.maxUlp <= TOLERANCE_ULPS) {
    report.verdict = 'exact';
    report.maxUlp = d.maxUlp;
    report.message = `${site.invFreq.name}: the frequencies match (${d.maxUlp === 0 ? 'bit-identical' : `within ${d.maxUlp} ulp`} of the float64 values rounded to ${site.dtype}, which is also what the float32 recipe uses)`;
    return report;
  }
  report.verdict = 'mismatch';
  report.maxUlp = d.maxUlp;
  const o = expected.options;
  const tries = [];
  if ((o.ropeType ?? 'default') !== 'default') tries.push(['default-rope-type', `rope scaling '${o.ropeType}' ignored`, { ropeType: 'default', ...(o.base === undefined ? {} : { base: o.base }) }]);
  const est = got.values[1] > 0 ? nice(got.values[1] ** (-site.rotaryDim / 2)) : null;
  for (const b of new Set([est, 10000, 100000, 500000, 1000000, 5000000, 10000000])) if (b && b !== (o.base ?? 10000)) tries.push(['wrong-base', `base ${o.base ?? 10000} expected, the frequencies fit base ${b}`, { ...o, base: b }]);
  for (const f of [2, 4, 8, 16, 32, 40, 64]) if ('factor' in o && f !== o.factor) tries.push(['wrong-factor', `factor ${o.factor} expected, the frequencies fit factor ${f}`, { ...o, factor: f }]);
  for (const [mistake, detail, opts] of tries) {
    let r;
    try {
      r = against(opts);
    } catch {
      continue;
    }
    if (r.maxUlp <= TOLERANCE_ULPS) {
      report.diagnosis = { mistake, detail, recipe: 'exact' };
      report.message = `${site.invFreq.name}: mismatch — ${detail}`;
      return report;
    }
  }
  report.diagnosis = { mistake: 'unknown', detail: `no known mistake reproduces it; ${d.maxUlp} ulp off at frequency ${d.worst}`, recipe: null };
  report.message = `${site.invFreq.name}: mismatch — ${report.diagnosis.detail}`;
  return report;
}

function fail(report, code, message) {
  void report;
  throw new OnnxError(code, message);
}

// A TensorRef without the live protobuf message (for JSON).
function strip(ref) {
  const { tensor, ...rest } = ref;
  void tensor;
  return rest;
}

/** Parses the config once (the encoder pe's ropeOptionsFromConfig: its module checks the rules), or null without one. */
export function ropeOf(config, pe) {
  if (config === undefined || config === null) return null;
  return pe.ropeOptionsFromConfig(config);
}
