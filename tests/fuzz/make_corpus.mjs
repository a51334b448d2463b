// Writes the seed corpus of tests/fuzz/fuzz_core.cpp (one file per typical
// call: every entry point x preset and rope type, ordinary widths and
// positions, and a few hostile ones). The fuzzer mutates from these. Presets,
// rope types and the options each reads come from the generated vocabulary
// (dist/sinpe-vocabulary.js: run scripts/build.sh first).
// Run: node tests/fuzz/make_corpus.mjs
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import vocabulary from '../../dist/sinpe-vocabulary.js';

const dir = new URL('./corpus/', import.meta.url);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const u8 = (v) => [v & 255];
const u16 = (v) => [v & 255, (v >> 8) & 255];
const u32 = (v) => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255, (v >>> 24) & 255];
const f64 = (v) => [...new Uint8Array(new Float64Array([v]).buffer)];
// Option kinds (fuzz_core.cpp option_value): 0 unset, 6 = 10000, 7 = 1, 8 = 0, 10 = inf, 15 = raw f64.
const opt = (v) => (v === undefined ? u8(0) : v === 10000 ? u8(6) : v === 1 ? u8(7) : [15, ...f64(v)]);
// Width kinds: 0 -> raw % 65, 4 -> raw % 1025, 7 -> raw.
const width = (d) => (d <= 64 ? [0, ...u32(d)] : d <= 1024 ? [4, ...u32(d)] : [7, ...u32(d)]);
// Position kinds: 1 -> u16, 2 -> -u16, 3 -> 2^24-1-u8, 9 -> u32 % 1000 / 8, 11 -> raw f64.
const pos = (p) => (Number.isInteger(p) && p >= 0 && p < 65536 ? [1, ...u16(p)] : Number.isInteger(p) && p < 0 && p > -65536 ? [2, ...u16(-p)] : [11, ...f64(p)]);
const head = (op, preset, layout, o = {}, d = 16) => [
  ...u8(op), ...u8(preset + 1), ...u8(layout + 2),
  ...opt(o.base), ...opt(o.minTimescale), ...opt(o.maxTimescale), ...opt(o.freqShift), ...opt(o.scale), ...opt(o.maxPeriod), ...opt(o.paddingIdx),
  ...width(d),
];

const seeds = [];
const PRESETS = vocabulary.presets.length;
for (let preset = 0; preset < PRESETS; preset++) {
  const d = preset === 3 || preset === 4 ? 16 : [16, 17, 64, 512][preset % 4];
  const dd = [0, 2, 7].includes(preset) && d % 2 ? d + 1 : d; // even where required
  seeds.push(head(0, preset, -1, {}, dd).concat(pos(0), [0, ...u32(67)]));
  seeds.push(head(0, preset, -1, {}, dd).concat(pos(16777215 - 66), [0, ...u32(66)]));
  seeds.push(head(1, preset, -1, {}, dd).concat(pos(1000), [0, ...u32(9)]));
  seeds.push(head(2, preset, -1, {}, dd).concat(u8(6), pos(0.5), u8(1), u8(0), pos(999.75), u8(1), u8(0), pos(-3)));
  seeds.push(head(4, preset, -1, {}, 4 * Math.ceil(dd / 4)).concat(u8(3), u8(4), u8(1), u16(0), u16(13)));
  seeds.push(head(5, preset, -1, {}, dd).concat(pos(16000000), u8(40), u16(1 + 2), u16(1 + 5), u8(1)));
}
seeds.push(head(0, 3, -1, { paddingIdx: 1 }, 32).concat(pos(0), [0, ...u32(5)]));
seeds.push(head(1, 3, -1, { paddingIdx: 2 }, 32).concat(pos(0), [0, ...u32(5)]));
seeds.push(head(0, 5, 2, { scale: 1000, freqShift: 0 }, 64).concat(pos(1), [0, ...u32(3)]));
seeds.push(head(0, 2, 1, { minTimescale: 0.5, maxTimescale: 1e4 }, 33).concat(pos(7), [0, ...u32(3)]));
seeds.push(head(0, 0, -1, {}, 65536).concat(pos(5), [0, ...u32(2)]));
seeds.push(head(0, 1, -1, {}, 1).concat(pos(5), [0, ...u32(3)]));
seeds.push(head(2, 0, -1, {}, 8).concat(u8(2), pos(NaN), u8(0), pos(16777216)));
seeds.push(head(5, 0, -1, {}, 8).concat(pos(0), u8(2), u16(1), u16(9), u8(4), f64(-1e300), f64(1e300)));

