// sinpe.wasm: the package API. A thin layer over the Embind module: it picks
// the SIMD or baseline flavour, checks every argument (naming it in the error
// it throws), and hands back JS-owned typed arrays.

const PRESETS = Object.freeze([
  'vaswani',
  'keras',
  'tensor2tensor',
  'fairseq',
  'whisper',
  'diffusers',
  'guided-diffusion',
  'mae',
]);
const LAYOUTS = Object.freeze(['interleaved', 'concat', 'cos-first']);

// Options each preset's formula reads, besides the common ones.
const PRESET_OPTIONS = {
  vaswani: ['base'],
  keras: ['base'],
  mae: ['base'],
  fairseq: ['base', 'paddingIdx'],
  tensor2tensor: ['minTimescale', 'maxTimescale'],
  whisper: ['maxTimescale'],
  diffusers: ['maxPeriod', 'freqShift', 'flipSinToCos', 'scale'],
  'guided-diffusion': ['maxPeriod'],
};
const ALL_PRESET_OPTIONS = [...new Set(Object.values(PRESET_OPTIONS).flat())];
const NUMERIC_OPTIONS = ['base', 'minTimescale', 'maxTimescale', 'freqShift', 'scale', 'maxPeriod', 'paddingIdx'];

// Not part of the API: the write-only bound that `npm run bench` compares against.
const benchmarkInternals = Symbol.for('sinpe.benchmark');

const MAX_D_MODEL = 65536;
const MAX_POSITION = 16777216; // 2^24, exclusive
const MAX_ELEMENTS = 2 ** 29; // 2 GiB of float32 in one result

// Status codes of the C++ core (cpp/include/sinpe/sinpe.hpp).
const STATUS = {
  bad_preset: 1,
  bad_layout: 2,
  d_model_out_of_range: 3,
  d_model_odd: 4,
  d_model_not_multiple_of_4: 5,
  d_model_too_small: 6,
  bad_base: 7,
  bad_min_timescale: 8,
  bad_max_timescale: 9,
  bad_freq_shift: 10,
  bad_scale: 11,
  bad_max_period: 12,
  bad_padding_idx: 13,
  bad_count: 14,
  bad_start: 15,
  position_not_finite: 16,
  position_out_of_range: 17,
  too_large: 18,
  bad_buffer: 19,
  bad_column_window: 20,
  bad_value_range: 21,
};

// The smallest module using a SIMD instruction (v128.const / i8x16 ops), as in
// GoogleChromeLabs/wasm-feature-detect.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

function simdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

const isNode = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

// An option's value, or `fallback` when it is absent. Only `undefined` means
// absent: `null` is a value like any other and fails its type check.
function option(options, key, fallback) {
  const v = options === undefined ? undefined : options[key];
  return v === undefined ? fallback : v;
}

function describe(v) {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'bigint') return `${v}n`;
  if (v === null || typeof v !== 'object') return String(v);
  return Object.prototype.toString.call(v).slice(8, -1);
}

function fail(ErrorType, message) {
  throw new ErrorType(`sinpe: ${message}`);
}

function integerArg(name, v, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}) {
  if (typeof v !== 'number') fail(TypeError, `${name} must be a number, got ${describe(v)}`);
  if (!Number.isInteger(v) || v < min || v > max)
    fail(RangeError, `${name} must be an integer in [${min}, ${max}], got ${describe(v)}`);
  return v;
}

function dModelArg(v) {
  return integerArg('dModel', v, { min: 1, max: MAX_D_MODEL });
}

function checkSize(what, rows, width) {
  if (rows * width > MAX_ELEMENTS)
    fail(RangeError, `${what}: ${rows} × ${width} values exceed the 2^29-element (2 GiB) limit of one result`);
}

function isSharedBuffer(buffer) {
  return typeof SharedArrayBuffer === 'function' && buffer instanceof SharedArrayBuffer;
}

// A caller-supplied output (or in-place) array of the exact type and length.
function outArg(name, out, Type, length) {
  if (!(out instanceof Type)) fail(TypeError, `${name} must be a ${Type.name}, got ${describe(out)}`);
  if (isSharedBuffer(out.buffer)) fail(TypeError, `${name} must not be backed by a SharedArrayBuffer`);
  if (out.length !== length)
    fail(RangeError, `${name} must have length ${length}, got ${out.length}${out.length === 0 ? ' (detached?)' : ''}`);
  return out;
}

