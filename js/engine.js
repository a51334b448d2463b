// The JavaScript half of the binding: plans, checks, the raw module calls
// (CORE) and the one chunk loop (Engine.run) that moves data between the
// module's scratch buffers and JS-owned arrays. The glue (cpp/bindings/glue.cpp)
// converts numbers and calls the core; the core validates. A status other than
// 0 is thrown as the error the vocabulary gives it (errors.js), with the
// context the calling method passes: the names and values of its arguments.
// Every value handed to an Engine method is a plain private value (numbers,
// strings, the package's own typed-array views): no code of the caller's runs
// from here on, except a chunks() callback.
import { moduleMemory } from './positions.js';
import { TooLong } from './args.js';
import { statusError, vocabulary } from './errors.js';

const OPTION_INDEX = new Map(vocabulary.options.map((o, i) => [o.name, i]));
const CODES = new Map(vocabulary.statuses.map((s) => [s.name, s.code]));
// Status code -> the array option whose rule it reports (bad_short_factor -> shortFactor).
const ARRAY_OPTION_OF = new Map(
  vocabulary.options.filter((o) => o.type === 'numberArray').map((o) => [CODES.get(`bad_${snake(o.name)}`), o.name]),
);

/** The vocabulary index of an option name, or undefined. */
export function optionIndex(name) {
  return OPTION_INDEX.get(name);
}

// How many per-call plans an engine keeps (Engine.use).
const PLANS_KEPT = 8;

// Whether a kept plan was made for this request: same kind, formula, layout,
// axes, width and option values, numbers compared as doubles (Object.is: -0
// is not 0; NaN, refused by every option's rule, is never kept).
function sameRequest(kept, request, width) {
  if (kept.width !== width || kept.kind !== request.kind || kept.family !== request.family) return false;
  if (kept.layout !== request.layout || kept.axes !== request.axes) return false;
  const a = kept.entries;
  const b = request.entries;
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) {
    if (a[k][0] !== b[k][0]) return false;
    const x = a[k][1];
    const y = b[k][1];
    if (x instanceof Float64Array) {
      if (!(y instanceof Float64Array) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return false;
    } else if (!Object.is(x, y)) return false;
  }
  return true;
}

export class Engine {
  #m;
  #plans = []; // kept per-call plans, oldest first: { request fields, width, handle, uses, dropped }
  #inUse = [];
  #facts = new Map(); // handle -> { axes, attentionFactor } of a live RoPE plan: plans never change

  constructor(module) {
    this.#m = module;
    const m = module;
    this.scratch = m._scratchAddress();
    this.scratchFloats = m._scratchFloats();
    this.positions = m._positionsAddress();
    this.positionCapacity = m._positionsCapacity();
    this.lut = m._lutAddress();
    this.lutBytes = m._lutBytes();
    this.result = m._resultAddress() / 8;
    /** Plan kinds by name, as the glue numbers them. */
    this.kind = Object.freeze(Object.fromEntries(m._kindNames().split(',').map((name, i) => [name, i])));
    this.requestAt = m._requestAddress(1);
    this.requestCapacity = 1;
    this.busy = false; // inside a chunks() callback: the scratch is the caller's view
    moduleMemory(m.HEAPF64.buffer);
  }

  /** Whether `value` follows the rule of vocabulary option `name` (the core's answer). */
  followsRule(name, value) {
    const index = OPTION_INDEX.get(name);
    if (index === undefined) throw new Error(`sinpe: the vocabulary has no option '${name}'`);
    return this.#m._followsRule(index, value) === 1;
  }

  /** Throws the error for `status` (when not 0), its message filled from `context`. */
  check(status, context, extra) {
    if (status !== 0) throw statusError(status < 0 ? -status : status, extra === undefined ? context : { ...context, ...extra });
  }

