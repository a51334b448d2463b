// sinpe.wasm: the package API. It checks JavaScript types and converts them
// (args.js), hands the values to the module (engine.js), and throws the core's
// statuses as TypeError/RangeError naming the argument (errors.js). Names,
// options, defaults, statuses and limits all come from the vocabulary the
// build generates from the core (dist/sinpe-vocabulary.js).
import {
  describe,
  fail,
  numberArrayArg,
  outArg,
  overlaps,
  positionsArg,
  snapshotOptions,
  typedArrayArg,
} from './args.js';
import { Engine, KIND, statusCode } from './engine.js';
import { statusError, vocabulary } from './errors.js';
import { loadModule } from './load.js';
import { ropeOptionsFromConfig } from './rope-config.js';

const PRESETS = Object.freeze(vocabulary.presets.map((p) => p.name));
const LAYOUTS = vocabulary.layouts;
const ROPE_TYPES = Object.freeze(vocabulary.ropeTypes.map((t) => t.name));
const ROPE_LAYOUTS = vocabulary.ropeLayouts;
const OPTIONS = new Map(vocabulary.options.map((o) => [o.name, o]));

// Options a method takes besides the encoding options.
const EXTRA = {
  none: [],
  out: ['out'],
  grid2d: ['out', 'clsToken'],
  addTo: ['start', 'seqLen'],
  heatmap: ['out', 'colormap', 'columnStart', 'columns', 'vmin', 'vmax'],
  applyRope: ['rotaryDim', 'layout'],
};

const FAMILIES = {
  preset: { key: 'preset', names: PRESETS, entries: vocabulary.presets, bad: 'bad_preset', kind: KIND.rows },
  ropeType: { key: 'ropeType', names: ROPE_TYPES, entries: vocabulary.ropeTypes, bad: 'bad_rope_type', kind: KIND.rope },
};

function numberType(name, v) {
  if (typeof v !== 'number') fail(TypeError, `${name} must be a number, got ${describe(v)}`);
  return v;
}

function optionalNumber(snap, key, fallback) {
  return snap[key] === undefined ? fallback : numberType(`options.${key}`, snap[key]);
}

/**
 * The encoding options of one call: the formula (preset or rope type), the
 * layout, and each option's value converted for the core (the core checks
 * values, and which options the formula reads).
 */
function encodingOptions(snap, extra, familyName) {
  const family = FAMILIES[familyName];
  const name = snap[family.key] === undefined ? family.names[0] : snap[family.key];
  if (typeof name !== 'string') fail(TypeError, `options.${family.key} must be a string, got ${describe(name)}`);
  const context = { family: familyName, familyName: name, preset: name, ropeType: name, options: snap };
  const index = family.names.indexOf(name);
  if (index < 0) throw statusError(statusCode(family.bad), { ...context, preset: describe(name), ropeType: describe(name) });
  let layout = -1;
  if (familyName === 'preset' && snap.layout !== undefined) {
    if (typeof snap.layout !== 'string') fail(TypeError, `options.layout must be a string, got ${describe(snap.layout)}`);
    layout = LAYOUTS.indexOf(snap.layout);
    if (layout < 0) throw statusError(statusCode('bad_layout'), { ...context, layout: describe(snap.layout) });
  }
  const values = {};
  for (const key of Object.keys(snap)) {
    if (key === family.key || (familyName === 'preset' && key === 'layout') || extra.includes(key)) continue;
    const option = OPTIONS.get(key);
    if (option === undefined) {
      const reads = family.entries[index].reads;
      const known = [family.key, ...(familyName === 'preset' ? ['layout'] : []), ...extra, ...reads];
      fail(TypeError, `unknown option ${describe(key)}; ${family.key} '${name}' takes: ${known.join(', ')}`);
    }
    const v = snap[key];
    if (option.type === 'number') values[key] = numberType(`options.${key}`, v);
    else if (option.type === 'boolean') {
      if (typeof v !== 'boolean') fail(TypeError, `options.${key} must be a boolean, got ${describe(v)}`);
      values[key] = v;
    } else values[key] = numberArrayArg(`options.${key}`, v);
  }
  return { index, layout, values, context, kind: family.kind };
}

// The width a positions copy is sized against before the plan checks it: an
// out-of-range width is the plan's to report (naming dModel or rotaryDim), so
// it does not count here.
function elementWidth(width) {
  return width >= 1 && width <= vocabulary.limits.maxDModel ? width : 1;
}

function grayscale() {
  const lut = new Uint8Array(1024);
  for (let i = 0; i < 256; i++) lut.set([i, i, i, 255], 4 * i);
  return lut;
}