// Method-specific option names, besides the encoding options.
const EXTRA = {
  none: [],
  out: ['out'],
  grid2d: ['out', 'clsToken'],
  addTo: ['start', 'seqLen'],
  heatmap: ['out', 'colormap', 'columnStart', 'columns', 'vmin', 'vmax'],
};

// Option names a method accepts for a preset, built once per pair.
const allowedCache = new Map();
function allowedOptions(preset, extra) {
  let byPreset = allowedCache.get(extra);
  if (!byPreset) allowedCache.set(extra, (byPreset = new Map()));
  let allowed = byPreset.get(preset);
  if (!allowed) byPreset.set(preset, (allowed = new Set(['preset', 'layout', ...PRESET_OPTIONS[preset], ...extra])));
  return allowed;
}

// The core's options when the caller gives none (read-only: Embind copies it).
const DEFAULT_FLAT = Object.freeze({
  preset: 0,
  layout: -1,
  base: NaN,
  minTimescale: NaN,
  maxTimescale: NaN,
  freqShift: NaN,
  scale: NaN,
  maxPeriod: NaN,
  paddingIdx: NaN,
});

// Turns user options into the core's flat options; throws on anything unknown.
function parseOptions(options, extra) {
  if (options === undefined) return DEFAULT_FLAT;
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    fail(TypeError, `options must be an object, got ${describe(options)}`);
  const preset = option(options, 'preset', 'vaswani');
  if (typeof preset !== 'string') fail(TypeError, `options.preset must be a string, got ${describe(preset)}`);
  if (!PRESETS.includes(preset))
    fail(RangeError, `options.preset must be one of ${PRESETS.join(', ')}; got ${describe(preset)}`);
  const allowed = allowedOptions(preset, extra);
  for (const key of Object.keys(options)) {
    if (allowed.has(key)) continue;
    if (ALL_PRESET_OPTIONS.includes(key))
      fail(TypeError, `options.${key} does not apply to preset '${preset}' (it reads: ${PRESET_OPTIONS[preset].join(', ') || 'none'})`);
    fail(TypeError, `unknown option ${describe(key)}; known: ${[...allowed].join(', ')}`);
  }
  const flat = { ...DEFAULT_FLAT, preset: PRESETS.indexOf(preset) };
  if (options.layout !== undefined) {
    if (typeof options.layout !== 'string')
      fail(TypeError, `options.layout must be a string, got ${describe(options.layout)}`);
    if (!LAYOUTS.includes(options.layout))
      fail(RangeError, `options.layout must be one of ${LAYOUTS.join(', ')}; got ${describe(options.layout)}`);
    flat.layout = LAYOUTS.indexOf(options.layout);
  }
  if (options.flipSinToCos !== undefined) {
    if (typeof options.flipSinToCos !== 'boolean')
      fail(TypeError, `options.flipSinToCos must be a boolean, got ${describe(options.flipSinToCos)}`);
    if (options.layout !== undefined) fail(TypeError, 'options.flipSinToCos and options.layout cannot both be given');
    flat.layout = LAYOUTS.indexOf(options.flipSinToCos ? 'cos-first' : 'concat');
  }
  for (const key of NUMERIC_OPTIONS) {
    const v = options[key];
    if (v === undefined) continue;
    if (typeof v !== 'number') fail(TypeError, `options.${key} must be a number, got ${describe(v)}`);
    if (!Number.isFinite(v)) fail(RangeError, `options.${key} must be finite, got ${describe(v)}`);
    flat[key] = v;
  }
  return flat;
}

