// Writes the seed corpus of tests/fuzz/fuzz_core.cpp (one file per typical
// call: every entry point x preset, ordinary widths and positions, and a few
// hostile ones). The fuzzer mutates from these. Run: node tests/fuzz/make_corpus.mjs
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';

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
const PRESETS = 8;
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

for (const s of seeds) {
  const bytes = Uint8Array.from(s);
  writeFileSync(new URL(createHash('sha1').update(bytes).digest('hex').slice(0, 16), dir), bytes);
}
console.log(`${seeds.length} seeds -> tests/fuzz/corpus/`);