// Frees a prepared encoder's plan in the module when the encoder is collected.
const released = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry(({ engine, handle }) => engine.release(handle)) : null;

function bindAll(target, names) {
  for (const name of names) Object.defineProperty(target, name, { value: target[name].bind(target), enumerable: false });
}

const ENCODER_METHODS = [
  'encode', 'rows', 'table', 'grid2d', 'addTo', 'frequencies', 'heatmap', 'prepare',
  'ropeFrequencies', 'ropeCache', 'ropeCacheRows', 'applyRope', 'ropeOptionsFromConfig',
];

class Encoder {
  #e;
  #gray;

  constructor(module, simd) {
    this.#e = new Engine(module);
    /** Whether the SIMD flavour is running. */
    this.simd = simd;
    /** Package version. */
    this.version = module.version();
    /** Names of the presets. */
    this.presets = PRESETS;
    /** Names of the layouts. */
    this.layouts = LAYOUTS;
    /** Names of the RoPE types. */
    this.ropeTypes = ROPE_TYPES;
    /** Names of the RoPE rotation layouts. */
    this.ropeLayouts = ROPE_LAYOUTS;
    bindAll(this, ENCODER_METHODS);
    Object.freeze(this);
  }

  // The engine, after refusing calls made from inside a chunks() callback
  // (they would overwrite the memory its view shows).
  #engine() {
    if (this.#e.busy) fail(TypeError, 'the encoder cannot be called inside a chunks() callback; copy the view first');
    return this.#e;
  }

