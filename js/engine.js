// The JavaScript half of the binding: option slots, plans, and the chunk loops
// that move data between the module's scratch buffers and JS-owned arrays
// (`out.set(HEAPF32.subarray(…))`). The glue (cpp/bindings/glue.cpp) converts
// numbers and calls the core; the core validates. A status other than 0 is
// thrown as the error the vocabulary gives it (errors.js), with `context`
// naming the call's arguments.
import { statusError, vocabulary } from './errors.js';

const OPTION_INDEX = new Map(vocabulary.options.map((o, i) => [o.name, i]));
export const KIND = Object.freeze({ rows: 0, grid: 1, rope: 2 });

export class Engine {
  #m;
  #context = {}; // names and values of the current call, for error messages
  #more = undefined; // and the plan's width

  constructor(module) {
    this.#m = module;
    const m = module;
    this.values = m.optionValuesAddress() / 8;
    this.given = m.optionGivenAddress() / 8;
    this.scratch = m.scratchAddress();
    this.scratchFloats = m.scratchFloats();
    this.positions = m.positionsAddress();
    this.positionCapacity = m.positionsCapacity();
    this.lut = m.lutAddress();
    this.result = m.resultAddress() / 8;
    this.busy = false; // inside a chunks() callback: the scratch is the caller's view
  }

  get module() {
    return this.#m;
  }

  // Throws the error for `status` (when not 0) with the current call's
  // context; the context object is built only then.
  check(status, extra) {
    if (status !== 0) throw statusError(status < 0 ? -status : status, { ...this.#context, ...this.#more, ...extra });
  }

  /** Writes the call's options into the option slots; `options` maps names to converted values. */
  setOptions(options, context, more) {
    this.#context = context;
    this.#more = more;
    const m = this.#m;
    const heap = m.HEAPF64;
    for (let i = this.given, end = this.given + OPTION_INDEX.size; i < end; i++) heap[i] = 0;
    for (const name in options) {
      const i = OPTION_INDEX.get(name);
      if (i === undefined) continue;
      const v = options[name];
      if (v instanceof Float64Array) {
        const at = m.numbersAddress(i, v.length);
        if (at === 0) this.check(-statusCode(`bad_${snake(name)}`));
        m.HEAPF64.set(v, at / 8); // HEAPF64 read again: numbersAddress may have grown memory
        m.HEAPF64[this.values + i] = v.length;
      } else {
        m.HEAPF64[this.values + i] = typeof v === 'boolean' ? Number(v) : v;
      }
      m.HEAPF64[this.given + i] = 1;
    }
  }

  /** A plan for the options just set: a handle valid until the next plan() (0), or owned (prepare). */
  plan(kind, family, layout, width, owned = false) {
    const h = owned ? this.#m.prepare(kind, family, layout, width) : this.#m.plan(kind, family, layout, width);
    this.check(h < 0 ? h : 0);
    return h;
  }

  release(handle) {
    this.#m.release(handle);
  }

  setContext(context, more) {
    this.#context = context;
    this.#more = more;
  }

  // Copies positions[at … at+n) into the positions scratch.
  #loadPositions(positions, at, n) {
    this.#m.HEAPF64.set(positions.subarray(at, at + n), this.positions / 8);
  }

  // Every position, chunk by chunk, before anything is written.
  checkPositions(positions, name = 'positions') {
    const cap = this.positionCapacity;
    for (let at = 0; at < positions.length; at += cap) {
      const n = Math.min(cap, positions.length - at);
      this.#loadPositions(positions, at, n);
      const s = this.#m.checkPositions(n);
      if (s !== 0) {
        const index = at + this.#m.HEAPF64[this.result];
        this.check(s, { position: `${name}[${index}]`, value: positions[index] });
      }
    }
  }

  #rowRangeContext(start, count, startName, countName) {
    const end = start + count;
    return { startName, countName, start, count, position: `rows [${start}, ${end}) from ${startName} and ${countName}`, value: count > 0 ? end - 1 : start };
  }