  /**
   * A plan for `request` ({ kind, family, layout, axes, entries: [[option
   * index, number | boolean | Float64Array], …] }) at `width`: a handle the
   * caller owns until release(h). owned: made for a prepared encoder, never
   * shared with the plan cache. The options are written into the request
   * block and read back by the plan call right after, nothing in between.
   */
  plan(request, width, context, owned = false) {
    const m = this.#m;
    const entries = request.entries;
    let doubles = 1;
    for (let k = 0; k < entries.length; k++) {
      const v = entries[k][1];
      doubles += v instanceof Float64Array ? 2 + v.length : 2; // a TooLong: its length alone
    }
    if (doubles > this.requestCapacity) {
      const address = m._requestAddress(doubles); // may grow memory: HEAPF64 is read after it
      // 0: more than every option at its longest (arrays past the limit are
      // sent as their length): the package's calling convention broken.
      if (address === 0) this.check(statusCode('bad_request'), context);
      this.requestAt = address;
      this.requestCapacity = doubles;
    }
    const heap = m.HEAPF64;
    let at = this.requestAt / 8;
    heap[at++] = entries.length;
    for (let k = 0; k < entries.length; k++) {
      const entry = entries[k]; // by index: no iterator runs
      const v = entry[1];
      heap[at++] = entry[0];
      if (v instanceof Float64Array) {
        heap[at++] = v.length;
        heap.set(v, at);
        at += v.length;
      } else if (v instanceof TooLong) heap[at++] = v.length;
      else heap[at++] = typeof v === 'boolean' ? Number(v) : v;
    }
    const h = owned
      ? m._prepare(request.kind, request.family, request.layout, request.axes, width, doubles)
      : m._plan(request.kind, request.family, request.layout, request.axes, width, doubles);
    moduleMemory(m.HEAPF64.buffer); // a plan may grow the memory
    if (h < 0) this.check(h, context, this.#badElement(-h, context, width));
    return h;
  }

  // For a bad_<array option> status: which element (the glue's answer in
  // result[0], result[1]) and how many the width wants.
  #badElement(code, context, width) {
    const name = ARRAY_OPTION_OF.get(code);
    if (name === undefined) return undefined;
    const heap = this.#m.HEAPF64;
    const index = heap[this.result];
    const value = heap[this.result + 1];
    const element = index >= 0 ? `options.${name}[${index}] = ${value}` : `${value} values`;
    return { element, pairs: width / 2 };
  }

  release(handle) {
    this.#facts.delete(handle);
    this.#m._release(handle);
  }

  /**
   * The plan of a per-call method: as plan(request, width, context), but a
   * request equal to a recent one (same kind, formula, layout, axes, width and
   * option values, compared by value: -0 is not 0) gets the plan made for it
   * then, instead of a new one from the module. Plans never change once made,
   * and only plans the module accepted are kept, so the call sees exactly
   * what a new plan would give and a refused request still reaches the
   * module's checks every time. The caller hands the handle back with
   * unuse(h) when done; a plan dropped from the cache while a call still uses
   * it is released only after that call.
   */
  use(request, width, context) {
    const plans = this.#plans;
    let entry;
    for (let k = 0; k < plans.length; k++)
      if (sameRequest(plans[k], request, width)) {
        entry = plans[k];
        break;
      }
    if (entry === undefined) {
      const handle = this.plan(request, width, context);
      // The request's values are the call's private copies (numbers, booleans, its own Float64Arrays): kept as they are.
      const { kind, family, layout, axes, entries } = request;
      entry = { kind, family, layout, axes, entries, width, handle, uses: 0, dropped: false };
      if (plans.length >= PLANS_KEPT) {
        const old = plans.shift();
        old.dropped = true;
        if (old.uses === 0) this.release(old.handle);
      }
      plans.push(entry);
    }
    entry.uses++;
    this.#inUse.push(entry);
    return entry.handle;
  }

  /** Hands back the plan use(…) gave last. */
  unuse() {
    const entry = this.#inUse.pop();
    entry.uses--;
    if (entry.dropped && entry.uses === 0) this.release(entry.handle);
  }

  /** Position axes per token of a RoPE plan. */
  axes(h) {
    return this.#ropeFacts(h).axes;
  }

  // A RoPE plan's fixed facts, asked of the module once per handle.
  #ropeFacts(h) {
    let f = this.#facts.get(h);
    if (f === undefined) {
      f = { axes: this.#m._axes(h), attentionFactor: this.#m._attentionFactor(h) };
      this.#facts.set(h, f);
    }
    return f;
  }

  /** Copies positions[at … at+n) into the positions scratch (a few by index: no subarray view to make). */
  loadPositions(positions, at, n) {
    const heap = this.#m.HEAPF64;
    if (n <= 8) {
      for (let i = 0, to = this.positions / 8; i < n; i++) heap[to + i] = positions[at + i];
    } else heap.set(positions.subarray(at, at + n), this.positions / 8);
  }

