// Special rows through the package (issue 23, item 8): fairseq's padding row
// and MAE's cls row placed at every 64-row block boundary of the kernel
// (63, 64, 65, 127, 128, 1023, 1024, …) and at the package's chunk boundaries
// (2^18 floats of scratch: 16384 rows of width 16, 4096 of width 64), through
// rows, table, encode, prepare (rows, encode, chunks), the half dtypes and
// grid2d, on both flavours. EVERY column of EVERY row is compared with the
// independent reference (tests/js/reference.mjs): the special row must be
// exactly zero, every other row within the accuracy contract.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import sinpe from 'sinpe.wasm';
import { referenceRow, referenceGrid, TOLERANCE } from './reference.mjs';

const FLAVOURS = ['simd', 'baseline'];
const flavours = {};
before(async () => {
  flavours.simd = await sinpe({ simd: true });
  flavours.baseline = await sinpe({ simd: false });
});

const SPECIAL = [0, 1, 63, 64, 65, 127, 128, 129, 1023, 1024, 1025, 4095, 4096, 4097, 16383, 16384, 16385];
const WIDTHS = [16, 64];

// Rows of width d at `positions` in `got` against the reference: the count of
// wrong values and the first, described. The padding row must be exactly 0.
function wrongValues(got, positions, d, o) {
  let wrong = 0;
  let first = '';
  assert.equal(got.length, positions.length * d, 'result length');
  positions.forEach((p, i) => {
    const want = referenceRow(p, d, o);
    const special = p === o.paddingIdx;
    for (let c = 0; c < d; c++) {
      const g = got[i * d + c];
      if (special ? g !== 0 : !(Math.abs(g - want[c]) <= TOLERANCE)) {
        if (wrong++ === 0) first = `position ${p}, column ${c}: got ${g}, want ${special ? 0 : want[c]}`;
      }
    }
  });
  return { wrong, first };
}

const range = (start, n) => Array.from({ length: n }, (_, i) => start + i);

for (const flavour of FLAVOURS)
  for (const d of WIDTHS) {
    test(`fairseq's padding row (${flavour}, dModel ${d}): zero at every block and chunk boundary in rows, table, encode, prepare and chunks; every other value the reference's`, () => {
      const pe = flavours[flavour];
      const failures = [];
      const expect = (what, got, positions, o) => {
        const { wrong, first } = wrongValues(got, positions, d, o);
        if (wrong) failures.push(`${what}: ${wrong} wrong values, first ${first}`);
      };
      for (const pad of SPECIAL) {
        const o = { preset: 'fairseq', paddingIdx: pad };
        const start = Math.max(0, pad - 100);
        expect(`rows(${start}, 200) paddingIdx ${pad}`, pe.rows(start, 200, d, o), range(start, 200), o);
        expect(`table(${pad + 70}) paddingIdx ${pad}`, pe.table(pad + 70, d, o), range(0, pad + 70), o);
        const positions = [...range(Math.max(0, pad - 70), 140), pad + 5000, 3, pad, 70, pad];
        expect(`encode paddingIdx ${pad}`, pe.encode(positions, d, o), positions, o);
        const prepared = pe.prepare(d, o);
        expect(`prepare().rows paddingIdx ${pad}`, prepared.rows(start, 200), range(start, 200), o);
        expect(`prepare().encode paddingIdx ${pad}`, prepared.encode(positions), positions, o);
        // chunks: the rows from 0 through pad + 70, copied chunk by chunk
        const all = new Float32Array((pad + 70) * d);
        let next = 0;
        prepared.chunks(0, pad + 70, (view, firstRow) => {
          assert.equal(firstRow, next, 'chunks arrive in order');
          all.set(view, firstRow * d);
          next = firstRow + view.length / d;
        });
        assert.equal(next, pad + 70, 'chunks cover every row');
        expect(`prepare().chunks paddingIdx ${pad}`, all, range(0, pad + 70), o);
        // the half dtypes: the padding row is all zero bit patterns, no other row is
        for (const dtype of ['float16', 'bfloat16']) {
          const bits = pe.rows(start, 200, d, { ...o, dtype });
          for (let i = 0; i < 200; i++) {
            const zeros = bits.subarray(i * d, (i + 1) * d).filter((b) => b === 0).length;
            const special = start + i === pad;
            if (special ? zeros !== d : zeros === d) failures.push(`${dtype} rows paddingIdx ${pad}: row ${start + i} has ${zeros} zero columns of ${d}`);
          }
        }
      }
      assert.deepEqual(failures, []);
    });
  }

for (const flavour of FLAVOURS)
  test(`MAE's cls row (${flavour}): zero before the grid, every cell the reference's, grids around block and chunk boundaries`, () => {
    const pe = flavours[flavour];
    const failures = [];
    // cells = h*w + 1: 63, 65, 129, 1025, 4097 (past a 64-wide chunk), 16385 (past a 16-wide chunk)
    for (const [d, h, w] of [[16, 62, 1], [16, 8, 8], [64, 16, 8], [16, 32, 32], [64, 64, 64], [16, 128, 128]]) {
      const o = { preset: 'mae', clsToken: true };
      const got = pe.grid2d(h, w, d, o);
      const want = referenceGrid(h, w, d, o);
      assert.equal(got.length, want.length * d);
      let wrong = 0;
      let first = '';
      want.forEach((row, i) => {
        for (let c = 0; c < d; c++) {
          const g = got[i * d + c];
          if (i === 0 ? g !== 0 : !(Math.abs(g - row[c]) <= TOLERANCE)) if (wrong++ === 0) first = `cell ${i}, column ${c}: got ${g}, want ${row[c]}`;
        }
      });
      if (wrong) failures.push(`grid ${h} × ${w}, dModel ${d}: ${wrong} wrong values, first ${first}`);
    }
    assert.deepEqual(failures, []);
  });
