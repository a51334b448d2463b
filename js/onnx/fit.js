// What a cache's values are, column by column: the exact values (the float64
// cos(p·inv_j)·att rounded once to the cache's dtype) or torch's float32
// recipe with some float32 inv_freq per column — the one that reproduces the
// column's angles, found near the correctly rounded inv_j.
//
// The float32 recipe, as transformers' rotary embeddings and
// onnxruntime-genai's make_rotary_embedding_caches_from_scratch compute it:
//   angle = fround(p · f_j)            t and inv_freq float32, one float32 product
//   c     = cos(angle), s = sin(angle) torch's / numpy's float32 cos and sin:
//                                      within COS_ULPS ulp of the correctly rounded value
//   c, s  = fround(c · fround(att))    the magnitude scale in float32
//   cache = c rounded to the dtype     one cast
// f_j itself is float32 arithmetic (a float32 pow, a reciprocal, the scaling
// rule op by op): exporters' pow functions differ by an ulp or two, so f_j
// is fitted, not assumed: the float32 values within FIT_ULPS of
// fround(inv_j) are tried, nearest first.
import { FLOAT, DTYPE_NAMES } from './read.js';
import { ulps } from './dtype.js';
import { halfCodec } from '../half.js';

/** torch's and numpy's float32 cos/sin are within this many ulp of the correctly rounded value. */
export const COS_ULPS = 2;
/** A column's float32 inv_freq is searched within this many ulp of the correctly rounded inv_j. */
export const FIT_ULPS = 64;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

// float32 values as integers that order like the values, and back.
function ord32(x) {
  f32[0] = x;
  const b = u32[0];
  return b & 0x80000000 ? -(b & 0x7fffffff) : b;
}
function fromOrd32(k) {
  u32[0] = k < 0 ? (-k | 0x80000000) >>> 0 : k;
  return f32[0];
}
/** The float32 value k steps above x (a float32 value), below for k < 0. */
export const step32 = (x, k) => fromOrd32(ord32(x) + k);

/** float64 → the cache's dtype, rounded once, as a number. */
export function roundOf(dataType) {
  if (dataType === FLOAT) return Math.fround;
  return halfCodec(DTYPE_NAMES[dataType]).round;
}

/**
 * What a cache should hold, column by column: inv (Float64Array(width), the
 * float64 inv_j of the frequency each column holds), att (the attention
 * factor), swap (cos and sin exchanged), twice (rounded to float32 before the
 * dtype: a double rounding).
 */
export const expectation = (inv, att, extra = {}) => ({ inv, att, swap: false, twice: false, ...extra });

/**
 * Whether the cache (its values, rows × width, row-major) is the exact one:
 * every value within maxUlp ulp of the float64 value rounded once (a float64
 * exporter's cos differs from this one's in rare last-bit cases), or within
 * absTol of the float64 value. Stops at the first value too far. { ok, maxUlp, at: { row, col, which } | null }.
 */
export function checkExact(cache, rows, width, exp, maxUlp, absTol = 0) {
  const round = roundOf(cache.dataType);
  const ulp = ulpsApart(cache.dataType);
  let worst = 0;
  let at = null;
  // cos before sin, row-major: of equally bad values the first is named
  for (const which of ['cos', 'sin']) {
    const trig = (which === 'cos') !== exp.swap ? Math.cos : Math.sin;
    const values = cache[which].values;
    for (let p = 0; p < rows; p++)
      for (let col = 0; col < width; col++) {
        let x = trig(p * exp.inv[col]) * exp.att;
        if (exp.twice) x = Math.fround(x);
        const want = round(x);
        const got = values[p * width + col];
        if (got === want) continue;
        const d = ulp(got, want);
        if (d > worst) {
          worst = d;
          at = { row: p, col, which };
        }
        if (d > maxUlp && !(Math.abs(got - x) <= absTol)) return { ok: false, maxUlp: worst, at };
      }
  }
  return { ok: true, maxUlp: worst, at };
}

/** Ulps of the dtype from the cache to the float32 recipe with these columns' inv_freq (all rows). */
export function ulpsFromFloat32(cache, rows, width, columns, att) {
  const v = float32Rows(columns, att, 0, rows, cache.dataType);
  const ulp = ulpsApart(cache.dataType);
  let worst = 0;
  for (const which of ['cos', 'sin'])
    for (let i = 0; i < rows * width; i++) if (cache[which].values[i] !== v[which][i]) worst = Math.max(worst, ulp(cache[which].values[i], v[which][i]));
  return worst;
}

// Ulps between two values of the dtype: the distance of their bit patterns ordered as values.
function ulpsApart(dataType) {
  if (dataType === FLOAT) return (a, b) => Math.abs(ord32(a) - ord32(b));
  const { encode } = halfCodec(DTYPE_NAMES[dataType]);
  return (a, b) => ulps(encode(a), encode(b), false);
}

// Whether column col of the cache, at rows `list` (or all rows), is the float32
// recipe with inv_freq f (a float32 value).
function columnFits(cache, width, col, f, exp, rowsList, rows) {
  const round = roundOf(cache.dataType);
  const att = Math.fround(exp.att);
  const scaled = att !== 1;
  const cosV = exp.swap ? cache.sin.values : cache.cos.values;
  const sinV = exp.swap ? cache.cos.values : cache.sin.values;
  const n = rowsList ? rowsList.length : rows;
  for (let i = 0; i < n; i++) {
    const p = rowsList ? rowsList[i] : i;
    const angle = Math.fround(p * f); // p·f is exact in float64 (24 × 24 bits); one rounding to float32
    for (let k = 0; k < 2; k++) {
      const exact = k === 0 ? Math.cos(angle) : Math.sin(angle);
      const got = (k === 0 ? cosV : sinV)[p * width + col];
      const c = Math.fround(exact);
      let lo = step32(c, -COS_ULPS);
      let hi = step32(c, COS_ULPS);
      if (scaled) {
        lo = Math.fround(lo * att);
        hi = Math.fround(hi * att);
      }
      if (got < round(lo) || got > round(hi)) return false;
    }
  }
  return true;
}

