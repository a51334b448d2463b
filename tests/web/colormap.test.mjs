// The site's colour rule against d3-scale-chromatic directly: the lookup
// tables it hands the package's heatmap kernel, the colours it computes in JS
// (valuesToRGBA, colorOf) and the kernel's own output with a table built here
// are all checked against colours computed here from d3's interpolators and
// the documented rule (tests/web/colormaps.mjs), never against the site's
// own tables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rgb } from 'd3-color';
import sinpe from 'sinpe.wasm';
import { colormapLUT, valuesToRGBA, colorOf } from '../../web/src/lib/colormap.js';
import { COLORMAPS as SITE_COLORMAPS } from '../../web/src/model/fields.js';
import { COLORMAPS, ENDS, colourAt, coloursFor } from './colormaps.mjs';

const pe = await sinpe();
const hex = (c) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const NAMES = Object.keys(COLORMAPS);

test('the colormaps of the site are the ones checked here', () => {
  assert.deepEqual([...SITE_COLORMAPS].sort(), [...NAMES].sort());
});

test('the colours at the ends are those of d3’s schemes: −1 blue/purple, +1 red/orange', () => {
  for (const name of NAMES) {
    const [lo, hi] = ENDS[name].map((h) => rgb(h));
    assert.deepEqual(colourAt(name, 0), [lo.r, lo.g, lo.b].map(Math.round), `${name} at vmin`);
    assert.ok(colourAt(name, 1).every((v, i) => Math.abs(v - [hi.r, hi.g, hi.b][i]) <= 1), `${name} at vmax: ${hex(colourAt(name, 1))} vs ${ENDS[name][1]}`);
  }
});

test('each lookup table is d3’s interpolator sampled at i/255, opaque', () => {
  for (const name of NAMES) {
    const lut = colormapLUT(name);
    assert.equal(lut.length, 1024);
    for (let i = 0; i < 256; i++) {
      const expected = [...colourAt(name, i / 255), 255];
      assert.deepEqual([...lut.subarray(4 * i, 4 * i + 4)], expected, `${name} entry ${i}`);
    }
  }
});

/** Asserts that every cell of an RGBA buffer has one of the colours its value may take. */
function assertColours(rgba, values, name, vmin, vmax, what) {
  assert.equal(rgba.length, 4 * values.length, `${what}: one RGBA cell per value`);
  let ties = 0;
  for (let j = 0; j < values.length; j++) {
    const allowed = coloursFor(name, values[j], vmin, vmax);
    if (allowed.length > 1) ties++;
    const got = [rgba[4 * j], rgba[4 * j + 1], rgba[4 * j + 2]];
    assert.ok(
      allowed.some((c) => c.every((v, i) => v === got[i])),
      `${what}: cell ${j} = ${values[j]} on [${vmin}, ${vmax}] drawn ${hex(got)}, expected ${allowed.map(hex).join(' or ')}`,
    );
    assert.equal(rgba[4 * j + 3], 255, `${what}: cell ${j} opaque`);
  }
  assert.ok(ties < values.length / 100, `${what}: ${ties} values near a tie`);
}

test('valuesToRGBA and the package’s kernel colour every cell as d3 and the rule say', () => {
  const d = 48;
  const rows = 100;
  for (const name of NAMES) {
    // a table built here from d3, handed to the kernel: the kernel's indexing is checked on its own
    const table = new Uint8Array(1024);
    for (let i = 0; i < 256; i++) table.set([...colourAt(name, i / 255), 255], 4 * i);
    for (const [vmin, vmax, layout] of [
      [-1, 1, 'interleaved'],
      [-0.5, 0.75, 'concat'],
      [0, 1, 'cos-first'],
    ]) {
      const values = pe.rows(100, rows, d, { layout });
      assertColours(valuesToRGBA(values, name, vmin, vmax), values, name, vmin, vmax, `valuesToRGBA ${name}`);
      assertColours(pe.heatmap(100, rows, d, { layout, colormap: table, vmin, vmax }), values, name, vmin, vmax, `kernel ${name}`);
    }
  }
});

test('colorOf names the same colour; NaN and values outside the range take the end colours', () => {
  for (const name of NAMES) {
    for (const v of [-1, -0.25, 0, 0.3, 1]) {
      const allowed = coloursFor(name, v).map((c) => `rgb(${c.join(', ')})`);
      assert.ok(allowed.includes(colorOf(name, v)), `${name} ${v}: ${colorOf(name, v)} vs ${allowed}`);
    }
    const edge = valuesToRGBA(new Float32Array([NaN, -5, 5]), name);
    assert.deepEqual([...edge.subarray(0, 3)], colourAt(name, 0), `${name}: NaN takes the vmin colour`);
    assert.deepEqual([...edge.subarray(4, 7)], colourAt(name, 0), `${name}: below the range`);
    assert.deepEqual([...edge.subarray(8, 11)], colourAt(name, 1), `${name}: above the range`);
  }
});
