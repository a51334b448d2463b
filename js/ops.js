// What a call of a table row (sinpe.js OPS) does, in its two phases. The read
// phase turns everything the caller controls (options and nested objects,
// positions, factor arrays, an out object) into private values, each read
// once by args.js's rule; any code of the caller's (a getter, a Proxy trap,
// an Array element getter) runs there, and nothing of the module has been
// touched yet. Typed-array positions stay where they are (a plain view,
// checked again when the read phase ends): the chunk loop reads their values
// straight into the module, unless the call writes their memory
// (positionsToRead). The compute phase checks the row's position source,
// makes its output (checking the typed arrays it writes: brand, length; no
// code of the caller's runs) and fills it through Engine.run, the one chunk
// loop.
import {
  cacheOutArg,
  describe,
  fail,
  halfOutArg,
  numberArrayArg,
  outArg,
  overlaps,
  snapshotOptions,
  typedArrayArg,
} from './args.js';
import { positionsArg, positionsChecked, positionsToRead } from './positions.js';
import { CORE, optionIndex, statusCode } from './engine.js';
import { statusError, vocabulary } from './errors.js';

const DTYPES = vocabulary.dtypes;
const RECIPES = vocabulary.recipes;
const ROPE_LAYOUTS = vocabulary.ropeLayouts;
const OPTIONS = new Map(vocabulary.options.map((o) => [o.name, o]));
const { isInteger } = Number;

// The two families: the option naming the formula, its names, and the second choice option.
export const FAMILIES = {
  preset: { key: 'preset', entries: vocabulary.presets, bad: 'bad_preset', extraKey: 'layout', extra: vocabulary.layouts, badExtra: 'bad_layout' },
  ropeType: { key: 'ropeType', entries: vocabulary.ropeTypes, bad: 'bad_rope_type', extraKey: 'ropeAxes', extra: vocabulary.ropeAxes, badExtra: 'bad_rope_axes' },
};
for (const f of Object.values(FAMILIES)) f.names = Object.freeze(f.entries.map((e) => e.name));

export function numberType(name, v) {
  if (typeof v !== 'number') fail(TypeError, `${name} must be a number, got ${describe(v)}`);
  return v;
}

function optionalNumber(snap, key, fallback) {
  return snap[key] === undefined ? fallback : numberType(`options.${key}`, snap[key]);
}

// options[key] (a string) as its index in `names`; `fallback` when absent; else statusError(bad).
function choiceOption(snap, key, names, bad, context, fallback) {
  const v = snap[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'string') fail(TypeError, `options.${key} must be a string, got ${describe(v)}`);
  const index = names.indexOf(v);
  if (index < 0) throw statusError(statusCode(bad), { ...context, [key]: describe(v) });
  return index;
}

/**
 * The plan request of one call, read from the options snapshot: the formula
 * (preset or rope type), the layout or rope axes, and each option's value
 * converted for the core (the core checks values, and which options the
 * formula reads). `extra` are the row's other options. Array options are
 * copied here, which may run the caller's code (element getters): this is
 * part of a call's read phase. Fills the formula's fields of `context`
 * (callContext), the error context of the call.
 */
function encodingOptions(snap, extra, familyName, kind, context) {
  const family = FAMILIES[familyName];
  const name = snap[family.key] === undefined ? family.names[0] : snap[family.key];
  if (typeof name !== 'string') fail(TypeError, `options.${family.key} must be a string, got ${describe(name)}`);
  context.familyName = context.preset = context.ropeType = name;
  const index = family.names.indexOf(name);
  if (index < 0) throw statusError(statusCode(family.bad), { ...context, preset: describe(name), ropeType: describe(name) });
  const second = choiceOption(snap, family.extraKey, family.extra, family.badExtra, context, -1);
  let entries = NO_ENTRIES;
  // The snapshot inherits nothing: for-in visits its own keys, in Object.keys order, without a key array.
  for (const key in snap) {
    if (key === family.key || key === family.extraKey || extra.includes(key)) continue;
    const option = OPTIONS.get(key);
    if (option === undefined) {
      const known = [family.key, family.extraKey, ...extra, ...family.entries[index].reads];
      fail(TypeError, `unknown option ${describe(key)}; ${family.key} '${name}' takes: ${known.join(', ')}`);
    }
    const v = snap[key];
    let value;
    if (option.type === 'number') value = numberType(`options.${key}`, v);
    else if (option.type === 'boolean') {
      if (typeof v !== 'boolean') fail(TypeError, `options.${key} must be a boolean, got ${describe(v)}`);
      value = v;
    } else value = numberArrayArg(`options.${key}`, v);
    if (entries === NO_ENTRIES) entries = [];
    entries.push([optionIndex(key), value]);
  }
  const rope = familyName === 'ropeType';
  return { kind, family: index, layout: rope ? -1 : second, axes: rope ? second : -1, entries };
}

