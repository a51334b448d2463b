// The lessons' pure maths (web/src/model/), against values worked out here
// from the formulas of docs/maths.md and the seeds, and against the package's
// own kernel where the site must agree with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import sinpe from 'sinpe.wasm';
import { buggyTable, correctTable, exponents, float32Row, octaveSample, toleranceSnippet } from '../../web/src/model/pitfalls.js';
import { colorIndex } from '../../web/src/model/colour.js';
import { columnInfo, columnOf } from '../../web/src/model/layout.js';
import { maeGrid, presetCall, variantsSnippet } from '../../web/src/model/variants.js';
import { embed, parseCell, dropout, random, addToSnippet } from '../../web/src/model/embeddings.js';

const pe = await sinpe();
const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: expected ${b}, got ${a}`);

test("the seed notebook's buggy table (exponent 2c/d in every column)", () => {
  const d = 16;
  const t = buggyTable(3, d);
  // row 0: sin 0, cos 0 in every pair
  for (let c = 0; c < d; c++) assert.equal(t[c], c % 2 === 0 ? 0 : 1);
  // position 1: column 1 = cos(1/10000^(2/16)) = 0.95042 (seed 000), column 2 = sin(1/10000^(4/16)) = sin(0.1)
  near(t[d + 1], 0.95042, 5e-6, 'buggy (1, 1)');
  near(t[d + 2], Math.sin(0.1), 1e-15, 'buggy (1, 2)');
  near(t[2 * d + 0], Math.sin(2), 1e-15, 'column 0 is right');
  assert.deepEqual(exponents(5, 16), { buggy: '10/16', correct: '4/16' });
});

test('the float32 recipe: exact at 0, errors of the sizes docs/maths.md states (d = 512)', () => {
  const d = 512;
  const row = float32Row(0, d);
  for (let c = 0; c < d; c++) assert.equal(row[c], c % 2 === 0 ? 0 : 1);
  // the largest error below position 4096 is 2.3e-4 (docs/maths.md)
  let worst = 0;
  const exact = new Float64Array(d);
  for (let p = 0; p < 4096; p += 1) {
    float32Row(p, d, row);
    for (let i = 0; i < d / 2; i++) {
      const angle = p / 10000 ** ((2 * i) / d);
      exact[2 * i] = Math.sin(angle);
      exact[2 * i + 1] = Math.cos(angle);
    }
    for (let c = 0; c < d; c++) worst = Math.max(worst, Math.abs(row[c] - exact[c]));
  }
  near(worst, 2.3e-4, 0.05e-4, 'worst error below 4096');
  // every value is a float32
  float32Row(12345, d, row);
  for (const v of row) assert.equal(Math.fround(v), v);
});

test('octave samples: inside the octave, sorted, unique, ending at its last position', () => {
  for (const e of [3, 8, 9, 16, 23]) {
    const s = octaveSample(e);
    assert.ok(s.every((p) => p >= 2 ** e && p < 2 ** (e + 1)), `octave ${e}`);
    assert.ok(s.every((p, i) => i === 0 || p > s[i - 1]), `octave ${e} sorted and unique`);
    assert.equal(s.at(-1), 2 ** (e + 1) - 1);
    assert.equal(s.length, Math.min(2 ** e, 256));
  }
});

test('the colour index is the package kernel’s, and NaN takes entry 0', async () => {
  assert.equal(colorIndex(-1), 0);
  assert.equal(colorIndex(1), 255);
  assert.equal(colorIndex(0), 128); // 127.5 + 0.5
  assert.equal(colorIndex(-5), 0);
  assert.equal(colorIndex(5), 255);
  assert.equal(colorIndex(NaN), 0);
  assert.equal(colorIndex(0.5, 0, 1), 128);
  assert.equal(colorIndex(-1.5, -2, 2), 32); // (−1.5 + 2)/4 · 255 = 31.875
  // away from ties the index is round((v − vmin)/(vmax − vmin)·255)
  for (let k = 0; k < 1000; k++) {
    const v = -1 + (2 * k + 0.37) / 1000;
    const f = ((v + 1) / 2) * 255;
    if (Math.abs(f - Math.floor(f) - 0.5) < 1e-3) continue;
    assert.equal(colorIndex(v), Math.round(f), `v = ${v}`);
  }
  // against the kernel: a LUT whose entry i has red = i gives the kernel's index of every cell
  const lut = new Uint8Array(1024);
  for (let i = 0; i < 256; i++) lut.set([i, 0, 0, 255], 4 * i);
  const d = 64;
  const rows = 200;
  for (const [vmin, vmax] of [[-1, 1], [-0.3, 0.9], [0, 1]]) {
    const rgba = pe.heatmap(0, rows, d, { colormap: lut, vmin, vmax });
    const values = pe.rows(0, rows, d);
    // The heatmap colours the float32 kernel's values (within 2.5e-7 of the float64 ones), rows returns them rounded
    // once: where a value lies within that of a boundary between two colours, either neighbour is the kernel's.
    let boundary = 0;
    for (let j = 0; j < values.length; j++) {
      const want = colorIndex(values[j], vmin, vmax);
      if (want === rgba[4 * j]) continue;
      const f = ((values[j] - vmin) / (vmax - vmin)) * 255;
      const near = Math.abs(f - Math.floor(f) - 0.5) <= (2.5e-7 * 255) / (vmax - vmin);
      assert.ok(near && Math.abs(want - rgba[4 * j]) === 1, `cell ${j} on [${vmin}, ${vmax}]: ${rgba[4 * j]}, rows' value gives ${want}`);
      boundary++;
    }
    assert.ok(boundary <= values.length / 1000, `${boundary} cells at a boundary`);
  }
});

