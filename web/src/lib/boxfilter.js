// Area-averaging (box filter) of a row-major value matrix onto a smaller
// grid: output pixel (x, y) is the mean of the cells it covers, each cell
// weighted by the fraction of it inside the pixel. Drawing more cells than
// the screen has pixels by picking one cell per pixel (what a browser's
// nearest-neighbour scaling does) shows patterns that are not in the data
// (moiré); the mean of the covered cells does not.
import { valuesToRGBA } from './colormap.js';

/** The weights of source cells [first, …] covering output interval j of n over `size` cells. */
function spans(size, n) {
  const scale = size / n;
  const out = [];
  for (let j = 0; j < n; j++) {
    const a = j * scale;
    const b = (j + 1) * scale;
    const first = Math.floor(a);
    const last = Math.min(size - 1, Math.ceil(b) - 1);
    const weights = new Float64Array(last - first + 1);
    for (let c = first; c <= last; c++) weights[c - first] = (Math.min(b, c + 1) - Math.max(a, c)) / scale;
    out.push({ first, weights });
  }
  return out;
}

/**
 * boxFilter(values, columns, rows, width, height) → Float64Array(width·height), row-major:
 * the area-weighted mean of values (columns × rows, row-major) over each of width × height
 * equal output pixels. width ≤ columns and height ≤ rows (it only shrinks).
 */
export function boxFilter(values, columns, rows, width, height) {
  if (!(width >= 1 && width <= columns && height >= 1 && height <= rows)) throw new RangeError(`boxFilter: output ${width} × ${height} must be 1…${columns} × 1…${rows}`);
  const xs = spans(columns, width);
  const ys = spans(rows, height);
  // columns first (each source row → width means), then rows
  const across = new Float64Array(rows * width);
  for (let r = 0; r < rows; r++) {
    const base = r * columns;
    for (let x = 0; x < width; x++) {
      const { first, weights } = xs[x];
      let sum = 0;
      for (let k = 0; k < weights.length; k++) sum += weights[k] * values[base + first + k];
      across[r * width + x] = sum;
    }
  }
  const out = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    const { first, weights } = ys[y];
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let k = 0; k < weights.length; k++) sum += weights[k] * across[(first + k) * width + x];
      out[y * width + x] = sum;
    }
  }
  return out;
}

/**
 * Paints a heatmap frame's box-filtered values into `display` at width × height device
 * pixels (at most one pixel per cell): frame.values() → { data, rows }, frame.scale's colormap.
 * Returns display.
 */
export function paintMeans(display, frame, width, height) {
  const { data, rows } = frame.values();
  const w = Math.min(width, frame.columns);
  const hgt = Math.min(height, rows);
  const mean = boxFilter(data, frame.columns, rows, w, hgt);
  display.width = w;
  display.height = hgt;
  const rgba = valuesToRGBA(mean, frame.scale.cmap, frame.scale.vmin, frame.scale.vmax);
  display.getContext('2d', { alpha: false }).putImageData(new ImageData(rgba, w, hgt), 0, 0);
  return display;
}
