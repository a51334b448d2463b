// This build against an older one (first made for float32 output rounded once
// against the kernel before it; float16/bfloat16 caches and tables too): both builds of the
// package loaded in this one process (the old one a copy of js/ and dist/ made
// before the change: the bench-only reference), both flavours of each, their
// calls taking turns round by round in a new random order, so load from
// elsewhere on the shared machine hits them alike. Prints the median CPU and
// wall time of each call and new ÷ old of the same flavour.
//
//   node tests/bench/f32_compare.mjs OLD_PACKAGE_DIR [ROUNDS]
// OLD_PACKAGE_DIR holds js/ and dist/ of the old build (e.g. build/f32-old).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuUsage } from 'node:process';
import sinpeNew from '../../js/sinpe.js';
import { mulberry32 } from '../js/fixtures/random.mjs';

const oldDir = process.argv[2];
if (!oldDir) {
  console.error('usage: node tests/bench/f32_compare.mjs OLD_PACKAGE_DIR [ROUNDS]');
  process.exit(2);
}
const rounds = Number(process.argv[3] ?? 15);
const sinpeOld = (await import(pathToFileURL(resolve(oldDir, 'js/sinpe.js')).href)).default;
const builds = {
  'new simd': await sinpeNew({ simd: true }),
  'new baseline': await sinpeNew({ simd: false }),
  'old simd': await sinpeOld({ simd: true }),
  'old baseline': await sinpeOld({ simd: false }),
};

const out = new Float32Array(4096 * 512);
const n = 131072;
const cos = new Float32Array(n * 64);
const sin = new Float32Array(n * 64);
const mrope = new Float64Array(3 * n);
for (let i = 0; i < n; i++) {
  mrope[3 * i] = i;
  mrope[3 * i + 1] = i + (i % 7);
  mrope[3 * i + 2] = i + (i % 11);
}
const x = new Float32Array(2048 * 32 * 128);
const xPositions = Float64Array.from({ length: 2048 }, (_, i) => i);
const rowPositions = Float64Array.from({ length: 1000 }, () => Math.floor(Math.random() * 2 ** 24));
const row = new Float32Array(512);
const out16 = new Uint16Array(4096 * 512);
const cos16 = new Uint16Array(n * 64);
const sin16 = new Uint16Array(n * 64);
const cases = {
  'table(4096, 512)': (pe) => pe.table(4096, 512, { out }),
  "table(4096, 512, { dtype: 'float16' })": (pe) => pe.table(4096, 512, { out: out16, dtype: 'float16' }),
  'ropeCacheRows(0, 131072, 128)': (pe) => pe.ropeCacheRows(0, n, 128, { out: { cos, sin } }),
  "ropeCacheRows(0, 131072, 128, { dtype: 'float16' })": (pe) => pe.ropeCacheRows(0, n, 128, { out: { cos: cos16, sin: sin16 }, dtype: 'float16' }),
  "ropeCacheRows(0, 131072, 128, { dtype: 'bfloat16' })": (pe) => pe.ropeCacheRows(0, n, 128, { out: { cos: cos16, sin: sin16 }, dtype: 'bfloat16' }),
  'M-RoPE ropeCache 131072 × 128 [16,24,24]': (pe) =>
    pe.ropeCache(mrope, 128, { base: 1e6, mropeSection: [16, 24, 24], out: { cos, sin } }),
  'applyRope 2048 × 32 × 128': (pe) => pe.applyRope(x, xPositions, 128),
  'rows(p, 1, 512) × 1000 random p': (pe) => {
    for (const p of rowPositions) pe.rows(p, 1, 512, { out: row });
  },
};

const median = (a) => {
  const s = [...a].sort((p, q) => p - q);
  return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const next = mulberry32(0xf32);
console.log(`| case | build | CPU ms | wall ms | new ÷ old (CPU) | new ÷ old (wall) |`);
console.log('|---|---|---:|---:|---:|---:|');
for (const [name, call] of Object.entries(cases)) {
  const names = Object.keys(builds);
  for (const b of names) for (let i = 0; i < 3; i++) call(builds[b]); // warm-up
  const cpu = Object.fromEntries(names.map((b) => [b, []]));
  const wall = Object.fromEntries(names.map((b) => [b, []]));
  for (let r = 0; r < rounds; r++) {
    const order = [...names];
    for (let k = order.length - 1; k > 0; k--) {
      const m = Math.floor(next() * (k + 1));
      [order[k], order[m]] = [order[m], order[k]];
    }
    for (const b of order) {
      call(builds[b]); // warm the caches
      const c0 = cpuUsage();
      const t0 = performance.now();
      call(builds[b]);
      wall[b].push(performance.now() - t0);
      const c = cpuUsage(c0);
      cpu[b].push((c.user + c.system) / 1000);
    }
  }
  for (const b of names) {
    const flavour = b.split(' ')[1];
    const ratio = (m) => (b.startsWith('new') ? (median(m[b]) / median(m[`old ${flavour}`])).toFixed(2) : '');
    console.log(`| ${name} | ${b} | ${median(cpu[b]).toFixed(3)} | ${median(wall[b]).toFixed(3)} | ${ratio(cpu)} | ${ratio(wall)} |`);
  }
}
