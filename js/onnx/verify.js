// Verifying each RoPE site of a model against its config.json: the exact
// values (the float64 cos(p·inv_j)·att rounded once to the cache's dtype) and
// the float32 recipe (PyTorch's float32 steps, its inv_freq fitted per column:
// fit.js), and when neither matches, a diagnosis found by trying the
// plausible mistakes, each as exact values and as the float32 recipe.
import { vocabulary } from '../sinpe.js';
import { decodeFloats, FLOAT, DTYPE_NAMES, OnnxError } from './read.js';
import { roundTo, ulps, isHalf } from './dtype.js';
import { expectation, checkExact, fitFloat32, roundOf, ulpsFromFloat32, FIT_ULPS } from './fit.js';
import { guessCache, guessText } from './guess.js';
import { concatSegments } from './find.js';
import { graphAxes, whereAxes, expectedAxes, describeAxes } from './mrope.js';

/** Within this many ulps of the cache's dtype a cache is the exact one (a float64 exporter's cos/sin differ from another's in rare last bits). */
export const TOLERANCE_ULPS = 1;
/** A float32 cache is also exact when within this (× max(1, att)) of the float64 values: the package's float32 caches before 0.1.0's correctly rounded kernel were within 2.5e-7 of them, not rounded once. */
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

// What the package says a site with these options holds: the float64 inv_j
// of each column and the attention factor.
export function expectationOf(pe, site, options, extra) {
  const inv = pe.ropeFrequencies(site.rotaryDim, options);
  const { attentionFactor } = pe.ropeCacheRows(0, 1, site.rotaryDim, options);
  return expectation(inv, attentionFactor, extra);
}

