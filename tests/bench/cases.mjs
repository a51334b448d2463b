// The body of `npm run bench`, shared by the Node runner (tests/bench/node.mjs)
// and the Chromium page (tests/bench/page.html): no Node-only imports here.
//
// runBench({ simd, baseline, now, log }) times every case with both loaded
// flavours of the package and the plain-JS alternatives, checks every value of
// every method against an independent float64 reference, and returns
// { rows, meta }: one row per (case, method) with the median time and the max
// abs error. It asserts nothing: pass/fail lines are computed by run.mjs.

export const BENCH = Object.freeze({
  tableA: { n: 4096, d: 512 },
  tableB: { n: 65536, d: 64 },
  rows: { count: 1000, d: 512, seed: 0x5eed, diagnosticMax: 2 ** 19 },
  heatmap: { n: 2048, d: 512, starts: [0, 16000000] },
  minReps: 21, // the median is taken over at least this many timed runs (>= 15)
  maxReps: 101,
  budgetMs: 2500, // fast cases get more rounds, up to about this much time per case
});

export const MAX_POSITION = 2 ** 24;
const LN_BASE = Math.log(10000);

// ---------------------------------------------------------------- timing

function median(sorted) {
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) >> 1] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

// Times the methods of one case together: each is warmed up (JIT tiers, wasm
// tier-up, caches), then they take turns, one turn each per round (the
// order rotating), so load from elsewhere on a shared machine hits all of them
// alike. A fast method (< 5 ms) runs once untimed right before its timed run,
// so it is measured warm rather than after another method evicted its data.
// Returns per method the median over all its timed runs (>= minReps).
function measureGroup(now, fns) {
  const est = fns.map((fn) => {
    const t0 = now();
    let calls = 0;
    let last = 0;
    while (calls < 5 || (now() - t0 < 100 && calls < 500)) {
      const a = now();
      fn();
      last = now() - a;
      calls++;
    }
    return last;
  });
  // Sub-millisecond methods take up to 5 timed runs per turn (more samples, same turns).
  const runs = est.map((t) => Math.max(1, Math.min(5, Math.floor(1 / Math.max(t, 1e-3)))));
  const perRound = est.reduce((s, t, m) => s + t * (runs[m] + (t < 5 ? 1 : 0)), 0);
  const reps = Math.max(BENCH.minReps, Math.min(BENCH.maxReps, Math.ceil(BENCH.budgetMs / Math.max(perRound, 1e-3))));
  const times = fns.map((_, m) => new Float64Array(reps * runs[m]));
  for (let i = 0; i < reps; i++)
    for (let j = 0; j < fns.length; j++) {
      const m = (i + j) % fns.length;
      if (est[m] < 5) fns[m]();
      for (let k = 0; k < runs[m]; k++) {
        const a = now();
        fns[m]();
        times[m][i * runs[m] + k] = now() - a;
      }
    }
  return times.map((t) => {
    t.sort();
    return { ms: median(t), min: t[0], max: t[t.length - 1], reps: t.length };
  });
}

// ---------------------------------------------------------------- reference

// The float64 formula itself, written independently of every method below:
// PE(pos, 2k) = sin(pos * 10000^(-2k/d)), PE(pos, 2k+1) = cos(...). Its own
// error is 0 by definition.
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

function maxAbsError(values, ref) {
  if (values.length !== ref.length) throw new Error(`length ${values.length} != reference ${ref.length}`);
  let m = 0;
  for (let i = 0; i < ref.length; i++) {
    const e = Math.abs(values[i] - ref[i]);
    if (!(e <= m)) m = e; // NaN propagates as a failure
  }
  return m;
}

// ---------------------------------------------------------------- plain-JS methods

// Idiomatic JS: frequencies precomputed once in float64, Math.sin/Math.cos per value.
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

// float32 angles (PyTorch-style float32 arange * float32 div_term), sin/cos of that.
function float32Freqs(d) {
  const h = d >> 1;
  const inv = new Float32Array(h);
  for (let k = 0; k < h; k++) inv[k] = Math.exp((-2 * k * LN_BASE) / d);
  return inv;
}

function float32AngleRows(start, n, d, inv32, out, off) {
  const h = d >> 1;
  for (let r = 0; r < n; r++) {
    const pos = Math.fround(start + r);
    const o = off + r * d;
    for (let k = 0; k < h; k++) {
      const angle = Math.fround(pos * inv32[k]);
      out[o + 2 * k] = Math.sin(angle);
      out[o + 2 * k + 1] = Math.cos(angle);
    }
  }
}

// Seed-style, as in the notebooks: pos / 10000^(2i/d) with Math.pow per value.
function seedRows(start, n, d, out, off) {
  const h = d >> 1;
  for (let r = 0; r < n; r++) {
    const pos = start + r;
    const o = off + r * d;
    for (let i = 0; i < h; i++) {
      out[o + 2 * i] = Math.sin(pos / Math.pow(10000, (2 * i) / d));
      out[o + 2 * i + 1] = Math.cos(pos / Math.pow(10000, (2 * i) / d));
    }
  }
}

