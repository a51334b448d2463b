// The package's codec of the 16-bit float types (js/half.js, exported as
// halfCodec): decode, round, encode and ulp against references written from
// the formats' definitions, not from the codec: the exponent-search rounding
// of mrope-reference.mjs (roundBits) and its float16 decoder (halfValue),
// bfloat16 decoded as the upper half of a float32 through a DataView.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { halfCodec, halfDtypes, dtypes, vocabulary } from 'sinpe.wasm';
import { roundBits, halfValue as float16Value, FORMATS } from './mrope-reference.mjs';
import { mulberry32 } from './fixtures/random.mjs';

/** A bit pattern's value: float16 by the reference decoder, bfloat16 as the upper half of a float32. */
function halfValue(bits, dtype) {
  if (dtype === 'float16') return float16Value(bits);
  const view = new DataView(new ArrayBuffer(4));
  view.setUint32(0, bits << 16);
  return view.getFloat32(0);
}
/** x rounded to the format, as a number: the reference's bits, decoded. */
const roundHalf = (x, dtype) => halfValue(roundBits(x, ...FORMATS[dtype]), dtype);
/** One ulp of the format at |x|: 2^(max(floor log2 |x|, emin) − m), the exponent settled exactly. */
function ulp(x, dtype) {
  const [m, bias] = FORMATS[dtype];
  const a = Math.abs(x);
  let e = 1 - bias;
  if (a !== 0) {
    e = Math.floor(Math.log2(a));
    if (2 ** e > a) e--;
    else if (2 ** (e + 1) <= a) e++;
  }
  return 2 ** (Math.max(e, 1 - bias) - m);
}

/** Values across both formats' ranges: powers of two and their neighbours, ties, the overflow points, random magnitudes, both signs. */
function values() {
  const rng = mulberry32(20261202);
  const out = [0, 1, 65504, 65519.99, 65520, 65536, 2 ** -14, 2 ** -24, 2 ** -25, 3 * 2 ** -26, 2 ** -26, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 1e-30, 1e-40, 3.3895313892515355e38, 3.3961775292304e38, 3.4e38, 2 ** -133, 2 ** -134, 3 * 2 ** -135, 5e-324];
  for (let e = -140; e <= 130; e++) out.push(2 ** e, 2 ** e * (1 - 2 ** -20), 2 ** e * (1 + 2 ** -20), 2 ** e * (1 + 2 ** -11), 2 ** e * (1 + 2 ** -8));
  for (let i = 0; i < 20000; i++) out.push(10 ** (rng() * 80 - 45) * (1 + rng()));
  return out.flatMap((x) => [x, -x]);
}

test('halfDtypes are the vocabulary dtypes other than float32, each with a codec whose float16 maximum is the core limit', () => {
  assert.deepEqual([...halfDtypes], dtypes.filter((d) => d !== 'float32'));
  assert.ok(halfDtypes.length >= 2);
  assert.equal(halfCodec('float16').max, vocabulary.limits.maxFloat16);
  assert.equal(halfCodec('bfloat16').max, 3.3895313892515355e38); // (2 − 2^−7) · 2^127
});

test('decode: every one of the 65,536 bit patterns of each format equals the reference decoder', () => {
  for (const dtype of halfDtypes) {
    const { decode } = halfCodec(dtype);
    let nan = 0;
    for (let bits = 0; bits < 65536; bits++) {
      const want = halfValue(bits, dtype);
      const got = decode(bits);
      if (Number.isNaN(want)) nan++;
      assert.ok(Object.is(got, want), `${dtype} decode(0x${bits.toString(16)}): ${got} vs ${want}`);
    }
    assert.equal(nan, 2 * (2 ** halfCodec(dtype).m - 1), `${dtype}: NaN patterns`);
  }
});

test('round, encode and ulp: equal to the references at every value (ties to even, subnormals, overflow)', () => {
  const xs = values();
  assert.ok(xs.length > 40000);
  for (const dtype of halfDtypes) {
    const { round, encode, ulp: ulpOf } = halfCodec(dtype);
    const [m, bias] = FORMATS[dtype];
    for (const x of xs) {
      assert.ok(Object.is(round(x), roundHalf(x, dtype)), `${dtype} round(${x}): ${round(x)} vs ${roundHalf(x, dtype)}`);
      assert.equal(encode(x), roundBits(x, m, bias), `${dtype} encode(${x})`);
      assert.equal(ulpOf(x), ulp(x, dtype), `${dtype} ulp(${x})`);
    }
  }
});

test('round and encode agree through decode at every pattern’s value and between neighbours (the ties)', () => {
  for (const dtype of halfDtypes) {
    const { round, encode, decode } = halfCodec(dtype);
    for (let bits = 0; bits < 0x7c00 + (dtype === 'bfloat16' ? 0x380 : 0); bits += 1) {
      const v = decode(bits);
      const next = decode(bits + 1);
      if (!Number.isFinite(next)) break;
      assert.equal(encode(v), bits, `${dtype}: encode(decode(0x${bits.toString(16)}))`);
      const tie = (v + next) / 2; // exact in float64
      const even = bits % 2 === 0 ? v : next;
      assert.equal(round(tie), even, `${dtype}: the tie between 0x${bits.toString(16)} and the next goes to the even one`);
    }
  }
});

test('special values: NaN, ±0, ±Infinity', () => {
  for (const dtype of halfDtypes) {
    const c = halfCodec(dtype);
    assert.ok(Number.isNaN(c.round(NaN)));
    assert.ok(Number.isNaN(c.decode(c.encode(NaN))));
    assert.ok(Object.is(c.round(-0), -0));
    assert.equal(c.encode(-0), 0x8000);
    assert.equal(c.round(Infinity), Infinity);
    assert.equal(c.round(-Infinity), -Infinity);
    assert.equal(c.decode(c.encode(-Infinity)), -Infinity);
    assert.equal(c.ulp(Infinity), Infinity);
    assert.ok(Number.isNaN(c.ulp(NaN)));
  }
});

test('a dtype that is not a 16-bit type is a RangeError naming the dtype', () => {
  for (const bad of ['float32', 'float64', 'FLOAT16', '', undefined, null, 10, 'toString', '__proto__', {}]) {
    assert.throws(() => halfCodec(bad), (e) => e instanceof RangeError && /dtype must be one of float16, bfloat16/.test(e.message), String(bad));
  }
});
