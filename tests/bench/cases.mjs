// The body of `npm run bench`, shared by the Node runner (tests/bench/node.mjs)
// and the Chromium page (tests/bench/page.html): no Node-only imports here.
//
// runBench({ simd, baseline, now, log, quick }) times every case with both
// loaded flavours of the package, the bounds (JS `fill`, the write-only copy
// from wasm memory) and the idiomatic JS loops, checks every value of every
// sinpe method against an independent float64 reference, and returns
// { rows, skipped, meta }: one row per (case, method) with the median time and
// the error. It asserts nothing; run.mjs turns errors into the exit code and
// the timings into ratios and goal lines.
import { ErrorTracker, maxAbsError as maxAbsErrorTracker } from '../js/errors-helper.mjs';
import { halfBits } from '../js/mrope-reference.mjs';
import { mulberry32 } from '../js/fixtures/random.mjs';

export const BENCH = Object.freeze({
  table: { n: 4096, d: 512 },
  row: { count: 1000, d: 512, seed: 0x5eed },
  heatmap: { n: 2048, d: 512, vmin: -1, vmax: 1 },
  ropeCache: { n: 131072, rotaryDim: 128, base: 10000 },
  applyRope: { n: 2048, heads: 32, headDim: 128, base: 10000, seed: 3 },
  // Qwen2-VL: three axes per token, positions (t, h, w) = (i, i + i % 7, i + i % 11), as the native benchmark.
  mropeCache: { n: 131072, rotaryDim: 128, base: 1e6, mropeSection: [16, 24, 24] },
  halfTable: { n: 4096, d: 512 },
  halfRopeCache: { n: 131072, rotaryDim: 128, base: 10000 },
});

// The accuracy contract (README): every value within 2.5e-7 of the float64
// formula; RoPE rotations within 5e-7 (|x_a| + |x_b|) of the float64 rotation
// of the float32 inputs; heatmap colour indices within 1 of the float64 index
// (1: a value within rounding of a bin edge).
export const CONTRACT = Object.freeze({ value: 2.5e-7, rotation: 5e-7, colourIndex: 1 });

// Timing effort: the median is taken over at least minReps timed runs after a
// warm-up; fast methods get more runs, up to about budgetMs per case.
// Before the first case, every kernel and the JS layer run for startWarmMs
// (warmUp): the first case is then measured on optimised code, as the later
// ones are.
export const EFFORT = Object.freeze({
  full: { minReps: 21, maxReps: 101, budgetMs: 2500, warmMs: 100, startWarmMs: 2000 },
  quick: { minReps: 3, maxReps: 5, budgetMs: 100, warmMs: 10, startWarmMs: 20 },
});

export const MAX_POSITION = 2 ** 24;
const LN_BASE = Math.log(10000);

// ---------------------------------------------------------------- timing

function median(sorted) {
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) >> 1] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

// Times the methods of one case together: each is warmed up (JIT tiers, wasm
// tier-up, caches), then they take turns, one turn each per round (each round
// in a new order), so load from elsewhere on a shared machine hits all of them
// alike. A fast method (< 5 ms) runs once untimed right before its timed run,
// so it is measured warm rather than after another method evicted its data.
// A method that returns a number timed itself (the write-only bounds time
// only their copy loop); otherwise the call is timed.
// Returns per method the median over all its timed runs (>= minReps).
function measureGroup(now, fns, effort) {
  const timed = (fn) => {
    const a = now();
    const r = fn();
    const t = now() - a;
    return typeof r === 'number' ? r : t;
  };
  const est = fns.map((fn) => {
    const t0 = now();
    let calls = 0;
    let last = 0;
    while (calls < 2 || (now() - t0 < effort.warmMs && calls < 500)) {
      last = timed(fn);
      calls++;
    }
    return last;
  });
  // Sub-millisecond methods take up to 5 timed runs per turn (more samples, same turns).
  const runs = est.map((t) => Math.max(1, Math.min(5, Math.floor(1 / Math.max(t, 1e-3)))));
  const perRound = est.reduce((s, t, m) => s + t * (runs[m] + (t < 5 ? 1 : 0)), 0);
  const reps = Math.max(effort.minReps, Math.min(effort.maxReps, Math.ceil(effort.budgetMs / Math.max(perRound, 1e-3))));
  const times = fns.map((_, m) => new Float64Array(reps * runs[m]));
  // Each round in its own seeded random order: a method follows different
  // ones from round to round, so none always pays for its neighbour's garbage
  // (in Chromium the encode methods' ArrayBuffers are swept by the scavenges
  // of whatever allocates next: with a fixed cyclic order the unprepared rows
  // call always came right after prepare(d).encode, the prepared one never).
  const next = mulberry32(0x0bde7 + fns.length);
  const order = fns.map((_, m) => m);
  for (let i = 0; i < reps; i++) {
    for (let k = order.length - 1; k > 0; k--) {
      const r = Math.floor(next() * (k + 1));
      [order[k], order[r]] = [order[r], order[k]];
    }
    for (let j = 0; j < fns.length; j++) {
      const m = order[j];
      if (est[m] < 5) fns[m]();
      for (let k = 0; k < runs[m]; k++) times[m][i * runs[m] + k] = timed(fns[m]);
    }
  }
  return times.map((t) => {
    t.sort();
    return { ms: median(t), min: t[0], max: t[t.length - 1], reps: t.length };
  });
}

