// sinpe.wasm: the package API. It checks JavaScript types and converts them
// (args.js), hands the values to the module (engine.js), and throws the core's
// statuses as TypeError/RangeError naming the argument (errors.js). Names,
// options, defaults, statuses and limits all come from the vocabulary the
// build generates from the core (dist/sinpe-vocabulary.js).
import {
  describe,
  fail,
  halfOutArg,
  numberArrayArg,
  outArg,
  overlaps,
  positionsArg,
  snapshotOptions,
  typedArrayArg,
} from './args.js';
import { Engine, optionIndex, statusCode } from './engine.js';
import { statusError, vocabulary } from './errors.js';
import { loadModule } from './load.js';
import { ropeOptionsFromConfig as readRopeConfig } from './rope-config.js';
import { getRopeIndex } from './rope-index.js';

const PRESETS = Object.freeze(vocabulary.presets.map((p) => p.name));
const LAYOUTS = vocabulary.layouts;
const ROPE_TYPES = Object.freeze(vocabulary.ropeTypes.map((t) => t.name));
const ROPE_LAYOUTS = vocabulary.ropeLayouts;
const ROPE_AXES = vocabulary.ropeAxes;
const DTYPES = vocabulary.dtypes;
const RECIPES = vocabulary.recipes;
const OPTIONS = new Map(vocabulary.options.map((o) => [o.name, o]));

// Options a method takes besides the encoding options.
const EXTRA = {
  none: [],
  out: ['out', 'dtype'],
  prepare: ['dtype'],
  ropeOut: ['out', 'dtype', 'recipe'],
  ropePrepare: ['dtype', 'recipe'],
  grid2d: ['out', 'clsToken'],
  addTo: ['start', 'seqLen'],
  heatmap: ['out', 'colormap', 'columnStart', 'columns', 'vmin', 'vmax'],
  applyRope: ['rotaryDim', 'layout'],
};

const FAMILIES = {
  preset: { key: 'preset', names: PRESETS, entries: vocabulary.presets, bad: 'bad_preset', kind: 'rows' },
  ropeType: { key: 'ropeType', names: ROPE_TYPES, entries: vocabulary.ropeTypes, bad: 'bad_rope_type', kind: 'rope' },
};

function numberType(name, v) {
  if (typeof v !== 'number') fail(TypeError, `${name} must be a number, got ${describe(v)}`);
  return v;
}

// options.dtype as its vocabulary index (0: float32, the default).
function dtypeOption(snap) {
  const v = snap.dtype;
  if (v === undefined) return 0;
  if (typeof v !== 'string') fail(TypeError, `options.dtype must be a string, got ${describe(v)}`);
  const index = DTYPES.indexOf(v);
  if (index < 0) throw statusError(statusCode('bad_dtype'), { dtype: describe(v) });
  return index;
}