  // Every position, chunk by chunk, before anything is written.
  checkPositions(positions, context, name = 'positions') {
    const cap = this.positionCapacity;
    for (let at = 0; at < positions.length; at += cap) {
      const n = Math.min(cap, positions.length - at);
      this.loadPositions(positions, at, n);
      const s = this.#m._checkPositions(n);
      if (s !== 0) {
        const index = at + this.#m.HEAPF64[this.result];
        this.check(s, context, { position: `${name}[${index}]`, value: positions[index] });
      }
    }
  }

  // The row named in a position_out_of_range message: the end of the range farther from 0.
  #rowRangeContext(start, count, startName, countName) {
    const end = start + count;
    const value = count > 0 && Math.abs(end - 1) > Math.abs(start) ? end - 1 : start;
    return { startName, countName, start, count, position: `rows [${start}, ${end}) from ${startName} and ${countName}`, value };
  }

  checkRows(h, start, count, width, context, startName = 'start', countName = 'count') {
    const s = this.#m._checkRows(h, start, count);
    if (s !== 0) this.check(s, context, { ...this.#rowRangeContext(start, count, startName, countName), rows: count, width });
  }

  checkGrid(h, d, height, width, cls, context) {
    const s = this.#m._checkGrid(h, height, width, cls);
    if (s !== 0)
      this.check(s, context, { countName: 'height/width', count: `${height} × ${width}`, rows: height * width + (cls ? 1 : 0), width: d });
  }

  checkHeatmap(h, start, count, col0, cols, vmin, vmax, context) {
    const s = this.#m._checkHeatmap(h, start, count, col0, cols, vmin, vmax);
    if (s !== 0)
      // The module checks the rows' range as rows(start, count) does: count rows of the plan's dModel values.
      this.check(s, context, { ...this.#rowRangeContext(start, count, 'start', 'count'), rows: count, width: context.dModel, columnStart: col0, columnEnd: col0 + cols, vmin, vmax });
  }

  checkRope(h, layout, headDim, context) {
    this.check(this.#m._checkRope(h, layout, headDim), context);
  }

  checkRopeGrid(h, half, height, width, context) {
    const s = this.#m._checkRopeGrid(h, height, width);
    if (s !== 0)
      this.check(s, context, { countName: 'height/width', count: `${height} × ${width}`, rows: height * width, width: half, wantAxes: 2, axes: this.axes(h) });
  }

  /** The plan's float64 frequencies (a new Float64Array). */
  frequencies(h) {
    const n = this.#m._frequencies(h);
    return this.#m.HEAPF64.slice(this.scratch / 8, this.scratch / 8 + n);
  }

  attentionFactor(h) {
    return this.#ropeFacts(h).attentionFactor;
  }

  /** The heatmap colour table (RGBA bytes, lutBytes of them) the module reads. */
  loadColormap(lut) {
    this.#m.HEAPU8.set(lut, this.lut);
  }

  /** Items of `floats` scratch floats per chunk of Engine.run (without a positions list). */
  rowsPerChunk(floats) {
    return Math.max(1, Math.floor(this.scratchFloats / floats));
  }

  /**
   * The one chunk loop. Runs job j (ops.js newCall()) with plan h: `count`
   * items (rows, tokens, grid cells, heads) of `floats` scratch floats each,
   * in chunks that fit the scratch and, for a list of `positions` (`axes`
   * values per item), the positions scratch. Per chunk: the positions are
   * loaded, an in-place x (j.x from j.xAt) is copied in, the module computes
   * (j.core, one of CORE), and the chunk's `values` values per item are
   * copied out as j.output says: 'table' into j.out; 'cache' cos into j.out
   * and sin into j.sin; 'x' back into j.x; 'rgba' bytes into j.out; 'view'
   * to j.fn(view, first position). A list spanning several chunks is checked
   * whole first, so a bad position is refused before anything is written; a
   * one-chunk list is checked by the module's call itself, and on any refusal
   * here, so the error is the same; so is a one-chunk range of rows marked
   * j.rangeUnchecked (checkRows on a refusal, naming j.countName).
   */
  run(h, j) {
    const m = this.#m;
    const list = j.positions !== undefined;
    let per = Math.floor(this.scratchFloats / j.floats);
    if (list) per = Math.min(per, Math.floor(this.positionCapacity / j.axes));
    per = Math.max(1, per);
    try {
      if (list && j.count > per) this.checkPositions(j.positions, j.context);
      for (let at = 0; at < j.count; at += per) {
        const n = Math.min(per, j.count - at);
        if (list) this.loadPositions(j.positions, at * j.axes, n * j.axes);
        if (j.output === 'x') m.HEAPF32.set(j.x.subarray(j.xAt + at * j.floats, j.xAt + (at + n) * j.floats), this.scratch / 4);
        const s = j.core(m, h, j, at, n);
        if (s !== 0) {
          if (list) this.checkPositions(j.positions, j.context);
          if (j.rangeUnchecked) this.checkRows(h, j.start, j.count, j.values, j.context, 'start', j.countName);
          this.check(s, j.context);
        }
        this.#store(j, at, n);
      }
    } finally {
      moduleMemory(m.HEAPF64.buffer); // a chunk may have grown the memory
    }
  }

  // Copies chunk [at, at + n) of j's results from the scratch to where j says.
  #store(j, at, n) {
    const m = this.#m;
    const k = n * j.values;
    switch (j.output) {
      case 'cache': // sin into j.sin, then cos into j.out as a table
        j.sin.set(this.#results(j.dtype, k, k), at * j.values);
      // falls through
      case 'table':
        j.out.set(this.#results(j.dtype, 0, k), at * j.values);
        break;
      case 'x':
        j.x.set(m.HEAPF32.subarray(this.scratch / 4, this.scratch / 4 + k), j.xAt + at * j.values);
        break;
      case 'rgba':
        j.out.set(m.HEAPU8.subarray(this.scratch, this.scratch + k), at * j.values);
        break;
      default: {
        // 'view': j.fn(view, first position) with a view over the scratch.
        const view = j.dtype === 0 ? new Float32Array(m.HEAPF32.buffer, this.scratch, k) : new Uint16Array(m.HEAPF32.buffer, this.scratch, k);
        this.busy = true;
        try {
          j.fn(view, j.start + at);
        } finally {
          this.busy = false;
          // Detach every view of this memory (a kept `view` now has length 0),
          // then give Emscripten fresh ones.
          m._detachViews();
          moduleMemory(m.HEAPF64.buffer);
        }
      }
    }
  }

  // Values [at, at + n) of the scratch: floats for dtype 0 (float32), else
  // the uint16 bit patterns the glue wrote from the scratch's first byte.
  #results(dtype, at, n) {
    const m = this.#m;
    if (dtype === 0) return m.HEAPF32.subarray(this.scratch / 4 + at, this.scratch / 4 + at + n);
    return m.HEAPU16.subarray(this.scratch / 2 + at, this.scratch / 2 + at + n);
  }
}

// The module's chunk calls (the raw bindings): items [at, at + n) of job j,
// its positions (if any) already in the positions scratch, its x (if any) in
// the scratch. Each returns a status.
export const CORE = {
  rows: (m, h, j, at, n) => m._rows(h, j.start + at, n, j.dtype),
  encode: (m, h, j, at, n) => m._encode(h, n, j.dtype),
  addRows: (m, h, j, at, n) => m._addRows(h, j.start + at, n),
  grid2d: (m, h, j, at, n) => m._grid2d(h, j.height, j.width, j.cls, at, n),
  heatmap: (m, h, j, at, n) => m._heatmap(h, j.start + at, n, j.col0, j.cols, j.vmin, j.vmax),
  ropeCache: (m, h, j, at, n) => m._ropeCache(h, n, j.dtype, j.recipe),
  ropeCacheRows: (m, h, j, at, n) => m._ropeCacheRows(h, j.start + at, n, j.dtype, j.recipe),
  ropeCacheGrid: (m, h, j, at, n) => m._ropeCacheGrid(h, j.height, j.width, at, n, j.dtype, j.recipe),
  ropeApply: (m, h, j, at, n) => m._ropeApply(h, j.layout, j.headDim, n, j.numHeads),
  // One token's heads in groups (a token wider than the scratch): its position loaded once by the caller.
  ropeApplyHeads: (m, h, j, at, n) => m._ropeApply(h, j.layout, j.headDim, 1, n),
};

export function statusCode(name) {
  return CODES.get(name);
}

// maxTimescale -> max_timescale, the core's spelling in status names.
function snake(name) {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