// `name` is the core's name for the status, for codes this layer does not know.
function statusError(code, ctx, name) {
  const p = PRESETS[ctx.flat?.preset ?? 0];
  const messages = {
    [STATUS.bad_preset]: [RangeError, `options.preset is not a known preset`],
    [STATUS.bad_layout]: [RangeError, `options.layout is not a known layout`],
    [STATUS.d_model_out_of_range]: [RangeError, `dModel must be in [1, ${MAX_D_MODEL}], got ${ctx.dModel}`],
    [STATUS.d_model_odd]: [RangeError, `dModel must be even for preset '${p}', got ${ctx.dModel}`],
    [STATUS.d_model_not_multiple_of_4]: [
      RangeError,
      `dModel must be a multiple of 4 for grid2d with preset '${p}' (each axis gets dModel/2), got ${ctx.dModel}`,
    ],
    [STATUS.d_model_too_small]: [
      RangeError,
      `dModel ${ctx.dModel} is too small for preset '${p}': its frequency formula divides by zero`,
    ],
    [STATUS.bad_base]: [RangeError, `options.base must be a positive number`],
    [STATUS.bad_min_timescale]: [RangeError, `options.minTimescale must be a positive number`],
    [STATUS.bad_max_timescale]: [RangeError, `options.maxTimescale must be a positive number`],
    [STATUS.bad_freq_shift]: [RangeError, `options.freqShift must be finite`],
    [STATUS.bad_scale]: [RangeError, `options.scale must be finite`],
    [STATUS.bad_max_period]: [RangeError, `options.maxPeriod must be a positive number`],
    [STATUS.bad_padding_idx]: [RangeError, `options.paddingIdx must be an integer with |paddingIdx| < 2^24`],
    [STATUS.bad_count]: [RangeError, `${ctx.countName ?? 'count'} is out of range`],
    [STATUS.bad_start]: [RangeError, `start must be an integer`],
    [STATUS.position_not_finite]: [RangeError, `positions[${ctx.index}] must be finite`],
    [STATUS.position_out_of_range]: [
      RangeError,
      ctx.index === undefined
        ? `rows must stay within |position| < 2^24`
        : `positions[${ctx.index}] must satisfy |position| < 2^24`,
    ],
    [STATUS.too_large]: [RangeError, `the result would exceed the 2 GiB limit of one result`],
    [STATUS.bad_buffer]: [RangeError, `${ctx.bufferName ?? 'out'} has the wrong length`],
    [STATUS.bad_column_window]: [RangeError, `options.columnStart/columns must lie within [0, dModel)`],
    [STATUS.bad_value_range]: [RangeError, `options.vmin must be less than options.vmax`],
  };
  const [ErrorType, message] = messages[code] ?? [Error, `internal status ${code} (${name})`];
  return new ErrorType(`sinpe: ${message}`);
}

// Positions as a typed array the module can copy from; validates each value.
function positionsArg(positions) {
  let typed;
  if (Array.isArray(positions)) {
    typed = new Float64Array(positions.length);
    for (let i = 0; i < positions.length; i++) {
      const v = positions[i];
      if (typeof v !== 'number') fail(TypeError, `positions[${i}] must be a number, got ${describe(v)}`);
      typed[i] = v;
    }
  } else if (
    ArrayBuffer.isView(positions) &&
    !(positions instanceof DataView) &&
    !(typeof BigInt64Array === 'function' && (positions instanceof BigInt64Array || positions instanceof BigUint64Array))
  ) {
    typed = positions;
  } else {
    fail(TypeError, `positions must be an Array or a numeric typed array, got ${describe(positions)}`);
  }
  for (let i = 0; i < typed.length; i++) {
    const v = typed[i];
    if (!Number.isFinite(v)) fail(RangeError, `positions[${i}] must be finite, got ${describe(v)}`);
    if (Math.abs(v) >= MAX_POSITION) fail(RangeError, `positions[${i}] must satisfy |position| < 2^24, got ${v}`);
  }
  return typed;
}

// Rows [start, start+count): both integers, every row's position below 2^24.
function rangeArgs(start, count, startName = 'start', countName = 'count') {
  integerArg(startName, start, { min: -(MAX_POSITION - 1), max: MAX_POSITION - 1 });
  integerArg(countName, count, { min: 0, max: 2 * MAX_POSITION });
  if (count > 0 && Math.abs(start + count - 1) >= MAX_POSITION)
    fail(RangeError, `rows [${start}, ${start + count}) must stay within |position| < 2^24`);
}

function grayscale() {
  const lut = new Uint8Array(1024);
  for (let i = 0; i < 256; i++) lut.set([i, i, i, 255], 4 * i);
  return lut;
}

class Encoder {
  #m;
  #gray;