// The run's warm-up, before the first case. Wasm functions start as baseline
// code (Chromium compiles each on its first call) and are re-compiled by the
// optimising tier in the background once hot; the JS layer's functions tier up
// likewise. On a loaded machine that took ~0.3 s in Chromium, longer than the
// first case's own warm-up (warmMs): its first timed runs ran on baseline code
// (table 4096×512 read 1.4–2.5× the same call measured later in the run). So
// every method the cases time runs here, on small sizes, in both flavours,
// for `ms`, then the event loop turns once (code compiled meanwhile is
// installed). Values are not checked here (the cases check them).
export async function warmUp(simd, baseline, now, ms) {
  const d = 512;
  const out = new Float32Array(64 * d);
  const out16 = new Uint16Array(64 * d);
  const row = new Float32Array(d);
  const positions = Float64Array.from({ length: 256 }, (_, i) => i * 61);
  const mrope = Float64Array.from({ length: 3 * 256 }, (_, i) => i);
  const cos = new Float32Array(256 * 64);
  const sin = new Float32Array(256 * 64);
  const cos16 = new Uint16Array(256 * 64);
  const sin16 = new Uint16Array(256 * 64);
  const x = new Float32Array(16 * 4 * 128).fill(0.5);
  const px = new Uint8ClampedArray(64 * d * 4);
  const prepared = [simd, baseline].map((pe) => (typeof pe.prepare === 'function' ? pe.prepare(d) : null));
  const calls = [];
  [simd, baseline].forEach((pe, k) => {
    const has = (name) => typeof pe[name] === 'function';
    const prep = prepared[k];
    calls.push(() => pe.table(64, d, { out }));
    calls.push(() => pe.table(64, d, { dtype: 'float16', out: out16 }));
    calls.push(() => pe.table(64, d, { dtype: 'bfloat16', out: out16 }));
    calls.push(() => pe.rows(12345, 1, d, { out: row }));
    calls.push(() => pe.encode([777], d));
    calls.push(() => pe.heatmap(0, 64, d, { out: px }));
    if (prep) {
      calls.push(() => prep.rows(4321, 1, row));
      calls.push(() => prep.encode([99]));
      calls.push(() => prep.chunks(0, 64, (view) => out.set(view)));
    }
    if (has('ropeCache')) calls.push(() => pe.ropeCache(positions, 128, { out: { cos, sin } }));
    if (has('ropeCache')) calls.push(() => pe.ropeCache(mrope, 128, { base: 1e6, mropeSection: [16, 24, 24], out: { cos, sin } }));
    if (has('ropeCacheRows')) calls.push(() => pe.ropeCacheRows(0, 256, 128, { out: { cos, sin } }));
    if (has('ropeCacheRows')) calls.push(() => pe.ropeCacheRows(0, 256, 128, { dtype: 'float16', out: { cos: cos16, sin: sin16 } }));
    if (has('ropeCacheRows')) calls.push(() => pe.ropeCacheRows(0, 256, 128, { dtype: 'bfloat16', out: { cos: cos16, sin: sin16 } }));
    if (has('applyRope')) calls.push(() => pe.applyRope(x, positions.subarray(0, 16), 128));
  });
  const t0 = now();
  do for (const call of calls) call();
  while (now() - t0 < ms);
  await new Promise((resolve) => setTimeout(resolve, 0));
}

// ---------------------------------------------------------------- references

// The float64 formula itself, written independently of every method below:
// PE(pos, 2k) = sin(pos * 10000^(-2k/d)), PE(pos, 2k+1) = cos(...).
function referenceRows(start, n, d) {
  const h = d >> 1;
  const w = new Float64Array(h);
  for (let k = 0; k < h; k++) w[k] = Math.pow(10000, (-2 * k) / d);
  const ref = new Float64Array(n * d);
  for (let r = 0; r < n; r++) {
    const pos = start + r;
    const o = r * d;
    for (let k = 0; k < h; k++) {
      ref[o + 2 * k] = Math.sin(pos * w[k]);
      ref[o + 2 * k + 1] = Math.cos(pos * w[k]);
    }
  }
  return ref;
}

function referenceAt(positions, d) {
  const ref = new Float64Array(positions.length * d);
  for (let i = 0; i < positions.length; i++) ref.set(referenceRows(positions[i], 1, d), i * d);
  return ref;
}

// The largest error, NaN when any value is NaN, the lengths differ or there is
// nothing to compare, Infinity when one is infinite (errors-helper.mjs): such
// an error is outside any bound.
function maxAbsError(values, ref) {
  return maxAbsErrorTracker(values, ref).worst;
}

