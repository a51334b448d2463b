// The RoPE lesson's own maths (web/src/model/rope.js): bfloat16 rounding
// checked against its definition (a float32 with the low 16 bits cleared,
// nearest, ties to even) and hand-worked values; the float32 angle pipeline
// against the error sizes docs/maths.md states; pairs, rotation and the
// relative-position property against float64 formulas written here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bf16,
  f32,
  spacing,
  defaultInvFreq,
  hfInvFreqF32,
  pipelineAngle,
  pipelineCosSin,
  maxAngleError,
  samplePositionsBelow,
  pairIndices,
  pairOfIndex,
  rotate,
  dot,
  wavelengths,
  rotationsWithin,
  hand,
  seededVector,
  parseConfigText,
} from '../../web/src/model/rope.js';

const view = new DataView(new ArrayBuffer(4));
const f32bits = (x) => {
  view.setFloat32(0, x);
  return view.getUint32(0);
};
const fromBits = (u) => {
  view.setUint32(0, u >>> 0);
  return view.getFloat32(0);
};

test('bf16: hand-worked values (8 significant bits, ties to even)', () => {
  // [8192, 16384): spacing 2^(13−7) = 64; 15962 lies between 15936 and 16000, nearer 15936
  assert.equal(bf16(15962), 15936);
  assert.equal(bf16(15968), 16000); // half way between 249·64 (odd mantissa) and 250·64 (even): ties go to even
  assert.equal(bf16(1 + 1 / 256), 1); // tie between 1 and 1 + 2^-7: 1 has the even mantissa
  assert.equal(bf16(1 + 3 / 256), 1 + 4 / 256); // tie between 1 + 2/256 (odd) and 1 + 4/256 (even)
  assert.equal(bf16(1 / 3), 0.333984375); // 0.0101010101… → 1.0101011 × 2^-2
  assert.equal(bf16(-2.5), -2.5);
  assert.equal(bf16(0), 0);
  assert.equal(bf16(Infinity), Infinity);
  assert.ok(Number.isNaN(bf16(NaN)));
  assert.equal(bf16(3.5e38), Infinity); // past the largest bfloat16, 3.3895e38
});

test('bf16: is the nearest float32 with the low 16 bits clear, for many values', () => {
  let seed = 12345;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  for (let n = 0; n < 20000; n++) {
    const x = f32((rand() - 0.5) * 10 ** (rand() * 12 - 4));
    const y = bf16(x);
    assert.equal(f32bits(y) & 0xffff, 0, `bf16(${x}) has low bits`);
    const below = fromBits(f32bits(x) & 0xffff0000);
    const above = fromBits((f32bits(x) & 0xffff0000) + 0x10000);
    const dBelow = Math.abs(x - below);
    const dAbove = Math.abs(above - x);
    const expected = dBelow < dAbove ? below : dAbove < dBelow ? above : (f32bits(below) >>> 16) % 2 === 0 ? below : above;
    assert.equal(y, expected, `bf16(${x})`);
  }
});

test('spacing of float32 and bfloat16 numbers', () => {
  assert.equal(spacing(15962, 8), 64);
  assert.equal(spacing(4095, 24), 2 ** -12);
  assert.equal(spacing(1048575, 24), 2 ** -4);
  assert.equal(spacing(1048575, 8), 4096);
});

test('default frequencies and the float32 ones of Hugging Face', () => {
  const inv = defaultInvFreq(8, 10000);
  assert.deepEqual(Array.from(inv), [1, 0.1, 0.01, 0.001].map((v, j) => 10000 ** (-j / 4)));
  assert.ok(Math.abs(inv[1] - 0.1) < 1e-16);
  const invF = hfInvFreqF32(128, 10000);
  const exact = defaultInvFreq(128, 10000);
  for (let j = 0; j < 64; j++) {
    assert.equal(invF[j], f32(invF[j])); // float32 values
    assert.ok(Math.abs(invF[j] - exact[j]) <= 4 * spacing(exact[j], 24), `inv ${j}`);
  }
});

test('float32 angle pipeline: the error sizes docs/maths.md states (r = 128, base 10000)', () => {
  const inv = defaultInvFreq(128, 10000);
  const invF = hfInvFreqF32(128, 10000);
  // "errs by 2.3e-4 just below 4096, 3.9e-3 below 65536, 7.6e-3 below 131072 and 6.2e-2 below 2^20"
  for (const [top, stated] of [
    [4096, 2.3e-4],
    [65536, 3.9e-3],
    [131072, 7.6e-3],
    [2 ** 20, 6.2e-2],
  ]) {
    const { error, position } = maxAngleError(samplePositionsBelow(top), inv, invF, 'float32');
    assert.ok(error > 0.8 * stated && error < 1.25 * stated, `below ${top}: ${error} vs ${stated}`);
    assert.ok(position < top);
  }
  // exact angles have no error; bfloat16 angles are useless by position 4096 (spacing 16–32 rad)
  assert.equal(maxAngleError([4000, 4095], inv, invF, 'exact').error, 0);
  assert.ok(maxAngleError(samplePositionsBelow(4096), inv, invF, 'bf16').error > 1.5);
});