// The entries of a request that gives no option (shared: never written).
const NO_ENTRIES = Object.freeze([]);

// A call's error context, every field present from the start (one shape, no
// property added later): `undefined` ones are filled as the call reads them.
function callContext(familyName, snap) {
  return { family: familyName, familyName: undefined, preset: undefined, ropeType: undefined, options: snap, dModel: undefined, rotaryDim: undefined, rotaryDimName: undefined, headDim: undefined };
}

// The values per position (per result array: w, or w/2 for a RoPE cache) a
// positions copy is sized against before the plan checks the width w: an
// out-of-range width is the plan's to report (naming dModel or rotaryDim), so
// it does not count here.
function elementWidth(width, values) {
  return width >= 1 && width <= vocabulary.limits.maxDModel ? Math.max(1, values) : 1;
}

/**
 * A call: what its read phase read (the plan request, the options snapshot,
 * the plan's width w, the caller's out as given and its name) and the job
 * Engine.run runs for it (see there), in one object. `values`: the values
 * each position gives per result array (w, or w/2 for a RoPE cache).
 */
function newCall(core, output, w, values, context, dtype = 0, recipe = 0) {
  // The fields every call has; a grid, view, x or heatmap call adds its own.
  return { request: undefined, snap: undefined, w, given: undefined, outName: 'options.out', core, output, count: 0, floats: w, values, context, dtype, recipe, positions: undefined, axes: 1, start: 0, out: undefined, sin: undefined, rangeUnchecked: false, countName: undefined };
}

/**
 * Read phase of an encoder method: the options snapshot, the encoding
 * options, the width, options.dtype and options.recipe (for rows that take
 * them), then the positions of a list row and the out object of a cache row.
 */
export function readCall(op, kinds, source0, width, options) {
  const snap = snapshotOptions('options', options);
  const context = callContext(op.family, snap);
  const request = encodingOptions(snap, op.options, op.family, kinds[op.plan], context);
  const w = numberType(op.widthName, width);
  const rope = op.rope;
  if (rope) {
    context.rotaryDim = w;
    context.rotaryDimName = 'rotaryDim';
  } else context.dModel = w;
  const dtype = op.dtype ? choiceOption(snap, 'dtype', DTYPES, 'bad_dtype', {}, 0) : 0;
  const recipe = op.recipe ? choiceOption(snap, 'recipe', RECIPES, 'bad_recipe', {}, 0) : 0;
  const call = newCall(op.core, op.output, w, rope ? w / 2 : w, context, dtype, recipe);
  call.request = request;
  call.snap = snap;
  call.given = snap.out;
  return readSource(op, call, source0);
}

/** Read phase of a prepared method: its positions (list rows) and out. `prepared`: { context, w, dtype, recipe }. */
export function readPrepared(op, prepared, source0, out) {
  const { context, w, dtype, recipe } = prepared;
  const call = newCall(op.core, op.output, w, op.rope ? w / 2 : w, context, dtype, recipe);
  call.given = out;
  call.outName = 'out';
  return readSource(op, call, source0);
}

function readSource(op, call, source0) {
  if (op.source === 'list') call.positions = positionsArg('positions', source0, elementWidth(call.w, call.values));
  if (op.output === 'cache') call.given = cacheOutArg(call.outName, call.given);
  // out's getters ran after the positions were taken: they are checked again.
  if (op.source === 'list') call.positions = positionsChecked('positions', call.positions);
  return call;
}

// Positions of `axes` values per token: their token count, or a RangeError
// naming `positions`.
function tokenCount(p, axes) {
  if (p.length % axes !== 0)
    fail(RangeError, `positions.length (${p.length}) must be a multiple of ${axes}: the plan has ${axes} position axes per token (token-major, positions[i*${axes} + a])`);
  return p.length / axes;
}

// A result of `length` values for dtype index `dtype`: `out` when given (a
// Float32Array for float32; a Uint16Array, or a Float16Array for float16,
// for the half types), else a new Float32Array or Uint16Array. Returns
// { view (written), array (returned) }.
function resultArray(out, length, dtype, name) {
  if (out === undefined) {
    const a = dtype === 0 ? new Float32Array(length) : new Uint16Array(length);
    return { view: a, array: a };
  }
  if (dtype === 0) return outArg(name, out, Float32Array, length);
  return halfOutArg(name, out, DTYPES[dtype], length);
}

// The caller's { cos, sin } (read by cacheOutArg) for `length` values each, checked, or new arrays.
function cacheArrays(out, length, dtype, name) {
  const cos = resultArray(out?.cos, length, dtype, `${name}.cos`);
  const sin = resultArray(out?.sin, length, dtype, `${name}.sin`);
  if (out !== undefined && overlaps(cos, sin)) fail(RangeError, `${name}.cos and ${name}.sin must not share memory`);
  return { cos, sin };
}