// Largest |cache − exact| where exact is the float64 value rounded once to
// the cache's dtype (0 for a cache that is bit for bit the exact one).
function fromExact(cache, rows, width, exp) {
  const round = roundOf(cache.dataType);
  let max = 0;
  let at = { row: 0, col: 0, which: 'cos' };
  for (let p = 0; p < rows; p++)
    for (let col = 0; col < width; col++) {
      const angle = p * exp.inv[col];
      for (const which of ['cos', 'sin']) {
        const want = round((which === 'cos' ? Math.cos(angle) : Math.sin(angle)) * exp.att);
        const d = Math.abs(cache[which].values[p * width + col] - want);
        if (d > max) {
          max = d;
          at = { row: p, col, which };
        }
      }
    }
  return { maxAbs: max, ...at };
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

// A rope type's options in words, for a diagnosis.
function describe(o) {
  const type = o.ropeType ?? 'default';
  const parts = [`base ${o.base ?? 10000}`];
  if (o.factor !== undefined && type !== 'default') parts.push(`factor ${o.factor}`);
  return `${type === 'default' ? 'plain RoPE' : `'${type}'`}, ${parts.join(', ')}`;
}

/**
 * The plausible mistakes, each { mistake, detail, exp() → expectation | null }:
 * what the cache would hold had its maker made that mistake. Each is tried
 * as the exact values and as the float32 recipe (fitted per column).
 */
// Whether a rope type's formula reads an option (the core's vocabulary).
const entryOf = (type) => vocabulary.ropeTypes.find((t) => t.name === type);
const reads = (type, option) => entryOf(type)?.reads.some((r) => (typeof r === 'string' ? r : r.option) === option) ?? false;
// Whether the formula applies a factor the config did not give: a required
// one (linear, dynamic) or a default (llama3's 8, proportional's 1); a
// factor that is absent by default (yarn, longrope) scales nothing.
const usesFactor = (type, o) => reads(type, 'factor') && ('factor' in o || entryOf(type).required.includes('factor') || entryOf(type).defaults.factor !== null);

function mistakes(pe, site, expected, rope, est) {
  const o = expected.options;
  const type = o.ropeType ?? 'default';
  const width = site.rotaryDim / 2;
  const list = [];
  const withOptions = (opts, extra) => () => {
    try {
      return expectationOf(pe, site, opts, extra);
    } catch {
      return null;
    }
  };
  const base = expectationOf(pe, site, o);
  const same = (extra) => () => expectation(base.inv, base.att, extra);
  // A per-layer-type cache built with the other layer type's rule (Gemma 3's local cache with the global factor or base).
  if (expected.layerType && rope.layerTypes)
    for (const [lt, layer] of Object.entries(rope.layerTypes)) {
      if (lt === expected.layerType || layer.rotaryDim !== site.rotaryDim) continue;
      const other = layer.options;
      const own = `the ${site.group} (${expected.layerType}) cache`;
      list.push({ mistake: 'other-layer-type', detail: `${own} was built with the ${lt} layers' rule (${describe(other)}) instead of its own (${describe(o)})`, exp: withOptions(other) });
      if ((other.ropeType ?? 'default') !== 'default' && ((other.ropeType ?? 'default') !== type || other.factor !== o.factor))
        list.push({ mistake: 'other-layer-type', detail: `${own} was built with its own base ${o.base ?? 10000} but the ${lt} layers' scaling (${describe({ ...other, base: o.base })})`, exp: withOptions({ ...other, base: o.base }) });
      if (other.base !== o.base)
        list.push({ mistake: 'other-layer-type', detail: `${own} was built with its own rule but the ${lt} layers' base ${other.base ?? 10000}`, exp: withOptions({ ...o, base: other.base }) });
    }
  if (type !== 'default')
    list.push({ mistake: 'default-rope-type', detail: `rope scaling '${type}' ignored: the cache is plain RoPE (ropeType 'default', base ${o.base ?? 10000})`, exp: withOptions({ ropeType: 'default', ...(o.base === undefined ? {} : { base: o.base }) }) });
  const bases = new Set([nice(est.base), 10000, 100000, 500000, 1000000, 5000000, 10000000].filter((b) => b !== null && b !== (o.base ?? 10000)));
  for (const b of bases) list.push({ mistake: 'wrong-base', detail: `base ${o.base ?? 10000} expected, the cache fits base ${b}`, exp: withOptions({ ...o, base: b }) });
  if (usesFactor(type, o))
    for (const f of [2, 4, 8, 16, 32, 40, 64].filter((f) => f !== o.factor))
      list.push({ mistake: 'wrong-factor', detail: `factor ${o.factor ?? '(default)'} expected, the cache fits factor ${f}`, exp: withOptions({ ...o, factor: f }) });
  if (Math.abs(est.attentionFactor - base.att) > 1e-6 * base.att && est.attentionFactor > 0)
    list.push({
      mistake: 'wrong-attention-factor',
      detail: `attention factor ${base.att} expected, the cache's position 0 holds ${est.attentionFactor}`,
      exp: reads(type, 'attentionFactor') ? withOptions({ ...o, attentionFactor: est.attentionFactor }) : () => expectation(base.inv, est.attentionFactor),
    });
  list.push({
    mistake: 'layout-half-vs-interleaved',
    detail: 'the cache was sliced from an interleaved (repeat_interleave) table: column c holds frequency ⌊c/2⌋, where onnxruntime reads frequency c',
    exp: () => expectation(Float64Array.from({ length: width }, (_, c) => base.inv[c >> 1]), base.att),
  });
  list.push({ mistake: 'cos-sin-swapped', detail: 'the cos cache holds the sines and the sin cache the cosines', exp: same({ swap: true }) });
  if (isHalf(site.cos.dataType))
    list.push({ mistake: 'rounded-twice', detail: `rounded twice: the exact values rounded to float32, then to ${site.dtype}`, exp: same({ twice: true }), exactOnly: true });
  if (type === 'longrope' && PEERS[site.group]) {
    const L = o.originalMaxPositions ?? o.maxPositions;
    const swapped = { ...o, seqLen: site.group === 'small' ? Math.max(o.maxPositions ?? L + 1, L + 1) : L };
    list.push({ mistake: 'short-long-exchanged', detail: `the ${site.group} cache holds the ${site.group === 'small' ? 'long' : 'short'} factors (short and long LongRoPE caches exchanged)`, exp: withOptions(swapped) });
  }
  return list;
}

// The float32 recipe's fit in words.
function fitText(fit, width) {
  if (fit.variant === 'float64-inv') return 'inv_freq computed in float64 and rounded once to float32';
  const off = fit.columns.filter((c) => c.ulps !== 0);
  const most = Math.max(...off.map((c) => Math.abs(c.ulps)));
  return `inv_freq in float32 arithmetic: ${off.length} of ${width} frequencies ${most === 1 ? '1 ulp' : `up to ${most} ulp`} from the correctly rounded value`;
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
  report.fit = null;
  report.guess = null;
  if (!config) {
    // Without a config, a guess: the parameters that reproduce the cache.
    report.guess = guessCache(pe, cache, site.rows, width, site.group);
    report.message = `${site.cos.name}: ${site.rows} rows × ${width}, ${site.dtype} (no config: not checked${report.guess ? `; ${guessText(report.guess)}` : '; no rope type reproduces it'})`;
    return report;
  }
  const segments = concatSegments(site, rope);
  if (segments !== null) return verifySegments(pe, model, site, config, rope, report, segments);
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
  const exp = expectationOf(pe, site, expected.options);
  const fe = fromExact(cache, rows, width, exp);
  report.fromExact = fe;
  const feText = `max |Δ| from exact ${fe.maxAbs.toExponential(2)} at row ${fe.row}, col ${fe.col} (${fe.which})`;
  const wide = site.cos.dataType === FLOAT;
  const absTol = wide ? EXACT_FLOAT32 * Math.max(1, Math.abs(exp.att)) : 0;
  const ex = checkExact(cache, rows, width, exp, TOLERANCE_ULPS, absTol);
  const fit = fitFloat32(cache, rows, width, exp);
  const fitted = fit.ok ? { variant: fit.columns.every((c) => c.ulps === 0) ? 'float64-inv' : 'float32', columns: fit.columns } : null;
  const exactReport = () => {
    report.verdict = 'exact';
    report.maxUlp = ex.maxUlp;
    report.matchesBoth = fit.ok;
    if (fit.ok) report.fit = fitted;
    const how = ex.maxUlp === 0 ? 'bit-identical' : ex.maxUlp <= TOLERANCE_ULPS ? `within ${ex.maxUlp} ulp` : `within ${fe.maxAbs.toExponential(1)}`;
    report.message = `${site.cos.name}: exact (${how}${fit.ok ? '; at this dtype and length the two recipes agree' : ''}); ${feText}${shortText}`;
    return report;
  };
  if (ex.ok && ex.maxUlp === 0) return exactReport();
  if (fit.ok) {
    report.verdict = 'float32';
    report.fit = fitted;
    report.maxUlp = ulpsFromFloat32(cache, rows, width, fit.columns, exp.att);
    report.matchesBoth = ex.ok;
    report.message = `${site.cos.name}: float32 recipe (${fitText(fitted, width)}${ex.ok ? '; at this dtype and length the two recipes agree' : ''}); ${feText}${shortText}`;
    return report;
  }
  // Which mistake reproduces the first rows (every mistake shows there)? A
  // mistake's exact values bit for bit, or its float32 recipe, first; then its
  // exact values within TOLERANCE_ULPS — but a cache that close to the
  // expected values is exact before that.
  const n = Math.min(rows, DIAGNOSIS_ROWS);
  const est = estimates(cache, rows, width, site.rotaryDim);
  const list = mistakes(pe, site, expected, rope, est);
  // How far the cache is from the nearer recipe: exact, or the float32 recipe with inv_freq rounded once.
  const nearest = () => Math.min(checkExact(cache, rows, width, exp, Infinity).maxUlp, ulpsFromFloat32(cache, rows, width, Array.from(exp.inv, (v) => ({ invFreq: Math.fround(v) })), exp.att));
  for (const strict of [true, false]) {
    if (!strict && ex.ok) return exactReport();
    for (const m of list) {
      if (m.e === undefined) m.e = m.exp();
      if (!m.e) continue;
      let recipe = null;
      const near = strict ? checkExact(cache, n, width, m.e, 0) : checkExact(cache, n, width, m.e, TOLERANCE_ULPS, wide ? EXACT_FLOAT32 * Math.max(1, Math.abs(m.e.att)) : 0);
      if (near.ok && (!strict || near.maxUlp === 0)) recipe = 'exact';
      else if (strict && !m.exactOnly && fitFloat32(cache, n, width, m.e).ok) recipe = 'float32';
      if (recipe === null) continue;
      report.verdict = 'mismatch';
      report.maxUlp = nearest();
      report.diagnosis = { mistake: m.mistake, detail: m.detail, recipe };
      report.message = `${site.cos.name}: mismatch — ${m.detail} (${recipe} recipe)${shortText}`;
      return report;
    }
  }
  const worst = checkExact(cache, rows, width, exp, Infinity);
  report.verdict = 'mismatch';
  report.maxUlp = nearest();
  const where = worst.at;
  const column = fit.failed;
  report.diagnosis = {
    mistake: 'unknown',
    detail: `no known mistake reproduces it; ${Math.round(worst.maxUlp)} ulp from exact at row ${where.row}, col ${where.col} (${where.which}); position 0 holds ${est.attentionFactor} (attention factor ${exp.att} expected)${est.base ? `; pair 1 fits base ≈ ${est.base.toPrecision(4)}` : ''}; column ${column} fits no float32 inv_freq within ${FIT_ULPS} ulp of ${exp.inv[column].toPrecision(6)}`,
    recipe: null,
  };
  report.message = `${site.cos.name}: mismatch — ${report.diagnosis.detail}${shortText}`;
  return report;
}

/** A segment of a concatenated cache as a site of its own: rows [start, start + rows), positions from 0. */
export function segmentOf(model, site, seg) {
  const width = site.rotaryDim / 2;
  const bytes = site.cos.dataType === FLOAT ? 4 : 2;
  const sub = (ref) => ({ ...ref, shape: [seg.rows, width] });
  return {
    site: { ...site, group: seg.group, rows: seg.rows, cos: sub(site.cos), sin: sub(site.sin) },
    model: { ...model, tensorBytes: async (t) => (await model.tensorBytes(t)).subarray(seg.start * width * bytes, (seg.start + seg.rows) * width * bytes) },
  };
}

// LongRoPE's short and long caches concatenated into one tensor (find.js
// concatSegments): each segment judged as the cache it is, the site's
// verdict the worse of the two.
async function verifySegments(pe, model, site, config, rope, report, segments) {
  const parts = [];
  for (const seg of segments) {
    const { site: s, model: m } = segmentOf(model, site, seg);
    const r = await verifySite(pe, m, s, config, rope);
    parts.push({ ...seg, verdict: r.verdict, fit: r.fit, diagnosis: r.diagnosis, fromExact: r.fromExact, maxUlp: r.maxUlp, message: r.message.replace(/^[^:]*: /, '') });
  }
  const order = ['exact', 'float32', 'mismatch'];
  const worst = parts.reduce((a, b) => (order.indexOf(b.verdict) > order.indexOf(a.verdict) ? b : a));
  Object.assign(report, { group: 'concat', segments: parts, verdict: worst.verdict, diagnosis: worst.diagnosis, maxUlp: worst.maxUlp, fromExact: worst.fromExact });
  report.message = `${site.cos.name}: LongRoPE's short and long caches concatenated — ${parts.map((p) => `${p.group} rows ${p.start}…${p.start + p.rows - 1}: ${p.message}`).join('; ')}`;
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
  if (d.maxUlp <= (wide ? FIT_ULPS : TOLERANCE_ULPS)) {
    // within TOLERANCE_ULPS: the float64 values rounded once; a float32 tensor within FIT_ULPS: torch's float32 arithmetic (fit.js)
    report.verdict = d.maxUlp <= TOLERANCE_ULPS ? 'exact' : 'float32';
    report.maxUlp = d.maxUlp;
    report.message =
      report.verdict === 'exact'
        ? `${site.invFreq.name}: the frequencies match (${d.maxUlp === 0 ? 'bit-identical to' : `within ${d.maxUlp} ulp of`} the float64 values rounded to ${site.dtype})`
        : `${site.invFreq.name}: the frequencies are float32 arithmetic (within ${d.maxUlp} ulp of the float64 values rounded to ${site.dtype})`;
    return checkAxes(pe, model, site, expected, report);
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

// Multi-axis RoPE computed in the graph: the axis each pair takes (mrope.js) against the config's sections.
function checkAxes(pe, model, site, expected, report) {
  const o = expected.options;
  if (!Array.isArray(o.mropeSection)) return report;
  const half = site.rotaryDim / 2;
  const want = expectedAxes(pe, site.rotaryDim, o);
  const how = `mrope_section [${o.mropeSection.join(', ')}]${o.ropeAxes === 'interleaved' ? ', interleaved' : ''}`;
  for (const c of site.consumers.filter((x) => x.opType === 'Cos')) {
    const got = graphAxes(model.proto.graph, c.node, half);
    if (got === null) {
      report.message += `; the axis of each pair after ${c.node} is not read off the graph`;
      continue;
    }
    report.axes = { layout: got.layout, pairAxes: got.pairAxes, expected: want };
    if (got.pairAxes.every((a, j) => a === want[j])) {
      report.message += `; each pair takes the axis ${how} gives (${got.layout}: ${describeAxes(got.pairAxes)})`;
      continue;
    }
    report.verdict = 'mismatch';
    report.diagnosis = {
      mistake: 'mrope-section',
      detail: `after ${c.node} the pairs take the axes ${describeAxes(got.pairAxes)} (${got.layout}${got.sections ? ` [${got.sections.join(', ')}]` : ''}); ${how} gives ${describeAxes(want)}`,
      recipe: null,
    };
    report.message = `${site.invFreq.name}: mismatch — ${report.diagnosis.detail}`;
    return report;
  }
  return report;
}

/**
 * A baked one-axis cache combined per pair from the position axes in the
 * graph (mrope.js whereAxes, onnxruntime-genai's Qwen3.5): the axis each pair
 * takes against the config's mrope_section. Runs after verifySite (inspectModel).
 */
export function checkCacheAxes(pe, model, site, report) {
  const o = report.expected?.options;
  if (site.kind !== 'cache' || !o || !Array.isArray(o.mropeSection) || report.verdict === 'unchecked') return report;
  const half = site.rotaryDim / 2;
  const got = whereAxes(model.proto.graph, site.cos.name, half);
  if (got === null) return report;
  const want = expectedAxes(pe, site.rotaryDim, o);
  const how = `mrope_section [${o.mropeSection.join(', ')}]${o.ropeAxes === 'interleaved' ? ', interleaved' : ''}`;
  report.axes = { layout: got.layout, pairAxes: got.pairAxes, expected: want };
  if (got.pairAxes.every((a, j) => a === want[j])) {
    report.message += `; each pair takes the axis ${how} gives (masks: ${describeAxes(got.pairAxes)})`;
    return report;
  }
  report.verdict = 'mismatch';
  report.diagnosis = { mistake: 'mrope-section', detail: `the graph's masks give the pairs the axes ${describeAxes(got.pairAxes)}; ${how} gives ${describeAxes(want)}`, recipe: null };
  report.message = `${site.cos.name}: mismatch — ${report.diagnosis.detail}`;
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
