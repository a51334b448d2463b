// sinpe.wasm/onnx's element types (ONNX TensorProto.DataType FLOAT 1,
// FLOAT16 10, BFLOAT16 16): the rounding of float64 values to float16 and
// bfloat16 (IEEE 754 round-to-nearest-even, subnormals kept, infinity past
// the largest finite value) and the distance in units in the last place, as
// users see them through inspectModel: an inv_freq tensor's frequencies are
// compared with the float64 frequencies rounded once to its type (maxUlp, the
// verdict), a cache's distance from exact is counted in ulps of its type, and
// a cache scaled by a wrong attention factor is diagnosed from the exact
// cache rescaled and rounded again. The expected bits come from the tests'
// own references: tests/js/rope-reference.mjs (the float64 frequencies and
// caches) and tests/js/mrope-reference.mjs's roundBits (float16 / bfloat16
// round-to-nearest-even), never from sinpe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import sinpe from 'sinpe.wasm';
import { inspectModel } from 'sinpe.wasm/onnx';
import { ropeInvFreq, ropeCache } from './rope-reference.mjs';
import { halfBits } from './mrope-reference.mjs';
import { CONFIGS, OPTIONS, ROTARY_DIM, makeGenaiModel, makeInvFreqModel, round } from './fixtures/make-genai-model.mjs';

const pe = await sinpe();

// A llama config with rotary dim 64 (32 frequencies base^(-2i/64)) and the given base.
const config64 = (base) => ({ model_type: 'llama', hidden_size: 256, num_attention_heads: 4, num_key_value_heads: 4, head_dim: 64, max_position_embeddings: 1024, rope_theta: base });

// The reference frequencies rounded once to dtype; each must be farther from a
// rounding boundary than the float64 error of a pow (a few ulps of float64),
// so that the package's own float64 frequencies round the same way.
function roundedFrequencies(base, dtype) {
  const f = ropeInvFreq(64, { base });
  const bits = new Uint16Array(f.length);
  f.forEach((v, i) => {
    const h = halfBits(v, dtype, v * 2 ** -48);
    assert.equal(h.near, false, `${dtype} base ${base}: frequency ${i} (${v}) is too close to a rounding boundary for this test`);
    bits[i] = h.bits;
  });
  return { f, bits };
}

async function inspectInvFreq(bits, dtype, base) {
  const report = await inspectModel(makeInvFreqModel(bits, dtype), { config: config64(base), encoder: pe, name: `inv-freq-${dtype}-${base}.onnx` });
  assert.equal(report.sites.length, 1);
  assert.equal(report.sites[0].kind, 'inv_freq');
  assert.equal(report.sites[0].dtype, dtype);
  return report.sites[0];
}

/**
 * Each base's frequencies rounded once to `dtype`: the model's inv_freq is read
 * as exact, bit for bit (maxUlp 0), and every kind of value kindOf names
 * (normal, subnormal, …) is among those checked.
 */
async function assertRoundedExact(dtype, bases, kinds, kindOf) {
  const seen = Object.fromEntries(kinds.map((k) => [k, 0]));
  for (const base of bases) {
    const { f, bits } = roundedFrequencies(base, dtype);
    for (const v of f) seen[kindOf(v)]++;
    const site = await inspectInvFreq(bits, dtype, base);
    assert.equal(site.verdict, 'exact', site.message);
    assert.equal(site.maxUlp, 0, `${dtype} base ${base}: ${site.message}`);
  }
  for (const [kind, n] of Object.entries(seen)) assert.ok(n > 0, `a frequency rounding to a ${dtype} ${kind} value (${JSON.stringify(seen)})`);
}

