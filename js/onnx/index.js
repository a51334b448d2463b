// sinpe.wasm/onnx: inspect, verify and extend the RoPE caches baked into an
// ONNX model (docs/onnx.md). Not loaded by the package's main entry.
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { ModelProtoSchema, TensorProto_DataLocation } from 'onnx-buf';
import sinpe, { vocabulary } from '../sinpe.js';
import { readModel, OnnxError, DTYPE_NAMES, decodeFloats } from './read.js';
import { findRope, noRopeFinding } from './find.js';
import { verifySite, checkCacheAxes, expectedFor, expectationOf, segmentOf, ropeOf } from './verify.js';
import { bitsOf, roundTo, FLOAT } from './dtype.js';
import { float32Rows, exactRows } from './fit.js';
import { checkLayout } from './family.js';

export { readModel, findRope, OnnxError };
export { TOLERANCE_ULPS } from './verify.js';

const isModel = (m) => m !== null && typeof m === 'object' && m.proto !== undefined && typeof m.tensorBytes === 'function';
const RECIPES = vocabulary.recipes;
// A cache's rows are positions 0 … rows − 1: the core's position limit bounds them.
const MAX_ROWS = vocabulary.limits.maxAbsPosition;

async function modelOf(model, options) {
  return isModel(model) ? model : readModel(model, { externalData: options.externalData, name: options.name });
}

