// The RoPE lesson's displayed formulas, each with an evaluator over the same
// symbols: what the page shows is what tests/web/formulas.test.mjs checks
// against the package and a float64 reference. Pure module (no DOM).
// Symbols: r rotary dimensions, b the base, s the factor, L the original
// context; the scaling rules follow transformers' modeling_rope_utils.py
// (docs/maths.md names the functions).

const standard = (r, b) => Array.from({ length: r / 2 }, (_, j) => b ** ((-2 * j) / r));

/** One pair (x_1, x_2) turned by p·ω_j, with R = [[cos, −sin], [sin, cos]]. */
export const ROTATION = {
  tex: "\\begin{pmatrix} x'_1 \\\\ x'_2 \\end{pmatrix} = \\begin{pmatrix} \\cos p\\,\\omega_j & -\\sin p\\,\\omega_j \\\\ \\sin p\\,\\omega_j & \\cos p\\,\\omega_j \\end{pmatrix} \\begin{pmatrix} x_1 \\\\ x_2 \\end{pmatrix}, \\qquad \\omega_j = b^{-2j/r}",
  narrow: "\\begin{gathered} \\begin{pmatrix} x'_1 \\\\ x'_2 \\end{pmatrix} = \\begin{pmatrix} \\cos p\\,\\omega_j & -\\sin p\\,\\omega_j \\\\ \\sin p\\,\\omega_j & \\cos p\\,\\omega_j \\end{pmatrix} \\begin{pmatrix} x_1 \\\\ x_2 \\end{pmatrix}, \\\\ \\omega_j = b^{-2j/r} \\end{gathered}",
  evaluate: ({ xa, xb, p, j, r, b }) => {
    const a = p * b ** ((-2 * j) / r);
    return [Math.cos(a) * xa - Math.sin(a) * xb, Math.sin(a) * xa + Math.cos(a) * xb];
  },
};

/**
 * The score of a query and a key rotated to positions p and p + m, written
 * per pair: q and k are arrays of pairs [[a, b], …], omega the frequencies.
 */
export const OFFSET_SCORE = {
  // the offset is m: k is the key
  tex: '\\langle R(p)\\,q,\\; R(p+m)\\,k \\rangle = \\langle q,\\; R(m)\\,k \\rangle = \\sum_j \\big[(q_1 k_1 + q_2 k_2)\\cos m\\omega_j + (q_2 k_1 - q_1 k_2)\\sin m\\omega_j\\big]',
  narrow: '\\begin{aligned} &\\langle R(p)\\,q,\\; R(p+m)\\,k \\rangle = \\langle q,\\; R(m)\\,k \\rangle \\\\ &= \\sum_j \\big[(q_1 k_1 + q_2 k_2)\\cos m\\omega_j \\\\ &\\qquad + (q_2 k_1 - q_1 k_2)\\sin m\\omega_j\\big] \\end{aligned}',
  evaluate: ({ q, k, m, omega }) => {
    let sum = 0;
    omega.forEach((w, j) => {
      const [qa, qb] = q[j];
      const [ka, kb] = k[j];
      sum += (qa * ka + qb * kb) * Math.cos(m * w) + (qb * ka - qa * kb) * Math.sin(m * w);
    });
    return sum;
  },
};

/**
 * The scaled frequencies ω'_j of each scaling type (the lesson's options:
 * base b, factor s, L = original context, N = sequence length for dynamic).
 */