test('columns of the three layouts, against the package rows', () => {
  const d = 12;
  const p = 7;
  for (const layout of ['interleaved', 'concat', 'cos-first']) {
    const row = pe.rows(p, 1, d, { layout });
    for (let j = 0; j < d; j++) {
      const { kind, k } = columnInfo(j, d, layout);
      const angle = p / 10000 ** ((2 * k) / d);
      near(row[j], kind === 'sin' ? Math.sin(angle) : Math.cos(angle), 2.5e-7, `${layout} column ${j}`);
      assert.equal(columnOf(kind, k, d, layout), j);
    }
  }
  // an odd width leaves its last column outside every pair
  assert.deepEqual(columnInfo(6, 7, 'concat'), { kind: 'none', k: -1 });
  assert.deepEqual(columnInfo(5, 7, 'concat'), { kind: 'cos', k: 2 });
});

test('variants: MAE grid, package calls and a snippet that defines every name it uses', () => {
  assert.deepEqual(maeGrid(64), { height: 8, width: 8 });
  assert.deepEqual(maeGrid(10), { height: 3, width: 4 });
  assert.deepEqual(maeGrid(1), { height: 1, width: 1 });
  const call = presetCall('fairseq', 5, 8, 'preset');
  assert.equal(call.source, "pe.table(5, 8, { preset: 'fairseq' })");
  assert.equal(call.run(pe).length, 40);
  assert.equal(presetCall('vaswani', 5, 8).source, 'pe.table(5, 8)');
  const mae = presetCall('mae', 10, 8, 'concat');
  assert.equal(mae.source, "pe.grid2d(3, 4, 8, { preset: 'mae', layout: 'concat' })");
  assert.equal(mae.run(pe).length, 12 * 8);
  const snippet = variantsSnippet(call, 8, (key) => `comment ${key}`);
  assert.match(snippet, /^\/\/ comment rows$/m);
  const code = snippet.replace(/\/\/.*$/gm, '');
  for (const name of ['colormap', 'canvas', 'rgba', 'table', 'pe']) {
    const defined = code.search(new RegExp(`(const|let) ${name}\\b`));
    const used = code.search(new RegExp(`\\b${name}\\b`));
    assert.ok(defined >= 0 && defined <= used, `${name} defined before use:\n${snippet}`);
  }
  assert.doesNotMatch(snippet, /\bctx\b/);
  assert.match(snippet, /pe\.heatmap\(0, 5, 8, \{ preset: 'fairseq', colormap \}\)/);
});

test('embeddings: typed cells, seeded embeddings, dropout, snippet', () => {
  assert.deepEqual(parseCell('1.5'), { value: 1.5 });
  assert.deepEqual(parseCell(' −2 '), { value: -2 });
  assert.deepEqual(parseCell('-1e9'), { outside: -1e9 }); // never an edit of −1
  assert.deepEqual(parseCell('9'), { outside: 9 });
  assert.deepEqual(parseCell('2e-1'), { value: 0.2 });
  assert.equal(parseCell('9x'), null);
  assert.equal(parseCell(''), null);
  const a = embed('cat', 8, 2, 1);
  assert.deepEqual(embed('Cat', 8, 2, 1), a); // the same word, the same embedding
  assert.notDeepEqual(embed('cat', 8, 2, 2), a);
  assert.ok(a.every((v) => v >= -2 && v <= 2));
  const r = random(42);
  const xs = Array.from({ length: 1000 }, r);
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  near(xs.reduce((s, x) => s + x, 0) / xs.length, 0.5, 0.05, 'mean of uniform');
  const values = Float32Array.from({ length: 1000 }, () => 1);
  assert.deepEqual(dropout(values, 0, 3), values);
  const kept = dropout(values, 0.5, 3);
  assert.ok(kept.every((v) => v === 0 || v === 2));
  near(kept.filter((v) => v === 0).length / 1000, 0.5, 0.06, 'dropped fraction');
  assert.match(addToSnippet(6, 16, (key, v) => `${key} ${v.n}`), /pe\.addTo\(x, 16, \{ seqLen: 6 \}\); +\/\/ add 6$/m);
  assert.match(toleranceSnippet(0.001, 'agree'), /^tolerance = 0\.001\n.*# agree$/m);
});

test('the correct float64 table agrees with the buggy one exactly in row 0 and column 0, and with the package', () => {
  const d = 16;
  const len = 9;
  const right = correctTable(len, d);
  const wrong = buggyTable(len, d);
  const sinpeRows = pe.table(len, d);
  for (let p = 0; p < len; p++) {
    assert.equal(wrong[p * d] - right[p * d], 0, `column 0, position ${p}`);
    for (let c = 0; c < d; c++) {
      near(right[p * d + c], sinpeRows[p * d + c], 2.5e-7, `(${p}, ${c})`);
      if (p === 0) assert.equal(wrong[c] - right[c], 0);
    }
  }
  near(right[3 * d + 5], Math.cos(3 / 10000 ** (4 / 16)), 1e-15, 'column 5 is the cos of pair 2');
});

