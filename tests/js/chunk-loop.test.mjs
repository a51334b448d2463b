// The package's one chunk loop (js/engine.js Engine.run) at its edges, as
// users get it (the installed tarball), both flavours: a token wider than the
// module's scratch (2^18 floats), rotated head group by head group; a list of
// positions spanning several chunks (4096 positions each) with a bad position
// in its last chunk, refused before anything is written; a one-chunk list with
// a bad position, refused with the same error. Expected values come from the
// independent float64 references (rope-reference.mjs, reference.mjs).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import sinpe from 'sinpe.wasm';
import { ropeRotate, pairMagnitudes, ropeCache as referenceCache } from './rope-reference.mjs';
import { referenceRow, TOLERANCE } from './reference.mjs';
import { mulberry32 as rng } from './fixtures/random.mjs';

const SCRATCH_FLOATS = 2 ** 18; // cpp/bindings/glue.cpp kScratchFloats
const POSITION_CHUNK = 4096; // cpp/bindings/glue.cpp kPositionChunk
const ROTATION_TOLERANCE = 5e-7; // × (|x_a| + |x_b|), attention factor 1

const flavours = {};
before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
});

function randomX(length, seed) {
  const r = rng(seed);
  return Float32Array.from({ length }, () => 2 * r() - 1);
}

// Every element of got within the rotation contract of the reference's rotation of x0.
function assertRotated(got, x0, positions, headDim, what) {
  const want = ropeRotate(x0, positions, headDim);
  const scale = pairMagnitudes(x0, headDim, headDim, 'half');
  let checked = 0;
  for (let i = 0; i < want.length; i++) {
    const err = Math.abs(got[i] - want[i]);
    if (!(err <= ROTATION_TOLERANCE * scale[i] + 1e-30)) assert.fail(`${what}: x[${i}] = ${got[i]}, reference ${want[i]} (error ${err})`);
    checked++;
  }
  assert.equal(checked, x0.length, `${what}: every element compared`);
}

for (const flavour of ['simd', 'baseline']) {
  test(`${flavour}: applyRope and prepareRope().apply rotate tokens wider than the scratch, head group by head group`, () => {
    const pe = flavours[flavour];
    const headDim = 128;
    const numHeads = SCRATCH_FLOATS / headDim + 3; // one token: 2^18 + 384 floats
    const positions = [3, 70000.5, 1];
    const x0 = randomX(positions.length * numHeads * headDim, 7);
    assert.ok(numHeads * headDim > SCRATCH_FLOATS, 'a token is wider than the scratch');
    const x = x0.slice();
    assert.equal(pe.applyRope(x, positions, headDim), x, 'x is rotated in place and returned');
    assertRotated(x, x0, positions, headDim, 'applyRope');
    const y = x0.slice();
    pe.prepareRope(headDim).apply(y, positions, headDim);
    assertRotated(y, x0, positions, headDim, 'prepareRope().apply');
  });

  test(`${flavour}: a bad position in the last chunk of a several-chunk list is refused before anything is written`, () => {
    const pe = flavours[flavour];
    const n = 2 * POSITION_CHUNK + 100;
    const positions = Array.from({ length: n }, (_, i) => i);
    positions[n - 1] = NaN;
    const refusedNaming = (fn, what) => assert.throws(fn, (e) => e instanceof RangeError && e.message.includes(`positions[${n - 1}]`), what);
    const SENTINEL = 12345;
    // encode (d 8: 4096 positions a chunk)
    const out = new Float32Array(n * 8).fill(SENTINEL);
    refusedNaming(() => pe.encode(positions, 8, { out }), 'encode');
    assert.ok(out.every((v) => v === SENTINEL), 'encode wrote nothing');
    // ropeCache (r 16)
    const cos = new Float32Array(n * 8).fill(SENTINEL);
    const sin = new Float32Array(n * 8).fill(SENTINEL);
    refusedNaming(() => pe.ropeCache(positions, 16, { out: { cos, sin } }), 'ropeCache');
    assert.ok(cos.every((v) => v === SENTINEL) && sin.every((v) => v === SENTINEL), 'ropeCache wrote nothing');
    // applyRope (1 head of 8)
    const x = new Float32Array(n * 8).fill(SENTINEL);
    refusedNaming(() => pe.applyRope(x, positions, 8), 'applyRope');
    assert.ok(x.every((v) => v === SENTINEL), 'applyRope changed nothing');
    // and the same list without the bad position is computed whole, every chunk right
    positions[n - 1] = n - 1;
    pe.encode(positions, 8, { out });
    for (const i of [0, POSITION_CHUNK - 1, POSITION_CHUNK, 2 * POSITION_CHUNK, n - 1]) {
      const want = referenceRow(i, 8);
      for (let c = 0; c < 8; c++) assert.ok(Math.abs(out[i * 8 + c] - want[c]) <= TOLERANCE, `encode row ${i} column ${c}: ${out[i * 8 + c]} vs ${want[c]}`);
    }
    pe.ropeCache(positions, 16, { out: { cos, sin } });
    const ref = referenceCache([POSITION_CHUNK, n - 1], 16);
    for (let c = 0; c < 8; c++) {
      assert.ok(Math.abs(cos[POSITION_CHUNK * 8 + c] - ref.cos[c]) <= TOLERANCE, `ropeCache cos row ${POSITION_CHUNK} column ${c}`);
      assert.ok(Math.abs(sin[(n - 1) * 8 + c] - ref.sin[8 + c]) <= TOLERANCE, `ropeCache sin row ${n - 1} column ${c}`);
    }
  });

  test(`${flavour}: a bad position in a one-chunk list is refused naming it, as in a several-chunk list`, () => {
    const pe = flavours[flavour];
    const calls = {
      encode: (p) => pe.encode(p, 8),
      ropeCache: (p) => pe.ropeCache(p, 8),
      'prepare().encode': (p) => pe.prepare(8).encode(p),
      'prepareRope().cache': (p) => pe.prepareRope(8).cache(p),
      applyRope: (p) => pe.applyRope(new Float32Array(p.length * 8), p, 8),
    };
    for (const [name, call] of Object.entries(calls))
      for (const [bad, label] of [[Infinity, 'Infinity'], [2 ** 25, String(2 ** 25)]]) {
        const e = captured(() => call([0, 1, bad, 3]));
        assert.ok(e instanceof RangeError, `${name} ${label}: ${e}`);
        assert.ok(e.message.includes('positions[2]'), `${name} ${label}: ${e.message}`);
        assert.ok(e.message.includes(label), `${name} ${label}: the value is shown: ${e.message}`);
      }
  });
}

function captured(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  assert.fail('no error');
}
