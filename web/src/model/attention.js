// The "why attention needs positions" lesson's maths: one self-attention head
// on a short sentence, in float64. Token embeddings are the embeddings lesson's seeded toy
// embeddings (one vector per word, whatever its place); the head's weights
// come from the same seeded generator. The position encoding is passed in:
// rows to add (the package's sinusoidal table) or a function rotating q and k
// (the package's applyRope), so this module needs neither DOM nor package.
//
// Seeds, so anyone can regenerate the numbers the page shows:
// - token t's embedding: embed(t, d, 1, seed) of model/embeddings.js,
//   uniform in [−1, 1];
// - W_q, W_k, W_v: one mulberry32 stream seeded with (seed·0x9E3779B1 + 1)
//   mod 2³², drawn for W_q, then W_k, then W_v, each d×d row-major, entry
//   (2u − 1)·WEIGHT_GAIN/√d.
import { embed, random } from './embeddings.js';

export const ENCODINGS = Object.freeze(['none', 'sin', 'rope']);
export const WEIGHT_GAIN = 2.5;

/** The embeddings of the words, n × d row-major (float64 copies of the float32 values). */
export function tokenEmbeddings(words, d, seed) {
  const x = new Float64Array(words.length * d);
  words.forEach((w, r) => x.set(embed(w, d, 1, seed), r * d));
  return x;
}

/** The head's seeded W_q, W_k, W_v (d × d each, row-major: q = x·W_q). */
export function headWeights(d, seed) {
  const next = random((Math.imul(seed, 0x9e3779b1) + 1) >>> 0);
  const draw = () => Float64Array.from({ length: d * d }, () => ((2 * next() - 1) * WEIGHT_GAIN) / Math.sqrt(d));
  const wq = draw();
  const wk = draw();
  const wv = draw();
  return { wq, wk, wv };
}

/** x (n × d) times w (d × m). */
export function matmul(x, w, n, d, m) {
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < d; c++) {
      const v = x[i * d + c];
      if (v === 0) continue;
      for (let j = 0; j < m; j++) out[i * m + j] += v * w[c * m + j];
    }
  }
  return out;
}

/** Row-wise softmax of an n × n matrix (the row maximum subtracted first). */
export function softmaxRows(s, n) {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    for (let j = 0; j < n; j++) max = Math.max(max, s[i * n + j]);
    let sum = 0;
    for (let j = 0; j < n; j++) sum += out[i * n + j] = Math.exp(s[i * n + j] - max);
    for (let j = 0; j < n; j++) out[i * n + j] /= sum;
  }
  return out;
}

/**
 * One self-attention head. x: n × d embeddings; weights: headWeights(d, …);
 * add: n × d rows added to x first (a position encoding) or null; rotate:
 * (m, which: 'q'|'k') → m rotated (RoPE on q and k) or null.
 * Returns { input, q, k, v, scores (QKᵀ/√d), weights (softmax rows), out (weights·V), pooled (mean of the out rows) }.
 */
export function attend(x, n, d, weights, { add = null, rotate = null } = {}) {
  const input = Float64Array.from(x);
  if (add) for (let i = 0; i < n * d; i++) input[i] += add[i];
  let q = matmul(input, weights.wq, n, d, d);
  let k = matmul(input, weights.wk, n, d, d);
  const v = matmul(input, weights.wv, n, d, d);
  if (rotate) {
    q = Float64Array.from(rotate(q, 'q'));
    k = Float64Array.from(rotate(k, 'k'));
  }
  const scores = new Float64Array(n * n);
  const norm = 1 / Math.sqrt(d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let sum = 0;
      for (let c = 0; c < d; c++) sum += q[i * d + c] * k[j * d + c];
      scores[i * n + j] = sum * norm;
    }
  }
  const w = softmaxRows(scores, n);
  const out = matmul(w, v, n, n, d);
  const pooled = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let c = 0; c < d; c++) pooled[c] += out[i * d + c] / n;
  return { input, q, k, v, scores, weights: w, out, pooled };
}

/** Whether order is a permutation of 0 … n−1. */
export function isPermutation(order, n) {
  if (!Array.isArray(order) || order.length !== n) return false;
  const seen = new Set(order);
  return seen.size === n && order.every((v) => Number.isInteger(v) && v >= 0 && v < n);
}

/** The identity order of n tokens. */
export const identity = (n) => Array.from({ length: n }, (_, i) => i);

/** The words in a new order: word i of the result is words[order[i]]. */
export function reorder(words, order) {
  return order.map((i) => words[i]);
}

/**
 * How far the shuffled sentence's attention is from the original's rows put
 * in the new order: output row i against original row order[i], weight
 * (i, j) against (order[i], order[j]), pooled against pooled.
 * Returns { out, weights, pooled } (largest absolute differences).
 */