  // A plan for parsed options at `width`; owned = a prepared encoder's own.
  #plan(parsed, width, extraContext, owned = false) {
    const e = this.#engine();
    e.setOptions(parsed.values, parsed.context, { dModel: width, rotaryDim: width, ...extraContext });
    return e.plan(parsed.kind, parsed.index, parsed.layout, width, owned);
  }

  // Parses the options, then (after `before(d)`, which may run the caller's
  // code: an Array's element getters) makes the plan. Handle 0 is the plan of
  // the last plan() call, so nothing of the caller's may run between making it
  // and using it.
  #sinusoid(dModel, options, extra, kind = KIND.rows, before = undefined) {
    const snap = snapshotOptions('options', options);
    const parsed = encodingOptions(snap, extra, 'preset');
    parsed.kind = kind;
    const d = numberType('dModel', dModel);
    const early = before?.(elementWidth(d));
    const h = this.#plan(parsed, d);
    return { snap, h, d, early };
  }

  // out (when given) or a new Float32Array of `length`; returns [write view, returned array].
  #out(out, length, name = 'options.out') {
    if (out === undefined) {
      const a = new Float32Array(length);
      return [a, a];
    }
    const info = outArg(name, out, Float32Array, length);
    return [info.view, info.array];
  }

  encode(positions, dModel, options) {
    const { snap, h, d, early: p } = this.#sinusoid(dModel, options, EXTRA.out, KIND.rows, (d) =>
      positionsArg('positions', positions, { width: d }),
    );
    const [view, result] = this.#out(snap.out, p.length * d);
    this.#e.encode(h, d, p, view);
    return result;
  }

  rows(start, count, dModel, options) {
    return this.#rows(start, count, dModel, options, 'start', 'count');
  }

  table(length, dModel, options) {
    return this.#rows(0, length, dModel, options, 'start', 'length');
  }

  #rows(start, count, dModel, options, startName, countName) {
    const { snap, h, d } = this.#sinusoid(dModel, options, EXTRA.out);
    numberType(startName, start);
    numberType(countName, count);
    this.#e.checkRows(h, start, count, d, startName, countName);
    const [view, result] = this.#out(snap.out, count * d);
    this.#e.rows(h, d, start, count, view);
    return result;
  }

  grid2d(height, width, dModel, options) {
    const { snap, h, d } = this.#sinusoid(dModel, options, EXTRA.grid2d, KIND.grid);
    numberType('height', height);
    numberType('width', width);
    const cls = snap.clsToken === undefined ? false : snap.clsToken;
    if (typeof cls !== 'boolean') fail(TypeError, `options.clsToken must be a boolean, got ${describe(cls)}`);
    const e = this.#e;
    e.checkGrid(h, d, height, width, cls);
    const [view, result] = this.#out(snap.out, (height * width + (cls ? 1 : 0)) * d);
    e.grid2d(h, d, height, width, cls, view);
    return result;
  }

  addTo(x, dModel, options) {
    const { snap, h, d } = this.#sinusoid(dModel, options, EXTRA.addTo);
    const seqLenGiven = snap.seqLen !== undefined;
    const start = optionalNumber(snap, 'start', 0);
    const xs = typedArrayArg('x', x, [Float32Array]);
    const n = xs.length;
    if (n % d !== 0 || n === 0) fail(RangeError, `x.length (${n}) must be a positive multiple of dModel (${d})`);
    const seqLen = seqLenGiven ? numberType('options.seqLen', snap.seqLen) : n / d;
    if (seqLenGiven && !(Number.isInteger(seqLen) && seqLen >= 1))
      fail(RangeError, `options.seqLen must be a positive integer, got ${describe(seqLen)}`);
    if (n % (seqLen * d) !== 0)
      fail(RangeError, `x.length (${n}) must be a multiple of options.seqLen × dModel (${seqLen * d})`);
    this.#e.addTo(h, d, start, seqLen, xs.view);
    return xs.array;
  }

  frequencies(dModel, options) {
    const { h } = this.#sinusoid(dModel, options, EXTRA.none);
    return this.#e.frequencies(h);
  }

  heatmap(start, count, dModel, options) {
    const { snap, h, d } = this.#sinusoid(dModel, options, EXTRA.heatmap);
    numberType('start', start);
    numberType('count', count);
    const col0 = optionalNumber(snap, 'columnStart', 0);
    const cols = optionalNumber(snap, 'columns', d - col0);
    const vmin = optionalNumber(snap, 'vmin', -1);
    const vmax = optionalNumber(snap, 'vmax', 1);
    const e = this.#e;
    e.checkHeatmap(h, start, count, col0, cols, vmin, vmax);
    let lut;
    if (snap.colormap === undefined) lut = this.#gray ??= grayscale();
    else {
      lut = typedArrayArg('options.colormap', snap.colormap, [Uint8Array, Uint8ClampedArray]).view;
      if (lut.length !== 1024)
        fail(TypeError, `options.colormap must be a Uint8Array of 256 RGBA entries (length 1024), got length ${lut.length}`);
    }
    let view, result;
    if (snap.out === undefined) view = result = new Uint8ClampedArray(count * cols * 4);
    else ({ view, array: result } = outArg('options.out', snap.out, Uint8ClampedArray, count * cols * 4));
    e.heatmap(h, start, count, col0, cols, lut, vmin, vmax, view);
    return result;
  }

  /**
   * A prepared encoder for one width and options: the plan is made once, each
   * call only checks its own arguments.
   */
  prepare(dModel, options) {
    const snap = snapshotOptions('options', options);
    const parsed = encodingOptions(snap, EXTRA.none, 'preset');
    const d = numberType('dModel', dModel);
    const handle = this.#plan(parsed, d, {}, true);
    const prepared = new Prepared(handle, d, parsed.context, () => this.#engine());
    released?.register(prepared, { engine: this.#e, handle });
    return prepared;
  }

  // ---- RoPE ------------------------------------------------------------------

  #rope(rotaryDim, options, extra, before = undefined) {
    const snap = snapshotOptions('options', options);
    const parsed = encodingOptions(snap, extra, 'ropeType');
    const r = numberType('rotaryDim', rotaryDim);
    const early = before?.(elementWidth(r));
    const h = this.#plan(parsed, r, { rotaryDimName: 'rotaryDim' });
    return { snap, h, r, early };
  }

  // Caller arrays for a cache of n rows, or new ones.
  #cacheOut(out, length) {
    if (out === undefined) return { cos: [new Float32Array(length)], sin: [new Float32Array(length)] };
    const o = snapshotOptions('options.out', out);
    const cos = outArg('options.out.cos', o.cos, Float32Array, length);
    const sin = outArg('options.out.sin', o.sin, Float32Array, length);
    if (overlaps(cos, sin)) fail(RangeError, 'options.out.cos and options.out.sin must not share memory');
    return { cos: [cos.view, cos.array], sin: [sin.view, sin.array] };
  }

  ropeFrequencies(rotaryDim, options) {
    const { h } = this.#rope(rotaryDim, options, EXTRA.none);
    return this.#e.frequencies(h);
  }

  ropeCache(positions, rotaryDim, options) {
    const { snap, h, r, early: p } = this.#rope(rotaryDim, options, EXTRA.out, (r) =>
      positionsArg('positions', positions, { width: r }),
    );
    const half = r / 2;
    const out = this.#cacheOut(snap.out, p.length * half);
    this.#e.ropeCache(h, half, p, out.cos[0], out.sin[0]);
    return { cos: out.cos.at(-1), sin: out.sin.at(-1), attentionFactor: this.#e.attentionFactor(h) };
  }

  ropeCacheRows(start, count, rotaryDim, options) {
    const { snap, h, r } = this.#rope(rotaryDim, options, EXTRA.out);
    const half = r / 2;
    numberType('start', start);
    numberType('count', count);
    this.#e.checkRows(h, start, count, r);
    const out = this.#cacheOut(snap.out, count * half);
    this.#e.ropeCacheRows(h, half, start, count, out.cos[0], out.sin[0]);
    return { cos: out.cos.at(-1), sin: out.sin.at(-1), attentionFactor: this.#e.attentionFactor(h) };
  }

  applyRope(x, positions, headDim, options) {
    const snap = snapshotOptions('options', options);
    const hd = numberType('headDim', headDim);
    const rotaryGiven = snap.rotaryDim !== undefined;
    const parsed = encodingOptions(snap, EXTRA.applyRope, 'ropeType');
    const r = rotaryGiven ? numberType('options.rotaryDim', snap.rotaryDim) : hd;
    const layoutName = snap.layout === undefined ? ROPE_LAYOUTS[0] : snap.layout;
    if (typeof layoutName !== 'string') fail(TypeError, `options.layout must be a string, got ${describe(layoutName)}`);
    const layout = ROPE_LAYOUTS.indexOf(layoutName);
    const context = { rotaryDimName: rotaryGiven ? 'options.rotaryDim' : 'headDim', headDim: hd, layout: describe(layoutName) };
    if (layout < 0) throw statusError(statusCode('bad_rope_layout'), { ...parsed.context, ...context });
    const p = positionsArg('positions', positions, { width: 1 }); // may run the caller's code: before the plan
    const h = this.#plan(parsed, r, context);
    const e = this.#e;
    e.check(e.module.checkRope(h, layout, hd), context);
    const xs = typedArrayArg('x', x, [Float32Array]);
    const row = p.length * hd;
    if (row === 0 ? xs.length !== 0 : xs.length === 0 || xs.length % row !== 0)
      throw statusError(statusCode('bad_x_length'), { xLength: xs.length, rowLength: row });
    if (row !== 0) e.applyRope(h, layout, hd, p, xs.length / row, xs.view);
    return xs.array;
  }

  ropeOptionsFromConfig(config) {
    return ropeOptionsFromConfig(config);
  }
}

/**
 * One width and options, prepared: `rows`, `encode` and `chunks` only check
 * their own arguments and call the module once per chunk.
 */
class Prepared {
  #h;
  #enter;
  #context;

  constructor(handle, dModel, context, enter) {
    this.#h = handle;
    this.#enter = enter;
    this.#context = { ...context, dModel };
    /** The width every row has. */
    this.dModel = dModel;
    bindAll(this, ['rows', 'encode', 'chunks']);
    Object.freeze(this);
  }

  rows(start, count, out) {
    const e = this.#enter();
    const d = this.dModel;
    numberType('start', start);
    numberType('count', count);
    e.setContext(this.#context);
    e.checkRows(this.#h, start, count, d);
    let view, result;
    if (out === undefined) view = result = new Float32Array(count * d);
    else ({ view, array: result } = outArg('out', out, Float32Array, count * d));
    e.rows(this.#h, d, start, count, view);
    return result;
  }

  encode(positions, out) {
    const e = this.#enter();
    const d = this.dModel;
    e.setContext(this.#context);
    const p = positionsArg('positions', positions, { width: d });
    let view, result;
    if (out === undefined) view = result = new Float32Array(p.length * d);
    else ({ view, array: result } = outArg('out', out, Float32Array, p.length * d));
    e.encode(this.#h, d, p, view);
    return result;
  }

  /**
   * Calls callback(view, firstRow) for consecutive chunks of rows start …
   * start+count−1: `view` is a Float32Array over the module's memory holding
   * rows firstRow … firstRow + view.length/dModel − 1 (firstRow is a
   * position). Valid only during the callback: afterwards it is detached
   * (length 0).
   */
  chunks(start, count, callback) {
    const e = this.#enter();
    numberType('start', start);
    numberType('count', count);
    if (typeof callback !== 'function') fail(TypeError, `callback must be a function, got ${describe(callback)}`);
    e.setContext(this.#context);
    e.chunks(this.#h, this.dModel, start, count, callback);
  }
}

/**
 * Loads the module. See sinpe.d.ts for the options.
 */
export default async function sinpe(init) {
  const { module, simd } = await loadModule(init);
  return new Encoder(module, simd);
}

export {
  PRESETS as presets,
  LAYOUTS as layouts,
  ROPE_TYPES as ropeTypes,
  ROPE_LAYOUTS as ropeLayouts,
  vocabulary,
  ropeOptionsFromConfig,
};
