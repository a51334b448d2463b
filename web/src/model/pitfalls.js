// The pitfalls lesson's pure maths: the seed notebook's buggy table, the float32 recipe
// of the PyTorch tutorial, and which positions the error chart samples.

const f32 = Math.fround;

/**
 * The seed notebook's table: the exponent doubled (arange(0, d, 2) already
 * steps by 2) and the odd columns with their own index:
 *   pe[:, 0::2] = sin(pos / base ** (2 * arange(0, d, 2) / d))
 *   pe[:, 1::2] = cos(pos / base ** (2 * arange(1, d, 2) / d))
 * so column c (either kind) gets the exponent 2c/d.
 */
export function buggyTable(len, d, base = 10000) {
  return buggyRows(Array.from({ length: len }, (_, p) => p), d, base);
}

/** buggyTable's rows at the given positions (row r of the result is position positions[r]). */
export function buggyRows(positions, d, base = 10000) {
  return fill(positions, d, Float64Array.from({ length: d }, (_, c) => base ** ((2 * c) / d)));
}

// out[r·d + c] = sin or cos (c even or odd) of positions[r] / divisor[c]
function fill(positions, d, divisor) {
  const out = new Float64Array(positions.length * d);
  positions.forEach((p, r) => {
    const row = r * d;
    for (let c = 0; c < d; c += 2) out[row + c] = Math.sin(p / divisor[c]);
    for (let c = 1; c < d; c += 2) out[row + c] = Math.cos(p / divisor[c]);
  });
  return out;
}

/**
 * The correct table in float64, the precision buggyTable uses: the difference
 * of the two is then the difference of the formulas alone (exactly 0 in row 0
 * and column 0, where they agree), with no float32 rounding mixed in.
 */
export function correctTable(len, d, base = 10000) {
  return correctRows(Array.from({ length: len }, (_, p) => p), d, base);
}

/** correctTable's rows at the given positions. */
export function correctRows(positions, d, base = 10000) {
  return fill(positions, d, Float64Array.from({ length: d }, (_, c) => base ** ((2 * Math.floor(c / 2)) / d)));
}

/** The exponent the buggy table uses for column c, and the correct one, as "n/d" text. */
export function exponents(c, d) {
  return { buggy: `${2 * c}/${d}`, correct: `${2 * Math.floor(c / 2)}/${d}` };
}

/**
 * One row as the PyTorch tutorial computes it in float32, emulated with
 * Math.fround: div_term = exp(arange(0, d, 2) · (−ln 10000 / d)),
 * angle = position · div_term rounded to float32, then sin/cos in float32.
 */
export function float32Row(position, d, out = new Float64Array(d)) {
  const omegas = float32Frequencies(d);
  const p = f32(position);
  for (let i = 0; i < omegas.length; i++) {
    const angle = f32(p * omegas[i]);
    out[2 * i] = f32(Math.sin(angle));
    out[2 * i + 1] = f32(Math.cos(angle));
  }
  return out;
}

// div_term of the float32 recipe, per d (the same for every row)
const frequencyCache = new Map();
function float32Frequencies(d) {
  let omegas = frequencyCache.get(d);
  if (!omegas) {
    const step = f32(-Math.log(10000) / d);
    omegas = Float64Array.from({ length: d / 2 }, (_, i) => f32(Math.exp(f32(f32(2 * i) * step))));
    if (frequencyCache.size > 16) frequencyCache.clear();
    frequencyCache.set(d, omegas);
  }
  return omegas;
}

/**
 * The positions of octave [2^e, 2^(e+1)) whose float32 errors are measured:
 * 32 spread over the octave and the last 224 (the error grows with the
 * position, so the worst cells sit near the top of each octave). Small
 * octaves are taken whole.
 */
export function octaveSample(e) {
  const first = 2 ** e;
  const size = 2 ** e;
  if (size <= 256) return Array.from({ length: size }, (_, j) => first + j);
  const spread = Array.from({ length: 32 }, (_, j) => first + Math.floor(((size - 224) * (j + 0.5)) / 32));
  const top = Array.from({ length: 224 }, (_, j) => first + size - 224 + j);
  return [...spread, ...top];
}

/** The NumPy-style check the lesson teaches, as code, with the tolerance in use; comment: the text of its comment. */
export function toleranceSnippet(tolerance, comment) {
  return `tolerance = ${String(tolerance)}
np.abs(float32_table - exact_table) < tolerance   # ${comment}`;
}
