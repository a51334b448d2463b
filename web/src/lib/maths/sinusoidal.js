// The sinusoidal encoding's displayed formulas, each with an evaluator over
// the same symbols: what the page shows is what tests/web/formulas.test.mjs
// checks against the package. Pure module (no DOM).

/** ω_i = base^(−2i/d): the frequency of pair i. */
const omega = (i, d, base) => base ** ((-2 * i) / d);

/** The formula lesson: the table's two columns of pair i at position pos. */
export const PE = {
  tex: '\\begin{gathered}PE_{(pos,\\,2i)} = \\sin\\!\\left(\\frac{pos}{\\text{base}^{2i/d}}\\right)\\\\[2pt] PE_{(pos,\\,2i+1)} = \\cos\\!\\left(\\frac{pos}{\\text{base}^{2i/d}}\\right)\\end{gathered}',
  evaluate: ({ pos, i, d, base }) => ({ sin: Math.sin(pos / base ** ((2 * i) / d)), cos: Math.cos(pos / base ** ((2 * i) / d)) }),
};

/** The heatmap lesson: the wavelength of pair i, in positions. */
export const WAVELENGTH = {
  tex: '\\lambda_i = 2\\pi \\cdot \\text{base}^{2i/d}',
  evaluate: ({ i, d, base }) => 2 * Math.PI * base ** ((2 * i) / d),
};

/** The relative lesson: moving m positions on is a rotation of each (sin, cos) pair by ω_i m (evaluate's k is that offset m). */
export const SHIFT = {
  tex: '\\begin{pmatrix}\\sin\\omega_i(p+m)\\\\ \\cos\\omega_i(p+m)\\end{pmatrix} = \\begin{pmatrix}\\cos\\omega_i m & \\sin\\omega_i m\\\\ -\\sin\\omega_i m & \\cos\\omega_i m\\end{pmatrix}\\begin{pmatrix}\\sin\\omega_i p\\\\ \\cos\\omega_i p\\end{pmatrix}',
  // the right-hand side: the matrix applied to the pair at p (given as numbers)
  evaluate: ({ omega: w, k, sin, cos }) => [Math.cos(w * k) * sin + Math.sin(w * k) * cos, -Math.sin(w * k) * sin + Math.cos(w * k) * cos],
};

/** The relative lesson: the dot product of two rows of the table depends on the offset only (evaluate's q is the second position p′). */
export const DOT = {
  tex: "PE(p)\\cdot PE(p') = \\sum_{i=0}^{d/2-1} \\cos\\big(\\omega_i (p' - p)\\big)",
  evaluate: ({ p, q, d, base }) => {
    let sum = 0;
    for (let i = 0; i < d / 2; i++) sum += Math.cos(omega(i, d, base) * (q - p));
    return sum;
  },
};

export const FORMULAS = { PE, WAVELENGTH, SHIFT, DOT };