export function permutationGap(base, shuffled, order, d) {
  const n = order.length;
  let out = 0;
  let weights = 0;
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < d; c++) out = Math.max(out, Math.abs(shuffled.out[i * d + c] - base.out[order[i] * d + c]));
    for (let j = 0; j < n; j++) weights = Math.max(weights, Math.abs(shuffled.weights[i * n + j] - base.weights[order[i] * n + order[j]]));
  }
  let pooled = 0;
  for (let c = 0; c < d; c++) pooled = Math.max(pooled, Math.abs(shuffled.pooled[c] - base.pooled[c]));
  return { out, weights, pooled };
}

/**
 * The orders offered as buttons: every permutation when there are at most
 * 24, else the adjacent swaps, the reversal and a rotation by one.
 */
export function offeredOrders(n) {
  if (n <= 4) {
    const all = [];
    const walk = (prefix, rest) => {
      if (!rest.length) all.push(prefix);
      rest.forEach((v, i) => walk([...prefix, v], [...rest.slice(0, i), ...rest.slice(i + 1)]));
    };
    walk([], identity(n));
    return all;
  }
  const orders = [identity(n)];
  for (let i = 0; i + 1 < n; i++) {
    const o = identity(n);
    [o[i], o[i + 1]] = [o[i + 1], o[i]];
    orders.push(o);
  }
  orders.push(identity(n).reverse(), identity(n).map((i) => (i + 1) % n));
  return orders;
}

/**
 * Position only: the dot product of the encodings of positions 0 and k,
 * k = 0 … span, divided by d/2 (its value at k = 0). table: (span+1) × d rows.
 */
export function encodingSimilarity(table, span, d) {
  const out = new Float64Array(span + 1);
  for (let k = 0; k <= span; k++) {
    let sum = 0;
    for (let c = 0; c < d; c++) sum += table[c] * table[k * d + c];
    out[k] = sum / (d / 2);
  }
  return out;
}

/**
 * `samples` pairs of vectors q, u of d values, uniform in [−1, 1] from `seed`
 * (q then u, each element in order): RoPE's seeded random vectors.
 */
export function randomPairs(d, samples = 64, seed = 1) {
  const next = random((Math.imul(seed, 0x85ebca6b) + 7) >>> 0);
  const draw = () => {
    const v = new Float64Array(d);
    for (let c = 0; c < d; c++) v[c] = 2 * next() - 1;
    return v;
  };
  const pairs = [];
  for (let s = 0; s < samples; s++) {
    const q = draw();
    pairs.push({ q, u: draw() });
  }
  return pairs;
}

/**
 * RoPE's score for random vectors averaged over the pairs: ⟨q, R(k)u⟩ /
 * (|q||u|) for k = 0 … span, with u = q ("same content") and with u the
 * pair's other vector ("unrelated content"). R(k) rotates the pairs (i, i +
 * d/2) (transformers' rotate_half layout) by k·θ_i; `cache` holds cos and sin
 * of k·θ_i, row k, d/2 values a row (the package's ropeCacheRows(0, span + 1,
 * d)). Per pair, ⟨q, R(k)u⟩ = (q_i u_i + q_i' u_i') cos + (q_i' u_i − q_i u_i')
 * sin (i' = i + d/2), so the average over the pairs is taken first, per
 * frequency, and each k costs d/2 terms: the same numbers as rotating every
 * vector to every position and taking the dot products, for 1/(2·samples) of
 * the work. Returns { same, unrelated } (Float64Array of span + 1 each).
 */
export function ropeSimilarity(cache, d, span, pairs) {
  const half = d / 2;
  // per frequency i: the pairs' average weight of cos (same, unrelated) and of sin (unrelated)
  const wSame = new Float64Array(half);
  const wCos = new Float64Array(half);
  const wSin = new Float64Array(half);
  for (const { q, u } of pairs) {
    let qq = 0;
    let uu = 0;
    for (let c = 0; c < d; c++) {
      qq += q[c] * q[c];
      uu += u[c] * u[c];
    }
    const qu = Math.sqrt(qq) * Math.sqrt(uu);
    for (let i = 0; i < half; i++) {
      const [a, b, x, y] = [q[i], q[i + half], u[i], u[i + half]];
      wSame[i] += (a * a + b * b) / qq / pairs.length;
      wCos[i] += (a * x + b * y) / qu / pairs.length;
      wSin[i] += (b * x - a * y) / qu / pairs.length;
    }
  }
  const same = new Float64Array(span + 1);
  const unrelated = new Float64Array(span + 1);
  for (let k = 0; k <= span; k++) {
    let s = 0;
    let o = 0;
    for (let i = 0; i < half; i++) {
      const cos = cache.cos[k * half + i];
      const sin = cache.sin[k * half + i];
      s += wSame[i] * cos;
      o += wCos[i] * cos + wSin[i] * sin;
    }
    same[k] = s;
    unrelated[k] = o;
  }
  return { same, unrelated };
}
