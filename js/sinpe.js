// sinpe.wasm: the package API. Every public method is one row of OPS below;
// the classes make their methods from the rows. A call reads the caller's
// arguments by args.js's one rule, then computes (ops.js) through the engine's
// one chunk loop (engine.js), and throws the core's statuses as
// TypeError/RangeError naming the argument (errors.js). Names, options,
// defaults, statuses and limits all come from the vocabulary the build
// generates from the core (dist/sinpe-vocabulary.js).
import { describe, fail } from './args.js';
import { CORE, Engine } from './engine.js';
import { vocabulary } from './errors.js';
import { loadModule } from './load.js';
import { addTo, compute, FAMILIES, heatmap, readApply, readCall, readPrepared, rotate } from './ops.js';
import { ropeOptionsFromConfig as readRopeConfig } from './rope-config.js';
import { getRopeIndex } from './rope-index.js';
import { halfCodec, HALF_DTYPES } from './half.js';

const PRESETS = FAMILIES.preset.names;
const LAYOUTS = vocabulary.layouts;
const ROPE_TYPES = FAMILIES.ropeType.names;
const ROPE_LAYOUTS = vocabulary.ropeLayouts;
const ROPE_AXES = vocabulary.ropeAxes;
const DTYPES = vocabulary.dtypes;
const RECIPES = vocabulary.recipes;

// The operation table. Each row: the object the method is on (E: the encoder
// sinpe() resolves to; P: what pe.prepare() returns; R: what pe.prepareRope()
// returns), its name, its family (preset: sinusoidal, options.preset and
// width dModel; ropeType: RoPE, options.ropeType and width rotaryDim), the plan kind it computes with (glue.cpp kind_names),
// where its positions come from (list: the caller's; range: start …
// start+count−1; grid: height × width), its arguments as its errors name
// them, its output (table: one array of options.dtype; cache: { cos, sin,
// attentionFactor }; view: chunks of rows handed to a callback; x: x changed
// in place; rgba: heatmap bytes; frequencies: a Float64Array; prepared: a
// prepared encoder), the options it takes
// besides the encoding options (dtype and recipe among them), and the module
// call that computes one chunk (engine.js CORE). A prepared method computes
// with its object's plan, dtype and recipe; an encoder method with a plan of
// its own call's options.
const E = 'encoder', P = 'prepared', R = 'preparedRope';
const OPS = [
  // on method                 family      plan    source   arguments                         output         options                                       core
  [E, 'encode',                'preset',   'rows', 'list',  'positions dModel options',       'table',       'out dtype',                                  'encode'],
  [E, 'rows',                  'preset',   'rows', 'range', 'start count dModel options',     'table',       'out dtype',                                  'rows'],
  [E, 'table',                 'preset',   'rows', 'range', 'length dModel options',          'table',       'out dtype',                                  'rows'],
  [E, 'grid2d',                'preset',   'grid', 'grid',  'height width dModel options',    'table',       'out clsToken',                               'grid2d'],
  [E, 'addTo',                 'preset',   'rows', 'range', 'x dModel options',               'x',           'start seqLen',                               'addRows'],
  [E, 'frequencies',           'preset',   'rows', '',      'dModel options',                 'frequencies', '',                                           ''],
  [E, 'heatmap',               'preset',   'rows', 'range', 'start count dModel options',     'rgba',        'out colormap columnStart columns vmin vmax', 'heatmap'],
  [E, 'prepare',               'preset',   'rows', '',      'dModel options',                 'prepared',    'dtype',                                      ''],
  [E, 'ropeFrequencies',       'ropeType', 'rope', '',      'rotaryDim options',              'frequencies', '',                                           ''],
  [E, 'ropeCache',             'ropeType', 'rope', 'list',  'positions rotaryDim options',    'cache',       'out dtype recipe',                           'ropeCache'],
  [E, 'ropeCacheRows',         'ropeType', 'rope', 'range', 'start count rotaryDim options',  'cache',       'out dtype recipe',                           'ropeCacheRows'],
  [E, 'ropeCacheGrid',         'ropeType', 'rope', 'grid',  'height width rotaryDim options', 'cache',       'out dtype recipe',                           'ropeCacheGrid'],
  [E, 'prepareRope',           'ropeType', 'rope', '',      'rotaryDim options',              'prepared',    'dtype recipe',                               ''],
  [E, 'applyRope',             'ropeType', 'rope', 'list',  'x positions headDim options',    'x',           'rotaryDim layout',                           'ropeApply'],
  [P, 'rows',                  'preset',   'rows', 'range', 'start count out',                'table',       '',                                           'rows'],
  [P, 'encode',                'preset',   'rows', 'list',  'positions out',                  'table',       '',                                           'encode'],
  [P, 'chunks',                'preset',   'rows', 'range', 'start count callback',           'view',        '',                                           'rows'],
  [R, 'cache',                 'ropeType', 'rope', 'list',  'positions out',                  'cache',       '',                                           'ropeCache'],
  [R, 'cacheRows',             'ropeType', 'rope', 'range', 'start count out',                'cache',       '',                                           'ropeCacheRows'],
  [R, 'grid',                  'ropeType', 'rope', 'grid',  'height width out',               'cache',       '',                                           'ropeCacheGrid'],
  [R, 'apply',                 'ropeType', 'rope', 'list',  'x positions headDim options',    'x',           'layout',                                     'ropeApply'],
].map(([on, name, family, plan, source, args, output, options, core]) => {
  const signature = args.split(' ');
  // Arguments before the width and options (encoder) or before the out, callback or options (prepared).
  const k = signature.length - (on === E || name === 'apply' ? 2 : 1);
  const before = signature.slice(0, k);
  // A range's count argument (count, or table's length: rows 0 … length−1).
  const countName = source === 'range' ? before.at(-1) : undefined;
  const extra = options.split(' ').filter(Boolean);
  const flags = { rope: family === 'ropeType', dtype: extra.includes('dtype'), recipe: extra.includes('recipe') };
  return Object.freeze({ on, name, family, plan, source, args: before, k, countName, widthName: signature[k], output, options: extra, core: CORE[core], ...flags });
});

