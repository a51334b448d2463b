// The attention lesson's model (web/src/model/attention.js) against an
// independent float64 head (attention-reference.mjs) and Σ cos(ω_i k) for the
// encodings' dot products.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embedding, head, matrices, ropeRotate, sinusoid } from './attention-reference.mjs';
import { tokenEmbeddings, headWeights, attend, permutationGap, reorder, isPermutation, offeredOrders, encodingSimilarity, ropeSimilarity, randomPairs, WEIGHT_GAIN } from '../../web/src/model/attention.js';

const flat = (rows) => rows.flat();
function maxDiff(a, b) {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  assert.ok(Number.isFinite(m));
  return m;
}

test('seeded embeddings and weights follow the documented generators', () => {
  const x = tokenEmbeddings(['dog', 'bites', 'Dog'], 8, 3);
  assert.equal(maxDiff(x, [...embedding('dog', 8, 3), ...embedding('bites', 8, 3), ...embedding('dog', 8, 3)]), 0);
  const w = headWeights(10, 7);
  const ref = matrices(10, 7);
  for (const key of ['wq', 'wk', 'wv']) assert.equal(maxDiff(w[key], flat(ref[key])), 0, key);
  const bound = WEIGHT_GAIN / Math.sqrt(10);
  assert.ok(w.wq.every((v) => Math.abs(v) <= bound));
});

for (const [name, options] of [
  ['no encoding', () => ({})],
  ['sinusoidal PE added', (d, n) => ({ model: { add: Float64Array.from({ length: n * d }, (_, i) => sinusoid(d)(Math.floor(i / d), i % d)) }, ref: { add: sinusoid(d) } })],
  ['RoPE on q and k', (d, n) => ({ model: { rotate: (m) => flat(Array.from({ length: n }, (_, i) => ropeRotate(d)(Array.from(m.slice(i * d, i * d + d)), i))) }, ref: { rotate: ropeRotate(d) } })],
]) {
  test(`the head (${name}): scores, weights, outputs and mean output against float64 from the definitions`, () => {
    for (const [sentence, d, seed] of [['dog bites man', 8, 1], ['the cat sat on the mat', 16, 42], ['a', 12, 0]]) {
      const words = sentence.split(' ');
      const n = words.length;
      const o = options(d, n);
      const got = attend(tokenEmbeddings(words, d, seed), n, d, headWeights(d, seed), o.model ?? {});
      const want = head(words, d, seed, o.ref ?? {});
      assert.ok(maxDiff(got.scores, flat(want.scores)) < 1e-12, `${sentence}: scores`);
      assert.ok(maxDiff(got.weights, flat(want.weights)) < 1e-12, `${sentence}: weights`);
      assert.ok(maxDiff(got.out, flat(want.out)) < 1e-12, `${sentence}: outputs`);
      assert.ok(maxDiff(got.pooled, want.pooled) < 1e-12, `${sentence}: mean output`);
    }
  });
}

test('word order: the same rows reordered without an encoding, different with one', () => {
  const words = 'the cat sat on the mat'.split(' ');
  const d = 8;
  const n = words.length;
  const w = headWeights(d, 5);
  const add = Float64Array.from({ length: n * d }, (_, i) => sinusoid(d)(Math.floor(i / d), i % d));
  for (const order of offeredOrders(n).slice(1)) {
    const shuffled = reorder(words, order);
    const run = (ws, opts) => attend(tokenEmbeddings(ws, d, 5), n, d, w, opts);
    const plain = permutationGap(run(words, {}), run(shuffled, {}), order, d);
    assert.ok(plain.out < 1e-12 && plain.weights < 1e-12 && plain.pooled < 1e-12, `${order}: ${JSON.stringify(plain)}`);
    // the reference: the reordered sentence's mean output against the typed one's, in float64
    const refGap = maxDiff(head(shuffled, d, 5, { add: sinusoid(d) }).pooled, head(words, d, 5, { add: sinusoid(d) }).pooled);
    const withPe = permutationGap(run(words, { add }), run(shuffled, { add }), order, d);
    // swapping the two "the" only (positions 0 and 4) leaves the sentence as it was
    const same = shuffled.join(' ') === words.join(' ');
    assert.ok(Math.abs(withPe.pooled - refGap) < 1e-12, `${order}: ${withPe.pooled} vs ${refGap}`);
    if (!same) assert.ok(withPe.pooled > 1e-3, `${order}: the encoding makes the order visible (${withPe.pooled})`);
  }
});