// RoPE 'default' (transformers' _compute_default_rope_parameters) in float64:
// inv_j = 1 / base^(2j / r).
function ropeInv(r, base) {
  const inv = new Float64Array(r / 2);
  for (let j = 0; j < r / 2; j++) inv[j] = 1 / Math.pow(base, (2 * j) / r);
  return inv;
}

// max |cos - cos(p inv_j)|, |sin - sin(p inv_j)| over a cache of rows at `positions`.
function ropeCacheError(cos, sin, positions, inv) {
  const h = inv.length;
  if (cos.length !== positions.length * h || sin.length !== cos.length) return NaN;
  const m = new ErrorTracker();
  for (let i = 0; i < positions.length; i++) {
    const o = i * h;
    for (let j = 0; j < h; j++) {
      const a = positions[i] * inv[j];
      m.addDifference(cos[o + j], Math.cos(a), o + j);
      m.addDifference(sin[o + j], Math.sin(a), o + j);
    }
  }
  return m.worst;
}

// max |x' - exact| / (|x_a| + |x_b|) over every rotated pair (half layout),
// exact being the float64 rotation of the float32 inputs x0.
function rotationError(x, x0, positions, heads, headDim, inv) {
  const h = headDim / 2;
  const m = new ErrorTracker();
  for (let t = 0; t < positions.length; t++)
    for (let j = 0; j < h; j++) {
      const c = Math.cos(positions[t] * inv[j]);
      const s = Math.sin(positions[t] * inv[j]);
      for (let hh = 0; hh < heads; hh++) {
        const o = (t * heads + hh) * headDim;
        const a = x0[o + j];
        const b = x0[o + j + h];
        const scale = Math.abs(a) + Math.abs(b);
        if (scale === 0) {
          m.add(x[o + j] === 0 && x[o + j + h] === 0 ? 0 : NaN, o + j); // a zero pair stays zero
          continue;
        }
        m.add(Math.abs(x[o + j] - (a * c - b * s)) / scale, o + j);
        m.add(Math.abs(x[o + j + h] - (b * c + a * s)) / scale, o + j + h);
      }
    }
  return m.worst;
}

// Half-precision results: how many values are not the float64 value rounded
// once (either neighbour accepted where the float64 value lies within its own
// error of a rounding boundary); NaN when the lengths differ or nothing is compared.
function halfMismatches(bits, ref, dtype, angleOf) {
  if (bits.length !== ref.length || ref.length === 0) return NaN;
  let bad = 0;
  for (let i = 0; i < ref.length; i++) {
    const { bits: want, near, either } = halfBits(ref[i], dtype, 4e-16 * (Math.abs(angleOf(i)) + 1));
    if (near ? !either.includes(bits[i]) : bits[i] !== want) bad++;
  }
  return bad;
}

// ---------------------------------------------------------------- idiomatic JS

// Frequencies precomputed once in float64, Math.sin/Math.cos per value.
function idiomaticFreqs(d) {
  const h = d >> 1;
  const inv = new Float64Array(h);
  for (let k = 0; k < h; k++) inv[k] = Math.exp((-2 * k * LN_BASE) / d);
  return inv;
}

function idiomaticRows(start, n, d, inv, out, off) {
  const h = d >> 1;
  for (let r = 0; r < n; r++) {
    const pos = start + r;
    const o = off + r * d;
    for (let k = 0; k < h; k++) {
      const angle = pos * inv[k];
      out[o + 2 * k] = Math.sin(angle);
      out[o + 2 * k + 1] = Math.cos(angle);
    }
  }
}

// The heatmap in plain JS: idiomatic values, the colour index, a Uint32Array LUT.
function idiomaticHeatmap(n, d, inv, lut32, vmin, vmax, px32) {
  const h = d >> 1;
  const scale = 255 / (vmax - vmin);
  for (let r = 0; r < n; r++) {
    const o = r * d;
    for (let k = 0; k < h; k++) {
      const angle = r * inv[k];
      let t = (Math.sin(angle) - vmin) * scale + 0.5;
      px32[o + 2 * k] = lut32[t > 0 ? (t >= 255 ? 255 : t | 0) : 0];
      t = (Math.cos(angle) - vmin) * scale + 0.5;
      px32[o + 2 * k + 1] = lut32[t > 0 ? (t >= 255 ? 255 : t | 0) : 0];
    }
  }
}

// cos/sin caches in float64, rounded to float32 on store.
function idiomaticRopeCache(n, r, base, cos, sin) {
  const h = r / 2;
  const inv = new Float64Array(h);
  for (let j = 0; j < h; j++) inv[j] = 1 / Math.pow(base, (2 * j) / r);
  for (let p = 0; p < n; p++) {
    const o = p * h;
    for (let j = 0; j < h; j++) {
      const a = p * inv[j];
      cos[o + j] = Math.cos(a);
      sin[o + j] = Math.sin(a);
    }
  }
}