// The argument at index i of a method's (a, b, c, d).
function arg(i, a, b, c, d) {
  return i === 0 ? a : i === 1 ? b : i === 2 ? c : d;
}

// Defines each of the rows' methods on `proto`: call(self, op, a, b, c, d) after the brand check own(self, name).
function install(proto, on, own, call) {
  for (const op of OPS.filter((o) => o.on === on)) {
    const { name } = op;
    const method = {
      [name](a, b, c, d) {
        own(this, name);
        return call(this, op, a, b, c, d);
      },
    }[name];
    Object.defineProperty(proto, name, { value: method, writable: true, configurable: true, enumerable: false });
  }
}

// The core's verdicts for ropeOptionsFromConfig, which restates no rule:
// - plan(rotaryDim, options): a plan is made for the options read from a
//   config.json and released; undefined when the core accepts them, else the
//   error for its status (error.status, error.values): a value against its
//   option's rule or a broken rule of vocabulary.def's SINPE_RULE table, which
//   rope-config.js words with the config's keys. The options are read as
//   ropeFrequencies reads them (PLAN_ONLY: a plan, no positions);
// - follows(name, value): whether a value the reader must use before any plan
//   (partial_rotary_factor, which sets the rotary width) follows its option's rule.
const PLAN_ONLY = OPS.find((o) => o.on === E && o.name === 'ropeFrequencies');
function ropeCheck(engine) {
  const plan = (rotaryDim, options) => {
    if (engine.busy) fail(TypeError, 'the encoder cannot be called inside a chunks() callback; copy the view first');
    const call = readCall(PLAN_ONLY, engine.kind, undefined, rotaryDim, options);
    let handle;
    try {
      handle = engine.plan(call.request, call.w, call.context);
    } catch (error) {
      if (typeof error?.status === 'string') return error;
      throw error;
    }
    engine.release(handle);
    return undefined;
  };
  return Object.freeze({ plan, follows: (name, value) => engine.followsRule(name, value) });
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
  return readRopeConfig(config, {
    plan: (rotaryDim, options) => (loadedCheck ?? needsModule()).plan(rotaryDim, options),
    follows: (name, value) => (loadedCheck ?? needsModule()).follows(name, value),
  });
}