// float16: normal from 2^-14, subnormal multiples of 2^-24 below it; below
// 2^-25 (half the smallest subnormal) a value rounds to 0, between 2^-25 and
// 2^-24 to the smallest subnormal (bits 0x0001).
test('float16 inv_freq: the float64 frequencies rounded once to nearest-even, normal, subnormal and flushed to zero, are bit-identical (maxUlp 0)', async () => {
  await assertRoundedExact('float16', [1e9, 3e9, 1e10, 2.5e10, 6e10], ['normal', 'subnormal', 'smallest', 'zero'], (v) =>
    v >= 2 ** -14 ? 'normal' : v >= 2 ** -24 ? 'subnormal' : v > 2 ** -25 ? 'smallest' : 'zero',
  );
});

// bfloat16: float32's exponent range with 8 significant bits; normal from
// 2^-126, subnormal multiples of 2^-133, 0 below 2^-134.
test('bfloat16 inv_freq: the float64 frequencies rounded once to nearest-even (directly, not through float32), normal, subnormal and zero, are bit-identical', async () => {
  await assertRoundedExact('bfloat16', [10000, 500000, 1e40, 1e42], ['normal', 'subnormal', 'zero'], (v) => (v >= 2 ** -126 ? 'normal' : v > 2 ** -134 ? 'subnormal' : 'zero'));
});

test('inv_freq one or two ulps off: maxUlp counts the steps between the bit patterns (1: still exact within the tolerance; 2: a mismatch)', async () => {
  for (const dtype of ['float16', 'bfloat16']) {
    const base = 500000;
    const { bits } = roundedFrequencies(base, dtype);
    for (const [i, step, verdict] of [
      [3, 1, 'exact'],
      [3, -1, 'exact'],
      [5, 2, 'mismatch'],
      [0, -2, 'mismatch'],
    ]) {
      const moved = bits.slice();
      moved[i] += step; // positive values: the next bit pattern is the next value up
      const site = await inspectInvFreq(moved, dtype, base);
      assert.equal(site.maxUlp, Math.abs(step), `${dtype} frequency ${i} moved ${step}: ${site.message}`);
      assert.equal(site.verdict, verdict, `${dtype} frequency ${i} moved ${step}: ${site.message}`);
    }
    // A frequency of 0 (bits 0x0000) where the smallest positive value belongs is one ulp.
    const f = ropeInvFreq(64, { base: 6e10 });
    const small = f.findIndex((v) => v > 2 ** -25 && v < 2 ** -24);
    if (dtype === 'float16') {
      assert.ok(small > 0, 'base 6e10 has a frequency between 2^-25 and 2^-24');
      const z = roundedFrequencies(6e10, dtype).bits;
      assert.equal(z[small], 0x0001);
      z[small] = 0;
      const site = await inspectInvFreq(z, dtype, 6e10);
      assert.equal(site.maxUlp, 1, site.message);
    }
  }
});

// A cache with cos at position 0 negated (−1 for +1): the distance in ulps
// between a value and its negation is twice the bit pattern's magnitude
// (every representable value between them, ±0 counted once).
test('a cache value of the wrong sign: maxUlp is the ulps between −x and x (sign-magnitude bits ordered as values), float16 and float32', async () => {
  const o = OPTIONS.llama31.default;
  const rows = 64;
  const c = ropeCache(Array.from({ length: rows }, (_, i) => i), ROTARY_DIM, o);
  for (const [dtype, one, signBit] of [
    ['float16', 0x3c00, 0x8000],
    ['float32', 0x3f800000, 0x80000000],
  ]) {
    const cos = round(c.cos, dtype);
    const sin = round(c.sin, dtype);
    assert.equal(cos[0], one, 'cos at position 0 is 1.0');
    cos[0] = (one | signBit) >>> 0;
    const { model } = makeGenaiModel({ caches: { default: { cos, sin, rows } }, dtype });
    const report = await inspectModel(model, { config: CONFIGS.llama31, encoder: pe });
    const site = report.sites[0];
    assert.equal(site.verdict, 'mismatch', site.message);
    assert.equal(site.diagnosis.mistake, 'unknown', site.message);
    assert.equal(site.maxUlp, 2 * one, `${dtype}: ${site.message}`);
    assert.match(site.diagnosis.detail, new RegExp(`^no known mistake reproduces it; ${2 * one} ulp from exact at row 0, col 0 \\(cos\\)`));
  }
});