// The result of a one-chunk range whose check was left to the module's call:
// a refused range is reported before anything about the out (as when the
// range is checked first).
function rangeResult(e, h, c) {
  try {
    return resultArray(c.given, c.count * c.values, c.dtype, c.outName);
  } catch (error) {
    e.checkRows(h, c.start, c.count, c.values, c.context, 'start', c.countName);
    throw error;
  }
}

/**
 * Compute phase of a row with a position source and a table, cache or view
 * output, with plan h: the source's arguments are checked, the output made,
 * the chunk loop run. `a`, `b`: the source arguments (positions were read
 * into c.positions); `fn`: the callback of a view row.
 */
export function compute(op, e, h, c, a, b, fn) {
  if (op.source === 'list') {
    if (op.rope) c.axes = e.axes(h);
    c.count = tokenCount(c.positions, c.axes);
  } else if (op.source === 'range') {
    const from0 = op.args.length === 1; // table(length, …): rows 0 … length−1
    c.start = numberType('start', from0 ? 0 : a);
    c.count = numberType(op.countName, from0 ? a : b);
    if (op.output === 'view' && typeof fn !== 'function') fail(TypeError, `callback must be a function, got ${describe(fn)}`);
    // Rows that fit one chunk: the module's rows call checks the range itself
    // (the same checks as checkRows for one chunk), so the separate check runs
    // only on a refusal, to word it (Engine.run). Saves a crossing per call.
    if (op.core === CORE.rows && op.output === 'table' && isInteger(c.count) && c.count >= 1 && c.count <= e.rowsPerChunk(c.floats)) {
      c.countName = op.countName;
      c.rangeUnchecked = true;
    } else e.checkRows(h, c.start, c.count, c.values, c.context, 'start', op.countName);
  } else {
    c.height = numberType('height', a);
    c.width = numberType('width', b);
    if (op.rope) e.checkRopeGrid(h, c.values, c.height, c.width, c.context);
    else {
      c.cls = c.snap.clsToken === undefined ? false : c.snap.clsToken;
      if (typeof c.cls !== 'boolean') fail(TypeError, `options.clsToken must be a boolean, got ${describe(c.cls)}`);
      e.checkGrid(h, c.values, c.height, c.width, c.cls, c.context);
    }
    c.count = c.height * c.width + (c.cls ? 1 : 0);
  }
  if (op.output === 'view') {
    c.fn = fn;
    e.run(h, c);
    return undefined;
  }
  if (op.output === 'table') {
    const out = c.rangeUnchecked ? rangeResult(e, h, c) : resultArray(c.given, c.count * c.values, c.dtype, c.outName);
    c.out = out.view;
    if (op.source === 'list') c.positions = positionsToRead('positions', c.positions, [c.out]);
    e.run(h, c);
    return out.array;
  }
  const { cos, sin } = cacheArrays(c.given, c.count * c.values, c.dtype, c.outName);
  c.out = cos.view;
  c.sin = sin.view;
  if (op.source === 'list') c.positions = positionsToRead('positions', c.positions, [c.out, c.sin]);
  e.run(h, c);
  return { cos: cos.array, sin: sin.array, attentionFactor: e.attentionFactor(h) };
}

/** addTo's compute phase: x (batch × seqLen rows of width dModel) += rows start … start+seqLen−1, per sequence. */
export function addTo(op, e, h, call, x) {
  const { snap, w: d, context } = call;
  const seqLenGiven = snap.seqLen !== undefined;
  const start = optionalNumber(snap, 'start', 0);
  const xs = typedArrayArg('x', x, [Float32Array]);
  const n = xs.length;
  if (n % d !== 0 || n === 0) fail(RangeError, `x.length (${n}) must be a positive multiple of dModel (${d})`);
  const seqLen = seqLenGiven ? numberType('options.seqLen', snap.seqLen) : n / d;
  if (seqLenGiven && !(Number.isInteger(seqLen) && seqLen >= 1)) fail(RangeError, `options.seqLen must be a positive integer, got ${describe(seqLen)}`);
  if (n % (seqLen * d) !== 0) fail(RangeError, `x.length (${n}) must be a multiple of options.seqLen × dModel (${seqLen * d})`);
  e.checkRows(h, start, seqLen, d, context, 'options.start', 'options.seqLen');
  for (let b = 0; b < n / (seqLen * d); b++) {
    const j = newCall(op.core, 'x', d, d, context);
    Object.assign(j, { count: seqLen, start, x: xs.view, xAt: b * seqLen * d });
    e.run(h, j);
  }
  return xs.array;
}