// options.recipe of a RoPE cache call as its vocabulary index (0: exact, the default).
function recipeOption(snap) {
  const v = snap.recipe;
  if (v === undefined) return 0;
  if (typeof v !== 'string') fail(TypeError, `options.recipe must be a string, got ${describe(v)}`);
  const index = RECIPES.indexOf(v);
  if (index < 0) throw statusError(statusCode('bad_recipe'), { recipe: describe(v) });
  return index;
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

function optionalNumber(snap, key, fallback) {
  return snap[key] === undefined ? fallback : numberType(`options.${key}`, snap[key]);
}

/**
 * The encoding options of one call, read from the options snapshot: the
 * formula (preset or rope type), the layout, and each option's value
 * converted for the core (the core checks values, and which options the
 * formula reads). Array options are copied here, which may run the caller's
 * code (element getters): this is part of a call's read phase.
 */
function encodingOptions(snap, extra, familyName, kinds) {
  const family = FAMILIES[familyName];
  const name = snap[family.key] === undefined ? family.names[0] : snap[family.key];
  if (typeof name !== 'string') fail(TypeError, `options.${family.key} must be a string, got ${describe(name)}`);
  const context = { family: familyName, familyName: name, preset: name, ropeType: name, options: snap };
  const index = family.names.indexOf(name);
  if (index < 0) throw statusError(statusCode(family.bad), { ...context, preset: describe(name), ropeType: describe(name) });
  const rope = familyName === 'ropeType';
  let axes = -1;
  if (rope && snap.ropeAxes !== undefined) {
    if (typeof snap.ropeAxes !== 'string') fail(TypeError, `options.ropeAxes must be a string, got ${describe(snap.ropeAxes)}`);
    axes = ROPE_AXES.indexOf(snap.ropeAxes);
    if (axes < 0) throw statusError(statusCode('bad_rope_axes'), { ...context, ropeAxes: describe(snap.ropeAxes) });
  }
  let layout = -1;
  if (familyName === 'preset' && snap.layout !== undefined) {
    if (typeof snap.layout !== 'string') fail(TypeError, `options.layout must be a string, got ${describe(snap.layout)}`);
    layout = LAYOUTS.indexOf(snap.layout);
    if (layout < 0) throw statusError(statusCode('bad_layout'), { ...context, layout: describe(snap.layout) });
  }
  const entries = [];
  for (const key of Object.keys(snap)) {
    if (key === family.key || (familyName === 'preset' && key === 'layout') || (rope && key === 'ropeAxes') || extra.includes(key)) continue;
    const option = OPTIONS.get(key);
    if (option === undefined) {
      const reads = family.entries[index].reads;
      const known = [family.key, ...(familyName === 'preset' ? ['layout'] : ['ropeAxes']), ...extra, ...reads];
      fail(TypeError, `unknown option ${describe(key)}; ${family.key} '${name}' takes: ${known.join(', ')}`);
    }
    const v = snap[key];
    let value;
    if (option.type === 'number') value = numberType(`options.${key}`, v);
    else if (option.type === 'boolean') {
      if (typeof v !== 'boolean') fail(TypeError, `options.${key} must be a boolean, got ${describe(v)}`);
      value = v;
    } else value = numberArrayArg(`options.${key}`, v);
    entries.push([optionIndex(key), value]);
  }
  return { request: { kind: kinds[family.kind], family: index, layout, axes, entries }, context };
}

// The width a positions copy is sized against before the plan checks it: an
// out-of-range width is the plan's to report (naming dModel or rotaryDim), so
// it does not count here.
function elementWidth(width) {
  return width >= 1 && width <= vocabulary.limits.maxDModel ? width : 1;
}

// The core's verdict on the RoPE options ropeOptionsFromConfig read from a
// config.json: a plan is made for them and released; undefined when the core
// accepts them, else the error for its status (error.status, error.values).
// The rules (vocabulary.def's SINPE_RULE table) are checked only here, by the
// core: rope-config.js words a broken one with the config's keys.
function ropeCheck(engine) {
  return (rotaryDim, options) => {
    if (engine.busy) fail(TypeError, 'the encoder cannot be called inside a chunks() callback; copy the view first');
    const parsed = encodingOptions(snapshotOptions('options', options), EXTRA.none, 'ropeType', engine.kind);
    Object.assign(parsed.context, { rotaryDim, rotaryDimName: 'rotaryDim' });
    let handle;
    try {
      handle = engine.plan(parsed.request, rotaryDim, parsed.context);
    } catch (error) {
      if (typeof error?.status === 'string') return error;
      throw error;
    }
    engine.release(handle);
    return undefined;
  };
}

// The check of the module sinpe() loaded last, for the ropeOptionsFromConfig
// export (a function of no encoder's): the rules are the same in every module.
let loadedCheck;
const needsModule = () => {
  throw new TypeError(
    'sinpe: ropeOptionsFromConfig checks the options it reads with the module: await sinpe() once before calling it, or call pe.ropeOptionsFromConfig',
  );
};

/**
 * RoPE options from a model's parsed config.json (rope-config.js), the rules
 * relating them checked by the module sinpe() loaded last.
 */
function ropeOptionsFromConfig(config) {
  return readRopeConfig(config, (rotaryDim, options) => (loadedCheck ?? needsModule)(rotaryDim, options));
}

// Frees a prepared encoder's plan in the module when the encoder is collected.
const released = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry(({ engine, handle }) => engine.release(handle)) : null;

function bindAll(target, names) {
  for (const name of names) Object.defineProperty(target, name, { value: target[name].bind(target), enumerable: false });
}

const ENCODER_METHODS = [
  'encode', 'rows', 'table', 'grid2d', 'addTo', 'frequencies', 'heatmap', 'prepare',
  'ropeFrequencies', 'ropeCache', 'ropeCacheRows', 'ropeCacheGrid', 'applyRope', 'prepareRope', 'ropeOptionsFromConfig',
  'getRopeIndex',
];

// Positions of `axes` values per token: their token count, or a RangeError
// naming `positions`.
function tokenCount(p, axes) {
  if (p.length % axes !== 0)
    fail(RangeError, `positions.length (${p.length}) must be a multiple of ${axes}: the plan has ${axes} position axes per token (token-major, positions[i*${axes} + a])`);
  return p.length / axes;
}

// Every public call has two phases. The read phase turns everything the
// caller controls (options and nested objects, positions, factor arrays) into
// private values, each read once; any code of the caller's (a getter, a Proxy
// trap, an Array element getter) runs here, and nothing of the module has
// been touched yet. The compute phase makes the call's own plan, checks the
// typed arrays it writes (brand, length: no code of the caller's runs), fills
// them and releases the plan, whatever happens.
class Encoder {
  #e;
  #gray;
  #ropeCheck;

  constructor(module, simd) {
    this.#e = new Engine(module);
    this.#ropeCheck = ropeCheck(this.#e);
    loadedCheck = this.#ropeCheck;
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

  // Refuses a method called on anything but an encoder.
  static #own(self, method) {
    if (typeof self !== 'object' || self === null || !(#e in self)) foreign(method, 'the encoder sinpe() resolves to', self);
  }

  // The engine, after refusing calls made from inside a chunks() callback
  // (they would overwrite the memory its view shows).
  #engine() {
    if (this.#e.busy) fail(TypeError, 'the encoder cannot be called inside a chunks() callback; copy the view first');
    return this.#e;
  }

  // Read phase of a sinusoidal call: the options snapshot and their values.
  #readSinusoid(dModel, options, extra, kind = 'rows') {
    const e = this.#engine();
    const snap = snapshotOptions('options', options);
    const parsed = encodingOptions(snap, extra, 'preset', e.kind);
    parsed.request.kind = e.kind[kind];
    const d = numberType('dModel', dModel);
    parsed.context.dModel = d;
    return { e, snap, parsed, d };
  }

  // Compute phase: fn(h) with the call's plan (engine.js use(): a recent
  // equal request's plan, else a new one), handed back afterwards.
  #withPlan(e, parsed, width, fn) {
    const h = e.use(parsed.request, width, parsed.context);
    try {
      return fn(h);
    } finally {
      e.unuse();
    }
  }

  // out (when given) or a new Float32Array of `length`: { view (written), array (returned) }.
  #out(out, length, name = 'options.out') {
    if (out === undefined) {
      const a = new Float32Array(length);
      return { view: a, array: a };
    }
    return outArg(name, out, Float32Array, length);
  }

  encode(positions, dModel, options) {
    Encoder.#own(this, 'encode');
    const { e, snap, parsed, d } = this.#readSinusoid(dModel, options, EXTRA.out);
    const dtype = dtypeOption(snap);
    const p = positionsArg('positions', positions, elementWidth(d));
    return this.#withPlan(e, parsed, d, (h) => {
      const out = resultArray(snap.out, p.length * d, dtype, 'options.out');
      e.encode(h, d, p, out.view, parsed.context, dtype);
      return out.array;
    });
  }

  rows(start, count, dModel, options) {
    Encoder.#own(this, 'rows');
    return this.#rows(start, count, dModel, options, 'start', 'count');
  }

  table(length, dModel, options) {
    Encoder.#own(this, 'table');
    return this.#rows(0, length, dModel, options, 'start', 'length');
  }

  #rows(start, count, dModel, options, startName, countName) {
    const { e, snap, parsed, d } = this.#readSinusoid(dModel, options, EXTRA.out);
    const dtype = dtypeOption(snap);
    return this.#withPlan(e, parsed, d, (h) => {
      numberType(startName, start);
      numberType(countName, count);
      e.checkRows(h, start, count, d, parsed.context, startName, countName);
      const out = resultArray(snap.out, count * d, dtype, 'options.out');
      e.rows(h, d, start, count, out.view, parsed.context, dtype);
      return out.array;
    });
  }

  grid2d(height, width, dModel, options) {
    Encoder.#own(this, 'grid2d');
    const { e, snap, parsed, d } = this.#readSinusoid(dModel, options, EXTRA.grid2d, 'grid');
    const cls = snap.clsToken === undefined ? false : snap.clsToken;
    return this.#withPlan(e, parsed, d, (h) => {
      numberType('height', height);
      numberType('width', width);
      if (typeof cls !== 'boolean') fail(TypeError, `options.clsToken must be a boolean, got ${describe(cls)}`);
      e.checkGrid(h, d, height, width, cls, parsed.context);
      const out = this.#out(snap.out, (height * width + (cls ? 1 : 0)) * d);
      e.grid2d(h, d, height, width, cls, out.view, parsed.context);
      return out.array;
    });
  }

  addTo(x, dModel, options) {
    Encoder.#own(this, 'addTo');
    const { e, snap, parsed, d } = this.#readSinusoid(dModel, options, EXTRA.addTo);
    return this.#withPlan(e, parsed, d, (h) => {
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
      e.addTo(h, d, start, seqLen, xs.view, parsed.context);
      return xs.array;
    });
  }

  frequencies(dModel, options) {
    Encoder.#own(this, 'frequencies');
    const { e, parsed, d } = this.#readSinusoid(dModel, options, EXTRA.none);
    return this.#withPlan(e, parsed, d, (h) => e.frequencies(h));
  }

  #grayscale(bytes) {
    if (this.#gray === undefined) {
      const lut = new Uint8Array(bytes);
      const entries = bytes / 4;
      for (let i = 0; i < entries; i++) {
        const g = Math.round((i * 255) / (entries - 1));
        lut.set([g, g, g, 255], 4 * i);
      }
      this.#gray = lut;
    }
    return this.#gray;
  }

  heatmap(start, count, dModel, options) {
    Encoder.#own(this, 'heatmap');
    const { e, snap, parsed, d } = this.#readSinusoid(dModel, options, EXTRA.heatmap);
    return this.#withPlan(e, parsed, d, (h) => {
      numberType('start', start);
      numberType('count', count);
      const col0 = optionalNumber(snap, 'columnStart', 0);
      const cols = optionalNumber(snap, 'columns', d - col0);
      const vmin = optionalNumber(snap, 'vmin', -1);
      const vmax = optionalNumber(snap, 'vmax', 1);
      const context = parsed.context;
      e.checkHeatmap(h, start, count, col0, cols, vmin, vmax, context);
      const bytes = e.lutBytes;
      let lut;
      if (snap.colormap === undefined) lut = this.#grayscale(bytes);
      else {
        lut = typedArrayArg('options.colormap', snap.colormap, [Uint8Array, Uint8ClampedArray]).view;
        if (lut.length !== bytes)
          fail(TypeError, `options.colormap must be a Uint8Array of ${bytes / 4} RGBA entries (length ${bytes}), got length ${lut.length}`);
      }
      let view, result;
      if (snap.out === undefined) view = result = new Uint8ClampedArray(count * cols * 4);
      else ({ view, array: result } = outArg('options.out', snap.out, Uint8ClampedArray, count * cols * 4));
      e.heatmap(h, start, count, col0, cols, lut, vmin, vmax, view, context);
      return result;
    });
  }

  /**
   * A prepared encoder for one width and options: the plan is made once, each
   * call only checks its own arguments.
   */
  prepare(dModel, options) {
    Encoder.#own(this, 'prepare');
    const { e, snap, parsed, d } = this.#readSinusoid(dModel, options, EXTRA.prepare);
    const dtype = dtypeOption(snap);
    const handle = e.plan(parsed.request, d, parsed.context, true);
    const prepared = new Prepared(handle, d, dtype, parsed.context, () => this.#engine());
    released?.register(prepared, { engine: e, handle });
    return prepared;
  }

  // ---- RoPE ------------------------------------------------------------------

  // Read phase of a RoPE call.
  #readRope(rotaryDim, options, extra) {
    const e = this.#engine();
    const snap = snapshotOptions('options', options);
    const parsed = encodingOptions(snap, extra, 'ropeType', e.kind);
    const r = numberType('rotaryDim', rotaryDim);
    parsed.context.rotaryDim = r;
    parsed.context.rotaryDimName = 'rotaryDim';
    return { e, snap, parsed, r };
  }

  // options.out of a cache call, read: its own enumerable cos and sin (the
  // same rule as for options), before any of them is checked.
  #readCacheOut(out) {
    return readCacheOut(out, 'options.out');
  }


  ropeFrequencies(rotaryDim, options) {
    Encoder.#own(this, 'ropeFrequencies');
    const { e, parsed, r } = this.#readRope(rotaryDim, options, EXTRA.none);
    return this.#withPlan(e, parsed, r, (h) => e.frequencies(h));
  }

  ropeCache(positions, rotaryDim, options) {
    Encoder.#own(this, 'ropeCache');
    const { e, snap, parsed, r } = this.#readRope(rotaryDim, options, EXTRA.ropeOut);
    const dtype = dtypeOption(snap);
    const recipe = recipeOption(snap);
    const p = positionsArg('positions', positions, elementWidth(r));
    const outs = this.#readCacheOut(snap.out);
    return this.#withPlan(e, parsed, r, (h) => ropeCacheAt(e, h, r / 2, p, outs, dtype, parsed.context, 'options.out', recipe));
  }

  ropeCacheRows(start, count, rotaryDim, options) {
    Encoder.#own(this, 'ropeCacheRows');
    const { e, snap, parsed, r } = this.#readRope(rotaryDim, options, EXTRA.ropeOut);
    const dtype = dtypeOption(snap);
    const recipe = recipeOption(snap);
    const outs = this.#readCacheOut(snap.out);
    return this.#withPlan(e, parsed, r, (h) => {
      numberType('start', start);
      numberType('count', count);
      return ropeCacheRange(e, h, r / 2, start, count, outs, dtype, parsed.context, 'options.out', recipe);
    });
  }

  ropeCacheGrid(height, width, rotaryDim, options) {
    Encoder.#own(this, 'ropeCacheGrid');
    const { e, snap, parsed, r } = this.#readRope(rotaryDim, options, EXTRA.ropeOut);
    const dtype = dtypeOption(snap);
    const recipe = recipeOption(snap);
    const outs = this.#readCacheOut(snap.out);
    return this.#withPlan(e, parsed, r, (h) => {
      numberType('height', height);
      numberType('width', width);
      return ropeCacheGridOf(e, h, r / 2, height, width, outs, dtype, parsed.context, 'options.out', recipe);
    });
  }

  /**
   * A prepared RoPE for one rotary dimension and options: the plan is made
   * once, each call only checks its own arguments.
   */
  prepareRope(rotaryDim, options) {
    Encoder.#own(this, 'prepareRope');
    const { e, snap, parsed, r } = this.#readRope(rotaryDim, options, EXTRA.ropePrepare);
    const dtype = dtypeOption(snap);
    const recipe = recipeOption(snap);
    const handle = e.plan(parsed.request, r, parsed.context, true);
    const prepared = new PreparedRope(handle, r, dtype, e, parsed.context, () => this.#engine(), recipe);
    released?.register(prepared, { engine: e, handle });
    return prepared;
  }

  applyRope(x, positions, headDim, options) {
    Encoder.#own(this, 'applyRope');
    const e = this.#engine();
    const snap = snapshotOptions('options', options);
    const hd = numberType('headDim', headDim);
    const rotaryGiven = snap.rotaryDim !== undefined;
    const parsed = encodingOptions(snap, EXTRA.applyRope, 'ropeType', e.kind);
    const r = rotaryGiven ? numberType('options.rotaryDim', snap.rotaryDim) : hd;
    const layoutName = snap.layout === undefined ? ROPE_LAYOUTS[0] : snap.layout;
    if (typeof layoutName !== 'string') fail(TypeError, `options.layout must be a string, got ${describe(layoutName)}`);
    const layout = ROPE_LAYOUTS.indexOf(layoutName);
    const context = parsed.context;
    Object.assign(context, { rotaryDim: r, rotaryDimName: rotaryGiven ? 'options.rotaryDim' : 'headDim', headDim: hd, layout: describe(layoutName) });
    if (layout < 0) throw statusError(statusCode('bad_rope_layout'), context);
    const p = positionsArg('positions', positions, 1);
    return this.#withPlan(e, parsed, r, (h) => rotate(e, h, layout, hd, p, x, context));
  }

  ropeOptionsFromConfig(config) {
    Encoder.#own(this, 'ropeOptionsFromConfig');
    return readRopeConfig(config, this.#ropeCheck);
  }

  getRopeIndex(inputIds, opts) {
    return getRopeIndex(inputIds, opts);
  }
}

/**
 * One width and options, prepared: `rows`, `encode` and `chunks` only check
 * their own arguments and call the module once per chunk. The plan is the
 * encoder's own, released when the encoder is collected.
 */
class Prepared {
  #h;
  #enter;
  #context;

  #dtype;

  // Refuses a method called on anything but a prepared encoder.
  static #own(self, method) {
    if (typeof self !== 'object' || self === null || !(#h in self)) foreign(method, 'an encoder pe.prepare() returned', self);
  }

  constructor(handle, dModel, dtype, context, enter) {
    this.#h = handle;
    this.#enter = enter;
    this.#dtype = dtype;
    this.#context = Object.freeze({ ...context, dModel });
    /** The width every row has. */
    this.dModel = dModel;
    /** The element type of every result (options.dtype at prepare time). */
    this.dtype = DTYPES[dtype];
    bindAll(this, ['rows', 'encode', 'chunks']);
    Object.freeze(this);
  }

  rows(start, count, out) {
    Prepared.#own(this, 'rows');
    const e = this.#enter();
    const d = this.dModel;
    numberType('start', start);
    numberType('count', count);
    e.checkRows(this.#h, start, count, d, this.#context);
    const { view, array } = resultArray(out, count * d, this.#dtype, 'out');
    e.rows(this.#h, d, start, count, view, this.#context, this.#dtype);
    return array;
  }

  encode(positions, out) {
    Prepared.#own(this, 'encode');
    const e = this.#enter();
    const d = this.dModel;
    const p = positionsArg('positions', positions, d);
    const { view, array } = resultArray(out, p.length * d, this.#dtype, 'out');
    e.encode(this.#h, d, p, view, this.#context, this.#dtype);
    return array;
  }

  /**
   * Calls callback(view, firstRow) for consecutive chunks of rows start …
   * start+count−1: `view` is a Float32Array (a Uint16Array of bit patterns
   * for a half dtype) over the module's memory holding
   * rows firstRow … firstRow + view.length/dModel − 1 (firstRow is a
   * position). Valid only during the callback: afterwards it is detached
   * (length 0).
   */
  chunks(start, count, callback) {
    Prepared.#own(this, 'chunks');
    const e = this.#enter();
    numberType('start', start);
    numberType('count', count);
    if (typeof callback !== 'function') fail(TypeError, `callback must be a function, got ${describe(callback)}`);
    e.chunks(this.#h, this.dModel, start, count, callback, this.#context, this.#dtype);
  }
}

// ---- RoPE compute phases, shared by the encoder and PreparedRope ---------------

// Caller arrays (read: { cos, sin }) for a cache of `length` values each, or new ones.
function cacheOut(out, length, dtype, name) {
  if (out === undefined) {
    const cos = resultArray(undefined, length, dtype);
    const sin = resultArray(undefined, length, dtype);
    return { cos: cos.array, sin: sin.array, cosView: cos.view, sinView: sin.view };
  }
  const cos = resultArray(out.cos, length, dtype, `${name}.cos`);
  const sin = resultArray(out.sin, length, dtype, `${name}.sin`);
  if (overlaps(cos, sin))
    fail(RangeError, `${name}.cos and ${name}.sin must not share memory`);
  return { cos: cos.array, sin: sin.array, cosView: cos.view, sinView: sin.view };
}

function ropeCacheAt(e, h, half, p, outs, dtype, context, outName, recipe = 0) {
  const axes = e.axes(h);
  const n = tokenCount(p, axes);
  const out = cacheOut(outs, n * half, dtype, outName);
  e.ropeCache(h, half, axes, p, out.cosView, out.sinView, context, dtype, recipe);
  return { cos: out.cos, sin: out.sin, attentionFactor: e.attentionFactor(h) };
}

function ropeCacheRange(e, h, half, start, count, outs, dtype, context, outName, recipe = 0) {
  e.checkRows(h, start, count, half, context);
  const out = cacheOut(outs, count * half, dtype, outName);
  e.ropeCacheRows(h, half, start, count, out.cosView, out.sinView, context, dtype, recipe);
  return { cos: out.cos, sin: out.sin, attentionFactor: e.attentionFactor(h) };
}

function ropeCacheGridOf(e, h, half, height, width, outs, dtype, context, outName, recipe = 0) {
  e.checkRopeGrid(h, half, height, width, context);
  const out = cacheOut(outs, height * width * half, dtype, outName);
  e.ropeCacheGrid(h, half, height, width, out.cosView, out.sinView, context, dtype, recipe);
  return { cos: out.cos, sin: out.sin, attentionFactor: e.attentionFactor(h) };
}

// Rotates x in place at positions p (the plan's axes per token).
function rotate(e, h, layout, hd, p, x, context) {
  e.checkRope(h, layout, hd, context);
  const axes = e.axes(h);
  const n = tokenCount(p, axes);
  const xs = typedArrayArg('x', x, [Float32Array]);
  const row = n * hd;
  if (row === 0 ? xs.length !== 0 : xs.length === 0 || xs.length % row !== 0)
    throw statusError(statusCode('bad_x_length'), { ...context, xLength: xs.length, rowLength: row });
  if (row !== 0) e.applyRope(h, layout, hd, axes, p, xs.length / row, xs.view, context);
  return xs.array;
}

/**
 * One rotary dimension and options, prepared: the plan is made once and is
 * the object's own, released when it is collected. Each method reads its own
 * arguments once, checks them, then computes, as the encoder's methods do.
 */
class PreparedRope {
  #h;
  #enter;
  #context;
  #dtype;
  #recipe;

  // Refuses a method called on anything but a prepared RoPE.
  static #own(self, method) {
    if (typeof self !== 'object' || self === null || !(#h in self)) foreign(method, 'an object pe.prepareRope() returned', self);
  }

  constructor(handle, rotaryDim, dtype, engine, context, enter, recipe = 0) {
    this.#h = handle;
    this.#enter = enter;
    this.#dtype = dtype;
    this.#recipe = recipe;
    this.#context = Object.freeze({ ...context });
    /** The rotary dimension r: caches have r/2 values per token. */
    this.rotaryDim = rotaryDim;
    /** Position axes per token (1, or the plan's sections). */
    this.axes = engine.axes(handle);
    /** The factor every cos and sin is multiplied by. */
    this.attentionFactor = engine.attentionFactor(handle);
    /** Radians per position of each pair (float64; a copy). */
    this.frequencies = engine.frequencies(handle);
    /** The element type of every cache (options.dtype at prepare time). */
    this.dtype = DTYPES[dtype];
    /** How every cache is computed (options.recipe at prepare time). */
    this.recipe = RECIPES[recipe];
    bindAll(this, ['cache', 'cacheRows', 'grid', 'apply']);
    Object.freeze(this);
  }

  cache(positions, out) {
    PreparedRope.#own(this, 'cache');
    const e = this.#enter();
    const p = positionsArg('positions', positions, elementWidth(this.rotaryDim));
    const outs = readCacheOut(out, 'out');
    return ropeCacheAt(e, this.#h, this.rotaryDim / 2, p, outs, this.#dtype, this.#context, 'out', this.#recipe);
  }

  cacheRows(start, count, out) {
    PreparedRope.#own(this, 'cacheRows');
    const e = this.#enter();
    const outs = readCacheOut(out, 'out');
    numberType('start', start);
    numberType('count', count);
    return ropeCacheRange(e, this.#h, this.rotaryDim / 2, start, count, outs, this.#dtype, this.#context, 'out', this.#recipe);
  }

  grid(height, width, out) {
    PreparedRope.#own(this, 'grid');
    const e = this.#enter();
    const outs = readCacheOut(out, 'out');
    numberType('height', height);
    numberType('width', width);
    return ropeCacheGridOf(e, this.#h, this.rotaryDim / 2, height, width, outs, this.#dtype, this.#context, 'out', this.#recipe);
  }

  apply(x, positions, headDim, options) {
    PreparedRope.#own(this, 'apply');
    const e = this.#enter();
    const snap = snapshotOptions('options', options);
    for (const key of Object.keys(snap))
      if (key !== 'layout') fail(TypeError, `unknown option ${describe(key)}; apply takes: layout`);
    const hd = numberType('headDim', headDim);
    const layoutName = snap.layout === undefined ? ROPE_LAYOUTS[0] : snap.layout;
    if (typeof layoutName !== 'string') fail(TypeError, `options.layout must be a string, got ${describe(layoutName)}`);
    const layout = ROPE_LAYOUTS.indexOf(layoutName);
    const context = { ...this.#context, rotaryDimName: 'rotaryDim', headDim: hd, layout: describe(layoutName) };
    if (layout < 0) throw statusError(statusCode('bad_rope_layout'), context);
    const p = positionsArg('positions', positions, 1);
    return rotate(e, this.#h, layout, hd, p, x, context);
  }
}

// An out argument { cos, sin } of a cache, read (its own enumerable keys,
// each once): a plain object holding both arrays and nothing else. Anything
// else (a typed array, an Array, {}, { cos } alone) is a TypeError, never
// ignored: the caller expects its arrays written.
function readCacheOut(out, name) {
  if (out === undefined) return undefined;
  const what = `${name} must be an object { cos, sin } holding the two arrays to write`;
  const kind = describe(out);
  if (kind !== 'Object') fail(TypeError, `${what}, got ${kind}`);
  const o = snapshotOptions(name, out);
  for (const key of Object.keys(o))
    if (key !== 'cos' && key !== 'sin') fail(TypeError, `${what}; it has the unknown key ${describe(key)}`);
  for (const key of ['cos', 'sin']) if (o[key] === undefined) fail(TypeError, `${what}; ${name}.${key} is missing`);
  return { cos: o.cos, sin: o.sin };
}

// The TypeError of a method called on an object that is not its class's
// (`Object.getPrototypeOf(pe).encode.call({}, …)`): it names the method.
function foreign(method, what, self) {
  fail(TypeError, `${method} must be called on ${what}, got ${describe(self)}`);
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
  ROPE_AXES as ropeAxes,
  DTYPES as dtypes,
  RECIPES as recipes,
  vocabulary,
  ropeOptionsFromConfig,
  getRopeIndex,
};