// Rows the search tries first: the last rows (where a wrong inv_freq shows
// most) and a spread of others.
function screenRows(rows) {
  const set = new Set();
  for (let p = rows - 1; p >= Math.max(0, rows - 24); p--) set.add(p);
  for (let k = 1; k < 16; k++) set.add(Math.floor((rows * k) / 16));
  return Int32Array.from([...set].sort((a, b) => a - b));
}

/**
 * Fits the float32 recipe to every column: for each, the float32 inv_freq
 * nearest fround(inv_j) (within FIT_ULPS) whose recipe values the column
 * holds. { ok, columns: [{ col, invFreq, ulps }] (ulps: steps from the
 * correctly rounded inv_j), failed: the first column no inv_freq fits, or -1 }.
 */
export function fitFloat32(cache, rows, width, exp) {
  const screen = screenRows(rows);
  const columns = [];
  const fits = (col, f, list) => f >= 0 && columnFits(cache, width, col, f, exp, list, rows);
  for (let col = 0; col < width; col++) {
    const center = Math.fround(exp.inv[col]);
    const at = (k) => (center === 0 ? (k === 0 ? 0 : NaN) : step32(center, k));
    let found = null;
    for (let d = 0; d <= FIT_ULPS && found === null; d++)
      for (const k of d === 0 ? [0] : [-d, d])
        if (fits(col, at(k), screen) && fits(col, at(k), null)) {
          found = k;
          break;
        }
    if (found === null) return { ok: false, columns, failed: col };
    // Where neighbours fit too (low frequencies, short caches), the one whose recipe values the
    // column holds most closely; of equals, the nearest to the correctly rounded value.
    let best = { k: found, ulps: columnUlps(cache, width, col, at(found), exp, rows) };
    let others = 0;
    for (const k of [found - 2, found - 1, found + 1, found + 2]) {
      if (Math.abs(k) > FIT_ULPS || !fits(col, at(k), screen) || !fits(col, at(k), null)) continue;
      others++;
      const u = columnUlps(cache, width, col, at(k), exp, rows);
      if (u < best.ulps || (u === best.ulps && Math.abs(k) < Math.abs(best.k))) best = { k, ulps: u };
    }
    // ambiguous: a neighbour within 2 ulp fits too (low frequencies, short caches), so ulps is one of several
    columns.push({ col, invFreq: at(best.k), ulps: best.k, ambiguous: others > 0 });
  }
  return { ok: true, columns, failed: -1 };
}

// The most ulps (of the dtype) column col is from the float32 recipe with inv_freq f, cos/sin correctly rounded.
function columnUlps(cache, width, col, f, exp, rows) {
  const v = float32Rows([{ invFreq: f }], exp.att, 0, rows, cache.dataType);
  const ulp = ulpsApart(cache.dataType);
  const cosV = exp.swap ? cache.sin.values : cache.cos.values;
  const sinV = exp.swap ? cache.cos.values : cache.sin.values;
  let worst = 0;
  for (let p = 0; p < rows; p++) {
    const a = cosV[p * width + col];
    const b = sinV[p * width + col];
    if (a !== v.cos[p]) worst = Math.max(worst, ulp(a, v.cos[p]));
    if (b !== v.sin[p]) worst = Math.max(worst, ulp(b, v.sin[p]));
  }
  return worst;
}

/**
 * Rows [from, to) of a cache by the float32 recipe with the fitted
 * inv_freq of each column, as the dtype's values (Float64Array each).
 * cos/sin evaluated in float64 and rounded to float32: the correctly rounded
 * member of the family the fit accepts.
 */
export function float32Rows(columns, att, from, to, dataType) {
  const width = columns.length;
  const round = roundOf(dataType);
  const a = Math.fround(att);
  const cos = new Float64Array((to - from) * width);
  const sin = new Float64Array((to - from) * width);
  for (let p = from; p < to; p++)
    for (let j = 0; j < width; j++) {
      const angle = Math.fround(p * columns[j].invFreq);
      let c = Math.fround(Math.cos(angle));
      let s = Math.fround(Math.sin(angle));
      if (a !== 1) {
        c = Math.fround(c * a);
        s = Math.fround(s * a);
      }
      cos[(p - from) * width + j] = round(c);
      sin[(p - from) * width + j] = round(s);
    }
  return { cos, sin };
}

/** Rows [from, to) of the exact cache (float64 cos(p·inv_j)·att rounded once to the dtype), as values. */
export function exactRows(inv, att, from, to, dataType) {
  const width = inv.length;
  const round = roundOf(dataType);
  const cos = new Float64Array((to - from) * width);
  const sin = new Float64Array((to - from) * width);
  for (let p = from; p < to; p++)
    for (let j = 0; j < width; j++) {
      const angle = p * inv[j];
      cos[(p - from) * width + j] = round(Math.cos(angle) * att);
      sin[(p - from) * width + j] = round(Math.sin(angle) * att);
    }
  return { cos, sin };
}