// An attention factor applied where the rope type has none (Llama 3's is 1):
// the cache is the exact one times k, rounded once to its type. The inspector
// rebuilds the candidate from the exact cache in that type, times k, rounded
// again (within one ulp of the cache), and names the mistake.
test('a cache scaled by a wrong attention factor is diagnosed, in float32, float16 and bfloat16 (negative, subnormal and normal values rounded)', async () => {
  const o = OPTIONS.llama31.default;
  const rows = 64;
  const c = ropeCache(Array.from({ length: rows }, (_, i) => i), ROTARY_DIM, o);
  for (const dtype of ['float32', 'float16', 'bfloat16']) {
    for (const k of [0.75, 1.5, 3]) {
      const scaled = (x) => Float64Array.from(x, (v) => v * k);
      const cos = round(scaled(c.cos), dtype);
      const sin = round(scaled(c.sin), dtype);
      const { model } = makeGenaiModel({ caches: { default: { cos, sin, rows } }, dtype });
      const report = await inspectModel(model, { config: CONFIGS.llama31, encoder: pe, name: `scaled-${dtype}-${k}.onnx` });
      const site = report.sites[0];
      assert.equal(site.dtype, dtype);
      assert.equal(site.verdict, 'mismatch', `${dtype} × ${k}: ${site.message}`);
      assert.equal(site.diagnosis?.mistake, 'wrong-attention-factor', `${dtype} × ${k}: ${site.message}`);
      assert.match(site.diagnosis.detail, new RegExp(`position 0 holds ${k}$`));
    }
    // Unscaled, the same cache is exact (the type's own exact recipe).
    const { model } = makeGenaiModel({ caches: { default: { cos: round(c.cos, dtype), sin: round(c.sin, dtype), rows } }, dtype });
    const site = (await inspectModel(model, { config: CONFIGS.llama31, encoder: pe })).sites[0];
    assert.equal(site.verdict, 'exact', `${dtype} unscaled: ${site.message}`);
  }
  // The cache has negative values and, in float16, subnormal ones (both rounded by the candidate).
  const sin16 = round(c.sin.map((v) => v * 0.75), 'float16');
  assert.ok(sin16.some((b) => b & 0x8000), 'negative sines');
  assert.ok(sin16.some((b) => b > 0 && b < 0x0400), 'subnormal float16 sines');
});

// A frequency exactly halfway between two neighbours of the type rounds to
// the one whose last bit is 0 (IEEE 754 roundTiesToEven). Linear scaling
// divides the frequencies by the factor: with factor 2/T, frequency 0 is
// 1/factor = T/2 exactly, for T one half-ulp above 1 (below it the even
// neighbour is 1, so the tie rounds down) or three half-ulps (the even
// neighbour is above, so it rounds up).
test('inv_freq ties: a frequency halfway between two float16 / bfloat16 values rounds to the even one, down or up', async () => {
  for (const [dtype, mantissa] of [
    ['float16', 10],
    ['bfloat16', 7],
  ]) {
    const half = 2 ** -(mantissa + 1); // half an ulp of 1
    for (const [T, bits] of [
      [1 + half, 'even below'],
      [1 + 3 * half, 'even above'],
    ]) {
      const factor = 2 / T;
      const o = { ropeType: 'linear', factor, base: 10000 };
      const f = ropeInvFreq(ROTARY_DIM, o);
      assert.equal(f[0], T / 2, 'frequency 0 is T/2 exactly');
      const expected = Uint16Array.from(f, (v, i) => {
        const h = halfBits(v, dtype, v * 2 ** -48);
        assert.equal(h.near, i === 0, `${dtype}: only frequency 0 is at a rounding boundary (${i}: ${v})`);
        return h.bits;
      });
      // The two neighbours of T/2 and the even one chosen: its last bit 0.
      const [below, above] = halfBits(T / 2, dtype, 2 ** -40).either;
      assert.equal(above - below, 1);
      assert.equal(expected[0], below % 2 === 0 ? below : above);
      assert.equal(expected[0] === below, bits === 'even below');
      const cfg = { ...CONFIGS.llama31, rope_theta: 10000, rope_scaling: { rope_type: 'linear', factor } };
      const report = await inspectModel(makeInvFreqModel(expected, dtype), { config: cfg, encoder: pe });
      const site = report.sites[0];
      assert.equal(site.verdict, 'exact', site.message);
      assert.equal(site.maxUlp, 0, `${dtype} tie, ${bits}: ${site.message}`);
    }
  }
});

