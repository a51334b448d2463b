// The embeddings lesson's pure part: the toy token embeddings (seeded, so a URL always
// shows the same numbers), typed cell values, and the package snippet.

/** mulberry32: a small seeded PRNG returning numbers in [0, 1). */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the code points of a word. */
export function hashWord(word) {
  let hash = 2166136261;
  for (const ch of word) hash = Math.imul(hash ^ ch.codePointAt(0), 16777619);
  return hash >>> 0;
}

/** The (toy) embedding of a word: uniform in [−scale, scale], the same wherever the word occurs. */
export function embed(word, d, scale, seed) {
  const next = random(hashWord(word.toLowerCase()) ^ Math.imul(seed, 2654435761));
  return Float32Array.from({ length: d }, () => (2 * next() - 1) * scale);
}

export const CELL_MIN = -4;
export const CELL_MAX = 4;

/**
 * A typed cell value: a number (either minus sign, exponent allowed). Returns
 * { value } for a number in [CELL_MIN, CELL_MAX], { outside: number } for a
 * number beyond it (never silently changed into another edit), null for text
 * that is not a number.
 */
export function parseCell(text) {
  const s = String(text).trim().replace(/\u2212/g, '-');
  if (s.length > 24 || !/^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(s)) return null;
  const v = Number(s);
  if (!Number.isFinite(v)) return { outside: v };
  return v >= CELL_MIN && v <= CELL_MAX ? { value: v } : { outside: v };
}

/** Inverted dropout (nn.Dropout in training mode): zero with probability p, scale the rest by 1/(1 − p). */
export function dropout(values, p, seed) {
  const next = random(seed * 7919 + 17);
  return values.map((v) => (next() < p ? 0 : v / (1 - p)));
}

/**
 * The package snippet adding P[:, :n, :] to a batch of n-token sequences in
 * place; comment(key, vars) gives the text of its comments 'x' and 'add'.
 */
export function addToSnippet(n, d, comment) {
  return `import sinpe from 'sinpe.wasm';

const pe = await sinpe();
// ${comment('x', { n, d })}
pe.addTo(x, ${d}, { seqLen: ${n} });   // ${comment('add', { n, d })}`;
}
