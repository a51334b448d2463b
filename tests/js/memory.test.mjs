// Memory: after 1,000,000 mixed calls (rows, encode, addTo, heatmap, plus
// grid2d/frequencies/failed calls) the wasm heap has not grown beyond its
// high-water mark after the first thousand, and the JS heap (where Embind keeps
// its value handles) has not grown either. Requests too large for the 2 GiB
// limit fail with a RangeError before anything is allocated.
//
// Needs node --expose-gc (tests/js/run.sh passes it). SINPE_MEMORY_CALLS sets
// the number of calls on the SIMD flavour (the baseline flavour makes a tenth).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import sinpe from 'sinpe.wasm';
import { loadWithMemory } from './wasm-memory.mjs';
import { referenceRow, TOLERANCE } from './reference.mjs';

const CALLS = Number(process.env.SINPE_MEMORY_CALLS ?? 1_000_000);
const SUMMARY = process.env.SINPE_SUMMARY;

const PRESETS = ['vaswani', 'keras', 'tensor2tensor', 'fairseq', 'whisper', 'diffusers', 'guided-diffusion', 'mae'];
const WIDTHS = [16, 24, 32, 48, 64];
// The JS heap in use once full collections stop freeing anything: one or two
// gc() calls can leave garbage that V8 frees only on a later one (weak
// references, finalizers, lazily swept pages), so collect until the figure
// stops falling and take the least seen.
const heapAfterGc = () => {
  let least = Infinity;
  for (let round = 0; round < 10; round++) {
    global.gc();
    const used = process.memoryUsage().heapUsed;
    if (used >= least) break;
    least = used;
  }
  return least;
};

function check(got, positions, d, o, what) {
  positions.forEach((p, i) => {
    const want = referenceRow(p, d, o);
    for (let c = 0; c < d; c++)
      assert.ok(Math.abs(got[i * d + c] - want[c]) <= TOLERANCE, `${what}: p=${p} c=${c}: ${got[i * d + c]} vs ${want[c]}`);
  });
}

