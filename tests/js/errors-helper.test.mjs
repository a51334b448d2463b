// The error helper every accuracy check in tests/js and tests/bench uses: a
// NaN or infinite error must fail wherever it appears, and comparing nothing
// must fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorTracker, maxAbsError, assertWithin } from './errors-helper.mjs';
import { maxError, referenceRow, TOLERANCE } from './reference.mjs';

const track = (errors) => {
  const t = new ErrorTracker();
  errors.forEach((e, i) => t.add(e, i));
  return t;
};

test('ErrorTracker: NaN or infinity anywhere fails; an empty set fails', () => {
  assert.ok(track([1e-9, 2e-9, 0]).within(1e-8));
  assert.equal(track([1e-9, 2e-9, 0]).worst, 2e-9);
  assert.equal(track([1e-9, 2e-9, 0]).where, 1);
  assert.ok(!track([1e-9, 1e-3, 0]).within(1e-8), 'a finite wrong value');
  assert.ok(!track([NaN, 1e-9, 0]).within(1e-8), 'NaN first: later finite errors do not clear it');
  assert.ok(!track([0, 1e-9, NaN]).within(1e-8), 'NaN last');
  assert.ok(!track([0, Infinity, 1e-9]).within(1e-8), '+Infinity');
  assert.ok(!track([0, -Infinity, 1e-9]).within(Infinity), '-Infinity');
  assert.equal(track([0, Infinity, 1e-9]).worst, Infinity);
  assert.ok(Number.isNaN(track([Infinity, NaN]).worst), 'NaN wins over Infinity');
  assert.equal(track([0, 1e-9, NaN, 1e-9]).where, 2);
  assert.ok(!track([undefined]).within(1), 'a missing value');
  const empty = new ErrorTracker();
  assert.ok(!empty.within(1e-8));
  assert.ok(!empty.within(Infinity));
  assert.equal(empty.describe(), 'no values compared');
  assert.match(track([NaN]).describe(), /1 NaN/);
  assert.throws(() => assertWithin(empty, 1, 'nothing'), /nothing: no values compared/);
  assert.throws(() => assertWithin(track([0, NaN]), 1, 'one NaN'), /one NaN: 2 values, worst NaN at 1/);
  assertWithin(track([0.5]), 1, 'fine');
});

test('maxAbsError: NaN or infinity on either side, length mismatch, empty input', () => {
  assert.ok(maxAbsError(new Float32Array([1, 2]), [1, 2]).within(0));
  assert.ok(!maxAbsError(new Float32Array([1, NaN]), [1, 2]).within(1));
  assert.ok(!maxAbsError([1, 2], [1, NaN]).within(1), 'a NaN reference');
  assert.ok(!maxAbsError([Infinity], [Infinity]).within(1), 'inf - inf is not a match');
  assert.ok(!maxAbsError([1, 2], [1]).within(1), 'lengths differ');
  assert.ok(!maxAbsError([], []).within(1), 'nothing compared');
});

test('maxError against the reference fails on one NaN, infinite or wrong cell, and on nothing', () => {
  const d = 8;
  const positions = [0, 1, 2, 3, 4, 5, 6];
  const rows = new Float32Array(positions.length * d);
  positions.forEach((p, i) => rows.set(referenceRow(p, d), i * d));
  assert.ok(maxError(rows, positions, d) <= TOLERANCE);
  for (const bad of [NaN, Infinity, -Infinity, rows[5 * d] + 1e-3]) {
    const broken = rows.slice();
    broken[5 * d] = bad; // row 5, column 0, followed by correct cells
    assert.ok(!(maxError(broken, positions, d) <= TOLERANCE), `cell value ${bad}`);
  }
  assert.ok(!(maxError(rows.subarray(0, 8), positions, d) <= TOLERANCE), 'too short');
  assert.ok(!(maxError(new Float32Array(0), [], d) <= TOLERANCE), 'nothing compared');
});
