// An independent float64 attention head for the attention lesson's tests (the site model's
// test under node and the lesson's browser test), written from the
// definitions, not imported from the site: mulberry32 and FNV-1a for the
// documented seeds, softmax(QKᵀ/√d)·V for the head, the sinusoidal formula
// (interleaved sin, cos) and RoPE as rotations of the pairs (i, i + d/2).
import { mulberry32 } from '../js/fixtures/random.mjs';

export function fnv1a(word) {
  let hash = 0x811c9dc5;
  for (const ch of word) hash = Math.imul(hash ^ ch.codePointAt(0), 0x01000193);
  return hash >>> 0;
}

/** A word's seeded embedding: d float32 values in [−1, 1). */
export const embedding = (word, d, seed) => {
  const next = mulberry32(fnv1a(word.toLowerCase()) ^ Math.imul(seed, 2654435761));
  return Array.from({ length: d }, () => Math.fround(2 * next() - 1));
};

/** The seeded W_q, W_k, W_v as d × d arrays of rows. */
export function matrices(d, seed) {
  const next = mulberry32((Math.imul(seed, 0x9e3779b1) + 1) >>> 0);
  const draw = () => Array.from({ length: d }, () => Array.from({ length: d }, () => ((2 * next() - 1) * 2.5) / Math.sqrt(d)));
  return { wq: draw(), wk: draw(), wv: draw() };
}

/** PE(p, c) in float64: sin at even columns, cos at odd ones. */
export const sinusoid = (d) => (p, c) => (c % 2 === 0 ? Math.sin(p / 10000 ** (c / d)) : Math.cos(p / 10000 ** ((c - 1) / d)));

/**
 * RoPE in the half layout: pair (i, i + d/2) turned by p·10000^(−2i/d).
 * `round` is applied to the inputs and the results (Math.fround for a float32
 * pipeline; the identity for float64).
 */
export const ropeRotate =
  (d, round = (v) => v) =>
  (row, p) => {
    const half = d / 2;
    const x = row.map(round);
    const out = x.slice();
    for (let i = 0; i < half; i++) {
      const a = p * 10000 ** ((-2 * i) / d);
      out[i] = round(x[i] * Math.cos(a) - x[i + half] * Math.sin(a));
      out[i + half] = round(x[i + half] * Math.cos(a) + x[i] * Math.sin(a));
    }
    return out;
  };

const times = (rows, w) => rows.map((x) => w[0].map((_, j) => x.reduce((s, v, c) => s + v * w[c][j], 0)));

/**
 * One attention head over `words`: add(p, c) is added to the embeddings,
 * rotate(row, p) turns q and k. Returns scores, weights, outputs (arrays of
 * rows) and the outputs' mean over the tokens.
 */
export function head(words, d, seed, { add, rotate } = {}) {
  const w = matrices(d, seed);
  const x = words.map((word, i) => embedding(word, d, seed).map((v, c) => v + (add ? add(i, c) : 0)));
  let q = times(x, w.wq);
  let k = times(x, w.wk);
  const v = times(x, w.wv);
  if (rotate) {
    q = q.map((row, i) => rotate(row, i));
    k = k.map((row, i) => rotate(row, i));
  }
  const scores = q.map((qi) => k.map((kj) => qi.reduce((s, a, c) => s + a * kj[c], 0) / Math.sqrt(d)));
  const weights = scores.map((row) => {
    const e = row.map((s) => Math.exp(s));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((z) => z / sum);
  });
  const out = weights.map((a) => v[0].map((_, c) => a.reduce((s, aij, j) => s + aij * v[j][c], 0)));
  const pooled = out[0].map((_, c) => out.reduce((s, row) => s + row[c], 0) / out.length);
  return { scores, weights, out, pooled };
}