export const SCALING_FORMULAS = {
  default: {
    tex: '\\omega_j = b^{-2j/r}',
    evaluate: ({ r, b }) => standard(r, b),
  },
  linear: {
    tex: "\\omega'_j = \\omega_j / s",
    evaluate: ({ r, b, s }) => standard(r, b).map((w) => w / s),
  },
  dynamic: {
    tex: "\\begin{aligned} b' &= b\\left(\\frac{s\\,N}{L} - (s-1)\\right)^{\\frac{r}{r-2}} \\\\ \\omega'_j &= b'^{\\,-2j/r} \\end{aligned}",
    evaluate: ({ r, b, s, L, N }) => standard(r, b * ((s * N) / L - (s - 1)) ** (r / (r - 2))),
  },
  // the correction range rounded outwards (floor, ceil) and kept inside [0, r − 1], as
  // transformers computes it when truncate is true (its default, and the package's)
  yarn: {
    tex: "\\begin{aligned} \\omega'_j &= (1-\\gamma_j)\\,\\frac{\\omega_j}{s} + \\gamma_j\\,\\omega_j \\\\ \\gamma_j &= 1 - \\operatorname{clamp}\\!\\left(\\frac{j - \\ell}{h - \\ell}, 0, 1\\right) \\\\ \\ell &= \\max\\big(\\lfloor \\kappa(\\beta_{\\text{fast}}) \\rfloor, 0\\big),\\quad h = \\min\\big(\\lceil \\kappa(\\beta_{\\text{slow}}) \\rceil, r - 1\\big) \\\\ \\kappa(\\beta) &= \\frac{r \\ln\\!\\big(L / (2\\pi\\beta)\\big)}{2 \\ln b} \\end{aligned}",
    narrow: "\\begin{aligned} \\omega'_j &= (1-\\gamma_j)\\,\\frac{\\omega_j}{s} + \\gamma_j\\,\\omega_j \\\\ \\gamma_j &= 1 - \\operatorname{clamp}\\!\\left(\\frac{j - \\ell}{h - \\ell}, 0, 1\\right) \\\\ \\ell &= \\max\\big(\\lfloor \\kappa(\\beta_{\\text{fast}}) \\rfloor, 0\\big), \\\\ h &= \\min\\big(\\lceil \\kappa(\\beta_{\\text{slow}}) \\rceil, r - 1\\big) \\\\ \\kappa(\\beta) &= \\frac{r \\ln\\!\\big(L / (2\\pi\\beta)\\big)}{2 \\ln b} \\end{aligned}",
    evaluate: ({ r, b, s, L, betaFast = 32, betaSlow = 1 }) => {
      const c = (beta) => (r * Math.log(L / (2 * Math.PI * beta))) / (2 * Math.log(b));
      const lo = Math.max(Math.floor(c(betaFast)), 0);
      let hi = Math.min(Math.ceil(c(betaSlow)), r - 1);
      // ℓ = h (a range of one pair) is widened by 0.001, as transformers does, so the ramp is defined
      if (hi === lo) hi += 0.001;
      return standard(r, b).map((w, j) => {
        const gamma = 1 - Math.min(1, Math.max(0, (j - lo) / (hi - lo)));
        return (1 - gamma) * (w / s) + gamma * w;
      });
    },
  },
  // aligned, not cases: a tall \{ is drawn by KaTeX with an inline-styled SVG, which the CSP refuses
  llama3: {
    tex: "\\begin{aligned} \\omega'_j &= \\omega_j && \\text{if } \\lambda_j < L/h_f \\\\ \\omega'_j &= \\omega_j / s && \\text{if } \\lambda_j > L/l_f \\\\ \\omega'_j &= (1-g)\\,\\omega_j/s + g\\,\\omega_j && \\text{otherwise,} \\\\ g &= \\frac{L/\\lambda_j - l_f}{h_f - l_f} \\end{aligned}",
    evaluate: ({ r, b, s, L, lf = 1, hf = 4 }) =>
      standard(r, b).map((w) => {
        const lambda = (2 * Math.PI) / w;
        if (lambda < L / hf) return w;
        if (lambda > L / lf) return w / s;
        const g = (L / lambda - lf) / (hf - lf);
        return (1 - g) * (w / s) + g * w;
      }),
  },
};

export const FORMULAS = { ROTATION, OFFSET_SCORE, ...Object.fromEntries(Object.entries(SCALING_FORMULAS).map(([k, f]) => [`SCALING_${k}`, f])) };
