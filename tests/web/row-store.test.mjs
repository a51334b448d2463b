// model/row-store.js: the tables a step of max_len extends (the pitfalls
// lesson's bug tables and float32 check) hold, after any run of steps, the
// rows a fresh computation gives, and only rows never made before are computed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rowStore } from '../../web/src/model/row-store.js';

// the reference: cell (r, c) of table `name` under `key`, written down directly
const cell = (key, name, r, c) => key.length * 1e6 + (name === 'a' ? 1 : -1) * (r * 1000 + c);

test('row store: every run of counts and keys gives the directly computed rows, making each row once per key', () => {
  const rows = rowStore(['a', 'b']);
  const made = [];
  const steps = [
    ['k1', 5, 4], ['k1', 6, 4], ['k1', 3, 4], ['k1', 10, 4], ['k1', 10, 4], ['k1', 2, 4], ['k1', 41, 4], ['k1', 40, 4],
    ['k22', 7, 3], ['k22', 8, 3], ['k1', 9, 4], ['k1', 100, 4], ['k1', 1, 4], ['k1', 0, 4], ['k1', 101, 4],
  ];
  const views = [];
  for (const [key, count, d] of steps) {
    const got = rows(key, count, d, (from, to) => {
      made.push([key, from, to]);
      const out = {};
      for (const name of ['a', 'b']) out[name] = Float64Array.from({ length: (to - from) * d }, (_, i) => cell(key, name, from + Math.floor(i / d), i % d));
      return out;
    });
    for (const name of ['a', 'b']) {
      assert.equal(got[name].length, count * d, `${key} ${count} ${name}: length`);
      for (let i = 0; i < count * d; i++) assert.equal(got[name][i], cell(key, name, Math.floor(i / d), i % d), `${key} ${count} ${name}[${i}]`);
    }
    views.push({ key, count, d, got });
  }
  // what was made: only rows beyond those made before under the same key, from scratch after a key change
  assert.deepEqual(made, [
    ['k1', 0, 5], ['k1', 5, 6], ['k1', 6, 10], ['k1', 10, 41],
    ['k22', 0, 7], ['k22', 7, 8], ['k1', 0, 9], ['k1', 9, 100], ['k1', 100, 101],
  ]);
  // views handed out earlier still hold their rows (rows are never written twice)
  for (const { key, count, d, got } of views) for (let i = 0; i < count * d; i++) assert.equal(got.a[i], cell(key, 'a', Math.floor(i / d), i % d));
});
