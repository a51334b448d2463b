// The JavaScript half of the binding: plans, and the chunk loops that move
// data between the module's scratch buffers and JS-owned arrays
// (`out.set(HEAPF32.subarray(…))`). The glue (cpp/bindings/glue.cpp) converts
// numbers and calls the core; the core validates. A status other than 0 is
// thrown as the error the vocabulary gives it (errors.js), with the context the
// calling method passes: the names and values of its own arguments.
//
// Nothing here keeps a call's values between calls. A call's options go into a
// request block that the plan call reads and clears; the plan is a handle the
// call owns and releases (or a prepared encoder owns); the error context is an
// argument of every check. Every value handed to an Engine method is a plain
// private value (numbers, strings, the package's own typed-array views): no
// code of the caller's runs from here on.
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
  }

  get module() {
    return this.#m;
  }

  /** Throws the error for `status` (when not 0), its message filled from `context`. */
  check(status, context, extra) {
    if (status !== 0) throw statusError(status < 0 ? -status : status, extra === undefined ? context : { ...context, ...extra });
  }

  /**
   * A plan for `request` ({ kind, family, layout, axes, entries: [[option
   * index, number | boolean | Float64Array], …] }; axes: -1 or a rope-axes
   * index) at `width`: a handle the caller
   * owns until release(h). owned: made for a prepared encoder, never shared
   * with the plan cache. The options are written into the request block and
   * read back by the plan call right after, with nothing in between.
   */
  plan(request, width, context, owned = false) {
    const m = this.#m;
    const entries = request.entries;
    let doubles = 1;
    for (let k = 0; k < entries.length; k++) {
      const v = entries[k][1];
      doubles += v instanceof Float64Array ? 2 + v.length : 2;
    }
    if (doubles > this.requestCapacity) {
      this.requestAt = m._requestAddress(doubles); // may grow memory: HEAPF64 is read after it
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
      } else heap[at++] = typeof v === 'boolean' ? Number(v) : v;
    }
    const h = owned
      ? m._prepare(request.kind, request.family, request.layout, request.axes, width, doubles)
      : m._plan(request.kind, request.family, request.layout, request.axes, width, doubles);
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

  // Values [at, at + n) of the scratch: floats for dtype 0 (float32), else
  // the uint16 bit patterns the glue wrote from the scratch's first byte.
  #results(dtype, at, n) {
    const m = this.#m;
    if (dtype === 0) return m.HEAPF32.subarray(this.scratch / 4 + at, this.scratch / 4 + at + n);
    return m.HEAPU16.subarray(this.scratch / 2 + at, this.scratch / 2 + at + n);
  }

  /** Position axes per token of a RoPE plan. */
  axes(h) {
    return this.#m._axes(h);
  }

  // Copies positions[at … at+n) into the positions scratch (a few by index: no subarray view to make).
  #loadPositions(positions, at, n) {
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
      this.#loadPositions(positions, at, n);
      const s = this.#m._checkPositions(n);
      if (s !== 0) {
        const index = at + this.#m.HEAPF64[this.result];
        this.check(s, context, { position: `${name}[${index}]`, value: positions[index] });
      }
    }
  }

  #rowRangeContext(start, count, startName, countName) {
    const end = start + count;
    return { startName, countName, start, count, position: `rows [${start}, ${end}) from ${startName} and ${countName}`, value: count > 0 ? end - 1 : start };
  }

  checkRows(h, start, count, width, context, startName = 'start', countName = 'count') {
    const s = this.#m._checkRows(h, start, count);
    if (s !== 0) this.check(s, context, { ...this.#rowRangeContext(start, count, startName, countName), rows: count, width });
  }

  /**
   * Rows start … start+count−1 (width d) into `out` (count·d values: a
   * Float32Array for dtype 0, else a Uint16Array), checked by checkRows first.
   */
  rows(h, d, start, count, out, context, dtype = 0) {
    const m = this.#m;
    const per = Math.max(1, Math.floor(this.scratchFloats / d));
    for (let done = 0; done < count; done += per) {
      const n = Math.min(per, count - done);
      this.check(m._rows(h, start + done, n, dtype), context);
      out.set(this.#results(dtype, 0, n * d), done * d);
    }
  }

  /** Calls fn(view, firstRow) for each chunk of rows, the view over the scratch. */
  chunks(h, d, start, count, fn, context, dtype = 0) {
    this.checkRows(h, start, count, d, context);
    const m = this.#m;
    const per = Math.max(1, Math.floor(this.scratchFloats / d));
    for (let done = 0; done < count; done += per) {
      const n = Math.min(per, count - done);
      this.check(m._rows(h, start + done, n, dtype), context);
      const view = dtype === 0 ? new Float32Array(m.HEAPF32.buffer, this.scratch, n * d) : new Uint16Array(m.HEAPF32.buffer, this.scratch, n * d);
      this.busy = true;
      try {
        fn(view, start + done);
      } finally {
        this.busy = false;
        // Detach every view of this memory (a kept `view` now has length 0),
        // then give Emscripten fresh ones.
        m._detachViews();
      }
    }
  }

  /** Rows at `positions` (a Float64Array copy) into `out` (as for rows). */
  encode(h, d, positions, out, context, dtype = 0) {
    const m = this.#m;
    const n = positions.length;
    const per = Math.max(1, Math.min(this.positionCapacity, Math.floor(this.scratchFloats / d)));
    if (n * d > vocabulary.limits.maxElements) this.check(statusCode('too_large'), context, { rows: n, width: d, countName: 'positions.length', count: n });
    if (n > 0 && n <= per) {
      // One chunk: the module's encode checks every position before it
      // writes; on any refusal the positions are checked here first, so the
      // error is the one the checked path below gives.
      this.#loadPositions(positions, 0, n);
      const s = m._encode(h, n, dtype);
      if (s !== 0) {
        this.checkPositions(positions, context);
        this.check(s, context);
      }
      out.set(this.#results(dtype, 0, n * d));
      return;
    }
    this.checkPositions(positions, context);
    for (let done = 0; done < n; done += per) {
      const k = Math.min(per, n - done);
      if (n > per || done === 0) this.#loadPositions(positions, done, k);
      this.check(m._encode(h, k, dtype), context);
      out.set(this.#results(dtype, 0, k * d), done * d);
    }
  }

  /** x (batch × seqLen rows of width d) += rows start … start+seqLen−1, per sequence. */
  addTo(h, d, start, seqLen, x, context) {
    this.checkRows(h, start, seqLen, d, context, 'options.start', 'options.seqLen');
    const m = this.#m;
    const per = Math.max(1, Math.floor(this.scratchFloats / d));
    const base = this.scratch / 4;
    const batch = x.length / (seqLen * d);
    for (let b = 0; b < batch; b++)
      for (let r = 0; r < seqLen; r += per) {
        const n = Math.min(per, seqLen - r);
        const at = (b * seqLen + r) * d;
        m.HEAPF32.set(x.subarray(at, at + n * d), base);
        this.check(m._addRows(h, start + r, n), context);
        x.set(m.HEAPF32.subarray(base, base + n * d), at);
      }
  }

  checkGrid(h, d, height, width, cls, context) {
    const s = this.#m._checkGrid(h, height, width, cls);
    if (s !== 0)
      this.check(s, context, { countName: 'height/width', count: `${height} × ${width}`, rows: height * width + (cls ? 1 : 0), width: d });
  }

  /** The (height·width + cls) cells of a 2-D grid into `out`, checked by checkGrid first. */
  grid2d(h, d, height, width, cls, out, context) {
    const m = this.#m;
    const cells = height * width + (cls ? 1 : 0);
    const per = Math.max(1, Math.floor(this.scratchFloats / d));
    const base = this.scratch / 4;
    for (let done = 0; done < cells; done += per) {
      const n = Math.min(per, cells - done);
      this.check(m._grid2d(h, height, width, cls, done, n), context);
      out.set(m.HEAPF32.subarray(base, base + n * d), done * d);
    }
  }

  checkHeatmap(h, start, count, col0, cols, vmin, vmax, context) {
    const s = this.#m._checkHeatmap(h, start, count, col0, cols, vmin, vmax);
    if (s !== 0)
      this.check(s, context, {
        ...this.#rowRangeContext(start, count, 'start', 'count'),
        rows: count,
        width: cols,
        columnStart: col0,
        columnEnd: col0 + cols,
        vmin,
        vmax,
      });
  }

  /** RGBA bytes of rows start … start+count−1, columns [col0, col0+cols), into `out`, checked by checkHeatmap first. */
  heatmap(h, start, count, col0, cols, colormap, vmin, vmax, out, context) {
    const m = this.#m;
    if (count === 0 || cols === 0) return;
    m.HEAPU8.set(colormap, this.lut);
    const per = Math.max(1, Math.floor(this.scratchFloats / cols)); // the scratch holds that many RGBA pixels
    for (let done = 0; done < count; done += per) {
      const n = Math.min(per, count - done);
      this.check(m._heatmap(h, start + done, n, col0, cols, vmin, vmax), context);
      out.set(m.HEAPU8.subarray(this.scratch, this.scratch + n * cols * 4), done * cols * 4);
    }
  }

  /** The plan's float64 frequencies (a new Float64Array). */
  frequencies(h) {
    const n = this.#m._frequencies(h);
    return this.#m.HEAPF64.slice(this.scratch / 8, this.scratch / 8 + n);
  }

  attentionFactor(h) {
    return this.#m._attentionFactor(h);
  }

  checkRope(h, layout, headDim, context) {
    this.check(this.#m._checkRope(h, layout, headDim), context);
  }

  /** cos/sin cache rows for start … start+count−1 into cos and sin (count·half each, as for rows). */
  ropeCacheRows(h, half, start, count, cos, sin, context, dtype = 0, recipe = 0) {
    const m = this.#m;
    const per = Math.max(1, Math.floor(this.scratchFloats / (2 * half)));
    for (let done = 0; done < count; done += per) {
      const n = Math.min(per, count - done);
      this.check(m._ropeCacheRows(h, start + done, n, dtype, recipe), context);
      cos.set(this.#results(dtype, 0, n * half), done * half);
      sin.set(this.#results(dtype, n * half, n * half), done * half);
    }
  }

  /**
   * cos/sin cache rows of the tokens at `positions` (a Float64Array copy,
   * `axes` values per token, token-major), checked first.
   */
  ropeCache(h, half, axes, positions, cos, sin, context, dtype = 0, recipe = 0) {
    const m = this.#m;
    const n = positions.length / axes;
    this.checkPositions(positions, context);
    const per = Math.max(1, Math.min(Math.floor(this.positionCapacity / axes), Math.floor(this.scratchFloats / (2 * half))));
    for (let done = 0; done < n; done += per) {
      const k = Math.min(per, n - done);
      this.#loadPositions(positions, done * axes, k * axes);
      this.check(m._ropeCache(h, k, dtype, recipe), context);
      cos.set(this.#results(dtype, 0, k * half), done * half);
      sin.set(this.#results(dtype, k * half, k * half), done * half);
    }
  }

  checkRopeGrid(h, half, height, width, context) {
    const s = this.#m._checkRopeGrid(h, height, width);
    if (s !== 0)
      this.check(s, context, { countName: 'height/width', count: `${height} × ${width}`, rows: height * width, width: half, wantAxes: 2, axes: this.axes(h) });
  }

  /** The height·width patches of a two-axis plan's grid into cos and sin, checked by checkRopeGrid first. */
  ropeCacheGrid(h, half, height, width, cos, sin, context, dtype = 0, recipe = 0) {
    const m = this.#m;
    const cells = height * width;
    const per = Math.max(1, Math.floor(this.scratchFloats / (2 * half)));
    for (let done = 0; done < cells; done += per) {
      const n = Math.min(per, cells - done);
      this.check(m._ropeCacheGrid(h, height, width, done, n, dtype, recipe), context);
      cos.set(this.#results(dtype, 0, n * half), done * half);
      sin.set(this.#results(dtype, n * half, n * half), done * half);
    }
  }

  /** Rotates x ([token][head][dim], tokens at `positions`, `axes` values each) in place. */
  applyRope(h, layout, headDim, axes, positions, numHeads, x, context) {
    const m = this.#m;
    this.checkPositions(positions, context);
    const n = positions.length / axes;
    const base = this.scratch / 4;
    const token = numHeads * headDim;
    if (token === 0) return;
    const tokensPer = Math.min(Math.floor(this.positionCapacity / axes), Math.floor(this.scratchFloats / token));
    if (tokensPer >= 1) {
      for (let t = 0; t < n; t += tokensPer) {
        const k = Math.min(tokensPer, n - t);
        this.#loadPositions(positions, t * axes, k * axes);
        m.HEAPF32.set(x.subarray(t * token, (t + k) * token), base);
        this.check(m._ropeApply(h, layout, headDim, k, numHeads), context);
        x.set(m.HEAPF32.subarray(base, base + k * token), t * token);
      }
      return;
    }
    // One token is wider than the scratch: its heads in groups.
    const headsPer = Math.floor(this.scratchFloats / headDim);
    for (let t = 0; t < n; t++) {
      this.#loadPositions(positions, t * axes, axes);
      for (let g = 0; g < numHeads; g += headsPer) {
        const k = Math.min(headsPer, numHeads - g);
        const at = t * token + g * headDim;
        m.HEAPF32.set(x.subarray(at, at + k * headDim), base);
        this.check(m._ropeApply(h, layout, headDim, 1, k), context);
        x.set(m.HEAPF32.subarray(base, base + k * headDim), at);
      }
    }
  }
}

export function statusCode(name) {
  return CODES.get(name);
}

// maxTimescale -> max_timescale, the core's spelling in status names.
function snake(name) {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