  constructor(module, simd) {
    this.#m = module;
    /** Whether the SIMD flavour is running. */
    this.simd = simd;
    /** Package version. */
    this.version = module.version();
    /** Names of the presets. */
    this.presets = PRESETS;
    /** Names of the layouts. */
    this.layouts = LAYOUTS;
    Object.defineProperty(this, benchmarkInternals, {
      value: Object.freeze({ fill: (count, d, out) => module.fillInto(count, d, out) }),
    });
    Object.freeze(this);
  }

  #call(status, ctx) {
    if (status !== 0) {
      if (status === STATUS.position_not_finite || status === STATUS.position_out_of_range)
        ctx = { ...ctx, index: ctx.index ?? this.#m.badIndex() };
      throw statusError(status, ctx, this.#m.statusName(status));
    }
  }

  #result(out, n, d) {
    checkSize('result', n, d);
    return out === undefined ? new Float32Array(n * d) : outArg('options.out', out, Float32Array, n * d);
  }

  encode(positions, dModel, options) {
    const flat = parseOptions(options, EXTRA.out);
    const d = dModelArg(dModel);
    const typed = positionsArg(positions);
    const out = this.#result(options?.out, typed.length, d);
    this.#call(this.#m.encodeInto(typed, d, flat, out), { flat, dModel: d, bufferName: 'options.out' });
    return out;
  }

  rows(start, count, dModel, options) {
    const flat = parseOptions(options, EXTRA.out);
    rangeArgs(start, count);
    const d = dModelArg(dModel);
    const out = this.#result(options?.out, count, d);
    this.#call(this.#m.rowsInto(start, count, d, flat, out), { flat, dModel: d, bufferName: 'options.out' });
    return out;
  }

  table(length, dModel, options) {
    integerArg('length', length, { min: 0, max: MAX_POSITION });
    return this.rows(0, length, dModel, options);
  }

  grid2d(height, width, dModel, options) {
    const flat = parseOptions(options, EXTRA.grid2d);
    integerArg('height', height, { min: 0, max: MAX_POSITION });
    integerArg('width', width, { min: 0, max: MAX_POSITION });
    const d = dModelArg(dModel);
    const cls = option(options, 'clsToken', false);
    if (typeof cls !== 'boolean') fail(TypeError, `options.clsToken must be a boolean, got ${describe(cls)}`);
    const cells = height * width + (cls ? 1 : 0);
    const out = this.#result(options?.out, cells, d);
    this.#call(this.#m.grid2dInto(height, width, cls, d, flat, out), { flat, dModel: d, countName: 'height/width' });
    return out;
  }

  addTo(x, dModel, options) {
    const flat = parseOptions(options, EXTRA.addTo);
    const d = dModelArg(dModel);
    if (!(x instanceof Float32Array)) fail(TypeError, `x must be a Float32Array, got ${describe(x)}`);
    if (isSharedBuffer(x.buffer)) fail(TypeError, 'x must not be backed by a SharedArrayBuffer');
    if (x.length % d !== 0 || x.length === 0)
      fail(RangeError, `x.length (${x.length}) must be a positive multiple of dModel (${d})`);
    const seqLen =
      options?.seqLen === undefined ? x.length / d : integerArg('options.seqLen', options.seqLen, { min: 1, max: MAX_POSITION });
    if (x.length % (seqLen * d) !== 0)
      fail(RangeError, `x.length (${x.length}) must be a multiple of options.seqLen × dModel (${seqLen * d})`);
    const start = option(options, 'start', 0);
    rangeArgs(start, seqLen, 'options.start', 'options.seqLen');
    this.#call(this.#m.addTo(x, start, seqLen, d, flat), { flat, dModel: d, bufferName: 'x' });
    return x;
  }

  frequencies(dModel, options) {
    const flat = parseOptions(options, EXTRA.none);
    const d = dModelArg(dModel);
    const r = this.#m.frequencies(d, flat);
    if (typeof r === 'number') this.#call(r, { flat, dModel: d });
    return r;
  }