// rotate_half in place with a precomputed float64 cache (cos64/sin64: n × headDim/2).
function idiomaticApplyRope(x, n, heads, headDim, cos64, sin64) {
  const h = headDim / 2;
  for (let t = 0; t < n; t++) {
    const c0 = t * h;
    for (let hh = 0; hh < heads; hh++) {
      const o = (t * heads + hh) * headDim;
      for (let j = 0; j < h; j++) {
        const a = x[o + j];
        const b = x[o + j + h];
        const c = cos64[c0 + j];
        const s = sin64[c0 + j];
        x[o + j] = a * c - b * s;
        x[o + j + h] = b * c + a * s;
      }
    }
  }
}

// ---------------------------------------------------------------- helpers

export function randomPositions(count, seed, max = MAX_POSITION) {
  const next = mulberry32(seed);
  const ps = new Float64Array(count);
  for (let i = 0; i < count; i++) ps[i] = Math.floor(next() * max);
  ps[count - 1] = max - 1; // always include the largest position
  ps[0] = 0;
  return ps;
}

// A colourful LUT whose red channel is the index, so the index can be read back.
function makeLut() {
  const lut = new Uint8Array(1024);
  for (let i = 0; i < 256; i++) lut.set([i, (i * 7) & 255, 255 - i, 255], 4 * i);
  return lut;
}

// max |index used - index of the float64 value| over a heatmap of rows 0 … n-1.
function colourIndexError(px, n, d, vmin, vmax) {
  const ref = referenceRows(0, n, d);
  if (px.length !== 4 * ref.length) return NaN;
  const m = new ErrorTracker();
  for (let i = 0; i < ref.length; i++) {
    const t = Math.floor((ref[i] - vmin) * (255 / (vmax - vmin)) + 0.5);
    m.addDifference(px[4 * i], t < 0 ? 0 : t > 255 ? 255 : t, i);
  }
  return m.worst;
}

// The rows per chunk of a prepared encoder (the module's scratch size / d).
function chunkRows(prep, d) {
  let per = 0;
  prep.chunks(0, 8192, (view) => {
    if (!per) per = view.length / d;
  });
  return per;
}

// The write-only bound: `floats` values copied out of wasm memory in the
// chunk size the package uses (out.set(view) from one chunks() view, so
// nothing is computed during the timed copy); times itself.
function writeBound(prep, d, per, now, dests) {
  return () => {
    let ms = 0;
    prep.chunks(0, per, (view) => {
      const t0 = now();
      for (const dest of dests)
        for (let at = 0; at < dest.length; at += view.length)
          dest.set(at + view.length <= dest.length ? view : view.subarray(0, dest.length - at), at);
      ms = now() - t0;
    });
    return ms;
  };
}

// ---------------------------------------------------------------- the run