const lines = [];
for (const simd of [true, false]) test(`${simd ? 'simd' : 'baseline'} flavour: no heap growth over many calls, oversize requests refused before allocating`, async () => {
  assert.equal(typeof global.gc, 'function', 'run with node --expose-gc');
  const { module: pe, heapBytes } = await loadWithMemory(() => sinpe({ simd }));
  const flavour = simd ? 'simd' : 'baseline';
  const calls = simd ? CALLS : Math.round(CALLS / 10); // the baseline flavour shares the bindings: a shorter run
  // Reused outputs, as a render loop would; fresh arrays every 16th call.
  const outs = new Map(WIDTHS.map((d) => [d, new Float32Array(4 * d)]));
  const xs = new Map(WIDTHS.map((d) => [d, new Float32Array(2 * 3 * d)]));
  const px = new Uint8ClampedArray(3 * 8 * 4);
  const positions = new Float64Array([3.5, 7, 8, 9, 1000.25]);
  let errors = 0;
  let firstThousand = 0;
  let peakAfterThousand = 0;
  let jsAfterThousand = 0;
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) {
    const preset = PRESETS[i % PRESETS.length];
    const d = WIDTHS[(i >> 3) % WIDTHS.length];
    const fresh = i % 16 === 0;
    switch (i % 7) {
      case 0:
        pe.rows(i % 100000, 4, d, fresh ? { preset } : { preset, out: outs.get(d) });
        break;
      case 1:
        pe.encode(positions.subarray(0, 4), d, fresh ? { preset } : { preset, out: outs.get(d) });
        break;
      case 2:
        pe.addTo(xs.get(d).fill(0), d, { preset, start: i % 5000, seqLen: 3 });
        break;
      case 3:
        pe.heatmap(i % 5000, 3, d, fresh ? { preset, columnStart: 4, columns: 8 } : { preset, columnStart: 4, columns: 8, out: px });
        break;
      case 4:
        if (i % 5 === 0) pe.grid2d(2, 2, d, { preset: 'mae', clsToken: true });
        else pe.rows(-(i % 1000), 2, d, { preset });
        break;
      case 5:
        if (i % 3 === 0) pe.frequencies(d, { preset });
        else pe.encode([i % 77, 0.5], d, { preset, layout: 'concat' });
        break;
      default:
        // a failing call: the error path must not leak either
        try {
          pe.encode([1, i % 2 ? NaN : 2 ** 24], d, { preset });
        } catch (e) {
          if (!(e instanceof RangeError)) throw e;
          errors++;
        }
    }
    if (i === Math.min(1000, calls) - 1) { // after the first thousand calls (or all of a shorter run)
      firstThousand = heapBytes();
      jsAfterThousand = heapAfterGc();
    }
    if (i >= 1000 && i % 1000 === 0) peakAfterThousand = Math.max(peakAfterThousand, heapBytes());
  }
  const ms = performance.now() - t0;
  const after = heapBytes();
  const jsAfter = heapAfterGc();
  // Still correct after the long run.
  check(pe.rows(12345, 3, 64, { preset: 'fairseq' }), [12345, 12346, 12347], 64, { preset: 'fairseq' }, `${flavour} after the run`);
  assert.ok(errors > 0);
  assert.ok(after <= firstThousand && peakAfterThousand <= firstThousand,
    `${flavour}: wasm heap grew from ${firstThousand} to ${Math.max(after, peakAfterThousand)} bytes`);
  const jsGrowth = jsAfter - jsAfterThousand;
  // A leak of one Embind handle or one small object per call costs at least 16
  // bytes a call: 16 MB over the SIMD run, 1.6 MB over the baseline one. The
  // bound, 4 bytes a call but at least 1 MiB, is above what a settled heap
  // moves by between two measurements without a leak (under 300 KiB in these
  // runs: V8 keeps some compiled code and feedback) and below any such leak.
  const jsBound = Math.max(1024 * 1024, 4 * calls);
  assert.ok(jsGrowth < jsBound, `${flavour}: JS heap grew by ${jsGrowth} bytes over ${calls} calls, bound ${jsBound} (Embind handle leak?)`);
  const line = `${flavour}: ${calls.toLocaleString('en-US')} mixed calls (${errors} failing) in ${(ms / 1000).toFixed(1)} s ` +
    `(${((ms * 1000) / calls).toFixed(1)} µs/call); wasm heap ${firstThousand} bytes after 1,000 calls, ${after} after all ` +
    `(growth ${after - firstThousand}); JS heap ${jsGrowth >= 0 ? '+' : ''}${(jsGrowth / 1024).toFixed(0)} KiB`;
  console.log(line);
  lines.push({ flavour, calls, firstThousand, after });

  // Large requests: the heap does not grow with request size (chunked copies)...
  const big = pe.rows(0, 20000, 512); // 40 MB, JS-owned
  assert.equal(big.length, 20000 * 512);
  check(big.subarray(19999 * 512), [19999], 512, {}, `${flavour} big rows`);
  assert.equal(heapBytes(), after, `${flavour}: a 40 MB result grew the wasm heap`);
  // ...and requests over 2^29 values fail before any allocation.
  const rss0 = process.memoryUsage().rss;
  for (const [what, call] of [
    ['rows(0, 2^24, 65536)', () => pe.rows(0, 2 ** 24, 65536)],
    ['table(2^20, 1024)', () => pe.table(2 ** 20, 1024)],
    ['rows(0, 2^19 + 1, 1024)', () => pe.rows(0, 2 ** 19 + 1, 1024)],
    ['encode(8193 positions, 65536)', () => pe.encode(new Float64Array(8193), 65536)],
    ['grid2d(2^14, 2^14, 4096)', () => pe.grid2d(2 ** 14, 2 ** 14, 4096)],
    ['heatmap(0, 2^24, 65536)', () => pe.heatmap(0, 2 ** 24, 65536)],
  ]) {
    assert.throws(call, (e) => e instanceof RangeError && /2 GiB/.test(e.message), what);
  }
  assert.equal(heapBytes(), after, `${flavour}: refused requests grew the wasm heap`);
  assert.ok(process.memoryUsage().rss - rss0 < 64 * 1024 * 1024, `${flavour}: refused requests allocated memory`);
});

after(() => {
  const s = lines.find((l) => l.flavour === 'simd');
  if (SUMMARY && s)
    appendFileSync(SUMMARY, `memory: wasm heap ${s.firstThousand} bytes after 1,000 calls -> ${s.after} after ${s.calls.toLocaleString('en-US')} (growth ${s.after - s.firstThousand}); oversize requests refused before allocation\n`);
});