// Frees a prepared encoder's plan in the module when the encoder is collected.
const released = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry(({ engine, handle }) => engine.release(handle)) : null;

// Each own method as an own, non-enumerable bound copy: `const { rows } = pe` works.
function bindAll(target, on) {
  const names = OPS.filter((o) => o.on === on).map((o) => o.name);
  if (on === E) names.push(...Object.keys(READERS));
  for (const name of names) Object.defineProperty(target, name, { value: target[name].bind(target), enumerable: false });
}

// The encoder's methods that encode nothing (no plan, positions or output of
// the table's kinds): readers of a model's data, by name, each given the
// encoder's verdicts on RoPE options (ropeCheck).
const READERS = Object.freeze({
  ropeOptionsFromConfig: (check, config) => readRopeConfig(config, check),
  getRopeIndex: (check, inputIds, options) => getRopeIndex(inputIds, options),
});

// The TypeError of a method called on an object that is not its class's
// (`Object.getPrototypeOf(pe).encode.call({}, …)`): it names the method.
function foreign(method, what, self) {
  fail(TypeError, `${method} must be called on ${what}, got ${describe(self)}`);
}

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
    this.version = module._version();
    /** Names of the presets. */
    this.presets = PRESETS;
    /** Names of the layouts. */
    this.layouts = LAYOUTS;
    /** Names of the RoPE types. */
    this.ropeTypes = ROPE_TYPES;
    /** Names of the RoPE rotation layouts. */
    this.ropeLayouts = ROPE_LAYOUTS;
    bindAll(this, E);
    Object.freeze(this);
  }

  static {
    const own = (self, method) => {
      if (typeof self !== 'object' || self === null || !(#e in self)) foreign(method, 'the encoder sinpe() resolves to', self);
    };
    install(Encoder.prototype, E, own, (self, op, a, b, c, d) => self.#call(op, a, b, c, d));
    for (const [name, read] of Object.entries(READERS)) {
      const method = {
        [name](a, b) {
          own(this, name);
          return read(this.#ropeCheck, a, b);
        },
      }[name];
      Object.defineProperty(Encoder.prototype, name, { value: method, writable: true, configurable: true, enumerable: false });
    }
  }

  // The engine, after refusing calls made from inside a chunks() callback
  // (they would overwrite the memory its view shows).
  #engine() {
    if (this.#e.busy) fail(TypeError, 'the encoder cannot be called inside a chunks() callback; copy the view first');
    return this.#e;
  }

  // A method of the encoder: the read phase, then the compute phase with a
  // plan of the call's own (engine.js use(): a recent equal request's plan,
  // else a new one), handed back afterwards.
  #call(op, a, b, c, d) {
    const e = this.#engine();
    const k = op.k;
    if (op.output === 'x' && op.family === 'ropeType') {
      const call = readApply(op, e.kind, c, b, d);
      return this.#withPlan(e, call, (h) => rotate(op, e, h, call, a));
    }
    const call = readCall(op, e.kind, a, arg(k, a, b, c, d), arg(k + 1, a, b, c, d));
    switch (op.output) {
      case 'prepared':
        return this.#prepare(op, e, call);
      case 'frequencies':
        return this.#withPlan(e, call, (h) => e.frequencies(h));
      case 'x':
        return this.#withPlan(e, call, (h) => addTo(op, e, h, call, a));
      case 'rgba':
        return this.#withPlan(e, call, (h) => heatmap(op, e, h, call, a, b, (bytes) => this.#grayscale(bytes)));
      default: {
        // As #withPlan, without a closure per call.
        const h = e.use(call.request, call.w, call.context);
        try {
          return compute(op, e, h, call, a, b);
        } finally {
          e.unuse();
        }
      }
    }
  }

  #withPlan(e, call, fn) {
    const h = e.use(call.request, call.w, call.context);
    try {
      return fn(h);
    } finally {
      e.unuse();
    }
  }

  // A prepared encoder or RoPE for one width and options: the plan is made
  // once, each call only checks its own arguments.
  #prepare(op, e, call) {
    const handle = e.plan(call.request, call.w, call.context, true);
    const { w: width, dtype, recipe, context } = call;
    const enter = () => this.#engine();
    const prepared = op.family === 'preset' ? new Prepared(handle, width, dtype, context, enter) : new PreparedRope(handle, width, dtype, e, context, enter, recipe);
    released?.register(prepared, { engine: e, handle });
    return prepared;
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
}

/**
 * One width and options, prepared: `rows`, `encode` and `chunks` only check
 * their own arguments and call the module once per chunk. The plan is the
 * object's own, released when it is collected.
 */
class Prepared {
  #h;
  #enter;
  #call;

  constructor(handle, dModel, dtype, context, enter) {
    this.#h = handle;
    this.#enter = enter;
    this.#call = { context: Object.freeze({ ...context, dModel }), w: dModel, dtype, recipe: 0 };
    /** The width every row has. */
    this.dModel = dModel;
    /** The element type of every result (options.dtype at prepare time). */
    this.dtype = DTYPES[dtype];
    bindAll(this, P);
    Object.freeze(this);
  }

  static {
    const own = (self, method) => {
      if (typeof self !== 'object' || self === null || !(#h in self)) foreign(method, 'an encoder pe.prepare() returned', self);
    };
    // rows(start, count, out), encode(positions, out), chunks(start, count, callback)
    install(Prepared.prototype, P, own, (self, op, a, b, c) => {
      const e = self.#enter();
      const call = readPrepared(op, self.#call, a, op.k === 1 ? b : c);
      return compute(op, e, self.#h, call, a, b, c);
    });
  }
}

/**
 * One rotary dimension and options, prepared: the plan is made once and is
 * the object's own, released when it is collected. Each method reads its own
 * arguments once, checks them, then computes, as the encoder's methods do.
 */
class PreparedRope {
  #h;
  #enter;
  #call;

  constructor(handle, rotaryDim, dtype, engine, context, enter, recipe) {
    this.#h = handle;
    this.#enter = enter;
    this.#call = { context: Object.freeze({ ...context }), w: rotaryDim, dtype, recipe };
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
    bindAll(this, R);
    Object.freeze(this);
  }

  static {
    const own = (self, method) => {
      if (typeof self !== 'object' || self === null || !(#h in self)) foreign(method, 'an object pe.prepareRope() returned', self);
    };
    // cache(positions, out), cacheRows(start, count, out), grid(height, width, out), apply(x, positions, headDim, options)
    install(PreparedRope.prototype, R, own, (self, op, a, b, c, d) => {
      const e = self.#enter();
      if (op.output === 'x') return rotate(op, e, self.#h, readApply(op, e.kind, c, b, d, self.#call.context), a);
      const call = readPrepared(op, self.#call, a, op.k === 1 ? b : c);
      return compute(op, e, self.#h, call, a, b);
    });
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
  ROPE_AXES as ropeAxes,
  DTYPES as dtypes,
  RECIPES as recipes,
  vocabulary,
  ropeOptionsFromConfig,
  getRopeIndex,
  halfCodec,
  HALF_DTYPES as halfDtypes,
};