// Double rounding (the float64 values rounded to float32, then to the half
// type) moves a value one ulp where its float32 rounding lands on a midpoint
// of the half type: the inspector names it in float16 and bfloat16, never in
// float32 (where there is no second rounding).
// (bfloat16 keeps 16 bits fewer than float32, so a float32 rounding lands on
// its midpoint about once in 2^16 values: Qwen2.5's 2048 rows have one.)
test('a cache rounded twice (through float32) is diagnosed in float16 and bfloat16', async () => {
  for (const [dtype, model, rows] of [
    ['float16', 'llama31', 1024],
    ['bfloat16', 'qwen25', 2048],
  ]) {
    const c = ropeCache(Array.from({ length: rows }, (_, i) => i), ROTARY_DIM, OPTIONS[model].default);
    const cos = round(c.cos.map(Math.fround), dtype);
    const sin = round(c.sin.map(Math.fround), dtype);
    const once = [round(c.cos, dtype), round(c.sin, dtype)];
    const moved = [cos, sin].reduce((n, x, k) => n + x.filter((b, i) => b !== once[k][i]).length, 0);
    assert.ok(moved > 0, `${dtype}: some values move when rounded twice`);
    const { model: bytes } = makeGenaiModel({ caches: { default: { cos, sin, rows } }, dtype });
    const site = (await inspectModel(bytes, { config: CONFIGS[model], encoder: pe })).sites[0];
    assert.equal(site.verdict, 'mismatch', `${dtype}: ${site.message}`);
    assert.equal(site.diagnosis.mistake, 'rounded-twice', `${dtype}: ${site.message}`);
    assert.equal(site.maxUlp, 1);
  }
});

// A second rounding resolves a tie to the even neighbour, so a value one ulp
// off towards an odd pattern is no double rounding: sin(0) = 0 stored as the
// smallest subnormal (pattern 1, odd) is the exact cache within 1 ulp, not a
// cache rounded twice (the margin of the double-rounding test, 2.5e-7, is
// wider than a subnormal ulp, so the parity is what tells them apart).
test('a cache one ulp off towards an odd pattern, at a zero, is not called rounded twice', async () => {
  for (const [dtype, model, rows] of [
    ['float16', 'llama31', 64],
    ['bfloat16', 'qwen25', 64],
  ]) {
    const c = ropeCache(Array.from({ length: rows }, (_, i) => i), ROTARY_DIM, OPTIONS[model].default);
    const cos = round(c.cos, dtype);
    const sin = round(c.sin, dtype);
    assert.equal(sin[0], 0, `${dtype}: sin at position 0 is +0`);
    sin[0] = 1;
    const { model: bytes } = makeGenaiModel({ caches: { default: { cos, sin, rows } }, dtype });
    const site = (await inspectModel(bytes, { config: CONFIGS[model], encoder: pe })).sites[0];
    assert.equal(site.verdict, 'exact', `${dtype}: ${site.message}`);
    assert.equal(site.maxUlp, 1, `${dtype}: ${site.message}`);
  }
});
