// The colours a value should get, for the tests, built here from
// d3-scale-chromatic's interpolators (d3's documentation: interpolateX(t)
// gives the scheme's colour at t in [0, 1]; RdBu runs from red at 0 to blue at
// 1, PuOr from purple at 0 to orange at 1) and the colour rule the site
// documents: −1 (vmin) is the blue/purple end of a diverging map and +1
// (vmax) its red/orange end; sequential maps run from t = 0 at vmin to
// t = 1 at vmax. Nothing here comes from the site's code.
import { rgb } from 'd3-color';
import { interpolateRdBu, interpolatePuOr, interpolateViridis, interpolateCividis, interpolateBlues } from 'd3-scale-chromatic';

/** Colour at t ∈ [0, 1] from vmin to vmax, per colormap name of the site. */
export const COLORMAPS = {
  rdbu: (t) => interpolateRdBu(1 - t), // blue (d3's t = 1) at vmin
  puor: (t) => interpolatePuOr(t), // purple (d3's t = 0) at vmin
  viridis: interpolateViridis,
  cividis: interpolateCividis,
  blues: interpolateBlues,
};

/** The colours of the ends, as d3's schemes give them (hex of the largest scheme's end colours). */
export const ENDS = {
  rdbu: ['#053061', '#67001f'],
  puor: ['#2d004b', '#7f3b08'],
  viridis: ['#440154', '#fde725'],
  cividis: ['#002051', '#fdea45'],
  blues: ['#f7fbff', '#08306b'],
};

/** [r, g, b] (integers) of colormap `name` at t. */
export function colourAt(name, t) {
  const c = rgb(COLORMAPS[name](t));
  return [Math.round(c.r), Math.round(c.g), Math.round(c.b)];
}

/**
 * The 256-entry table a colormap is sampled into (entry i = colour at
 * i/255) and the entries value v may take on [vmin, vmax]: the nearest
 * entry, round((v − vmin)/(vmax − vmin)·255) clamped to 0 … 255, computed in
 * float64; within 1e-4 of a rounding tie both neighbours are accepted (the
 * kernel rounds in float32). NaN takes entry 0.
 */
export function entriesFor(v, vmin = -1, vmax = 1) {
  if (Number.isNaN(v)) return [0];
  const t = ((v - vmin) / (vmax - vmin)) * 255;
  const clamp = (i) => Math.min(255, Math.max(0, i));
  const frac = t - Math.floor(t);
  if (Math.abs(frac - 0.5) < 1e-4) return [...new Set([clamp(Math.floor(t)), clamp(Math.floor(t) + 1)])];
  return [clamp(Math.round(t))];
}

/** The colours [r, g, b] value v may be drawn with on [vmin, vmax]. */
export function coloursFor(name, v, vmin = -1, vmax = 1) {
  return entriesFor(v, vmin, vmax).map((i) => colourAt(name, i / 255));
}
