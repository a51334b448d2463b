// A real client: onnxruntime's com.microsoft RotaryEmbedding operator (CPU,
// onnxruntime-node) fed by pe.ropeCache for positions 0 … M−1 must rotate
// queries as pe.applyRope does, and both as the float64 rotation of the same
// float32 inputs, for both layouts (interleaved 0/1) and partial rotary.
//
// The operator (contrib_ops/cpu/bert/rotary_embedding.cc) computes, in float32,
// out_a = x_a cos[p][j] − x_b sin[p][j] and out_b = x_b cos[p][j] + x_a sin[p][j]
// with cos_cache/sin_cache of shape (max_seq, rotary_dim/2) indexed by
// position_ids [batch, seq]; dimensions past rotary_embedding_dim are copied.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import ort from 'onnxruntime-node';
import sinpe from 'sinpe.wasm';
import { ropeRotate, pairMagnitudes } from './rope-reference.mjs';
import { ErrorTracker } from './errors-helper.mjs';
import { makeRotaryModel } from './fixtures/make-rotary-model.mjs';
import { rotaryInput } from './fixtures/random.mjs';

const ROTATION_TOLERANCE = 5e-7; // the contract: × max(1, att) × (|x_a| + |x_b|)

const CACHE_LENGTH = 64; // M
const BATCH = 2;
const SEQ = 7;
// position_ids: the first sequence at 0 … 6, the second continuing a longer one.
const POSITION_IDS = Array.from({ length: BATCH * SEQ }, (_, i) => (i % SEQ) + (i < SEQ ? 0 : 50));

const CASES = [
  // [label, options, headDim, rotaryDim, numHeads]
  ['llama3, whole head', { ropeType: 'llama3', base: 500000 }, 16, 16, 3],
  ['yarn (att 1.1386), whole head', { ropeType: 'yarn', base: 1e6, factor: 4, originalMaxPositions: 32 }, 64, 64, 1],
  ['default, partial 32 of 80 (phi-2)', { ropeType: 'default' }, 80, 32, 5],
  ['longrope (long factors), partial 24 of 40', longrope(24), 40, 24, 3],
];

function longrope(r) {
  const half = r / 2;
  return {
    ropeType: 'longrope',
    maxPositions: 1024,
    originalMaxPositions: 32,
    seqLen: CACHE_LENGTH,
    shortFactor: Array.from({ length: half }, (_, j) => 1 + j / half),
    longFactor: Array.from({ length: half }, (_, j) => 1 + (40 * j) / half),
  };
}

// [batch, seq, heads, dim] ⇄ [batch, heads, seq, dim]
function transpose(x, heads, headDim, toHeadsFirst) {
  const out = new Float32Array(x.length);
  for (let b = 0; b < BATCH; b++) {
    for (let s = 0; s < SEQ; s++) {
      for (let h = 0; h < heads; h++) {
        const tokenMajor = ((b * SEQ + s) * heads + h) * headDim;
        const headMajor = ((b * heads + h) * SEQ + s) * headDim;
        for (let d = 0; d < headDim; d++) {
          if (toHeadsFirst) out[headMajor + d] = x[tokenMajor + d];
          else out[tokenMajor + d] = x[headMajor + d];
        }
      }
    }
  }
  return out;
}

let pe;
const worst = { reference: new ErrorTracker(), applyRope: new ErrorTracker() };
let runs = 0;
before(async () => {
  pe = await sinpe();
});
after(() => {
  const text =
    `onnxruntime RotaryEmbedding fed by ropeCache: ${runs} runs, largest |ORT − float64| ` +
    `${worst.reference.worst.toExponential(2)}, |ORT − applyRope| ${worst.applyRope.worst.toExponential(2)} ` +
    '(× max(1, att) × (|x_a| + |x_b|))';
  console.log(text);
  if (process.env.SINPE_SUMMARY) appendFileSync(process.env.SINPE_SUMMARY, `${text}\n`);
});

