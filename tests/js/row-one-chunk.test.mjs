// A range of rows that fits one chunk (issue 23, item 6): the module's rows
// call checks the range itself and the separate range check runs only to word
// a refusal. The order of the checks must stay the one of a range checked
// first: a refused range is reported (naming start or the rows), never the
// out that goes with it, and nothing is written; a good range with a bad out
// names the out. Also: an options key named __proto__ (JSON.parse makes it an
// own key) is an unknown option, and a polluted Object.prototype is not read.
// Expected rows come from tests/js/reference.mjs, never from sinpe.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { refused } from './refused.mjs';
import sinpe from 'sinpe.wasm';
import { referenceRow } from './reference.mjs';

const FLAVOURS = ['simd', 'baseline'];
const flavours = {};
before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
});

const D = 8;
// Ranges of one row and of a full chunk (the module's scratch holds 2^18 floats: 2^15 rows of 8).
const BAD_RANGES = [
  [NaN, 1, /start must be an integer, got NaN/],
  [0.5, 1, /start must be an integer, got 0\.5/],
  [Infinity, 1, /start must be an integer, got Infinity/],
  [2 ** 24, 1, /rows \[16777216, 16777217\) from start and count must satisfy \|position\| < 2\^24/],
  [-(2 ** 24), 1, /rows \[-16777216, -16777215\) from start and count/],
  [2 ** 24 - 1, 2, /rows \[16777215, 16777217\) from start and count/],
  [2 ** 24 - 100, 2 ** 15, /rows \[16777116, 16809884\) from start and count/],
];
// Outs that are wrong for any of them: wrong length, wrong type.
const BAD_OUTS = [(n) => new Float32Array(n * D + 1).fill(7), (n) => new Float64Array(n * D).fill(7), () => new Float32Array(0)];

for (const flavour of FLAVOURS) {
  test(`${flavour}: a refused one-chunk range is named before its out, and nothing is written`, () => {
    const pe = flavours[flavour];
    const prep = pe.prepare(D);
    for (const [start, count, pattern] of BAD_RANGES) {
      refused(() => pe.rows(start, count, D), RangeError, pattern);
      refused(() => prep.rows(start, count, new Float32Array(count * D)), RangeError, pattern);
      for (const makeOut of BAD_OUTS) {
        const out = makeOut(count);
        refused(() => pe.rows(start, count, D, { out }), RangeError, pattern);
        refused(() => prep.rows(start, count, out), RangeError, pattern);
        assert.ok(out.every((v) => v === 7), 'the out was written');
      }
      const good = new Float32Array(count * D).fill(7);
      refused(() => pe.rows(start, count, D, { out: good }), RangeError, pattern);
      assert.ok(good.every((v) => v === 7), 'the out was written');
    }
  });

  test(`${flavour}: a good one-chunk range with a bad out names the out`, () => {
    const pe = flavours[flavour];
    const prep = pe.prepare(D);
    refused(() => pe.rows(5, 1, D, { out: new Float32Array(9) }), RangeError, /options\.out must have length 8, got 9/);
    refused(() => pe.rows(5, 1, D, { out: new Float64Array(8) }), TypeError, /options\.out must be a Float32Array, got Float64Array/);
    refused(() => prep.rows(5, 1, new Float32Array(2)), RangeError, /out must have length 8, got 2/);
    refused(() => pe.table(2, D, { out: new Float32Array(8) }), RangeError, /options\.out must have length 16, got 8/);
  });

  test(`${flavour}: one-chunk rows equal the float64 reference`, () => {
    const pe = flavours[flavour];
    const prep = pe.prepare(D);
    for (const [start, count] of [
      [0, 1],
      [-5, 2],
      [2 ** 24 - 1, 1],
      [-(2 ** 24) + 1, 1],
      [123456, 3],
    ]) {
      const out = new Float32Array(count * D);
      const viaOut = pe.rows(start, count, D, { out });
      assert.equal(viaOut, out);
      const fresh = pe.rows(start, count, D);
      const prepared = prep.rows(start, count, new Float32Array(count * D));
      for (let r = 0; r < count; r++) {
        const ref = referenceRow(start + r, D);
        for (let c = 0; c < D; c++) {
          for (const got of [out, fresh, prepared]) assert.ok(Math.abs(got[r * D + c] - ref[c]) <= 2.5e-7, `row ${start + r} col ${c}: ${got[r * D + c]} vs ${ref[c]}`);
        }
      }
    }
  });

  test(`${flavour}: options keep to own keys (__proto__ is an unknown option; Object.prototype is not read)`, () => {
    const pe = flavours[flavour];
    refused(() => pe.rows(0, 1, D, JSON.parse('{"__proto__": {"preset": "x"}}')), TypeError, /unknown option "__proto__"/);
    Object.defineProperty(Object.prototype, 'dtype', { value: 'float16', writable: true, configurable: true, enumerable: true });
    let result;
    try {
      result = pe.rows(3, 1, D, {});
    } finally {
      delete Object.prototype.dtype;
    }
    assert.equal(result.constructor.name, 'Float32Array');
    const ref = referenceRow(3, D);
    for (let c = 0; c < D; c++) assert.ok(Math.abs(result[c] - ref[c]) <= 2.5e-7, `col ${c}`);
  });
}