  heatmap(start, count, dModel, options) {
    const flat = parseOptions(options, EXTRA.heatmap);
    rangeArgs(start, count);
    const d = dModelArg(dModel);
    const col0 = option(options, 'columnStart', 0);
    integerArg('options.columnStart', col0, { min: 0, max: d });
    const cols = option(options, 'columns', d - col0);
    integerArg('options.columns', cols, { min: 0, max: d - col0 });
    const vmin = option(options, 'vmin', -1);
    const vmax = option(options, 'vmax', 1);
    for (const [k, v] of [['vmin', vmin], ['vmax', vmax]]) {
      if (typeof v !== 'number') fail(TypeError, `options.${k} must be a number, got ${describe(v)}`);
      if (!Number.isFinite(v)) fail(RangeError, `options.${k} must be finite, got ${describe(v)}`);
    }
    if (!(vmin < vmax)) fail(RangeError, `options.vmin (${vmin}) must be less than options.vmax (${vmax})`);
    let lut = options?.colormap;
    if (lut === undefined) lut = this.#gray ??= grayscale();
    else if (!(lut instanceof Uint8Array || lut instanceof Uint8ClampedArray) || lut.length !== 1024)
      fail(TypeError, `options.colormap must be a Uint8Array of 256 RGBA entries (length 1024), got ${describe(lut)}`);
    checkSize('heatmap', count, cols);
    const out =
      options?.out === undefined
        ? new Uint8ClampedArray(count * cols * 4)
        : outArg('options.out', options.out, Uint8ClampedArray, count * cols * 4);
    this.#call(this.#m.heatmapInto(start, count, col0, cols, d, flat, lut, vmin, vmax, out), {
      flat,
      dModel: d,
      bufferName: 'options.out',
    });
    return out;
  }

  /** Bytes of wasm memory in use by the module (it grows only for plans, never per call). */
  heapBytes() {
    return this.#m.heapBytes();
  }
}


/**
 * Loads the module. See sinpe.d.ts for the options.
 */
export default async function sinpe(init) {
  if (init === undefined) init = {};
  if (init === null || typeof init !== 'object') fail(TypeError, `init must be an object, got ${describe(init)}`);
  for (const key of Object.keys(init))
    if (!['simd', 'wasmBinary', 'locateFile'].includes(key))
      fail(TypeError, `unknown init option ${describe(key)}; known: simd, wasmBinary, locateFile`);
  const want = init.simd === undefined ? 'auto' : init.simd;
  if (want !== 'auto' && typeof want !== 'boolean')
    fail(TypeError, `init.simd must be 'auto', true or false, got ${describe(want)}`);
  if (init.locateFile !== undefined && typeof init.locateFile !== 'function')
    fail(TypeError, `init.locateFile must be a function, got ${describe(init.locateFile)}`);
  if (init.wasmBinary !== undefined && !(init.wasmBinary instanceof ArrayBuffer || ArrayBuffer.isView(init.wasmBinary)))
    fail(TypeError, `init.wasmBinary must be an ArrayBuffer or Uint8Array, got ${describe(init.wasmBinary)}`);
  const simd = want === 'auto' ? simdSupported() : want;
  if (simd && !simdSupported()) fail(RangeError, 'init.simd is true but this engine has no WebAssembly SIMD');

  // Literal URLs so bundlers (Vite, webpack 5, esbuild with a file loader) copy the files.
  const wasmUrl = simd
    ? new URL('../dist/sinpe-simd.wasm', import.meta.url)
    : new URL('../dist/sinpe-baseline.wasm', import.meta.url);
  const factory = simd
    ? (await import('../dist/sinpe-simd.mjs')).default
    : (await import('../dist/sinpe-baseline.mjs')).default;

  const args = {};
  if (init.wasmBinary !== undefined) {
    args.wasmBinary = init.wasmBinary;
  } else if (isNode && wasmUrl.protocol === 'file:') {
    // Emscripten 3.1.6's web glue would fetch() a file path; in Node read it instead.
    const fsName = 'node:fs/promises';
    const { readFile } = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsName);
    args.wasmBinary = await readFile(wasmUrl);
  }
  const flavourFile = simd ? 'sinpe-simd.wasm' : 'sinpe-baseline.wasm';
  args.locateFile = (path, prefix) => {
    if (init.locateFile) return init.locateFile(path === flavourFile || path.endsWith('.wasm') ? flavourFile : path, prefix);
    return path.endsWith('.wasm') ? wasmUrl.href : prefix + path;
  };
  return new Encoder(await factory(args), simd);
}

export { PRESETS as presets, LAYOUTS as layouts };