test('orders offered: all permutations up to 4 tokens, swaps, reversal and rotation beyond', () => {
  assert.equal(offeredOrders(3).length, 6);
  assert.equal(offeredOrders(4).length, 24);
  assert.equal(new Set(offeredOrders(4).map(String)).size, 24);
  const five = offeredOrders(5);
  assert.deepEqual(five.map(String), ['0,1,2,3,4', '1,0,2,3,4', '0,2,1,3,4', '0,1,3,2,4', '0,1,2,4,3', '4,3,2,1,0', '1,2,3,4,0']);
  for (const o of [...offeredOrders(4), ...five]) assert.ok(isPermutation(o, o.length));
  assert.equal(isPermutation([0, 0, 1], 3), false);
  assert.equal(isPermutation([0, 1], 3), false);
  assert.equal(isPermutation([0, 1, 3], 3), false);
});

test('position only: the encodings\' dot product is Σ cos(ω_i k)', () => {
  const d = 32;
  const span = 40;
  const table = Float64Array.from({ length: (span + 1) * d }, (_, i) => sinusoid(d)(Math.floor(i / d), i % d));
  const got = encodingSimilarity(table, span, d);
  for (let k = 0; k <= span; k++) {
    let want = 0;
    for (let i = 0; i < d / 2; i++) want += Math.cos(k * 10000 ** ((-2 * i) / d));
    assert.ok(Math.abs(got[k] - want / (d / 2)) < 1e-12, `k = ${k}`);
  }
  assert.ok(Math.abs(got[0] - 1) < 1e-15);
});

test('RoPE\'s scores are the averages of ⟨R(p)q, R(p+k)u⟩ / (|q||u|) of the vectors rotated, at any p', () => {
  const d = 32;
  const span = 40;
  const half = d / 2;
  const angle = (k, i) => k * 10000 ** ((-2 * i) / d);
  // the package's ropeCacheRows(0, span + 1, d) in float64: row k, d/2 values
  const cache = {
    cos: Float64Array.from({ length: (span + 1) * half }, (_, j) => Math.cos(angle(Math.floor(j / half), j % half))),
    sin: Float64Array.from({ length: (span + 1) * half }, (_, j) => Math.sin(angle(Math.floor(j / half), j % half))),
  };
  const pairs = randomPairs(d, 3, 9);
  assert.equal(pairs.length, 3);
  for (const { q, u } of pairs) {
    assert.equal(q.length, d);
    assert.ok([...q, ...u].every((v) => v >= -1 && v <= 1));
    assert.notDeepEqual(q, u);
  }
  const { same, unrelated } = ropeSimilarity(cache, d, span, pairs);
  assert.equal(same.length, span + 1);
  // the vectors rotated to positions p and p + k (rotate_half pairs i, i + d/2) and their dot products
  const dot = (a, b) => a.reduce((s, v, c) => s + v * b[c], 0);
  const rotate = ropeRotate(d);
  for (const p of [0, 5]) {
    for (let k = 0; k <= span; k++) {
      let wantSame = 0;
      let wantUnrelated = 0;
      for (const { q, u } of pairs) {
        const [x, y] = [Array.from(q), Array.from(u)];
        const norms = Math.sqrt(dot(x, x) * dot(y, y));
        wantSame += dot(rotate(x, p), rotate(x, p + k)) / dot(x, x) / pairs.length;
        wantUnrelated += dot(rotate(x, p), rotate(y, p + k)) / norms / pairs.length;
      }
      assert.ok(Math.abs(same[k] - wantSame) < 1e-12, `p = ${p}, k = ${k}: ${same[k]} vs ${wantSame}`);
      assert.ok(Math.abs(unrelated[k] - wantUnrelated) < 1e-12, `p = ${p}, k = ${k}: ${unrelated[k]} vs ${wantUnrelated}`);
    }
  }
  assert.ok(Math.abs(same[0] - 1) < 1e-15);
  assert.ok(Math.abs(unrelated[5]) > 1e-3, 'unrelated pairs are not orthogonal by chance here');
});