// Heatmap in plain JS: idiomatic values, then the same colour mapping.
function idiomaticHeatmap(start, n, d, inv, lut32, vmin, vmax, px32) {
  const h = d >> 1;
  const scale = 255 / (vmax - vmin);
  for (let r = 0; r < n; r++) {
    const pos = start + r;
    const o = r * d;
    for (let k = 0; k < h; k++) {
      const angle = pos * inv[k];
      let t = (Math.sin(angle) - vmin) * scale + 0.5;
      px32[o + 2 * k] = lut32[t <= 0 ? 0 : t >= 255 ? 255 : t | 0];
      t = (Math.cos(angle) - vmin) * scale + 0.5;
      px32[o + 2 * k + 1] = lut32[t <= 0 ? 0 : t >= 255 ? 255 : t | 0];
    }
  }
}

// ---------------------------------------------------------------- helpers

// A deterministic PRNG (mulberry32) so both runners use the same positions.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

function referenceIndexError(px, start, n, d, vmin, vmax) {
  const ref = referenceRows(start, n, d);
  let m = 0;
  for (let i = 0; i < ref.length; i++) {
    const t = Math.floor((ref[i] - vmin) * (255 / (vmax - vmin)) + 0.5);
    const idx = t < 0 ? 0 : t > 255 ? 255 : t;
    const e = Math.abs(px[4 * i] - idx);
    if (e > m) m = e;
  }
  return m;
}

// ---------------------------------------------------------------- the run