test('a float32 pipeline returns float32 cos and sin: its error at p = 65,535, j = 0 is that rounding, not 0', () => {
  // ω_0 = 1 exactly, so the float32 angle 65535 is exact; cos(65535) itself is not a float32 number
  const inv = defaultInvFreq(128, 10000);
  const invF = hfInvFreqF32(128, 10000);
  const exact = Math.cos(65535);
  const rounding = Math.abs(Math.fround(exact) - exact);
  assert.ok(rounding > 6e-9 && rounding < 6.5e-9, `|fround(cos 65535) − cos 65535| = ${rounding}`);
  const [c] = pipelineCosSin(65535, inv[0], invF[0], 'float32');
  assert.ok(Math.abs(c - exact) >= rounding, `float32 pipeline cos error ${Math.abs(c - exact)}`);
  assert.equal(c, Math.fround(c), 'a float32 number');
  assert.ok(maxAngleError([65535], inv, invF, 'float32').error >= rounding);
  // the exact pipeline is not rounded
  assert.equal(pipelineCosSin(65535, inv[0], invF[0], 'exact')[0], exact);
});

test('pipelineAngle per precision', () => {
  const invF = f32(0.1);
  assert.equal(pipelineAngle(1000, 0.1, invF, 'exact'), 1000 * 0.1);
  assert.equal(pipelineAngle(1000, 0.1, invF, 'float32'), f32(1000 * invF));
  assert.equal(pipelineAngle(1000, 0.1, invF, 'bf16'), 100); // 100.0000015 → float32 → bfloat16 100
  assert.equal(pipelineAngle(15962, 1, f32(1), 'bf16'), 15936);
});

test('samplePositionsBelow: below top, sorted, includes the last one', () => {
  const ps = samplePositionsBelow(4096);
  assert.equal(ps.at(-1), 4095);
  assert.ok(ps.every((p, i) => p < 4096 && p >= 2048 && (i === 0 || p > ps[i - 1])));
  assert.deepEqual(samplePositionsBelow(4), [0, 1, 2, 3]); // small ranges are taken whole
});

test('pair indices of the two layouts', () => {
  assert.deepEqual(pairIndices(0, 8, 'half'), [0, 4]);
  assert.deepEqual(pairIndices(3, 8, 'half'), [3, 7]);
  assert.deepEqual(pairIndices(0, 8, 'interleaved'), [0, 1]);
  assert.deepEqual(pairIndices(3, 8, 'interleaved'), [6, 7]);
  assert.deepEqual(pairOfIndex(5, 8, 'half'), { pair: 1, side: 1 });
  assert.deepEqual(pairOfIndex(5, 8, 'interleaved'), { pair: 2, side: 1 });
  assert.equal(pairOfIndex(8, 8, 'half'), null); // partial rotary: passes through
});

test('rotate: a 2-D rotation per pair; the dot product depends only on the offset', () => {
  const inv = defaultInvFreq(8, 10000);
  const x = [1, 0, 0, 0, 0, 0, 0, 0];
  // half layout, pair 0 = (0, 4): (1, 0) turned by p·1 rad
  const y = rotate(x, 2, inv, 'half');
  assert.ok(Math.abs(y[0] - Math.cos(2)) < 1e-15 && Math.abs(y[4] - Math.sin(2)) < 1e-15);
  const z = rotate(x, 2, inv, 'interleaved'); // pair 0 = (0, 1)
  assert.ok(Math.abs(z[0] - Math.cos(2)) < 1e-15 && Math.abs(z[1] - Math.sin(2)) < 1e-15);
  // norms are kept; <R(p)q, R(p+k)k> is the same for every p
  const q = seededVector(8, 1);
  const k = seededVector(8, 2);
  for (const layout of ['half', 'interleaved']) {
    const ref = dot(rotate(q, 0, inv, layout), rotate(k, 5, inv, layout));
    for (const p of [1, 17, 1000, 123456]) {
      const v = dot(rotate(q, p, inv, layout), rotate(k, p + 5, inv, layout));
      assert.ok(Math.abs(v - ref) < 1e-9, `${layout} p = ${p}`);
    }
    assert.ok(Math.abs(dot(rotate(q, 9, inv, layout), rotate(q, 9, inv, layout)) - dot(q, q)) < 1e-12);
  }
  // the attention factor scales every value
  const w = rotate(x, 0, inv, 'half', 1.5);
  assert.equal(w[0], 1.5);
});

test('wavelengths, rotations within a context, hands, seeded vectors, config text', () => {
  assert.deepEqual(wavelengths([1, 0.5]), [2 * Math.PI, 4 * Math.PI]);
  assert.deepEqual(rotationsWithin([2 * Math.PI, Math.PI], 4096), [4096, 2048]);
  const hd = hand(0, 2);
  assert.equal(hd.length, 2);
  assert.equal(hd.angle, Math.PI / 2);
  const v = seededVector(16, 7);
  assert.deepEqual(Array.from(v), Array.from(seededVector(16, 7)));
  assert.ok(v.every((x) => x >= -1 && x < 1));
  assert.notDeepEqual(Array.from(v), Array.from(seededVector(16, 8)));
  assert.deepEqual(parseConfigText('{"rope_theta": 500000}'), { config: { rope_theta: 500000 } });
  assert.ok(parseConfigText('{"rope_theta": ').error);
  assert.equal(parseConfigText('[1]').error, 'not an object');
  assert.equal(parseConfigText('null').error, 'not an object');
  // markup is not JSON: an error message, nothing parsed
  const bad = parseConfigText('<img src=x onerror=alert(1)>');
  assert.equal(typeof bad.error, 'string');
  assert.equal(bad.config, undefined);
});