for (const [label, options, headDim, rotaryDim, numHeads] of CASES) {
  for (const interleaved of [false, true]) {
    for (const fourD of [false, true]) {
      const layout = interleaved ? 'interleaved' : 'half';
      test(`${label}, ${layout} (interleaved=${Number(interleaved)}), ${fourD ? '4-D' : '3-D'} input`, async () => {
        // Whole-head rotation needs no attributes (onnxruntime takes the head
        // width from the cache); partial rotation needs rotary_embedding_dim
        // and num_heads. Give num_heads on every other case to cover both.
        const partial = rotaryDim < headDim;
        const model = makeRotaryModel({
          interleaved,
          rotaryDim: partial ? rotaryDim : 0,
          numHeads: partial || fourD || interleaved ? numHeads : 0,
          headDim,
          fourD,
        });
        const session = await ort.InferenceSession.create(model);

        const cache = pe.ropeCache(
          Array.from({ length: CACHE_LENGTH }, (_, i) => i),
          rotaryDim,
          options,
        );
        assert.equal(cache.cos.length, CACHE_LENGTH * (rotaryDim / 2));
        const x = rotaryInput(BATCH * SEQ * numHeads * headDim, rotaryDim * 31 + headDim + (interleaved ? 7 : 0));
        const feeds = {
          input: fourD
            ? new ort.Tensor('float32', transpose(x, numHeads, headDim, true), [BATCH, numHeads, SEQ, headDim])
            : new ort.Tensor('float32', x.slice(), [BATCH, SEQ, numHeads * headDim]),
          position_ids: new ort.Tensor('int64', BigInt64Array.from(POSITION_IDS, BigInt), [BATCH, SEQ]),
          cos_cache: new ort.Tensor('float32', cache.cos, [CACHE_LENGTH, rotaryDim / 2]),
          sin_cache: new ort.Tensor('float32', cache.sin, [CACHE_LENGTH, rotaryDim / 2]),
        };
        const { output } = await session.run(feeds);
        const fromOrt = fourD ? transpose(output.data, numHeads, headDim, false) : output.data;
        runs++;

        // The same tokens ([batch·seq] tokens of numHeads heads) through sinpe.
        const rotated = x.slice();
        pe.applyRope(rotated, POSITION_IDS, headDim, { ...options, rotaryDim, layout });
        const o = { ...options, rotaryDim, layout };
        const exact = ropeRotate(x, POSITION_IDS, headDim, o);
        const magnitude = pairMagnitudes(x, headDim, rotaryDim, layout);
        const scale = Math.max(1, cache.attentionFactor);

        for (let i = 0; i < x.length; i++) {
          if (i % headDim >= rotaryDim) {
            assert.ok(Object.is(fromOrt[i], x[i]), `pass-through ${i}: onnxruntime gave ${fromOrt[i]}, x ${x[i]}`);
            assert.ok(Object.is(rotated[i], x[i]), `pass-through ${i}: applyRope gave ${rotated[i]}, x ${x[i]}`);
            continue;
          }
          const unit = scale * magnitude[i];
          const toReference = Math.abs(fromOrt[i] - exact[i]);
          const toApplyRope = Math.abs(fromOrt[i] - rotated[i]);
          worst.reference.add(toReference / unit, i);
          worst.applyRope.add(toApplyRope / unit, i);
          assert.ok(
            toReference <= ROTATION_TOLERANCE * unit,
            `value ${i}: onnxruntime ${fromOrt[i]}, float64 rotation ${exact[i]} (|Δ| ${toReference})`,
          );
          // Each is within the contract of the float64 rotation, so within twice it of each other.
          assert.ok(
            toApplyRope <= 2 * ROTATION_TOLERANCE * unit,
            `value ${i}: onnxruntime ${fromOrt[i]}, applyRope ${rotated[i]} (|Δ| ${toApplyRope})`,
          );
        }
      });
    }
  }
}