export async function runBench({ simd, baseline, now, log = () => {} }) {
  if (!simd?.simd) throw new Error('runBench: `simd` must be an encoder loaded with {simd: true}');
  if (!baseline || baseline.simd) throw new Error('runBench: `baseline` must be an encoder loaded with {simd: false}');
  const internals = Symbol.for('sinpe.benchmark');
  const rows = [];
  const yieldToLoop = () => new Promise((r) => setTimeout(r, 0));

  const add = (caseName, key, method, timing, err, note) => {
    const row = { case: caseName, key, method, ...timing, err, note };
    rows.push(row);
    const e = typeof err === 'number' ? err.toExponential(2) : err;
    log(`  ${caseName.padEnd(26)} ${method.padEnd(44)} ${timing.ms.toFixed(4).padStart(10)} ms  (n=${timing.reps})  err ${e}`);
  };

  // --- full tables: rows 0 ... n-1
  for (const [caseName, { n, d }] of [
    [`table ${BENCH.tableA.n}×${BENCH.tableA.d}`, BENCH.tableA],
    [`table ${BENCH.tableB.n}×${BENCH.tableB.d}`, BENCH.tableB],
  ]) {
    log(`${caseName}: float64 reference`);
    const ref = referenceRows(0, n, d);
    const out = new Float32Array(n * d);
    const check = (fill) => {
      out.fill(NaN);
      fill();
      return maxAbsError(out, ref);
    };
    const methods = [
      ['simd', 'sinpe SIMD: table(n, d, {out})', () => simd.table(n, d, { out }), () => simd.table(n, d, { out })],
      ['simd-alloc', 'sinpe SIMD: table(n, d) (allocates)', () => simd.table(n, d), () => out.set(simd.table(n, d))],
      ['baseline', 'sinpe baseline: table(n, d, {out})', () => baseline.table(n, d, { out }), () => baseline.table(n, d, { out })],
      ['baseline-alloc', 'sinpe baseline: table(n, d) (allocates)', () => baseline.table(n, d), () => out.set(baseline.table(n, d))],
      ['write-bound', 'write-only bound (wasm fill, same copy path)', () => simd[internals].fill(n, d, out), null],
      ['js-fill', 'JS out.fill(1) (memory bound, no wasm)', () => out.fill(1), null],
      ['js-idiomatic', 'JS idiomatic float64 loop', () => idiomaticRows(0, n, d, idiomaticFreqs(d), out, 0), null],
      ['js-float32', 'JS float32 angle (PyTorch-style)', () => float32AngleRows(0, n, d, float32Freqs(d), out, 0), null],
      ['js-seed', 'JS seed-style (Math.pow per value)', () => seedRows(0, n, d, out, 0), null],
    ];
    // The allocating variants take turns among themselves: their garbage (8-16 MiB a
    // call) would otherwise bring GC work into the other methods' timings.
    const timings = [];
    for (const alloc of [false, true]) {
      const group = methods.map((m, i) => i).filter((i) => methods[i][0].endsWith('-alloc') === alloc);
      await yieldToLoop();
      measureGroup(now, group.map((i) => methods[i][2])).forEach((t, j) => (timings[group[j]] = t));
    }
    methods.forEach(([key, method, run, verify], i) => {
      let err = null;
      if (key.startsWith('js-') && key !== 'js-fill') err = check(run);
      else if (verify) err = check(verify);
      add(caseName, key, method, timings[i], err);
    });
  }

  // --- single rows at random positions, one call per row. The diagnostic
  // case keeps every angle below 2^19·π/2 ≈ 823550, where float64 sin/cos need no
  // expensive range reduction (xsimd and V8 alike), to show what that costs.
  for (const [caseName, max, diagnostic] of [
    [`row d=${BENCH.rows.d}, random pos`, MAX_POSITION, false],
    [`row d=${BENCH.rows.d}, random pos < 2^19 (diagnostic)`, BENCH.rows.diagnosticMax, true],
  ]) {
    const { count, d, seed } = BENCH.rows;
    const ps = randomPositions(count, seed, max);
    log(`${caseName}: float64 reference`);
    const ref = referenceAt(ps, d);
    const row = new Float32Array(d);
    const all = new Float32Array(count * d);
    const inv = idiomaticFreqs(d);
    const inv32 = float32Freqs(d);
    const perRow = (t) => ({ ms: t.ms / count, min: t.min / count, max: t.max / count, reps: t.reps });
    const methods = [
      ['simd', 'sinpe SIMD: rows(p, 1, d, {out})', (p) => simd.rows(p, 1, d, { out: row })],
      ['simd-encode', 'sinpe SIMD: encode([p], d)', (p) => simd.encode([p], d)],
      ['baseline', 'sinpe baseline: rows(p, 1, d, {out})', (p) => baseline.rows(p, 1, d, { out: row })],
      ['baseline-encode', 'sinpe baseline: encode([p], d)', (p) => baseline.encode([p], d)],
      ['write-bound', 'write-only bound (wasm fill of 1 row)', () => simd[internals].fill(1, d, row)],
      ['js-idiomatic', 'JS idiomatic float64 loop', (p) => idiomaticRows(p, 1, d, inv, row, 0)],
      ['js-float32', 'JS float32 angle (PyTorch-style)', (p) => float32AngleRows(p, 1, d, inv32, row, 0)],
      ['js-seed', 'JS seed-style (Math.pow per value)', (p) => seedRows(p, 1, d, row, 0)],
    ].filter(([key]) => !diagnostic || ['simd', 'simd-encode', 'baseline', 'write-bound', 'js-idiomatic'].includes(key));
    await yieldToLoop();
    const timings = measureGroup(
      now,
      methods.map(([, , one]) => () => {
        for (let i = 0; i < count; i++) one(ps[i]);
      }),
    );
    methods.forEach(([key, method, one], m) => {
      const timing = timings[m];
      let err = null;
      if (key !== 'write-bound') {
        all.fill(NaN);
        for (let i = 0; i < count; i++) {
          const r = one(ps[i]);
          all.set(r instanceof Float32Array ? r : row, i * d);
        }
        err = maxAbsError(all, ref);
      }
      add(caseName, key, method, perRow(timing), err, 'ms per row (total of 1000 calls / 1000)');
    });
  }

  // --- fused heatmap: 2048 rows × 512 columns of RGBA through a LUT
  {
    const { n, d, starts } = BENCH.heatmap;
    const lut = makeLut();
    const lut32 = new Uint32Array(lut.buffer);
    const px = new Uint8ClampedArray(n * d * 4);
    const px32 = new Uint32Array(px.buffer);
    const inv = idiomaticFreqs(d);
    for (const start of starts) {
      const caseName = `heatmap ${n}×${d} @${start}`;
      const methods = [
        ['simd', 'sinpe SIMD: heatmap(…, {colormap, out})', () => simd.heatmap(start, n, d, { colormap: lut, out: px })],
        ['baseline', 'sinpe baseline: heatmap(…, {colormap, out})', () => baseline.heatmap(start, n, d, { colormap: lut, out: px })],
        ['js-idiomatic', 'JS idiomatic loop + colour map', () => idiomaticHeatmap(start, n, d, inv, lut32, -1, 1, px32)],
      ];
      await yieldToLoop();
      const timings = measureGroup(now, methods.map((m) => m[2]));
      methods.forEach(([key, method, run], i) => {
        px.fill(0);
        run();
        const e = referenceIndexError(px, start, n, d, -1, 1);
        add(caseName, key, method, timings[i], `Δidx ${e}`, 'error: max |colour index − float64 index| (1 = a value at a bin edge)');
      });
    }
  }

  const meta = {
    version: simd.version,
    timer: 'performance.now()',
    minReps: BENCH.minReps,
    positions: 'seeded (mulberry32 0x5eed) integers in [0, 2^24), incl. 0 and 2^24 − 1',
  };
  return { rows, meta };
}
