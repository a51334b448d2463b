// The colour index of a value: the rule of the package's heatmap kernel, so a
// matrix coloured here matches one the kernel colours. With
// a = 255 / (vmax − vmin) and b = 0.5 − vmin·a (float64, then float32),
// t = v·a + b in float32; index = 0 if t ≤ 0 or t is NaN, 255 if t ≥ 255,
// else ⌊t⌋. So NaN takes entry 0, like values at or below vmin.

const f32 = Math.fround;

export function colorScale(vmin = -1, vmax = 1) {
  const a64 = 127.5 / (vmax * 0.5 - vmin * 0.5);
  return { a: f32(a64), b: f32((vmin === 0 ? 0 : -vmin * a64) + 0.5) };
}

/** The LUT entry (0 … 255) of value v on [vmin, vmax]. */
export function colorIndex(v, vmin = -1, vmax = 1, scale = colorScale(vmin, vmax)) {
  const t = f32(f32(f32(v) * scale.a) + scale.b);
  return !(t > 0) ? 0 : t >= 255 ? 255 : Math.floor(t);
}