function readOptions(options, allowed) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${options === null ? 'null' : typeof options}`);
  for (const k of Object.keys(options)) if (!allowed.includes(k)) throw new TypeError(`unknown option '${k}'; this call takes: ${allowed.join(', ')}`);
  return { ...options };
}

function configArg(config) {
  if (config === undefined || config === null) return null;
  if (typeof config !== 'object' || Array.isArray(config)) throw new TypeError(`options.config must be a parsed config.json object, got ${Array.isArray(config) ? 'an array' : typeof config}`);
  return config;
}

// options.onProgress: called as (done, total) after each site (a cache computed, a site checked).
function progressArg(onProgress) {
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError(`options.onProgress must be a function, got ${onProgress === null ? 'null' : typeof onProgress}`);
}

/**
 * Finds and verifies every RoPE site. See docs/onnx.md (InspectReport).
 * @param model - an OnnxModel or anything readModel takes
 * @param options - { config, encoder, externalData, name, onProgress }
 */
export async function inspectModel(model, options) {
  const o = readOptions(options, ['config', 'encoder', 'externalData', 'name', 'onProgress']);
  const config = configArg(o.config);
  progressArg(o.onProgress);
  const pe = o.encoder ?? (await sinpe());
  const rope = ropeOf(config, pe);
  const m = await modelOf(model, o);
  const sites = findRope(m);
  const reports = [];
  for (let i = 0; i < sites.length; i++) {
    reports.push(checkCacheAxes(pe, m, sites[i], await verifySite(pe, m, sites[i], config, rope)));
    o.onProgress?.(i + 1, sites.length);
  }
  // The readers' layout attribute against the model family's own code (family.js), and a
  // config with RoPE where no site was found.
  for (const r of reports) checkLayout(r, config);
  const finding = noRopeFinding(reports, rope);
  const verdicts = reports.map((r) => r.verdict);
  const status = finding || verdicts.includes('mismatch') ? 'mismatch' : verdicts.length === 0 || verdicts.includes('unchecked') ? 'unchecked' : 'match';
  return { model: m.name, config: config !== null, status, ...(finding ? { finding } : {}), sites: reports };
}

// Every ValueInfoProto of every graph (subgraphs included) named `name`.
function* valueInfos(graph) {
  yield* graph.input;
  yield* graph.output;
  yield* graph.valueInfo;
  for (const node of graph.node)
    for (const a of node.attribute) {
      if (a.g) yield* valueInfos(a.g);
      for (const g of a.graphs) yield* valueInfos(g);
    }
}

function setTensor(tensor, array, rows, width) {
  const bits = bitsOf(array);
  tensor.rawData = new Uint8Array(bits.buffer, bits.byteOffset, bits.byteLength).slice();
  tensor.dims = [BigInt(rows), BigInt(width)];
  tensor.externalData = [];
  tensor.dataLocation = TensorProto_DataLocation.DEFAULT;
  tensor.floatData = [];
  tensor.int32Data = [];
  tensor.doubleData = [];
}

// Rows [from, to) of a site's cache as bit patterns: the exact values (float64
// rounded once: the package's half-precision caches, float32 here from the
// float64 values), the float32 recipe continued with the fitted inv_freq of
// each column, or the package's float32 recipe (inv_freq rounded once).
function newRows(pe, site, options, exp, how, fit, from, to) {
  const dataType = site.cos.dataType;
  const dtype = DTYPE_NAMES[dataType];
  if (to <= from) return { cos: dataType === FLOAT ? new Uint32Array(0) : new Uint16Array(0), sin: dataType === FLOAT ? new Uint32Array(0) : new Uint16Array(0) };
  if (how === 'float32-fit') {
    const v = float32Rows(fit.columns, exp.att, from, to, dataType);
    return { cos: roundTo(v.cos, dataType), sin: roundTo(v.sin, dataType) };
  }
  if (how === 'exact' && dataType === FLOAT) {
    const v = exactRows(exp.inv, exp.att, from, to, dataType);
    return { cos: roundTo(v.cos, dataType), sin: roundTo(v.sin, dataType) };
  }
  const c = pe.ropeCacheRows(from, to - from, site.rotaryDim, { ...options, dtype, recipe: how === 'exact' ? 'exact' : 'float32' });
  return { cos: bitsOf(c.cos), sin: bitsOf(c.sin) };
}

// The old rows kept (bits), then the new ones.
function joined(old, keep, width, fresh, rows) {
  const out = new old.constructor(rows * width);
  out.set(old.subarray(0, keep * width));
  out.set(fresh, keep * width);
  return out;
}

// One cache (or one segment of a concatenated one) brought to its new rows:
// its old rows kept where it matches its config (and, with an explicit
// recipe, that recipe), the new ones continuing what it matched.
async function extendOne(pe, model, site, config, rope, o, name) {
  const expected = expectedFor(site, rope, config);
  const width = site.rotaryDim / 2;
  if (site.rotaryDim !== expected.rotaryDim)
    throw new OnnxError('bad_tensor', `${name}: cache '${site.cos.name}' is ${width} wide (rotary dim ${site.rotaryDim}) but the config says rotary dim ${expected.rotaryDim}`);
  const rows = site.group === 'small' && expected.options.ropeType === 'longrope' ? expected.rows : (o.rows ?? expected.rows);
  if (rows === null) throw new TypeError(`options.rows is required: the config has no max_position_embeddings`);
  const report = await verifySite(pe, model, site, config, rope);
  const matched = report.verdict === 'exact' || report.verdict === 'float32' ? report.verdict : null;
  const keepOld = matched !== null && (o.recipe === undefined || o.recipe === matched || (o.recipe === 'float32' && report.fit !== null));
  const recipe = keepOld ? (o.recipe ?? matched) : (o.recipe ?? 'exact');
  const how = keepOld && recipe === 'float32' ? 'float32-fit' : recipe;
  const exp = expectationOf(pe, site, expected.options);
  const keep = keepOld ? Math.min(site.rows, rows) : 0;
  const fresh = newRows(pe, site, expected.options, exp, how, report.fit, keep, rows);
  let cos = fresh.cos;
  let sin = fresh.sin;
  if (keep > 0) {
    // a copy of the bytes (a Node Buffer's slice() would be a view of a shared pool)
    const asBits = (bytes) => (site.cos.dataType === FLOAT ? new Uint32Array(new Uint8Array(bytes).buffer) : new Uint16Array(new Uint8Array(bytes).buffer));
    cos = joined(asBits(await model.tensorBytes(site.cos.tensor)), keep, width, fresh.cos, rows);
    sin = joined(asBits(await model.tensorBytes(site.sin.tensor)), keep, width, fresh.sin, rows);
  }
  return { rows, cache: { cos, sin }, cos, sin, recipe, kept: keep, variant: how === 'float32-fit' ? report.fit.variant : null };
}

/**
 * The model with every RoPE cache extended (or cut) to options.rows rows
 * (default the config's max_position_embeddings; LongRoPE's small cache keeps
 * L rows), in each cache's dtype, inline. A cache that matches its config
 * keeps its rows byte for byte and continues by the recipe it matched (exact,
 * or the float32 recipe with the inv_freq fitted to each column); one that
 * does not is rebuilt whole, by options.recipe ('exact' default, or
 * 'float32'). An explicit options.recipe also rebuilds a cache that matched
 * the other recipe.
 * @returns {Promise<{ bytes: Uint8Array, replaced: object[] }>}
 */
export async function extendModel(model, options) {
  const o = readOptions(options, ['config', 'rows', 'recipe', 'encoder', 'externalData', 'name', 'onProgress']);
  const config = configArg(o.config);
  progressArg(o.onProgress);
  if (config === null) throw new TypeError('options.config is required: the caches are rebuilt from the model\'s config.json');
  if (o.recipe !== undefined && !RECIPES.includes(o.recipe)) throw new RangeError(`options.recipe must be one of ${RECIPES.map((r) => `'${r}'`).join(', ')}; got ${JSON.stringify(o.recipe)}`);
  if (o.rows !== undefined && !(Number.isInteger(o.rows) && o.rows >= 1 && o.rows <= MAX_ROWS))
    throw new RangeError(`options.rows must be an integer in [1, ${MAX_ROWS}], got ${String(o.rows)}`);
  const pe = o.encoder ?? (await sinpe());
  const rope = ropeOf(config, pe);
  const m = await modelOf(model, o);
  // A fresh copy of the model to edit: the caller's stays as it was.
  const copy = { ...m, proto: fromBinary(ModelProtoSchema, m.bytes) };
  const sites = findRope(copy, { config }).filter((s) => s.kind === 'cache');
  if (sites.length === 0) throw new OnnxError('no_rope', `${m.name}: no RoPE cache found (no RotaryEmbedding / GroupQueryAttention do_rotary cache input)`);
  const plans = [];
  for (const [i, site] of sites.entries()) {
    const width = site.rotaryDim / 2;
    if (site.cos.shape.length !== 2 || site.sin.shape.length !== 2 || site.cos.shape[1] !== site.sin.shape[1])
      throw new OnnxError('bad_tensor', `${m.name}: cache '${site.cos.name}' / '${site.sin.name}' must be 2-D (rows, rotaryDim/2), got [${site.cos.shape}] and [${site.sin.shape}]`);
    if (![1, 10, 16].includes(site.cos.dataType) || site.sin.dataType !== site.cos.dataType)
      throw new OnnxError('bad_tensor', `${m.name}: cache '${site.cos.name}' has element type ${site.cos.dtype}; a RoPE cache is float32, float16 or bfloat16`);
    // Everything is computed before anything is replaced: an error leaves no half-edited model.
    if (site.segments) {
      // LongRoPE's short and long caches in one tensor: the short one stays L rows, the long one gets the rows asked for.
      const parts = [];
      for (const seg of site.segments) {
        const { site: s, model: sm } = segmentOf(copy, site, seg);
        parts.push(await extendOne(pe, sm, s, config, rope, o, m.name));
      }
      const cat = (k) => {
        const out = new parts[0][k].constructor(parts.reduce((n, p) => n + p[k].length, 0));
        let at = 0;
        for (const p of parts) {
          out.set(p[k], at);
          at += p[k].length;
        }
        return out;
      };
      const rows = parts.reduce((n, p) => n + p.rows, 0);
      const recipes = [...new Set(parts.map((p) => p.recipe))];
      plans.push({ site, rows, width, cache: { cos: cat('cos'), sin: cat('sin') }, recipe: recipes.length === 1 ? recipes[0] : recipes.join('+'), kept: parts.reduce((n, p) => n + p.kept, 0), variant: parts.find((p) => p.variant)?.variant ?? null, segments: parts.map((p, k) => ({ group: site.segments[k].group, rowsBefore: site.segments[k].rows, rows: p.rows, kept: p.kept, recipe: p.recipe })) });
    } else plans.push({ site, width, ...(await extendOne(pe, copy, site, config, rope, o, m.name)) });
    o.onProgress?.(i + 1, sites.length);
  }
  const replaced = [];
  const names = new Map();
  for (const { site, rows, width, cache, recipe, kept, variant, segments } of plans) {
    setTensor(site.cos.tensor, cache.cos, rows, width);
    setTensor(site.sin.tensor, cache.sin, rows, width);
    names.set(site.cos.name, rows);
    names.set(site.sin.name, rows);
    replaced.push({ cos: site.cos.name, sin: site.sin.name, group: site.group, rowsBefore: site.rows, rows, kept, rotaryDim: site.rotaryDim, dtype: site.dtype, recipe, variant, ...(segments ? { segments } : {}) });
  }
  // Shapes declared for the replaced tensors follow their new row count.
  for (const vi of valueInfos(copy.proto.graph)) {
    if (!names.has(vi.name)) continue;
    const dim = vi.type?.value?.case === 'tensorType' ? vi.type.value.value.shape?.dim?.[0] : undefined;
    if (dim?.value?.case === 'dimValue') dim.value.value = BigInt(names.get(vi.name));
  }
  return { bytes: toBinary(ModelProtoSchema, copy.proto), replaced };
}

/**
 * What a cache of these options should hold, as values of `dtype` ('float32',
 * 'float16', 'bfloat16'), rows 0 … rows − 1, row-major (rows, rotaryDim/2):
 * `exact` (the float64 cos/sin rounded once to dtype — for float32 too, where
 * the package's own float32 is within 2.5e-7) and `recipe` (the float32
 * recipe cast to dtype). For the Check a model page's curves.
 */
export function referenceCaches(pe, rotaryDim, options, rows, dtype) {
  const dataType = { float32: FLOAT, float16: 10, bfloat16: 16 }[dtype];
  if (dataType === undefined) throw new RangeError(`dtype must be 'float32', 'float16' or 'bfloat16', got ${JSON.stringify(dtype)}`);
  const site = { rotaryDim };
  const exp = expectationOf(pe, site, options);
  const exact = exactRows(exp.inv, exp.att, 0, rows, dataType);
  const r = pe.ropeCacheRows(0, rows, rotaryDim, { ...options, dtype, recipe: 'float32' });
  const values = (a) => (a instanceof Float32Array ? Float64Array.from(a) : decodeFloats(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), dataType).values);
  return { exact, recipe: { cos: values(r.cos), sin: values(r.sin) } };
}

/** Node: writes bytes to a path (nothing is written if the directory does not exist). */
export async function writeModel(bytes, path) {
  const { writeFile } = await import('node:fs/promises');
  await writeFile(path, bytes);
}
