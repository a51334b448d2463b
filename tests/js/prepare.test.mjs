// The prepared fast path, from the packed tarball: pe.prepare(dModel, options)
// gives the same values as the plain methods, refuses bad input by name, and
// its zero-copy chunks() views live only as long as their callback.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import sinpe from 'sinpe.wasm';
import { maxError, TOLERANCE } from './reference.mjs';

const flavours = {};
before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
});

const CASES = [
  [512, {}],
  [64, { preset: 'tensor2tensor', maxTimescale: 500 }],
  [17, { preset: 'keras' }],
  [33, { preset: 'diffusers', flipSinToCos: true }],
  [40, { preset: 'fairseq', paddingIdx: 3 }],
];

function bitEqual(a, b, what) {
  assert.equal(a.length, b.length, `${what}: length`);
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) assert.fail(`${what}: value ${i} differs (${a[i]} vs ${b[i]})`);
}

for (const flavour of ['simd', 'baseline'])
  describe(`${flavour} flavour`, () => {
    test('rows and encode give the plain methods’ values bit for bit, within the contract of the reference', () => {
      const pe = flavours[flavour];
      for (const [d, options] of CASES) {
        const enc = pe.prepare(d, options);
        assert.equal(enc.dModel, d);
        for (const [start, count] of [[0, 1], [0, 200], [16777215 - 70, 70], [-1000, 130], [123457, 1]]) {
          const got = enc.rows(start, count);
          bitEqual(got, pe.rows(start, count, d, options), `rows(${start}, ${count}) d ${d} ${JSON.stringify(options)}`);
          const positions = Array.from({ length: count }, (_, i) => start + i);
          assert.ok(maxError(got, positions, d, options) <= TOLERANCE, `rows(${start}, ${count}) vs reference`);
          const out = new Float32Array(count * d).fill(7);
          assert.equal(enc.rows(start, count, out), out, 'rows returns the given out');
          bitEqual(out, got, 'rows into out');
        }
        const positions = [0.5, 7, 7, 8, 9, 16777214.75, -3, 1e6, 12345.125];
        const got = enc.encode(positions);
        bitEqual(got, pe.encode(positions, d, options), `encode d ${d}`);
        assert.ok(maxError(got, positions, d, options) <= TOLERANCE, 'encode vs reference');
      }
    });

    test('chunks: consecutive views over the rows, detached once their callback returns', () => {
      const pe = flavours[flavour];
      const d = 512;
      const enc = pe.prepare(d);
      for (const [start, count] of [[0, 4096], [5, 3], [16777215 - 1100, 1100], [0, 0]]) {
        const want = pe.rows(start, count, d);
        const got = new Float32Array(count * d);
        const kept = [];
        let next = start;
        enc.chunks(start, count, (view, firstRow) => {
          assert.ok(view instanceof Float32Array, 'a Float32Array');
          assert.equal(firstRow, next, 'chunks come in order, firstRow is the position of their first row');
          assert.ok(view.length > 0 && view.length % d === 0, 'whole rows');
          got.set(view, (firstRow - start) * d);
          next += view.length / d;
          kept.push(view);
        });
        assert.equal(next, start + count, 'every row once');
        bitEqual(got, want, `chunks(${start}, ${count})`);
        for (const view of kept) assert.equal(view.length, 0, 'a view kept past its callback has length 0');
      }
    });

    test('chunks: the encoder refuses calls from inside the callback; a throwing callback leaves it usable', () => {
      const pe = flavours[flavour];
      const enc = pe.prepare(64);
      let inner;
      enc.chunks(0, 2, (view) => {
        const before = view[1];
        try {
          enc.rows(0, 1);
        } catch (e) {
          inner = e;
        }
        assert.throws(() => pe.table(2, 64), TypeError, 'plain methods too');
        assert.equal(view[1], before, 'the view still holds its rows');
      });
      assert.ok(inner instanceof TypeError && /chunks\(\) callback/.test(inner.message), String(inner));
      assert.throws(() => enc.chunks(0, 10, () => { throw new SyntaxError('from the callback'); }), SyntaxError);
      assert.ok(maxError(enc.rows(3, 2), [3, 4], 64) <= TOLERANCE, 'usable after a throwing callback');
      assert.ok(maxError(pe.table(2, 64), [0, 1], 64) <= TOLERANCE);
    });

    test('bad input is refused by name and writes nothing', () => {
      const pe = flavours[flavour];
      const refused = (call, Type, pattern) =>
        assert.throws(call, (e) => e instanceof Type && pattern.test(e.message) && e.message.startsWith('sinpe: '));
      refused(() => pe.prepare(7), RangeError, /dModel must be even/);
      refused(() => pe.prepare(0), RangeError, /dModel/);
      refused(() => pe.prepare('512'), TypeError, /dModel/);
      refused(() => pe.prepare(8, { preset: 'tensor2tensor', base: 10 }), TypeError, /options\.base does not apply/);
      refused(() => pe.prepare(8, { bsae: 10 }), TypeError, /"bsae"/);
      refused(() => pe.prepare(8, { out: new Float32Array(8) }), TypeError, /"out"/);
      const enc = pe.prepare(8);
      const out = new Float32Array(16).fill(9);
      refused(() => enc.rows(0.5, 2, out), RangeError, /start/);
      refused(() => enc.rows(16777215, 2, out), RangeError, /rows \[16777215, 16777217\)/);
      refused(() => enc.rows(0, 3, out), RangeError, /out must have length 24/);
      refused(() => enc.rows(0, 2, new Float64Array(16)), TypeError, /out must be a Float32Array/);
      refused(() => enc.encode([1, NaN], out), RangeError, /positions\[1\] must be finite/);
      refused(() => enc.encode([1, 2, 3], out), RangeError, /out must have length 24/);
      refused(() => enc.chunks(0, 2, 'f'), TypeError, /callback must be a function/);
      refused(() => enc.chunks(-16777216, 1, () => {}), RangeError, /rows \[/);
      assert.ok(out.every((v) => v === 9), 'nothing written');
      assert.ok(maxError(enc.rows(0, 2), [0, 1], 8) <= TOLERANCE, 'still usable');
    });

    test('methods are bound', () => {
      const { rows, encode, chunks } = flavours[flavour].prepare(16);
      assert.ok(maxError(rows(1, 1), [1], 16) <= TOLERANCE);
      assert.ok(maxError(encode([2.5]), [2.5], 16) <= TOLERANCE);
      let n = 0;
      chunks(0, 3, (view) => (n += view.length));
      assert.equal(n, 48);
    });
  });