  checkRows(h, start, count, width, startName = 'start', countName = 'count') {
    const s = this.#m.checkRows(h, start, count);
    if (s !== 0) this.check(s, { ...this.#rowRangeContext(start, count, startName, countName), rows: count, width });
  }

  /** Rows start … start+count−1 (width d) into `out` (a Float32Array of count·d), checked by checkRows first. */
  rows(h, d, start, count, out) {
    const m = this.#m;
    const per = Math.max(1, Math.floor(this.scratchFloats / d));
    const base = this.scratch / 4;
    for (let done = 0; done < count; done += per) {
      const n = Math.min(per, count - done);
      this.check(m.rows(h, start + done, n));
      out.set(m.HEAPF32.subarray(base, base + n * d), done * d);
    }
  }

  /** Calls fn(view, firstRow) for each chunk of rows, the view over the scratch. */
  chunks(h, d, start, count, fn) {
    this.checkRows(h, start, count, d);
    const m = this.#m;
    const per = Math.max(1, Math.floor(this.scratchFloats / d));
    for (let done = 0; done < count; done += per) {
      const n = Math.min(per, count - done);
      this.check(m.rows(h, start + done, n));
      const view = new Float32Array(m.HEAPF32.buffer, this.scratch, n * d);
      this.busy = true;
      try {
        fn(view, start + done);
      } finally {
        this.busy = false;
        // Detach every view of this memory (a kept `view` now has length 0),
        // then give Emscripten fresh ones.
        m.detachViews();
      }
    }
  }

  /** Rows at `positions` (a Float64Array copy) into `out`. */
  encode(h, d, positions, out) {
    const m = this.#m;
    const n = positions.length;
    const per = Math.max(1, Math.min(this.positionCapacity, Math.floor(this.scratchFloats / d)));
    if (n * d > vocabulary.limits.maxElements) this.check(statusCode('too_large'), { rows: n, width: d, countName: 'positions' });
    this.checkPositions(positions);
    const base = this.scratch / 4;
    for (let done = 0; done < n; done += per) {
      const k = Math.min(per, n - done);
      if (n > per || done === 0) this.#loadPositions(positions, done, k);
      this.check(m.encode(h, k));
      out.set(m.HEAPF32.subarray(base, base + k * d), done * d);
    }
  }

  /** x (batch × seqLen rows of width d) += rows start … start+seqLen−1, per sequence. */
  addTo(h, d, start, seqLen, x) {
    this.checkRows(h, start, seqLen, d, 'options.start', 'options.seqLen');
    const m = this.#m;
    const per = Math.max(1, Math.floor(this.scratchFloats / d));
    const base = this.scratch / 4;
    const batch = x.length / (seqLen * d);
    for (let b = 0; b < batch; b++)
      for (let r = 0; r < seqLen; r += per) {
        const n = Math.min(per, seqLen - r);
        const at = (b * seqLen + r) * d;
        m.HEAPF32.set(x.subarray(at, at + n * d), base);
        this.check(m.addRows(h, start + r, n));
        x.set(m.HEAPF32.subarray(base, base + n * d), at);
      }
  }

  checkGrid(h, d, height, width, cls) {
    const s = this.#m.checkGrid(h, height, width, cls);
    if (s !== 0)
      this.check(s, { countName: 'height/width', count: `${height} × ${width}`, rows: height * width + (cls ? 1 : 0), width: d });
  }

  /** The (height·width + cls) cells of a 2-D grid into `out`, checked by checkGrid first. */
  grid2d(h, d, height, width, cls, out) {
    const m = this.#m;
    const cells = height * width + (cls ? 1 : 0);
    const per = Math.max(1, Math.floor(this.scratchFloats / d));
    const base = this.scratch / 4;
    for (let done = 0; done < cells; done += per) {
      const n = Math.min(per, cells - done);
      this.check(m.grid2d(h, height, width, cls, done, n));
      out.set(m.HEAPF32.subarray(base, base + n * d), done * d);
    }
  }

  checkHeatmap(h, start, count, col0, cols, vmin, vmax) {
    const s = this.#m.checkHeatmap(h, start, count, col0, cols, vmin, vmax);
    if (s !== 0)
      this.check(s, {
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
  heatmap(h, start, count, col0, cols, colormap, vmin, vmax, out) {
    const m = this.#m;
    if (count === 0 || cols === 0) return;
    m.HEAPU8.set(colormap, this.lut);
    const per = Math.max(1, Math.floor(this.scratchFloats / cols)); // the scratch holds that many RGBA pixels
    for (let done = 0; done < count; done += per) {
      const n = Math.min(per, count - done);
      this.check(m.heatmap(h, start + done, n, col0, cols, vmin, vmax));
      out.set(m.HEAPU8.subarray(this.scratch, this.scratch + n * cols * 4), done * cols * 4);
    }
  }

  /** The plan's float64 frequencies (a new Float64Array). */
  frequencies(h) {
    const n = this.#m.frequencies(h);
    return this.#m.HEAPF64.slice(this.scratch / 8, this.scratch / 8 + n);
  }

  attentionFactor(h) {
    return this.#m.attentionFactor(h);
  }

  /** cos/sin cache rows for start … start+count−1 into cos and sin (count·half each). */
  ropeCacheRows(h, half, start, count, cos, sin) {
    const m = this.#m;
    const per = Math.max(1, Math.floor(this.scratchFloats / (2 * half)));
    const base = this.scratch / 4;
    for (let done = 0; done < count; done += per) {
      const n = Math.min(per, count - done);
      this.check(m.ropeCacheRows(h, start + done, n));
      cos.set(m.HEAPF32.subarray(base, base + n * half), done * half);
      sin.set(m.HEAPF32.subarray(base + n * half, base + 2 * n * half), done * half);
    }
  }

  /** cos/sin cache rows at `positions` (a Float64Array copy). */
  ropeCache(h, half, positions, cos, sin) {
    const m = this.#m;
    const n = positions.length;
    this.checkPositions(positions);
    const per = Math.max(1, Math.min(this.positionCapacity, Math.floor(this.scratchFloats / (2 * half))));
    const base = this.scratch / 4;
    for (let done = 0; done < n; done += per) {
      const k = Math.min(per, n - done);
      this.#loadPositions(positions, done, k);
      this.check(m.ropeCache(h, k));
      cos.set(m.HEAPF32.subarray(base, base + k * half), done * half);
      sin.set(m.HEAPF32.subarray(base + k * half, base + 2 * k * half), done * half);
    }
  }

  /** Rotates x ([token][head][dim], tokens at `positions`) in place. */
  applyRope(h, layout, headDim, positions, numHeads, x) {
    const m = this.#m;
    this.checkPositions(positions);
    const n = positions.length;
    const base = this.scratch / 4;
    const token = numHeads * headDim;
    if (token === 0) return;
    const tokensPer = Math.min(this.positionCapacity, Math.floor(this.scratchFloats / token));
    if (tokensPer >= 1) {
      for (let t = 0; t < n; t += tokensPer) {
        const k = Math.min(tokensPer, n - t);
        this.#loadPositions(positions, t, k);
        m.HEAPF32.set(x.subarray(t * token, (t + k) * token), base);
        this.check(m.ropeApply(h, layout, headDim, k, numHeads));
        x.set(m.HEAPF32.subarray(base, base + k * token), t * token);
      }
      return;
    }
    // One token is wider than the scratch: its heads in groups.
    const headsPer = Math.floor(this.scratchFloats / headDim);
    for (let t = 0; t < n; t++) {
      this.#loadPositions(positions, t, 1);
      for (let g = 0; g < numHeads; g += headsPer) {
        const k = Math.min(headsPer, numHeads - g);
        const at = t * token + g * headDim;
        m.HEAPF32.set(x.subarray(at, at + k * headDim), base);
        this.check(m.ropeApply(h, layout, headDim, 1, k));
        x.set(m.HEAPF32.subarray(base, base + k * headDim), at);
      }
    }
  }
}

const CODES = new Map(vocabulary.statuses.map((s) => [s.name, s.code]));
export function statusCode(name) {
  return CODES.get(name);
}

// maxTimescale -> max_timescale, the core's spelling in status names.
function snake(name) {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