/** heatmap's compute phase: RGBA bytes of rows start … start+count−1 and the options' column window. */
export function heatmap(op, e, h, call, start, count, gray) {
  const { snap, w: d, context } = call;
  numberType('start', start);
  numberType('count', count);
  const col0 = optionalNumber(snap, 'columnStart', 0);
  const cols = optionalNumber(snap, 'columns', d - col0);
  const vmin = optionalNumber(snap, 'vmin', -1);
  const vmax = optionalNumber(snap, 'vmax', 1);
  e.checkHeatmap(h, start, count, col0, cols, vmin, vmax, context);
  const bytes = e.lutBytes;
  let lut;
  if (snap.colormap === undefined) lut = gray(bytes);
  else {
    lut = typedArrayArg('options.colormap', snap.colormap, [Uint8Array, Uint8ClampedArray]).view;
    if (lut.length !== bytes) fail(TypeError, `options.colormap must be a Uint8Array of ${bytes / 4} RGBA entries (length ${bytes}), got length ${lut.length}`);
  }
  let view, result;
  if (snap.out === undefined) view = result = new Uint8ClampedArray(count * cols * 4);
  else ({ view, array: result } = outArg('options.out', snap.out, Uint8ClampedArray, count * cols * 4));
  if (count === 0 || cols === 0) return result;
  e.loadColormap(lut);
  const j = newCall(op.core, 'rgba', cols, cols * 4, context);
  Object.assign(j, { count, start, col0, cols, vmin, vmax, out: view });
  e.run(h, j);
  return result;
}

/**
 * Read phase of applyRope and of a prepared RoPE's apply: options.layout
 * (and for applyRope the encoding options and options.rotaryDim, headDim by
 * default), then the positions. `prepared`: the prepared RoPE's context.
 */
export function readApply(op, kinds, headDim, positions, options, prepared) {
  const snap = snapshotOptions('options', options);
  let call;
  if (prepared === undefined) {
    const hd = numberType('headDim', headDim);
    const context = callContext(op.family, snap);
    const request = encodingOptions(snap, op.options, op.family, kinds[op.plan], context);
    const rotaryGiven = snap.rotaryDim !== undefined;
    const r = rotaryGiven ? numberType('options.rotaryDim', snap.rotaryDim) : hd;
    Object.assign(context, { rotaryDim: r, rotaryDimName: rotaryGiven ? 'options.rotaryDim' : 'headDim', headDim: hd });
    call = { request, context, w: r, headDim: hd };
  } else {
    for (const key of Object.keys(snap)) if (key !== 'layout') fail(TypeError, `unknown option ${describe(key)}; apply takes: layout`);
    const hd = numberType('headDim', headDim);
    call = { context: { ...prepared, rotaryDimName: 'rotaryDim', headDim: hd }, w: prepared.rotaryDim, headDim: hd };
  }
  const layoutName = snap.layout === undefined ? ROPE_LAYOUTS[0] : snap.layout;
  if (typeof layoutName !== 'string') fail(TypeError, `options.layout must be a string, got ${describe(layoutName)}`);
  call.layout = ROPE_LAYOUTS.indexOf(layoutName);
  call.context.layout = describe(layoutName);
  if (call.layout < 0) throw statusError(statusCode('bad_rope_layout'), call.context);
  call.positions = positionsArg('positions', positions, 1);
  return call;
}

/** Compute phase of applyRope and apply: x rotated in place at the positions (the plan's axes per token). */
export function rotate(op, e, h, call, x) {
  const { layout, headDim: hd, context } = call;
  e.checkRope(h, layout, hd, context);
  const axes = e.axes(h);
  const n = tokenCount(call.positions, axes);
  const xs = typedArrayArg('x', x, [Float32Array]);
  const p = positionsToRead('positions', call.positions, [xs.view]);
  const row = n * hd;
  if (row === 0 ? xs.length !== 0 : xs.length === 0 || xs.length % row !== 0)
    throw statusError(statusCode('bad_x_length'), { ...context, xLength: xs.length, rowLength: row });
  if (row === 0) return xs.array;
  const numHeads = xs.length / row;
  const token = numHeads * hd;
  const j = newCall(op.core, 'x', token, token, context);
  Object.assign(j, { count: n, layout, headDim: hd, numHeads, x: xs.view, xAt: 0, positions: p, axes });
  if (Math.floor(e.scratchFloats / token) >= 1) e.run(h, j);
  else {
    // One token is wider than the scratch: each token's heads in groups, its position loaded once.
    e.checkPositions(p, context);
    for (let t = 0; t < n; t++) {
      e.loadPositions(p, t * axes, axes);
      const heads = newCall(CORE.ropeApplyHeads, 'x', hd, hd, context);
      Object.assign(heads, { count: numHeads, layout, headDim: hd, x: xs.view, xAt: t * token });
      e.run(h, heads);
    }
  }
  return xs.array;
}
