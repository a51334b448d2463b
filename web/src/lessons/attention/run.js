// The attention lesson's computations for one state, through the package:
// the sinusoidal rows come from pe.table (the formula lesson's vaswani encoding), the
// RoPE rotation from pe.applyRope (the rope lesson's), the rest from model/attention.js.
import { ENCODINGS, attend, headWeights, identity, permutationGap, reorder, tokenEmbeddings } from '../../model/attention.js';

/** The options of attend() for an encoding of n tokens at positions 0 … n−1. */
export function encodingOf(pe, encoding, n, d) {
  if (encoding === 'sin') return { add: pe.table(n, d) };
  if (encoding === 'rope') {
    const positions = identity(n);
    return { rotate: (m) => pe.applyRope(Float32Array.from(m), positions, d) };
  }
  return {};
}

/** The head on a list of words with an encoding. */
export function runHead(pe, words, d, seed, encoding, weights = headWeights(d, seed)) {
  return attend(tokenEmbeddings(words, d, seed), words.length, d, weights, encodingOf(pe, encoding, words.length, d));
}

/**
 * Everything the lesson draws for a state: the words, the order, the head
 * with no encoding (section 1), the typed and shuffled sentences under the
 * chosen encoding, and the gaps of the permutation check for every encoding.
 */
export function runLesson(pe, s) {
  const words = s.tokens.split(' ');
  const n = words.length;
  const weights = headWeights(s.d, s.seed);
  const order = s.order.length === n ? s.order : identity(n);
  const shuffledWords = reorder(words, order);
  const gaps = {};
  const runs = {};
  for (const encoding of ENCODINGS) {
    const base = runHead(pe, words, s.d, s.seed, encoding, weights);
    const shuffled = runHead(pe, shuffledWords, s.d, s.seed, encoding, weights);
    runs[encoding] = { base, shuffled };
    gaps[encoding] = permutationGap(base, shuffled, order, s.d);
  }
  return { s, words, n, d: s.d, weights, order, shuffledWords, plain: runs.none.base, base: runs[s.enc].base, shuffled: runs[s.enc].shuffled, gaps };
}

// the last state's run, shared by the sections a render draws (each asks for it)
let last = null;

/** runLesson for a state, computed once per state however many sections ask. */
export function lessonRun(pe, s) {
  if (last?.s !== s || last.pe !== pe) last = { pe, s, run: runLesson(pe, s) };
  return last.run;
}