// RoPE calls: op byte 0x80 + (0 rope_cache of a list, 1 of a range, 2 apply_rope),
// rope type + 1, flags (bit 0: the rotation layout), rotary dimension, one
// slot per option the rope type reads (fuzz_core.cpp rope_value: 0 = unset,
// 15 = raw f64; booleans 6 = false, 22 = true; number lists 6 = rotaryDim/2
// values (b + 1) / 64 from one byte each), then no extra options.
const ropeSlot = (type, name, v, r) => {
  const kind = vocabulary.options.find((o) => o.name === name).type;
  if (v === undefined) return u8(0);
  if (kind === 'boolean') return u8(v ? 22 : 6);
  if (kind === 'numberArray') return [6, ...v.slice(0, r / 2).map((x) => Math.max(0, Math.min(255, Math.round(x * 64 - 1))))];
  return [15, ...f64(v)];
};
const ropeHead = (op, type, layout, r, o = {}) => {
  const index = vocabulary.ropeTypes.findIndex((t) => t.name === type);
  const reads = vocabulary.ropeTypes[index].reads;
  return [0x80 + op, index + 1, layout === 'interleaved' ? 1 : 0, ...width(r), ...reads.flatMap((name) => ropeSlot(type, name, o[name], r)), 0];
};
const ROPE = {
  default: {},
  linear: { factor: 4 },
  dynamic: { factor: 2, maxPositions: 2048, seqLen: 8192 },
  yarn: { factor: 4, originalMaxPositions: 32768, base: 1e6, truncate: false, mscale: 1, mscaleAllDim: 0.8 },
  longrope: {
    shortFactor: Array.from({ length: 64 }, (_, j) => 1 + 0.02 * j),
    longFactor: Array.from({ length: 64 }, (_, j) => 1 + 0.04 * j),
    originalMaxPositions: 4096,
    maxPositions: 131072,
    seqLen: 5000,
  },
  llama3: { base: 500000, factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: 8192 },
};
for (const type of vocabulary.ropeTypes.map((t) => t.name)) {
  const o = ROPE[type] ?? {};
  for (const r of [64, 6]) {
    // rope_cache of a list: a run across a block, a fractional and a far position.
    seeds.push(ropeHead(0, type, 'half', r, o).concat(u8(70), pos(0), Array(69).fill(1), [0], pos(0.5)));
    seeds.push(ropeHead(0, type, 'half', r, o).concat(u8(3), pos(16777215), u8(0), pos(-3), u8(0), pos(1234.25)));
    // rope_cache of a range across a re-anchor.
    seeds.push(ropeHead(1, type, 'half', r, o).concat(pos(1000), [3, ...u32(1100)]));
    // apply_rope: both layouts, 3 heads, partial rotary (headDim r + 10), x = small integers / 256.
    for (const layout of ['half', 'interleaved']) {
      const x = Array.from({ length: 3 * 3 * (r + 10) }, (_, i) => u16(((i * 37) % 512) - 256)).flat();
      seeds.push(ropeHead(2, type, layout, r, o).concat(u8(4), u8(10), u8(2), u8(3), pos(7), u8(1), u8(0), pos(100000.5), u8(20), x));
    }
  }
}
// Hostile RoPE calls: a NaN position, a rotary dimension above headDim, an option the type does not read.
seeds.push(ropeHead(0, 'default', 'half', 16).concat(u8(2), pos(1), u8(0), pos(NaN)));
seeds.push(ropeHead(2, 'default', 'half', 16).concat(u8(5), u8(1), u8(2), u8(2), pos(1), u8(1)));
seeds.push([0x80, 1, 0, ...width(16), u8(0), 1, 8, 0xff, ...f64(2)].concat(u8(1), pos(1)));

// Multi-axis and half-precision calls (op 3): flags bit 7, then the rope-axes
// byte (its vocabulary index + 2); mropeSection as raw f64 values (kind 0x3f:
// a length byte, then the values); then the sub-call byte (bits 0-1: 0
// rope_cache of Positions::axes, 1 apply_rope of Positions::axes, 2 rope_cache
// of Positions::grid, 3 the half-precision caches;
// bits 2+: the dtype index, float32 standing for no dtype) and its fields.
const axesHead = (type, r, axes, sections) => {
  const index = vocabulary.ropeTypes.findIndex((t) => t.name === type);
  const reads = vocabulary.ropeTypes[index].reads;
  const slot = (name) => (name === 'mropeSection' && sections ? [0x3f, sections.length, ...sections.flatMap(f64)] : u8(0));
  return [0x83, index + 1, 0x80, vocabulary.ropeAxes.indexOf(axes) + 2, ...width(r), ...reads.flatMap(slot), 0];
};
const dtypeBits = (name) => vocabulary.dtypes.indexOf(name) << 2;
seeds.push(axesHead('default', 16, 'sectioned', [2, 3, 3]).concat(u8(0), u8(5), u8(0), ...[0, 1, 2, 5, 6, 7, 9, 9, 9, 1000, 1001, 1002, 3, 4, 5].map(pos)));
seeds.push(axesHead('default', 16, 'interleaved', [2, 3, 3]).concat(u8(3 | dtypeBits('float16')), u8(4), u8(1), ...[0, 1, 2, 3].map(pos)));
seeds.push(axesHead('linear', 16, 'interleaved', [4, 2, 2]).concat(u8(3 | dtypeBits('bfloat16')), u8(3), u8(0), ...[0, 0, 0, 7, 8, 9, 0.5, 2, 3].map(pos)));
const x16 = Array.from({ length: 3 * 2 * 16 }, (_, i) => u16(((i * 29) % 512) - 256)).flat();
seeds.push(axesHead('default', 16, 'pixtral').concat(u8(1), u8(0), u8(1), u8(3), u8(0), ...[0, 0, 0, 1, 3, 2].map(pos), x16));
seeds.push(axesHead('default', 16, 'pixtral').concat(u8(2), u8(0), u8(5), u8(0), u8(7), u8(3), u8(20)));
seeds.push(axesHead('default', 16, 'axial', [4, 4]).concat(u8(2 | dtypeBits('bfloat16')), u8(0), u8(6), u8(0), u8(6), u8(0), u8(36)));
seeds.push(axesHead('default', 16, 'sectioned', [4, 4]).concat(u8(2 | dtypeBits('float16')), u8(0), u8(4), u8(0), u8(9), u8(30), u8(6)));

for (const s of seeds) {
  const bytes = Uint8Array.from(s);
  writeFileSync(new URL(createHash('sha1').update(bytes).digest('hex').slice(0, 16), dir), bytes);
}
console.log(`${seeds.length} seeds -> tests/fuzz/corpus/`);