export async function runBench({ simd, baseline, now, log = () => {}, quick = false }) {
  if (!simd?.simd) throw new Error('runBench: `simd` must be an encoder loaded with {simd: true}');
  if (!baseline || baseline.simd) throw new Error('runBench: `baseline` must be an encoder loaded with {simd: false}');
  const effort = quick ? EFFORT.quick : EFFORT.full;
  const rows = [];
  const skipped = [];
  const yieldToLoop = () => new Promise((r) => setTimeout(r, 0));
  const has = (name) => typeof simd[name] === 'function' && typeof baseline[name] === 'function';
  const available = (caseName, names) => {
    const missing = names.filter((n) => !has(n));
    for (const n of missing) {
      skipped.push({ case: caseName, api: n });
      log(`  ${caseName}: MISSING: pe.${n} (methods using it not run; run.mjs fails the bench)`);
    }
    return missing.length === 0;
  };

  const add = (caseName, key, method, timing, err, unit = 'ms') => {
    const row = { case: caseName, key, method, ...timing, err, unit };
    rows.push(row);
    const e = typeof err === 'number' ? err.toExponential(2) : err;
    log(`  ${caseName.padEnd(24)} ${method.padEnd(52)} ${timing.ms.toFixed(4).padStart(10)} ms  (n=${timing.reps})  err ${e}`);
  };

  // Runs a case: `methods` = [key, label, fn, verify?] where verify() returns
  // the method's error (run once after timing, outside it).
  const runCase = async (caseName, methods, unit = 'ms', scale = 1) => {
    await yieldToLoop();
    const timings = measureGroup(
      now,
      methods.map((m) => m[2]),
      effort,
    );
    for (let i = 0; i < methods.length; i++) {
      const [key, label, , verify] = methods[i];
      const t = timings[i];
      const err = verify ? verify() : null;
      add(caseName, key, label, { ms: t.ms / scale, min: t.min / scale, max: t.max / scale, reps: t.reps }, err, unit);
    }
  };

  const prepared = has('prepare');
  if (!prepared) available('(all cases)', ['prepare']);
  const warmStart = now();
  await warmUp(simd, baseline, now, effort.startWarmMs);
  log(`warm-up: ${Math.round(now() - warmStart)} ms, every method on small sizes`);
  let per = 0; // rows per chunk
  // The bounds of a cos/sin cache case: the write-only copy out of wasm memory
  // (with prepare) and filling both arrays in JS.
  const cacheBounds = (cos, sin) => [
    ...(prepared ? [['write-bound', 'write-only bound: cos and sin copied from wasm memory', writeBound(simd.prepare(512), 512, per, now, [cos, sin])]] : []),
    [
      'js-fill',
      'JS cos.fill(1), sin.fill(1) (memory bound, no wasm)',
      () => {
        cos.fill(1);
        sin.fill(1);
      },
    ],
  ];

  // --- table 4096 × 512
  {
    const { n, d } = BENCH.table;
    const caseName = `table ${n}×${d}`;
    log(`${caseName}: float64 reference`);
    const ref = referenceRows(0, n, d);
    const out = new Float32Array(n * d);
    const inv = idiomaticFreqs(d);
    const check = (fill) => () => {
      out.fill(NaN);
      fill();
      return maxAbsError(out, ref);
    };
    const methods = [
      ['simd', 'sinpe SIMD: table(n, d, {out})', () => simd.table(n, d, { out }), check(() => simd.table(n, d, { out }))],
      ['baseline', 'sinpe baseline: table(n, d, {out})', () => baseline.table(n, d, { out }), check(() => baseline.table(n, d, { out }))],
    ];
    if (prepared) {
      const prep = simd.prepare(d);
      per = chunkRows(prep, d);
      let sink = 0;
      methods.push(
        [
          'simd-chunks',
          'sinpe SIMD: prepare(d).chunks(0, n, view => read view[0])',
          () => prep.chunks(0, n, (view) => (sink += view[0])),
          check(() => prep.chunks(0, n, (view, first) => out.set(view, first * d))),
        ],
        [
          'simd-chunks-copy',
          'sinpe SIMD: prepare(d).chunks(0, n, (view, first) => out.set(view, first·d))',
          () => prep.chunks(0, n, (view, first) => out.set(view, first * d)),
          check(() => prep.chunks(0, n, (view, first) => out.set(view, first * d))),
        ],
        ['write-bound', `write-only bound: out.set(view) from wasm memory, ${per}-row chunks`, writeBound(prep, d, per, now, [out])],
      );
    }
    methods.push(
      ['js-fill', 'JS out.fill(1) (memory bound, no wasm)', () => out.fill(1)],
      ['js-idiomatic', 'JS idiomatic float64 loop', () => idiomaticRows(0, n, d, inv, out, 0), check(() => idiomaticRows(0, n, d, inv, out, 0))],
    );
    await runCase(caseName, methods);
    // chunks() lifetime: a view kept past its callback is empty afterwards.
    if (prepared) {
      let kept = null;
      simd.prepare(d).chunks(0, 2, (view) => (kept = view));
      add(caseName, 'chunks-lifetime', 'a chunks() view kept past its callback has length 0', { ms: 0, min: 0, max: 0, reps: 0 }, kept.length === 0 ? 0 : `length ${kept.length}`);
    }
  }

  // --- one row d = 512 at random positions below 2^24, one call per row
  {
    const { count, d, seed } = BENCH.row;
    const caseName = `row d=${d}, random pos`;
    const ps = randomPositions(count, seed);
    log(`${caseName}: float64 reference`);
    const ref = referenceAt(ps, d);
    const row = new Float32Array(d);
    const all = new Float32Array(count * d);
    const inv = idiomaticFreqs(d);
    // Every row of a method into `all`, then its error.
    const verifyOne = (one) => () => {
      all.fill(NaN);
      for (let i = 0; i < count; i++) {
        const r = one(ps[i]);
        all.set(r instanceof Float32Array ? r : row, i * d);
      }
      return maxAbsError(all, ref);
    };
    const loop = (one) => () => {
      for (let i = 0; i < count; i++) one(ps[i]);
    };
    const methods = [];
    const both = [
      ['simd', simd],
      ['baseline', baseline],
    ];
    for (const [flavour, pe] of both) {
      const label = flavour === 'simd' ? 'sinpe SIMD' : 'sinpe baseline';
      if (prepared) {
        const prep = pe.prepare(d);
        const one = (p) => prep.rows(p, 1, row);
        // encode's own like-for-like: a fresh result array per call, as pe.encode returns.
        const fresh = (p) => prep.encode([p]);
        methods.push(
          [`${flavour}-prepared`, `${label}: prepare(d).rows(p, 1, out)`, loop(one), verifyOne(one)],
          [`${flavour}-prepared-encode`, `${label}: prepare(d).encode([p])`, loop(fresh), verifyOne(fresh)],
        );
      }
      const viaRows = (p) => pe.rows(p, 1, d, { out: row });
      const viaEncode = (p) => pe.encode([p], d);
      methods.push(
        [`${flavour}-rows`, `${label}: rows(p, 1, d, {out})`, loop(viaRows), verifyOne(viaRows)],
        [`${flavour}-encode`, `${label}: encode([p], d)`, loop(viaEncode), verifyOne(viaEncode)],
      );
    }
    if (prepared) {
      const prep = simd.prepare(d);
      methods.push([
        'write-bound',
        'write-only bound: out.set(view) of one row from wasm memory',
        () => {
          let ms = 0;
          prep.chunks(0, 1, (view) => {
            const t0 = now();
            for (let i = 0; i < count; i++) row.set(view.subarray(0, d));
            ms = now() - t0;
          });
          return ms;
        },
      ]);
    }
    const fillOne = () => row.fill(1);
    const idiomaticOne = (p) => idiomaticRows(p, 1, d, inv, row, 0);
    methods.push(['js-fill', 'JS out.fill(1) of one row', loop(fillOne)], ['js-idiomatic', 'JS idiomatic float64 loop', loop(idiomaticOne), verifyOne(idiomaticOne)]);
    await runCase(caseName, methods, 'µs', count);
  }

  // --- heatmap 2048 × 512 through a 256-entry LUT
  {
    const { n, d, vmin, vmax } = BENCH.heatmap;
    const caseName = `heatmap ${n}×${d}`;
    const lut = makeLut();
    const lut32 = new Uint32Array(lut.buffer);
    const px = new Uint8ClampedArray(n * d * 4);
    const px32 = new Uint32Array(px.buffer);
    const inv = idiomaticFreqs(d);
    const check = (run) => () => {
      px.fill(0);
      run();
      return colourIndexError(px, n, d, vmin, vmax);
    };
    const viaSimd = () => simd.heatmap(0, n, d, { colormap: lut, out: px, vmin, vmax });
    const viaBaseline = () => baseline.heatmap(0, n, d, { colormap: lut, out: px, vmin, vmax });
    const viaJs = () => idiomaticHeatmap(n, d, inv, lut32, vmin, vmax, px32);
    const methods = [
      ['simd', 'sinpe SIMD: heatmap(0, n, d, {colormap, out})', viaSimd, check(viaSimd)],
      ['baseline', 'sinpe baseline: heatmap(0, n, d, {colormap, out})', viaBaseline, check(viaBaseline)],
    ];
    if (prepared)
      methods.push(['write-bound', 'write-only bound: the pixels copied from wasm memory', writeBound(simd.prepare(512), 512, per, now, [new Float32Array(px.buffer)])]);
    methods.push(['js-fill', 'JS px32.fill(…) (memory bound, no wasm)', () => px32.fill(0xff00ff00)], ['js-idiomatic', 'JS idiomatic loop, Uint32Array LUT', viaJs, check(viaJs)]);
    await runCase(caseName, methods);
  }

  // --- RoPE cos/sin caches, 131072 positions × rotaryDim 128
  {
    const { n, rotaryDim: r, base } = BENCH.ropeCache;
    const caseName = `ropeCache ${n}×${r}`;
    if (available(caseName, ['ropeCache', 'ropeCacheRows'])) {
      const h = r / 2;
      const positions = Float64Array.from({ length: n }, (_, i) => i);
      const cos = new Float32Array(n * h);
      const sin = new Float32Array(n * h);
      const inv = ropeInv(r, base);
      const check = (run) => () => {
        cos.fill(NaN);
        sin.fill(NaN);
        const res = run();
        const att = res?.attentionFactor ?? 1;
        if (att !== 1) return `attentionFactor ${att}, expected 1`;
        return ropeCacheError(cos, sin, positions, inv);
      };
      const out = { cos, sin };
      const viaSimd = () => simd.ropeCache(positions, r, { out });
      const viaRows = () => simd.ropeCacheRows(0, n, r, { out });
      const viaBaseline = () => baseline.ropeCache(positions, r, { out });
      const viaJs = () => idiomaticRopeCache(n, r, base, cos, sin);
      const methods = [
        ['simd', 'sinpe SIMD: ropeCache(positions, r, {out})', viaSimd, check(viaSimd)],
        ['simd-rows', 'sinpe SIMD: ropeCacheRows(0, n, r, {out})', viaRows, check(viaRows)],
        ['baseline', 'sinpe baseline: ropeCache(positions, r, {out})', viaBaseline, check(viaBaseline)],
      ];
      methods.push(
        ...cacheBounds(cos, sin),
        ['js-idiomatic', 'JS idiomatic float64 loop', viaJs, check(viaJs)],
      );
      await runCase(caseName, methods);
    }
  }

  // --- RoPE rotation in place, 2048 tokens × 32 heads × 128 (half layout)
  {
    const { n, heads, headDim, base, seed } = BENCH.applyRope;
    const caseName = `applyRope ${n}×${heads}×${headDim}`;
    if (available(caseName, ['applyRope'])) {
      const h = headDim / 2;
      const positions = Float64Array.from({ length: n }, (_, i) => i);
      const next = mulberry32(seed);
      const x0 = Float32Array.from({ length: n * heads * headDim }, () => 4 * next() - 2);
      const x = x0.slice();
      const inv = ropeInv(headDim, base);
      const cos64 = new Float64Array(n * h);
      const sin64 = new Float64Array(n * h);
      for (let t = 0; t < n; t++)
        for (let j = 0; j < h; j++) {
          cos64[t * h + j] = Math.cos(positions[t] * inv[j]);
          sin64[t * h + j] = Math.sin(positions[t] * inv[j]);
        }
      // Timed runs rotate x again and again (a rotation keeps it bounded); the
      // check starts from x0.
      const check = (run) => () => {
        x.set(x0);
        run();
        return rotationError(x, x0, positions, heads, headDim, inv);
      };
      const viaSimd = () => simd.applyRope(x, positions, headDim);
      const viaBaseline = () => baseline.applyRope(x, positions, headDim);
      const viaJs = () => idiomaticApplyRope(x, n, heads, headDim, cos64, sin64);
      const methods = [
        ['simd', 'sinpe SIMD: applyRope(x, positions, headDim)', viaSimd, check(viaSimd)],
        ['baseline', 'sinpe baseline: applyRope(x, positions, headDim)', viaBaseline, check(viaBaseline)],
      ];
      if (prepared) methods.push(['write-bound', 'write-only bound: x copied from wasm memory', writeBound(simd.prepare(512), 512, per, now, [x])]);
      methods.push(['js-fill', 'JS x.fill(1) (memory bound, no wasm)', () => x.fill(1)], ['js-idiomatic', 'JS idiomatic loop, precomputed float64 cache', viaJs, check(viaJs)]);
      await runCase(caseName, methods);
    }
  }

  // --- M-RoPE (Qwen2-VL sectioned) cos/sin caches, 131072 tokens × 3 axes × rotaryDim 128
  {
    const { n, rotaryDim: r, base, mropeSection } = BENCH.mropeCache;
    const caseName = `M-RoPE cache ${n}×${r}`;
    if (available(caseName, ['ropeCache', 'prepareRope'])) {
      const h = r / 2;
      const positions = new Float64Array(3 * n);
      for (let i = 0; i < n; i++) positions.set([i, i + (i % 7), i + (i % 11)], 3 * i);
      // Pair j's axis: consecutive sections (transformers' apply_multimodal_rotary_pos_emb).
      const axis = new Uint8Array(h);
      for (let j = 0, a = 0, end = mropeSection[0]; j < h; j++) {
        while (j >= end) end += mropeSection[++a];
        axis[j] = a;
      }
      const inv = ropeInv(r, base);
      const cos = new Float32Array(n * h);
      const sin = new Float32Array(n * h);
      const check = (run) => () => {
        cos.fill(NaN);
        sin.fill(NaN);
        run();
        const m = new ErrorTracker();
        for (let i = 0; i < n; i++)
          for (let j = 0; j < h; j++) {
            const a = positions[3 * i + axis[j]] * inv[j];
            m.addDifference(cos[i * h + j], Math.cos(a), i * h + j);
            m.addDifference(sin[i * h + j], Math.sin(a), i * h + j);
          }
        return m.worst;
      };
      const options = { base, mropeSection, out: { cos, sin } };
      const rope = simd.prepareRope(r, { base, mropeSection });
      const viaSimd = () => simd.ropeCache(positions, r, options);
      const viaPrepared = () => rope.cache(positions, { cos, sin });
      const viaBaseline = () => baseline.ropeCache(positions, r, options);
      const viaJs = () => {
        for (let i = 0; i < n; i++)
          for (let j = 0; j < h; j++) {
            const a = positions[3 * i + axis[j]] * inv[j];
            cos[i * h + j] = Math.cos(a);
            sin[i * h + j] = Math.sin(a);
          }
      };
      const methods = [
        ['simd', 'sinpe SIMD: ropeCache(positions, r, {mropeSection, out})', viaSimd, check(viaSimd)],
        ['simd-prepared', 'sinpe SIMD: prepareRope(r, {mropeSection}).cache(positions, out)', viaPrepared, check(viaPrepared)],
        ['baseline', 'sinpe baseline: ropeCache(positions, r, {mropeSection, out})', viaBaseline, check(viaBaseline)],
      ];
      methods.push(
        ...cacheBounds(cos, sin),
        ['js-idiomatic', 'JS idiomatic float64 loop, pair → axis table', viaJs, check(viaJs)],
      );
      await runCase(caseName, methods);
    }
  }

  // --- half-precision output against float32: table 4096 × 512
  {
    const { n, d } = BENCH.halfTable;
    const caseName = `half table ${n}×${d}`;
    log(`${caseName}: float64 reference`);
    const ref = referenceRows(0, n, d);
    const inv = idiomaticFreqs(d);
    const angleOf = (i) => Math.floor(i / d) * inv[(i % d) >> 1];
    const out = new Float32Array(n * d);
    const out16 = new Uint16Array(n * d);
    const check32 = (run) => () => {
      out.fill(NaN);
      run();
      return maxAbsError(out, ref);
    };
    const checkHalf = (dtype, run) => () => {
      out16.fill(0x7e00);
      run();
      return halfMismatches(out16, ref, dtype, angleOf);
    };
    const f32 = () => simd.table(n, d, { out });
    const f16 = () => simd.table(n, d, { dtype: 'float16', out: out16 });
    const bf16 = () => simd.table(n, d, { dtype: 'bfloat16', out: out16 });
    const f32b = () => baseline.table(n, d, { out });
    const f16b = () => baseline.table(n, d, { dtype: 'float16', out: out16 });
    const bf16b = () => baseline.table(n, d, { dtype: 'bfloat16', out: out16 });
    await runCase(caseName, [
      ['simd', 'sinpe SIMD: table(n, d, {out}) float32', f32, check32(f32)],
      ['simd-float16', "sinpe SIMD: table(n, d, {dtype: 'float16', out})", f16, checkHalf('float16', f16)],
      ['simd-bfloat16', "sinpe SIMD: table(n, d, {dtype: 'bfloat16', out})", bf16, checkHalf('bfloat16', bf16)],
      ['baseline', 'sinpe baseline: table(n, d, {out}) float32', f32b, check32(f32b)],
      ['baseline-float16', "sinpe baseline: table(n, d, {dtype: 'float16', out})", f16b, checkHalf('float16', f16b)],
      ['baseline-bfloat16', "sinpe baseline: table(n, d, {dtype: 'bfloat16', out})", bf16b, checkHalf('bfloat16', bf16b)],
      ['js-fill', 'JS out16.fill(1) (memory bound, no wasm)', () => out16.fill(1)],
    ]);
  }

  // --- half-precision output against float32: ropeCacheRows 131072 × 128
  {
    const { n, rotaryDim: r, base } = BENCH.halfRopeCache;
    const caseName = `half ropeCacheRows ${n}×${r}`;
    if (available(caseName, ['ropeCacheRows'])) {
      const h = r / 2;
      const inv = ropeInv(r, base);
      const refCos = new Float64Array(n * h);
      const refSin = new Float64Array(n * h);
      for (let p = 0; p < n; p++)
        for (let j = 0; j < h; j++) {
          refCos[p * h + j] = Math.cos(p * inv[j]);
          refSin[p * h + j] = Math.sin(p * inv[j]);
        }
      const angleOf = (i) => Math.floor(i / h) * inv[i % h];
      const cos = new Float32Array(n * h);
      const sin = new Float32Array(n * h);
      const cos16 = new Uint16Array(n * h);
      const sin16 = new Uint16Array(n * h);
      const check32 = (run) => () => {
        cos.fill(NaN);
        sin.fill(NaN);
        run();
        return Math.max(maxAbsError(cos, refCos), maxAbsError(sin, refSin));
      };
      const checkHalf = (dtype, run) => () => {
        cos16.fill(0x7e00);
        sin16.fill(0x7e00);
        run();
        return halfMismatches(cos16, refCos, dtype, angleOf) + halfMismatches(sin16, refSin, dtype, angleOf);
      };
      const f32 = () => simd.ropeCacheRows(0, n, r, { out: { cos, sin } });
      const f16 = () => simd.ropeCacheRows(0, n, r, { dtype: 'float16', out: { cos: cos16, sin: sin16 } });
      const bf16 = () => simd.ropeCacheRows(0, n, r, { dtype: 'bfloat16', out: { cos: cos16, sin: sin16 } });
      const f32b = () => baseline.ropeCacheRows(0, n, r, { out: { cos, sin } });
      const f16b = () => baseline.ropeCacheRows(0, n, r, { dtype: 'float16', out: { cos: cos16, sin: sin16 } });
      const bf16b = () => baseline.ropeCacheRows(0, n, r, { dtype: 'bfloat16', out: { cos: cos16, sin: sin16 } });
      await runCase(caseName, [
        ['simd', 'sinpe SIMD: ropeCacheRows(0, n, r, {out}) float32', f32, check32(f32)],
        ['simd-float16', "sinpe SIMD: ropeCacheRows(0, n, r, {dtype: 'float16', out})", f16, checkHalf('float16', f16)],
        ['simd-bfloat16', "sinpe SIMD: ropeCacheRows(0, n, r, {dtype: 'bfloat16', out})", bf16, checkHalf('bfloat16', bf16)],
        ['baseline', 'sinpe baseline: ropeCacheRows(0, n, r, {out}) float32', f32b, check32(f32b)],
        ['baseline-float16', "sinpe baseline: ropeCacheRows(0, n, r, {dtype: 'float16', out})", f16b, checkHalf('float16', f16b)],
        ['baseline-bfloat16', "sinpe baseline: ropeCacheRows(0, n, r, {dtype: 'bfloat16', out})", bf16b, checkHalf('bfloat16', bf16b)],
        [
          'js-fill',
          'JS cos16.fill(1), sin16.fill(1) (memory bound, no wasm)',
          () => {
            cos16.fill(1);
            sin16.fill(1);
          },
        ],
      ]);
    }
  }

  const meta = {
    version: simd.version,
    quick,
    effort,
    timer: 'performance.now()',
    chunkRows: per,
    positions: 'row case: seeded (mulberry32 0x5eed) integers in [0, 2^24), incl. 0 and 2^24 − 1',
  };
  return { rows, skipped, meta };
}
