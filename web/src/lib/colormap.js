// Colormaps as the 256-entry RGBA lookup tables sinpe's heatmap kernel takes.
// The colours come from d3-scale-chromatic; entry i is the interpolator at
// i/255, so value vmin ↦ entry 0 and vmax ↦ entry 255.
import { rgb } from 'd3-color';
import { interpolateRdBu, interpolatePuOr, interpolateViridis, interpolateCividis, interpolateBlues } from 'd3-scale-chromatic';
import { colorIndex, colorScale } from '../model/colour.js';

// Diverging maps run from blue/purple at −1 to red/orange at +1 (d3's RdBu is
// reversed for that; its PuOr already runs purple → orange).
export const COLORMAP_INTERPOLATORS = {
  rdbu: (t) => interpolateRdBu(1 - t),
  puor: interpolatePuOr, // colour-blind safe; d3's PuOr already runs purple → orange
  viridis: interpolateViridis, // perceptually uniform, colour-blind safe
  cividis: interpolateCividis, // designed for colour-vision deficiency
  blues: interpolateBlues, // sequential, light to dark: the colormap of d2l's figures
};

const cache = new Map();

/** The Uint8Array(1024) LUT of a colormap name. */
export function colormapLUT(name) {
  if (cache.has(name)) return cache.get(name);
  const interpolate = COLORMAP_INTERPOLATORS[name] ?? COLORMAP_INTERPOLATORS.rdbu;
  const lut = new Uint8Array(1024);
  for (let i = 0; i < 256; i++) {
    const c = rgb(interpolate(i / 255));
    lut[4 * i] = Math.round(c.r);
    lut[4 * i + 1] = Math.round(c.g);
    lut[4 * i + 2] = Math.round(c.b);
    lut[4 * i + 3] = 255;
  }
  cache.set(name, lut);
  return lut;
}

/** The CSS colour of value v on [vmin, vmax] (the kernel's colour index). */
export function colorOf(name, v, vmin = -1, vmax = 1) {
  const lut = colormapLUT(name);
  const i = colorIndex(v, vmin, vmax);
  return `rgb(${lut[4 * i]}, ${lut[4 * i + 1]}, ${lut[4 * i + 2]})`;
}

/**
 * Fills an RGBA buffer from values with a LUT (for matrices computed in JS,
 * not by the kernel), by the kernel's colour index: one 32-bit store per cell.
 */
export function valuesToRGBA(values, name, vmin = -1, vmax = 1, out = new Uint8ClampedArray(values.length * 4)) {
  const lut = colormapLUT(name);
  const lut32 = new Uint32Array(lut.buffer, lut.byteOffset, 256);
  const { a, b } = colorScale(vmin, vmax);
  const f32 = Math.fround;
  const n = values.length;
  if (out.byteOffset % 4 !== 0) {
    for (let j = 0; j < n; j++) out.set(lut.subarray(4 * colorIndex(values[j], vmin, vmax), 4 * colorIndex(values[j], vmin, vmax) + 4), 4 * j);
    return out;
  }
  const out32 = new Uint32Array(out.buffer, out.byteOffset, n);
  for (let j = 0; j < n; j++) {
    // colorIndex, inlined: t = v·a + b in float32; ≤ 0 or NaN ↦ 0, ≥ 255 ↦ 255, else ⌊t⌋
    const t = f32(f32(f32(values[j]) * a) + b);
    out32[j] = lut32[!(t > 0) ? 0 : t >= 255 ? 255 : t | 0];
  }
  return out;
}
